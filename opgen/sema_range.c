/* Numeric literals checked against the C type that will hold them: a
 * float default must become a float without overflowing to infinity or
 * underflowing to zero, and a tensor value must fit its dtype's element,
 * so that generated C holds exactly the value the spec wrote. */
#include "sema_internal.h"

#include "numtext.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>

static const char *number_text(og_sema_op *s, double d) {
  char text[OG_DOUBLE_TEXT_MAX];
  og_format_double(d, 16, text);
  return og_arena_strdup(s->arena, text);
}

/* A finite double that a float cannot hold: past FLT_MAX once rounded, or
 * nonzero and below half the smallest subnormal (it would become 0). */
static bool float_fits(og_sema_op *s, const og_attr *attr, const char *what,
                       double d, og_loc loc) {
  if (!isfinite(d)) return true; /* inf and nan are floats too */
  float f = (float)d;
  if (isinf(f)) {
    og_error_at(s->diag, loc,
                "attr '%s': %s is %s, outside the range of float (magnitude "
                "at most 3.40282347e+38)",
                attr->name, what, number_text(s, d));
    return false;
  }
  if (f == 0 && d != 0) {
    og_error_at(s->diag, loc,
                "attr '%s': %s is %s, which a float would round to 0 "
                "(smallest nonzero magnitude 1.40129846e-45)",
                attr->name, what, number_text(s, d));
    return false;
  }
  return true;
}

typedef struct int_range {
  og_dtype dtype;
  int64_t min, max;
} int_range;

/* half_val holds the 16 bits of a half or bfloat16, as TensorFlow's does;
 * uint64 values above INT64_MAX cannot be written in the language. */
static const int_range int_ranges[] = {
    {OG_DT_INT32, INT32_MIN, INT32_MAX},   {OG_DT_QINT32, INT32_MIN, INT32_MAX},
    {OG_DT_INT16, INT16_MIN, INT16_MAX},   {OG_DT_QINT16, INT16_MIN, INT16_MAX},
    {OG_DT_INT8, INT8_MIN, INT8_MAX},      {OG_DT_QINT8, INT8_MIN, INT8_MAX},
    {OG_DT_UINT8, 0, UINT8_MAX},           {OG_DT_QUINT8, 0, UINT8_MAX},
    {OG_DT_UINT16, 0, UINT16_MAX},         {OG_DT_QUINT16, 0, UINT16_MAX},
    {OG_DT_INT4, -8, 7},                   {OG_DT_UINT4, 0, 15},
    {OG_DT_UINT32, 0, UINT32_MAX},         {OG_DT_UINT64, 0, INT64_MAX},
    {OG_DT_HALF, 0, UINT16_MAX},           {OG_DT_BFLOAT16, 0, UINT16_MAX},
};

static bool int_fits(og_sema_op *s, const og_attr *attr, const char *what,
                     og_dtype dt, int64_t i, og_loc loc) {
  for (size_t k = 0; k < sizeof int_ranges / sizeof *int_ranges; k++) {
    const int_range *r = &int_ranges[k];
    if (r->dtype != dt || (i >= r->min && i <= r->max)) continue;
    og_error_at(s->diag, loc,
                "attr '%s': %s is %" PRId64 ", outside the range of %s (%" PRId64
                " to %" PRId64 ")",
                attr->name, what, i, og_dtype_name(dt), r->min, r->max);
    return false;
  }
  return true;
}

bool og_sema_value_fits(og_sema_op *s, const og_attr *attr, const char *what,
                        const og_value *v, og_dtype dt, og_loc loc) {
  if (v->kind == OG_VAL_FLOAT)
    return dt == OG_DT_DOUBLE || dt == OG_DT_COMPLEX128 ||
           float_fits(s, attr, what, v->u.f, loc);
  if (v->kind == OG_VAL_INT) return int_fits(s, attr, what, dt, v->u.i, loc);
  return true;
}
