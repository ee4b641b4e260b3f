/* Character classes for names and numbers: ASCII only, whatever the
 * process locale. <ctype.h> follows LC_CTYPE, so after a host program's
 * setlocale() it may call bytes >= 0x80 letters (Latin-1) or lower-case
 * 'I' to something other than 'i' (Turkish); the .op language, JSON and
 * protobuf text define their identifiers and keywords in ASCII. */
#ifndef OPGEN_ASCII_H
#define OPGEN_ASCII_H

#include <stdbool.h>
#include <stddef.h>

static inline bool og_is_digit(int c) { return c >= '0' && c <= '9'; }
static inline bool og_is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static inline bool og_is_lower(int c) { return c >= 'a' && c <= 'z'; }

static inline bool og_is_alpha(int c) {
  return og_is_upper(c) || og_is_lower(c);
}

static inline bool og_is_alnum(int c) {
  return og_is_alpha(c) || og_is_digit(c);
}

static inline int og_to_lower(int c) {
  return og_is_upper(c) ? c - 'A' + 'a' : c;
}

static inline int og_to_upper(int c) {
  return og_is_lower(c) ? c - 'a' + 'A' : c;
}

/* Whether the `len` bytes at `s` spell `lower` (a lower-case ASCII word)
 * in any mix of case: "INF", "Infinity". */
static inline bool og_ascii_ieq(const char *s, size_t len, const char *lower) {
  size_t i = 0;
  for (; i < len && lower[i]; i++)
    if (og_to_lower((unsigned char)s[i]) != lower[i]) return false;
  return i == len && !lower[i];
}

#endif
