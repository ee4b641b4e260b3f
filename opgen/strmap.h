/* A fixed-size hash map from strings (not copied) to indexes, so that
 * name checks and lookups stay linear however many names an op or a run
 * has (docs/guarantees.md, "Limits"). */
#ifndef OPGEN_STRMAP_H
#define OPGEN_STRMAP_H

#include "arena.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct og_strmap {
  const char **keys;
  size_t *values;
  size_t mask; /* capacity - 1; the capacity is a power of two */
} og_strmap;

/* Room for `n` keys, from the arena. */
void og_strmap_init(og_strmap *m, og_arena *arena, size_t n);
/* The value already held for key, else stores `value` and returns it: the
 * first put of a key wins. At most n distinct keys. */
size_t og_strmap_put(og_strmap *m, const char *key, size_t value);
/* True and *value when key is present. */
bool og_strmap_get(const og_strmap *m, const char *key, size_t *value);

#endif
