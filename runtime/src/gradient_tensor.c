/* Element-wise helpers for gradients: a + b and a tensor filled with one
 * value, for every number dtype. Integers (and the quantized types, their
 * storage) wrap; half and bfloat16 add in float and round once. */
#include "internal.h"

#include <string.h>

bool opr_dtype_is_number(opr_dtype dt) {
  const opr_dtype_set numbers = 0
#define OPR_DTYPE(ID, VALUE, NAME, ALIAS, CTYPE, N, R, Q) \
  | ((N) ? OPR_DTYPE_BIT(VALUE) : 0)
#include "opr/dtypes.def"
#undef OPR_DTYPE
      ;
  return opr_dtype_in_set(dt, numbers);
}

static bool same_shape(const opr_tensor *a, const opr_tensor *b) {
  return a->rank == b->rank &&
         (a->rank == 0 ||
          memcmp(a->dims, b->dims, (size_t)a->rank * sizeof *a->dims) == 0);
}

/* INVALID_ARGUMENT unless `t` is a host tensor of a number type. */
static opr_status check_number(const char *who, const opr_tensor *t) {
  if (!t) return opr_error(OPR_INVALID_ARGUMENT, "%s: a tensor is NULL", who);
  if (!opr_dtype_is_number(t->dtype))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: dtype %s is not a number "
                     "type", who, opr_dtype_name(t->dtype));
  if (t->device != OPR_DEVICE_CPU || (t->nbytes && !t->data))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: the tensor is not in host "
                     "memory", who);
  return OPR_OK;
}

#define ADD_WRAP(CT, UT)                                                   \
  {                                                                        \
    const CT *x = a->data, *y = b->data;                                   \
    CT *z = out->data;                                                     \
    for (int64_t i = 0; i < n; i++) z[i] = (CT)((UT)x[i] + (UT)y[i]);      \
  }                                                                        \
  break
#define ADD_EXPR(CT, EXPR)                                                 \
  {                                                                        \
    const CT *x = a->data, *y = b->data;                                   \
    CT *z = out->data;                                                     \
    for (int64_t i = 0; i < n; i++) z[i] = EXPR;                           \
  }                                                                        \
  break

static void add_elements(const opr_tensor *a, const opr_tensor *b,
                         opr_tensor *out) {
  int64_t n = out->num_elements;
  switch (a->dtype) {
  case OPR_DT_FLOAT: ADD_EXPR(float, x[i] + y[i]);
  case OPR_DT_DOUBLE: ADD_EXPR(double, x[i] + y[i]);
  case OPR_DT_INT8: case OPR_DT_QINT8: ADD_WRAP(int8_t, uint8_t);
  case OPR_DT_UINT8: case OPR_DT_QUINT8: ADD_WRAP(uint8_t, uint8_t);
  case OPR_DT_INT16: ADD_WRAP(int16_t, uint16_t);
  case OPR_DT_UINT16: ADD_WRAP(uint16_t, uint16_t);
  case OPR_DT_INT32: case OPR_DT_QINT32: ADD_WRAP(int32_t, uint32_t);
  case OPR_DT_UINT32: ADD_WRAP(uint32_t, uint32_t);
  case OPR_DT_INT64: ADD_WRAP(int64_t, uint64_t);
  case OPR_DT_UINT64: ADD_WRAP(uint64_t, uint64_t);
  case OPR_DT_HALF:
    ADD_EXPR(opr_half, opr_half_from_float(opr_half_to_float(x[i]) +
                                           opr_half_to_float(y[i])));
  case OPR_DT_BFLOAT16:
    ADD_EXPR(opr_bfloat16,
             opr_bfloat16_from_float(opr_bfloat16_to_float(x[i]) +
                                     opr_bfloat16_to_float(y[i])));
  case OPR_DT_COMPLEX64:
    ADD_EXPR(opr_complex64,
             ((opr_complex64){x[i].re + y[i].re, x[i].im + y[i].im}));
  case OPR_DT_COMPLEX128:
    ADD_EXPR(opr_complex128,
             ((opr_complex128){x[i].re + y[i].re, x[i].im + y[i].im}));
  default: break; /* not a number type: refused before */
  }
}
#undef ADD_WRAP
#undef ADD_EXPR

