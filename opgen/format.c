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

/* One conversion's text, padded to `width` (left-justified with '-'). */
static inline void field(sink *o, const char *s, size_t n, size_t width,
                         bool left) {
  if (!left && width > n) pad(o, ' ', width - n);
  put(o, s, n);
  if (left && width > n) pad(o, ' ', width - n);
}

/* Decimal digits of `v` at the end of buf[24]; returns the first. */
static char *digits(unsigned long long v, char *end) {
  char *p = end;
  do *--p = (char)('0' + v % 10); while (v /= 10);
  return p;
}

static void integer(sink *o, unsigned long long mag, bool neg, size_t width,
                    bool left, bool zero) {
  char buf[24], *end = buf + sizeof buf, *p = digits(mag, end);
  size_t n = (size_t)(end - p) + neg;
  if (zero && !left && width > n) {
    if (neg) put(o, "-", 1);
    pad(o, '0', width - n);
    put(o, p, (size_t)(end - p));
    return;
  }
  if (neg) *--p = '-';
  field(o, p, n, width, left);
}

static size_t bounded_len(const char *s, int prec) {
  if (prec < 0) return strlen(s);
  size_t n = 0;
  while (n < (size_t)prec && s[n]) n++;
  return n;
}

/* The length modifiers handled: none, l, ll, z. */
enum { LEN_INT, LEN_LONG, LEN_LLONG, LEN_SIZE };

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

/* The spec after '%' at *pp; false for anything vsnprintf must do. */
static bool conversion(sink *o, const char **pp, va_list *ap) {
  const char *p = *pp;
  if (*p == 's') { /* plain %s: most of them */
    const char *s = va_arg(*ap, const char *);
    if (!s) return false; /* "(null)" is glibc's business */
    put(o, s, strlen(s));
    *pp = p + 1;
    return true;
  }
  bool left = false, zero = false;
  for (;; p++) {
    if (*p == '-') left = true;
    else if (*p == '0') zero = true;
    else break;
  }
  size_t width = 0;
  if (*p == '*') {
    int w = va_arg(*ap, int);
    if (w < 0) left = true, w = w == INT_MIN ? INT_MAX : -w;
    width = (size_t)w;
    p++;
  } else {
    for (; *p >= '0' && *p <= '9'; p++) width = width * 10 + (size_t)(*p - '0');
  }
  int prec = -1;
  if (*p == '.') {
    p++;
    if (*p == '*') {
      prec = va_arg(*ap, int);
      p++;
    } else {
      for (prec = 0; *p >= '0' && *p <= '9' && prec < 100000; p++)
        prec = prec * 10 + (*p - '0');
    }
  }
  int len = LEN_INT;
  if (*p == 'z') len = LEN_SIZE, p++;
  else if (p[0] == 'l' && p[1] == 'l') len = LEN_LLONG, p += 2;
  else if (*p == 'l') len = LEN_LONG, p++;
  char c = *p++;
  if ((c == 's' || c == 'c') && zero) return false; /* undefined in C */
  if ((c == 'd' || c == 'i' || c == 'u') && prec >= 0) return false;
  if (c == 's' && len == LEN_INT) {
    const char *s = va_arg(*ap, const char *);
    if (!s) return false; /* "(null)" is glibc's business */
    field(o, s, bounded_len(s, prec), width, left);
  } else if (c == 'c' && len == LEN_INT) {
    char ch = (char)va_arg(*ap, int);
    field(o, &ch, 1, width, left);
  } else if (c == 'd' || c == 'i') {
    long long v = signed_arg(ap, len);
    unsigned long long mag = v < 0 ? 0ull - (unsigned long long)v
                                   : (unsigned long long)v;
    integer(o, mag, v < 0, width, left, zero);
  } else if (c == 'u') {
    integer(o, unsigned_arg(ap, len), false, width, left, zero);
  } else if (c == '%' && p == *pp + 1) {
    put(o, "%", 1);
  } else {
    return false;
  }
  *pp = p;
  return true;
}

/* The next '%' at or after p, or its '\0': one scan, where strchr would
 * scan a format's last run twice (then strlen). */
static inline const char *find_percent(const char *p) {
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
    const char *pct = find_percent(p);
    put(&o, p, (size_t)(pct - p));
    if (!*pct) break;
    p = pct + 1;
    ok = conversion(&o, &p, &args);
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
