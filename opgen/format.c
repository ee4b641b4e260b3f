#define _GNU_SOURCE /* strchrnul, where the C library has it */
#include "format.h"

#include "memshort.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The text so far: bytes past the room are counted, not stored. */
typedef struct sink {
  char *buf;
  size_t room; /* bytes that may be stored (size - 1, or 0) */
  size_t len;  /* bytes of the whole text */
} sink;

static inline void put(sink *o, const char *s, size_t n) {
  if (o->len < o->room) {
    size_t k = o->room - o->len < n ? o->room - o->len : n;
    og_copy(o->buf + o->len, s, k);
  }
  o->len += n;
}

static void pad(sink *o, char c, size_t n) {
  char run[32];
  memset(run, c, sizeof run);
  for (; n > sizeof run; n -= sizeof run) put(o, run, sizeof run);
  put(o, run, n);
}

/* A field's text as put in order: lead spaces, sign, zeros, s, trail
 * spaces. */
static void put_field(sink *o, const og_fmt_field *f) {
  if (f->lead) pad(o, ' ', f->lead);
  if (f->neg) put(o, "-", 1);
  if (f->zeros) pad(o, '0', f->zeros);
  put(o, f->s, f->n);
  if (f->trail) pad(o, ' ', f->trail);
}

/* `n` bytes of text padded to `width` (left-justified with '-'). */
static inline void field(og_fmt_field *f, const char *s, size_t n,
                         size_t width, bool left) {
  f->s = s;
  f->n = n;
  f->neg = false;
  f->zeros = 0;
  size_t fill = width > n ? width - n : 0;
  f->lead = left ? 0 : fill;
  f->trail = left ? fill : 0;
}

/* Decimal digits of `v` at the end of buf[24]; returns the first. */
static char *digits(unsigned long long v, char *end) {
  char *p = end;
  do *--p = (char)('0' + v % 10); while (v /= 10);
  return p;
}

static void integer(og_fmt_field *f, unsigned long long mag, bool neg,
                    size_t width, bool left, bool zero) {
  char *end = f->digits + sizeof f->digits, *p = digits(mag, end);
  size_t n = (size_t)(end - p) + neg;
  if (zero && !left && width > n) {
    field(f, p, (size_t)(end - p), 0, false);
    f->neg = neg;
    f->zeros = width - n;
    return;
  }
  if (neg) *--p = '-';
  field(f, p, n, width, left);
}

static size_t bounded_len(const char *s, int prec) {
  if (prec < 0) return strlen(s);
  size_t n = 0;
  while (n < (size_t)prec && s[n]) n++;
  return n;
}

/* The length modifiers handled (format.h). */
enum {
  LEN_INT = OG_FMT_LEN_INT,
  LEN_LONG = OG_FMT_LEN_LONG,
  LEN_LLONG = OG_FMT_LEN_LLONG,
  LEN_SIZE = OG_FMT_LEN_SIZE
};

static unsigned long long unsigned_arg(va_list *ap, int len) {
  switch (len) {
  case LEN_LONG: return va_arg(*ap, unsigned long);
  case LEN_LLONG: return va_arg(*ap, unsigned long long);
  case LEN_SIZE: return va_arg(*ap, size_t);
  default: return va_arg(*ap, unsigned);
  }
}

static long long signed_arg(va_list *ap, int len) {
  switch (len) {
  case LEN_LONG: return va_arg(*ap, long);
  case LEN_LLONG: return va_arg(*ap, long long);
  case LEN_SIZE: return (long long)va_arg(*ap, size_t); /* %zd */
  default: return va_arg(*ap, int);
  }
}

