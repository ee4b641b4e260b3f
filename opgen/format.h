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

/* og_fmt_convert in two steps, for a format parsed once and used many
 * times (format_prog.h): the spec after a '%', then its text from the
 * arguments. */
/* og_fmt_spec.lenmod: none, l, ll, z. */
enum { OG_FMT_LEN_INT, OG_FMT_LEN_LONG, OG_FMT_LEN_LLONG, OG_FMT_LEN_SIZE };

typedef struct og_fmt_spec {
  size_t width;
  int prec;            /* -1: none */
  unsigned char size;  /* bytes of the spec after the '%' */
  unsigned char lenmod;
  char conv;
  bool left, zero, width_arg, prec_arg;
} og_fmt_spec;

/* The next '%' at or after p, or its '\0': one scan, where strchr would
 * scan a format's last run twice (then strlen). */
const char *og_fmt_find_percent(const char *p);

/* False for a spec that only vsnprintf formats (then *s is set as far
 * as it was read: s->size is how far). */
bool og_fmt_parse(const char *p, og_fmt_spec *s);
/* False where the arguments need vsnprintf (a NULL string, a precision
 * argument on an integer). */
bool og_fmt_apply(const og_fmt_spec *s, va_list *ap, og_fmt_field *f);

#endif
