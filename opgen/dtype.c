#include "dtype.h"

#include <stdint.h>
#include <string.h>

typedef struct dtype_info {
  const char *name, *alias, *id, *ctype;
  unsigned char name_len, id_len; /* a lookup compares lengths first */
  bool number, real, quantized;
} dtype_info;

static const dtype_info dtypes[OG_DT_COUNT] = {
#define OPR_DTYPE(ID, VALUE, NAME, ALIAS, CTYPE, N, R, Q)            \
  [VALUE] = {NAME, ALIAS, #ID, #CTYPE, sizeof NAME - 1, sizeof #ID - 1, \
             N, R, Q},
#include "opr/dtypes.def"
#undef OPR_DTYPE
};

static bool word_eq(const char *a, size_t alen, const char *b) {
  if (!b) return false;
  if (alen == 0) return b[0] == '\0';
  /* The first byte rules out nearly every entry without a strlen. */
  return a[0] == b[0] && strlen(b) == alen && memcmp(a, b, alen) == 0;
}

const char *og_dtype_name(og_dtype dt) {
  return dt > OG_DT_INVALID && dt < OG_DT_COUNT ? dtypes[dt].name : NULL;
}

const char *og_dtype_enum_id(og_dtype dt) {
  return dt > OG_DT_INVALID && dt < OG_DT_COUNT ? dtypes[dt].id : NULL;
}

const char *og_dtype_ctype(og_dtype dt) {
  return dt > OG_DT_INVALID && dt < OG_DT_COUNT ? dtypes[dt].ctype : NULL;
}

/* Bit n % 64 set: a name or an alias may be n bytes long (a NULL alias
 * sets one more bit, which costs a search, no result). */
static const uint64_t lengths = 0
#define OPR_DTYPE(ID, VALUE, NAME, ALIAS, CTYPE, N, R, Q) \
  | (uint64_t)1 << ((sizeof NAME - 1) % 64) | (uint64_t)1 << ((sizeof ALIAS - 1) % 64)
#include "opr/dtypes.def"
#undef OPR_DTYPE
    ;

/* Whether [a, a + alen) spells b, of blen bytes (blen > 0). */
static bool spelt(const char *a, size_t alen, const char *b, size_t blen) {
  return alen == blen && a[0] == b[0] && memcmp(a, b, alen) == 0;
}

og_dtype og_dtype_lookup(const char *name, size_t len) {
  if (len > 3 && memcmp(name, "DT_", 3) == 0) {
    for (int dt = 1; dt < OG_DT_COUNT; dt++)
      if (spelt(name + 3, len - 3, dtypes[dt].id, dtypes[dt].id_len))
        return (og_dtype)dt;
    return OG_DT_INVALID;
  }
  if (!(lengths >> (len % 64) & 1)) return OG_DT_INVALID; /* "T", "N" */
  for (int dt = 1; dt < OG_DT_COUNT; dt++)
    if (spelt(name, len, dtypes[dt].name, dtypes[dt].name_len) ||
        word_eq(name, len, dtypes[dt].alias))
      return (og_dtype)dt;
  return OG_DT_INVALID;
}

og_dtype og_dtype_lookup_ref(const char *name, size_t len) {
  if (len > 4 && (memcmp(name + len - 4, "_ref", 4) == 0 ||
                  memcmp(name + len - 4, "_REF", 4) == 0))
    return og_dtype_lookup(name, len - 4);
  return OG_DT_INVALID;
}

og_typeset og_typeset_lookup(const char *name, size_t len) {
  if (word_eq(name, len, "numbertype") || word_eq(name, len, "numerictype"))
    return OG_TS_NUMBER;
  if (word_eq(name, len, "realnumbertype") ||
      word_eq(name, len, "realnumerictype"))
    return OG_TS_REALNUMBER;
  if (word_eq(name, len, "quantizedtype")) return OG_TS_QUANTIZED;
  return OG_TS_NONE;
}

og_dtype_set og_typeset_members(og_typeset ts) {
  og_dtype_set set = 0;
  for (int dt = 1; dt < OG_DT_COUNT; dt++) {
    bool in = ts == OG_TS_NUMBER       ? dtypes[dt].number
              : ts == OG_TS_REALNUMBER ? dtypes[dt].real
              : ts == OG_TS_QUANTIZED  ? dtypes[dt].quantized
                                       : false;
    if (in) set |= OG_DTYPE_BIT(dt);
  }
  return set;
}