bool og_fmt_parse(const char *p, og_fmt_spec *s) {
  const char *start = p;
  *s = (og_fmt_spec){.prec = -1};
  for (;; p++) {
    if (*p == '-') s->left = true;
    else if (*p == '0') s->zero = true;
    else break;
  }
  if (*p == '*') {
    s->width_arg = true;
    p++;
  } else {
    for (; *p >= '0' && *p <= '9'; p++)
      s->width = s->width * 10 + (size_t)(*p - '0');
  }
  if (*p == '.') {
    p++;
    if (*p == '*') {
      s->prec_arg = true;
      p++;
    } else {
      for (s->prec = 0; *p >= '0' && *p <= '9' && s->prec < 100000; p++)
        s->prec = s->prec * 10 + (*p - '0');
    }
  }
  int len = LEN_INT;
  if (*p == 'z') len = LEN_SIZE, p++;
  else if (p[0] == 'l' && p[1] == 'l') len = LEN_LLONG, p += 2;
  else if (*p == 'l') len = LEN_LONG, p++;
  char c = *p++;
  s->conv = c;
  s->lenmod = (unsigned char)len;
  s->size = (unsigned char)(p - start < 255 ? p - start : 255);
  bool text = c == 's' || c == 'c', number = c == 'd' || c == 'i' || c == 'u';
  if (text) return !s->zero && len == LEN_INT; /* '0': undefined in C */
  if (number) return s->prec < 0;
  return c == '%' && p == start + 1 && p - start < 255;
}

bool og_fmt_apply(const og_fmt_spec *sp, va_list *ap, og_fmt_field *f) {
  bool left = sp->left;
  size_t width = sp->width;
  if (sp->width_arg) {
    int w = va_arg(*ap, int);
    if (w < 0) left = true, w = w == INT_MIN ? INT_MAX : -w;
    width = (size_t)w;
  }
  int prec = sp->prec_arg ? va_arg(*ap, int) : sp->prec;
  char c = sp->conv;
  if (c == 's') {
    const char *s = va_arg(*ap, const char *);
    if (!s) return false; /* "(null)" is glibc's business */
    field(f, s, bounded_len(s, prec), width, left);
  } else if (c == 'c') {
    f->digits[0] = (char)va_arg(*ap, int);
    field(f, f->digits, 1, width, left);
  } else if (prec >= 0 && c != '%') {
    return false; /* a precision on an integer: vsnprintf's */
  } else if (c == 'd' || c == 'i') {
    long long v = signed_arg(ap, sp->lenmod);
    unsigned long long mag = v < 0 ? 0ull - (unsigned long long)v
                                   : (unsigned long long)v;
    integer(f, mag, v < 0, width, left, sp->zero);
  } else if (c == 'u') {
    integer(f, unsigned_arg(ap, sp->lenmod), false, width, left, sp->zero);
  } else {
    field(f, "%", 1, 0, false);
  }
  return true;
}

bool og_fmt_convert(const char **pp, va_list *ap, og_fmt_field *f) {
  const char *p = *pp;
  if (*p == 's') { /* plain %s: most of them */
    const char *s = va_arg(*ap, const char *);
    if (!s) return false; /* "(null)" is glibc's business */
    field(f, s, strlen(s), 0, false);
    *pp = p + 1;
    return true;
  }
  og_fmt_spec spec;
  if (!og_fmt_parse(p, &spec) || !og_fmt_apply(&spec, ap, f)) return false;
  *pp = p + spec.size;
  return true;
}

const char *og_fmt_find_percent(const char *p) {
#ifdef __GLIBC__
  return strchrnul(p, '%');
#else
  const char *pct = strchr(p, '%');
  return pct ? pct : p + strlen(p);
#endif
}

int og_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap) {
  va_list args, again;
  va_copy(args, ap);
  va_copy(again, ap);
  sink o = {buf, size ? size - 1 : 0, 0};
  bool ok = true;
  for (const char *p = fmt; *p && ok;) {
    const char *pct = og_fmt_find_percent(p);
    put(&o, p, (size_t)(pct - p));
    if (!*pct) break;
    p = pct + 1;
    og_fmt_field f;
    ok = og_fmt_convert(&p, &args, &f);
    if (ok) put_field(&o, &f);
  }
  va_end(args);
  int n;
  if (!ok || o.len > INT_MAX) {
    n = vsnprintf(buf, size, fmt, again);
  } else {
    n = (int)o.len;
    if (size) buf[o.len < o.room ? o.len : o.room] = '\0';
  }
  va_end(again);
  return n;
}