opr_status opr_tensor_add(const opr_tensor *a, const opr_tensor *b,
                          opr_tensor **out) {
  static const char who[] = "opr_tensor_add";
  if (!out) return opr_error(OPR_INVALID_ARGUMENT, "%s: out is NULL", who);
  *out = NULL;
  opr_status s = check_number(who, a);
  if (!s) s = check_number(who, b);
  if (s) return s;
  if (a->dtype != b->dtype)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: the dtypes differ (%s and "
                     "%s)", who, opr_dtype_name(a->dtype),
                     opr_dtype_name(b->dtype));
  if (!same_shape(a, b)) {
    char sa[128], sb[128];
    return opr_error(OPR_INVALID_ARGUMENT, "%s: the shapes differ (%s and "
                     "%s)", who, opr_shape_text(a->rank, a->dims, sa, sizeof sa),
                     opr_shape_text(b->rank, b->dims, sb, sizeof sb));
  }
  s = opr_tensor_create_output(who, a->dtype, a->rank, a->dims, out);
  if (!s) add_elements(a, b, *out);
  return s;
}

#define FILL(CT, V)                                                        \
  {                                                                        \
    CT *z = t->data, v = V;                                                \
    for (int64_t i = 0; i < n; i++) z[i] = v;                              \
  }                                                                        \
  break

static void fill_elements(opr_tensor *t, double value) {
  int64_t n = t->num_elements;
  switch (t->dtype) {
  case OPR_DT_FLOAT: FILL(float, (float)value);
  case OPR_DT_DOUBLE: FILL(double, value);
  case OPR_DT_INT8: case OPR_DT_QINT8: FILL(int8_t, (int8_t)value);
  case OPR_DT_UINT8: case OPR_DT_QUINT8: FILL(uint8_t, (uint8_t)value);
  case OPR_DT_INT16: FILL(int16_t, (int16_t)value);
  case OPR_DT_UINT16: FILL(uint16_t, (uint16_t)value);
  case OPR_DT_INT32: case OPR_DT_QINT32: FILL(int32_t, (int32_t)value);
  case OPR_DT_UINT32: FILL(uint32_t, (uint32_t)value);
  case OPR_DT_INT64: FILL(int64_t, (int64_t)value);
  case OPR_DT_UINT64: FILL(uint64_t, (uint64_t)value);
  case OPR_DT_HALF: FILL(opr_half, opr_half_from_float((float)value));
  case OPR_DT_BFLOAT16:
    FILL(opr_bfloat16, opr_bfloat16_from_float((float)value));
  case OPR_DT_COMPLEX64: FILL(opr_complex64, ((opr_complex64){(float)value, 0}));
  case OPR_DT_COMPLEX128: FILL(opr_complex128, ((opr_complex128){value, 0}));
  default: break;
  }
}
#undef FILL

opr_status opr_tensor_fill_like(const opr_tensor *like, double value,
                                opr_tensor **out) {
  static const char who[] = "opr_tensor_fill_like";
  if (!out) return opr_error(OPR_INVALID_ARGUMENT, "%s: out is NULL", who);
  *out = NULL;
  if (!like) return opr_error(OPR_INVALID_ARGUMENT, "%s: like is NULL", who);
  if (!opr_dtype_is_number(like->dtype))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: dtype %s is not a number "
                     "type", who, opr_dtype_name(like->dtype));
  opr_status s = value == 0
      ? opr_tensor_create(who, like->dtype, like->rank, like->dims, out)
      : opr_tensor_create_output(who, like->dtype, like->rank, like->dims,
                                 out);
  if (!s && value != 0) fill_elements(*out, value);
  return s;
}
