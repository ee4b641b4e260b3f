/* The hash tables of the names check (emit_c_names_check.h): a name's
 * hash and reserved spelling in one pass, and one scope's small set of
 * names, kept apart from the rules that fill them. */
#include "emit_c_names_check.h"

#include "pages.h"

#include <stdlib.h>
#include <string.h>

/* Large tables from og_pages (huge pages, no fault per 4 KiB). */
void *og_cn_table(size_t size) {
  return size >= 64 * 1024 ? og_pages_alloc(size) : og_xmalloc(size);
}

void *og_cn_table_move(void *old, size_t count, size_t old_cap, size_t cap,
                       size_t size) {
  void *table = og_cn_table(cap * size);
  if (count) memcpy(table, old, count * size);
  og_pages_free(old, old_cap * size);
  return table;
}

/* The hash of s, eight bytes a step (a corpus run hashes some 60,000
 * names; the value never reaches the output, only whether a name is
 * present does). *reserved: s is spelled as C and C++ reserve, as
 * og_c_reserved_spelling says ("__", or '_' and an upper-case letter
 * first), found in the same pass: in z, the top bit of each byte that
 * is '_'. */
uint64_t og_cn_name_scan(const char *s, bool *reserved) {
  size_t len = strlen(s), n = len;
  uint64_t h = 0x9E3779B97F4A7C15u ^ n, w, tail = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fu;
  uint64_t found = s[0] == '_' && s[1] >= 'A' && s[1] <= 'Z';
  uint64_t carry = 0; /* 0x80: the last byte was '_' */
#define OG_UNDERSCORES(w)                                            \
  do {                                                               \
    uint64_t x = (w) ^ 0x5f5f5f5f5f5f5f5fu;                          \
    uint64_t z = ~(((x & lo7) + lo7) | x | lo7);                     \
    found |= (z & (z >> 8)) | (carry & z);                           \
    carry = z >> 63 << 7;                                            \
  } while (0)
  const char *end = s + len;
  /* The last bytes (zero-extended, no '_' there): from the last eight
   * bytes of a long name, shifted; byte by byte for a short one. */
  if (n % 8 && len >= 8) {
    memcpy(&tail, end - 8, 8);
    tail >>= 8 * (8 - n % 8);
  } else {
    for (size_t i = 0; i < n % 8; i++)
      tail |= (uint64_t)(unsigned char)s[i] << (8 * i);
  }
#else
  uint64_t found = og_c_reserved_spelling(s);
#define OG_UNDERSCORES(w) ((void)0)
  memcpy(&tail, s + n - n % 8, n % 8);
#endif
  for (; n >= 8; s += 8, n -= 8) {
    memcpy(&w, s, 8);
    OG_UNDERSCORES(w);
    h = (h ^ w) * 0xff51afd7ed558ccdu;
    h ^= h >> 32;
  }
  OG_UNDERSCORES(tail);
#undef OG_UNDERSCORES
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53u;
  h ^= h >> 29;
  h *= 0xff51afd7ed558ccdu;
  *reserved = found != 0;
  return h ^ (h >> 32);
}

static uint64_t name_hash(const char *s) {
  bool reserved;
  return og_cn_name_scan(s, &reserved);
}

/* Empty slots for cap names; the names stay. */
static void set_rehash(name_set *s, size_t cap) {
  free(s->slots);
  s->slots = og_xmalloc(cap * sizeof *s->slots);
  memset(s->slots, 0, cap * sizeof *s->slots);
  s->cap = cap;
  for (size_t k = 0; k < s->count; k++) {
    uint64_t h = name_hash(s->names[k]);
    size_t j = h & (cap - 1);
    while (s->slots[j].id) j = (j + 1) & (cap - 1);
    s->slots[j] = (set_entry){(uint32_t)(h >> 32), (uint32_t)k + 1};
  }
}

/* Adds name (hash h) unless present; returns its number. */
size_t og_cn_set_add_hashed(name_set *s, const char *name, uint64_t h) {
  if (2 * (s->count + 1) > s->cap) set_rehash(s, s->cap ? 2 * s->cap : 64);
  set_entry *e = og_cn_set_slot(s, name, h);
  if (e->id) return e->id - 1;
  s->names = og_xgrow(s->names, &s->names_cap, s->count + 1, sizeof *s->names);
  s->names[s->count] = name;
  *e = (set_entry){(uint32_t)(h >> 32), (uint32_t)++s->count};
  return s->count - 1;
}

size_t og_cn_set_add(name_set *s, const char *name) {
  return og_cn_set_add_hashed(s, name, name_hash(name));
}

/* Empty, keeping its tables. */
void og_cn_set_clear(name_set *s) {
  if (s->cap) memset(s->slots, 0, s->cap * sizeof *s->slots);
  s->count = 0;
}

void og_cn_set_free(name_set *s) {
  free(s->slots);
  free(s->names);
  *s = (name_set){0};
}
