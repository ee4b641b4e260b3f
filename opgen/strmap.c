#include "strmap.h"

#include <stdint.h>
#include <string.h>

static size_t hash(const char *s) {
  uint64_t h = 14695981039346656037u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return (size_t)(h ^ (h >> 29));
}

void og_strmap_init(og_strmap *m, og_arena *arena, size_t n) {
  size_t cap = 8;
  while (cap < n * 2) cap *= 2; /* at most half full */
  m->keys = og_arena_array(arena, cap, sizeof *m->keys);
  m->values = og_arena_array(arena, cap, sizeof *m->values); /* zeroed */
  m->mask = cap - 1;
}

/* The slot of key, or the empty slot where it would go. */
static size_t slot(const og_strmap *m, const char *key) {
  size_t i = hash(key) & m->mask;
  while (m->keys[i] && strcmp(m->keys[i], key) != 0) i = (i + 1) & m->mask;
  return i;
}

size_t og_strmap_put(og_strmap *m, const char *key, size_t value) {
  size_t i = slot(m, key);
  if (m->keys[i]) return m->values[i];
  m->keys[i] = key;
  m->values[i] = value;
  return value;
}

bool og_strmap_get(const og_strmap *m, const char *key, size_t *value) {
  if (!m->keys) return false;
  size_t i = slot(m, key);
  if (!m->keys[i]) return false;
  *value = m->values[i];
  return true;
}
