/* Copies of a few bytes without a call to memcpy: the output layer copies
 * hundreds of thousands of runs of 1 to 16 bytes (names, punctuation,
 * indentation), where the call costs more than the copy. */
#ifndef OPGEN_MEMSHORT_H
#define OPGEN_MEMSHORT_H

#include <stddef.h>
#include <string.h>

/* n bytes from s to d, as memcpy. Up to 16 bytes, two fixed-size copies
 * that overlap cover every length of a class. */
static inline void og_copy(char *d, const char *s, size_t n) {
  if (n > 16) {
    memcpy(d, s, n);
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

#endif
