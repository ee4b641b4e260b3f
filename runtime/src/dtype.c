/* Dtype names, sizes and type-set text, all expanded from dtypes.def;
 * half and bfloat16 conversions. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

static const char *const dtype_names[OPR_DT_COUNT] = {
#define OPR_DTYPE(ID, VALUE, NAME, ALIAS, CTYPE, N, R, Q) [VALUE] = NAME,
#include "opr/dtypes.def"
#undef OPR_DTYPE
};

const size_t opr_dtype_size_table[OPR_DT_COUNT] = {
#define OPR_DTYPE(ID, VALUE, NAME, ALIAS, CTYPE, N, R, Q) \
  [VALUE] = sizeof(CTYPE),
#include "opr/dtypes.def"
#undef OPR_DTYPE
};

bool opr_dtype_valid(opr_dtype dt) { return opr_dtype_known(dt); }

const char *opr_dtype_name(opr_dtype dt) {
  return opr_dtype_valid(dt) ? dtype_names[dt] : "invalid";
}

size_t opr_dtype_size(opr_dtype dt) {
  return opr_dtype_valid(dt) ? opr_dtype_size_table[dt] : 0;
}

const char *opr_dtype_set_text(opr_dtype_set set, char *buf, size_t n) {
  if (n == 0) return buf;
  size_t pos = 0;
  buf[0] = '\0';
  const char *sep = "{";
  for (int dt = 1; dt < OPR_DT_COUNT && pos < n; dt++) {
    if (!(set & OPR_DTYPE_BIT(dt)) || !opr_dtype_valid((opr_dtype)dt))
      continue;
    int w = snprintf(buf + pos, n - pos, "%s%s", sep, dtype_names[dt]);
    pos += w > 0 ? (size_t)w : 0;
    sep = ", ";
  }
  if (pos < n) snprintf(buf + pos, n - pos, "%s}", sep[0] == '{' ? "{" : "");
  return buf;
}

static uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* Rounds `value >> shift` to nearest, ties to even. */
static uint32_t shift_round_even(uint32_t value, unsigned shift) {
  uint32_t kept = value >> shift;
  uint32_t rest = value & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (kept & 1))) kept++;
  return kept;
}

float opr_half_to_float(opr_half h) {
  uint32_t sign = (uint32_t)(h.bits & 0x8000) << 16;
  uint32_t exp = (h.bits >> 10) & 0x1f;
  uint32_t mant = h.bits & 0x3ff;
  if (exp == 0x1f) return bits_float(sign | 0x7f800000 | mant << 13);
  if (exp != 0) return bits_float(sign | (exp + 112) << 23 | mant << 13);
  if (mant == 0) return bits_float(sign);
  /* Subnormal: normalize so the leading 1 becomes implicit. */
  uint32_t e = 113;
  while (!(mant & 0x400)) {
    mant <<= 1;
    e--;
  }
  return bits_float(sign | e << 23 | (mant & 0x3ff) << 13);
}

opr_half opr_half_from_float(float f) {
  uint32_t x = float_bits(f);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  int exp = (int)((x >> 23) & 0xff);
  uint32_t mant = x & 0x7fffff;
  opr_half h;
  if (exp == 0xff) { /* inf stays inf; NaN stays a (quiet) NaN */
    h.bits = (uint16_t)(sign | 0x7c00 | (mant ? 0x200 | mant >> 13 : 0));
    return h;
  }
  int e = exp - 127 + 15;
  if (e >= 31) {
    h.bits = sign | 0x7c00;
  } else if (e <= 0) { /* subnormal half, or zero below 2^-25 */
    uint32_t m = e < -10 ? 0 : shift_round_even(mant | 0x800000,
                                                (unsigned)(14 - e));
    h.bits = (uint16_t)(sign | m);
  } else {
    /* A carry out of the mantissa correctly bumps the exponent, up to
     * infinity. */
    uint32_t m = shift_round_even((uint32_t)e << 23 | mant, 13);
    h.bits = (uint16_t)(sign | m);
  }
  return h;
}

float opr_bfloat16_to_float(opr_bfloat16 b) {
  return bits_float((uint32_t)b.bits << 16);
}

opr_bfloat16 opr_bfloat16_from_float(float f) {
  uint32_t x = float_bits(f);
  opr_bfloat16 b;
  if ((x & 0x7fffffff) > 0x7f800000) { /* NaN: truncate, keep it quiet */
    b.bits = (uint16_t)(x >> 16 | 0x40);
    return b;
  }
  b.bits = (uint16_t)shift_round_even(x, 16);
  return b;
}
