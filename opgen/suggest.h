/* "did you mean 'x'?": the closest of some candidate names to a misspelt
 * one, by edit distance. */
#ifndef OPGEN_SUGGEST_H
#define OPGEN_SUGGEST_H

#include <stddef.h>

/* Names longer than this are neither suggested nor given suggestions:
 * each comparison stays cheap. */
#define OG_SUGGEST_MAX_LEN 64
/* An op's own names are candidates only while it has at most this many of
 * a kind (an op may have tens of thousands of attrs). */
#define OG_SUGGEST_MAX_NAMES 256

typedef struct og_suggest {
  const char *name;
  size_t len;
  const char *best;
  unsigned cost; /* of best: 0 when it differs from name only in case */
  char hint[OG_SUGGEST_MAX_LEN + 24];
} og_suggest;

void og_suggest_init(og_suggest *g, const char *name);
/* Considers one candidate; the first of the closest ones wins. A name
 * that differs only in case is closest; otherwise the Damerau-Levenshtein
 * distance (case-insensitive) must be at most 1 for names up to 5 bytes,
 * 2 for longer ones, and less than the name's length. */
void og_suggest_add(og_suggest *g, const char *candidate);
/* "; did you mean 'x'?" (appended to an error message), or "" when no
 * candidate was close enough. The text lives in g. */
const char *og_suggest_hint(og_suggest *g);

#endif
