/* The gradient's map from tensor address to state: open addressing,
 * linear probing, at most half full; entries are never removed (a
 * gradient's map lives as long as one opr_tape_gradient). */
#include "tape_internal.h"

#include <stdint.h>
#include <stdlib.h>

static size_t slot_of(const tape_map *m, const opr_tensor *key) {
  uint64_t h = (uint64_t)(uintptr_t)key;
  h ^= h >> 33; /* tensors are aligned: mix the high bits down */
  h *= UINT64_C(0xff51afd7ed558ccd);
  h ^= h >> 33;
  return (size_t)h & m->mask;
}

tape_slot *tape_map_find(const tape_map *m, const opr_tensor *key) {
  if (!m->slots) return NULL;
  for (size_t i = slot_of(m, key);; i = (i + 1) & m->mask) {
    if (m->slots[i].key == key) return &m->slots[i];
    if (!m->slots[i].key) return NULL;
  }
}

static bool grow(tape_map *m) {
  size_t n = m->slots ? 2 * (m->mask + 1) : 64;
  tape_slot *slots = calloc(n, sizeof *slots);
  if (!slots) return false;
  tape_map bigger = {slots, n - 1, m->used};
  for (size_t i = 0; m->slots && i <= m->mask; i++) {
    if (!m->slots[i].key) continue;
    size_t j = slot_of(&bigger, m->slots[i].key);
    while (slots[j].key) j = (j + 1) & bigger.mask;
    slots[j] = m->slots[i];
  }
  free(m->slots);
  *m = bigger;
  return true;
}

tape_slot *tape_map_add(tape_map *m, const opr_tensor *key) {
  tape_slot *s = tape_map_find(m, key);
  if (s) return s;
  if ((!m->slots || 2 * (m->used + 1) > m->mask + 1) && !grow(m))
    return NULL;
  size_t i = slot_of(m, key);
  while (m->slots[i].key) i = (i + 1) & m->mask;
  m->slots[i] = (tape_slot){key, NULL, 0};
  m->used++;
  return &m->slots[i];
}

void tape_map_free(tape_map *m) {
  for (size_t i = 0; m->slots && i <= m->mask; i++)
    opr_tensor_unref(m->slots[i].grad);
  free(m->slots);
  *m = (tape_map){0};
}
