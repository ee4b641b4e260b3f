#include "suggest.h"

#include "ascii.h"

#include <stdio.h>
#include <string.h>

void og_suggest_init(og_suggest *g, const char *name) {
  g->name = name;
  g->len = strlen(name);
  g->best = NULL;
  g->cost = ~0u;
  g->hint[0] = '\0';
}

static unsigned limit(size_t len) {
  unsigned max = len <= 5 ? 1 : 2;
  return len <= max ? (unsigned)len - 1 : max;
}

static char lower(char c) { return og_is_upper(c) ? (char)(c - 'A' + 'a') : c; }

static unsigned min3(unsigned a, unsigned b, unsigned c) {
  unsigned m = a < b ? a : b;
  return m < c ? m : c;
}

/* Optimal string alignment distance (adjacent transpositions count one),
 * ignoring case; both lengths are at most OG_SUGGEST_MAX_LEN. */
static unsigned distance(const char *a, size_t n, const char *b, size_t m) {
  unsigned rows[3][OG_SUGGEST_MAX_LEN + 1];
  unsigned *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= m; j++) prev[j] = (unsigned)j;
  for (size_t i = 1; i <= n; i++) {
    cur[0] = (unsigned)i;
    for (size_t j = 1; j <= m; j++) {
      unsigned sub = lower(a[i - 1]) != lower(b[j - 1]);
      cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + sub);
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1]) && prev2[j - 2] + 1 < cur[j])
        cur[j] = prev2[j - 2] + 1;
    }
    unsigned *t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m];
}

void og_suggest_add(og_suggest *g, const char *candidate) {
  size_t m = strlen(candidate);
  if (g->len == 0 || g->len > OG_SUGGEST_MAX_LEN || m > OG_SUGGEST_MAX_LEN)
    return;
  if (g->cost == 0 || strcmp(candidate, g->name) == 0) return;
  unsigned max = limit(g->len);
  size_t diff = m > g->len ? m - g->len : g->len - m;
  if (diff > max) return;
  unsigned d = distance(g->name, g->len, candidate, m);
  /* Equal but for case: the closest possible. */
  unsigned cost = d == 0 ? 0 : d + 1;
  if (d <= max && cost < g->cost) {
    g->best = candidate;
    g->cost = cost;
  }
}

const char *og_suggest_hint(og_suggest *g) {
  if (!g->best) return "";
  snprintf(g->hint, sizeof g->hint, "; did you mean '%s'?", g->best);
  return g->hint;
}
