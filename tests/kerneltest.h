/* Helpers of the kernel tests (test_kernels_*.c): statuses, contexts,
 * tensors filled with a pattern for any dtype, and a reference model of
 * element values, independent of the kernels' own arithmetic: integers
 * as 64-bit values cut to their width when stored, floats as double. */
#ifndef OPGEN_KERNELTEST_H
#define OPGEN_KERNELTEST_H

#include "testutil.h"

#include "demo_kernels.h"
#include "opr/parallel.h"
#include "shipped.h"

#include <stdint.h>
#include <string.h>

/* Asserts a status's code and message, then frees it. */
#define kt_expect_status(status, code, message)                       \
  do {                                                                \
    opr_status st_ = (status);                                        \
    assert_non_null(st_);                                             \
    assert_string_equal(opr_status_message(st_), message);            \
    assert_string_equal(opr_code_name(opr_status_code(st_)),          \
                        opr_code_name(code));                         \
    opr_status_free(st_);                                             \
  } while (0)

#define kt_expect_ok(status)                                          \
  do {                                                                \
    opr_status st_ = (status);                                        \
    if (st_) fail_msg("unexpected: %s", opr_status_message(st_));     \
  } while (0)

/* Every dtype of `set`, in value order. */
#define kt_for_each_dtype(dt, set)                                    \
  for (opr_dtype dt = (opr_dtype)1; dt < OPR_DT_COUNT;                \
       dt = (opr_dtype)(dt + 1))                                      \
    if ((set) & OPR_DTYPE_BIT(dt))

/* The allowed types of attr `attr` of an op's table. */
static inline opr_dtype_set kt_allowed(const opr_op_def *op,
                                       const char *attr) {
  for (size_t i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, attr) == 0)
      return op->attrs[i].allowed_types;
  fail_msg("%s has no attr %s", op->name, attr);
  return 0;
}

/* Registers everything once per program (idempotent anyway). */
static inline void kt_register(void) {
  kt_expect_ok(opgen_shipped_register());
}

static inline opr_context *kt_context(int threads) {
  opr_context_options o = {.device = OPR_DEVICE_CPU, .threads = threads};
  opr_context *ctx = NULL;
  kt_expect_ok(opr_context_new(&o, &ctx));
  return ctx;
}

static inline opr_tensor *kt_new(opr_dtype dt, int rank,
                                 const int64_t *dims) {
  opr_tensor *t = NULL;
  kt_expect_ok(opr_tensor_new(dt, rank, dims, &t));
  return t;
}

static inline opr_tensor *kt_vec(opr_dtype dt, int64_t n) {
  return kt_new(dt, 1, &n);
}

/* ---- the reference model of element values ---- */

typedef enum kt_kind {
  KT_SIGNED, KT_UNSIGNED, KT_REAL, KT_COMPLEX, KT_BOOL, KT_OTHER
} kt_kind;

static inline kt_kind kt_kind_of(opr_dtype dt) {
  switch (dt) {
  case OPR_DT_INT8: case OPR_DT_INT16: case OPR_DT_INT32:
  case OPR_DT_INT64: case OPR_DT_QINT8: case OPR_DT_QINT16:
  case OPR_DT_QINT32:
    return KT_SIGNED;
  case OPR_DT_UINT8: case OPR_DT_UINT16: case OPR_DT_UINT32:
  case OPR_DT_UINT64: case OPR_DT_QUINT8: case OPR_DT_QUINT16:
    return KT_UNSIGNED;
  case OPR_DT_FLOAT: case OPR_DT_DOUBLE: case OPR_DT_HALF:
  case OPR_DT_BFLOAT16:
    return KT_REAL;
  case OPR_DT_COMPLEX64: case OPR_DT_COMPLEX128: return KT_COMPLEX;
  case OPR_DT_BOOL: return KT_BOOL;
  default: return KT_OTHER;
  }
}

/* One element: integers in `bits` (two's complement, sign-extended),
 * reals in re, complex numbers in re and im. */
typedef struct kt_val {
  uint64_t bits;
  double re, im;
} kt_val;

/* Integers: the element's bytes, little-endian, sign-extended. */
static inline uint64_t kt_get_bits(opr_dtype dt, const unsigned char *p) {
  size_t n = opr_dtype_size(dt);
  uint64_t u = 0;
  for (size_t b = 0; b < n; b++) u |= (uint64_t)p[b] << (8 * b);
  if (kt_kind_of(dt) == KT_SIGNED && n < 8 && (u >> (8 * n - 1)) & 1)
    u |= ~UINT64_C(0) << (8 * n);
  return u;
}

