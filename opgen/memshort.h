/* Copies of a few bytes without a call to memcpy: the output layer copies
 * hundreds of thousands of runs of 1 to 16 bytes (names, punctuation,
 * indentation), where the call costs more than the copy. */
#ifndef OPGEN_MEMSHORT_H
#define OPGEN_MEMSHORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* n bytes from s to d, as memcpy. Up to 32 bytes, two fixed-size copies
 * that overlap cover every length of a class (names run to 32). */
static inline void og_copy(char *d, const char *s, size_t n) {
  if (n > 32) {
    memcpy(d, s, n);
  } else if (n > 16) {
    memcpy(d, s, 16);
    memcpy(d + n - 16, s + n - 16, 16);
  } else if (n >= 8) {
    memcpy(d, s, 8);
    memcpy(d + n - 8, s + n - 8, 8);
  } else if (n >= 4) {
    memcpy(d, s, 4);
    memcpy(d + n - 4, s + n - 4, 4);
  } else if (n) {
    d[0] = s[0];
    d[n / 2] = s[n / 2];
    d[n - 1] = s[n - 1];
  }
}

/* Whether s[0..n) holds a '\n'; up to 16 bytes in two or four word
 * tests without a call (the borrow test on bytes xor '\n', exact as to
 * whether there is one), longer by memchr. */
static inline bool og_has_newline(const char *s, size_t n) {
  const uint64_t ones = UINT64_C(0x0101010101010101);
  if (n > 16) return memchr(s, '\n', n) != NULL;
  uint64_t a, b;
  if (n >= 8) {
    memcpy(&a, s, 8);
    memcpy(&b, s + n - 8, 8);
  } else if (n >= 4) {
    uint32_t lo, hi;
    memcpy(&lo, s, 4);
    memcpy(&hi, s + n - 4, 4);
    a = lo, b = hi;
    a |= ones * 0xFF << 32, b |= ones * 0xFF << 32; /* upper halves: no '\n' */
  } else {
    return n && (s[0] == '\n' || s[n / 2] == '\n' || s[n - 1] == '\n');
  }
  a ^= ones * '\n', b ^= ones * '\n';
  return (((a - ones) & ~a) | ((b - ones) & ~b)) & (ones * 0x80);
}

#endif
