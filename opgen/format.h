/* A vsnprintf for the generator's hot paths. The emitters format tens of
 * thousands of names and lines per run; glibc's vsnprintf spends most of
 * its time setting up a FILE for each call. og_vsnprintf writes the
 * conversions the emitters use (%s %.*s %*s %c %d %i %u %ld %lu %lld %llu
 * %zu %zd %%, with '-' and '0' flags and a width) directly and hands any
 * other format to vsnprintf, so its output is always exactly vsnprintf's. */
#ifndef OPGEN_FORMAT_H
#define OPGEN_FORMAT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* vsnprintf's contract: writes at most size bytes including the '\0'
 * (buf may be NULL when size is 0) and returns the length of the whole
 * text, or a negative value on error. */
int og_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

/* One conversion's text, in order: `lead` spaces, '-' if `neg`, `zeros`
 * '0's, s[0..n), `trail` spaces. `s` may point into `digits`. */
typedef struct og_fmt_field {
  const char *s;
  size_t n, lead, zeros, trail;
  bool neg;
  char digits[24];
} og_fmt_field;

/* The conversion whose spec follows a '%' at *pp: fills *f, takes its
 * arguments from *ap and moves *pp past the spec. False for one that
 * only vsnprintf formats (then *pp and *ap are unspecified). The
 * writer's formatted writes (writer.c) share it with og_vsnprintf. */
bool og_fmt_convert(const char **pp, va_list *ap, og_fmt_field *f);

#endif