static inline kt_val kt_get(const opr_tensor *t, int64_t i) {
  const void *p =
      (const char *)t->data + (size_t)i * opr_dtype_size(t->dtype);
  kt_val v = {0, 0, 0};
  switch (t->dtype) {
  case OPR_DT_FLOAT: v.re = *(const float *)p; break;
  case OPR_DT_DOUBLE: v.re = *(const double *)p; break;
  case OPR_DT_HALF: v.re = opr_half_to_float(*(const opr_half *)p); break;
  case OPR_DT_BFLOAT16:
    v.re = opr_bfloat16_to_float(*(const opr_bfloat16 *)p);
    break;
  case OPR_DT_COMPLEX64:
    v.re = ((const opr_complex64 *)p)->re;
    v.im = ((const opr_complex64 *)p)->im;
    break;
  case OPR_DT_COMPLEX128:
    v.re = ((const opr_complex128 *)p)->re;
    v.im = ((const opr_complex128 *)p)->im;
    break;
  default: v.bits = kt_get_bits(t->dtype, p); break;
  }
  return v;
}

/* Stores v, integers cut to the element's width (wrapping). */
static inline void kt_set(opr_tensor *t, int64_t i, kt_val v) {
  void *p = (char *)t->data + (size_t)i * opr_dtype_size(t->dtype);
  switch (t->dtype) {
  case OPR_DT_FLOAT: *(float *)p = (float)v.re; break;
  case OPR_DT_DOUBLE: *(double *)p = v.re; break;
  case OPR_DT_HALF: *(opr_half *)p = opr_half_from_float((float)v.re); break;
  case OPR_DT_BFLOAT16:
    *(opr_bfloat16 *)p = opr_bfloat16_from_float((float)v.re);
    break;
  case OPR_DT_COMPLEX64:
    *(opr_complex64 *)p = (opr_complex64){(float)v.re, (float)v.im};
    break;
  case OPR_DT_COMPLEX128:
    *(opr_complex128 *)p = (opr_complex128){v.re, v.im};
    break;
  case OPR_DT_BOOL: *(bool *)p = v.bits != 0; break;
  default:
    for (size_t b = 0; b < opr_dtype_size(t->dtype); b++)
      ((unsigned char *)p)[b] = (unsigned char)(v.bits >> (8 * b));
  }
}

/* A value for element i: integers spread over all 64 bits (so every width
 * sees large and wrapping values); reals in [-125, 125] in steps of 1/8,
 * with a large one every 97 elements (60000: doubling overflows half);
 * complex: two such reals; bools alternate irregularly. */
static inline kt_val kt_pattern(opr_dtype dt, int64_t i) {
  kt_val v = {0, 0, 0};
  uint64_t h = (uint64_t)(i + 1) * UINT64_C(0x9E3779B97F4A7C15);
  v.bits = dt == OPR_DT_BOOL ? (h >> 61) & 1 : h ^ (h >> 29);
  v.re = ((double)(int64_t)(h % 2001) - 1000.0) / 8.0;
  v.im = -((double)(int64_t)((h >> 20) % 2001) - 1000.0) / 8.0;
  bool wide = dt == OPR_DT_FLOAT || dt == OPR_DT_DOUBLE;
  if (i % 97 == 5) v.re = wide ? 1e30 : 60000;
  return v;
}

/* A new tensor of pattern values (seed shifts the pattern). */
static inline opr_tensor *kt_filled(opr_dtype dt, int rank,
                                    const int64_t *dims, int64_t seed) {
  opr_tensor *t = kt_new(dt, rank, dims);
  for (int64_t i = 0; i < t->num_elements; i++)
    kt_set(t, i, kt_pattern(dt, i + seed));
  return t;
}

/* Same dtype, shape and bytes. */
static inline void kt_assert_same(const opr_tensor *got,
                                  const opr_tensor *want) {
  assert_non_null(got);
  assert_int_equal(got->dtype, want->dtype);
  assert_int_equal(got->rank, want->rank);
  for (int d = 0; d < want->rank; d++)
    assert_int_equal(got->dims[d], want->dims[d]);
  assert_int_equal(got->nbytes, want->nbytes);
  if (want->nbytes && memcmp(got->data, want->data, want->nbytes) != 0) {
    size_t size = opr_dtype_size(want->dtype);
    for (int64_t i = 0; i < want->num_elements; i++)
      if (memcmp((const char *)got->data + i * size,
                 (const char *)want->data + i * size, size) != 0)
        fail_msg("%s: element %lld differs", opr_dtype_name(want->dtype),
                 (long long)i);
  }
}

#endif
