/* A byte string with a length: string values may contain NUL bytes. */
#ifndef OPGEN_BYTES_H
#define OPGEN_BYTES_H

#include <stddef.h>

typedef struct og_bytes {
  const char *ptr; /* NUL-terminated, but may also contain NULs */
  size_t len;
} og_bytes;

#endif
