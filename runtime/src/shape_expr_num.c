/* Numbers of the shape language (opr/shape_expr.h): exact 64-bit
 * integers or unknown, their arithmetic and their use as dims. Overflow is
 * an error, never undefined behaviour. */
#include "shape_expr_internal.h"

#include <inttypes.h>
#include <string.h>

OPR_COLD opr_status opr_sx_negative_dim(opr_infer_ctx *c, opr_num n,
                                       const char *what) {
  return opr_infer_error(c, "%s is %" PRId64 ", a negative dim",
                         sx_what(what), n.v);
}

static opr_num known(int64_t v) {
  opr_num n = {v, true, false};
  return n;
}

/* "x + y overflows (a + b)", "x / y is not a whole number (7 / 2)". */
OPR_COLD static opr_status arith_error(opr_infer_ctx *c, const char *what,
                                       const char *problem, opr_num a,
                                       const char *op, opr_num b) {
  sx_num_text ta, tb;
  if (strcmp(op, "ceil_div") == 0)
    return opr_infer_error(c, "%s %s (ceil_div(%s, %s))", sx_what(what),
                           problem, opr_sx_num_text(a, ta),
                           opr_sx_num_text(b, tb));
  return opr_infer_error(c, "%s %s (%s %s %s)", sx_what(what), problem,
                         opr_sx_num_text(a, ta), op, opr_sx_num_text(b, tb));
}

static opr_status num_add(opr_infer_ctx *c, opr_num a, opr_num b,
                          const char *what, opr_num *out) {
  *out = opr_sx_unknown_num();
  if (!a.known || !b.known) return OPR_OK;
  int64_t r;
  if (__builtin_add_overflow(a.v, b.v, &r))
    return arith_error(c, what, "overflows", a, "+", b);
  *out = known(r);
  return OPR_OK;
}

static opr_status num_sub(opr_infer_ctx *c, opr_num a, opr_num b,
                          const char *what, opr_num *out) {
  *out = opr_sx_unknown_num();
  if (!a.known || !b.known) return OPR_OK;
  int64_t r;
  if (__builtin_sub_overflow(a.v, b.v, &r))
    return arith_error(c, what, "overflows", a, "-", b);
  *out = known(r);
  return OPR_OK;
}

static opr_status num_mul(opr_infer_ctx *c, opr_num a, opr_num b,
                          const char *what, opr_num *out) {
  /* 0 * ? is 0 and 1 * x is x, known or not. */
  if ((a.known && a.v == 0) || (b.known && b.v == 0)) *out = known(0);
  else if (a.known && a.v == 1) *out = opr_sx_computed(b);
  else if (b.known && b.v == 1) *out = opr_sx_computed(a);
  else if (!a.known || !b.known) *out = opr_sx_unknown_num();
  else {
    int64_t r;
    *out = opr_sx_unknown_num();
    if (__builtin_mul_overflow(a.v, b.v, &r))
      return arith_error(c, what, "overflows", a, "*", b);
    *out = known(r);
  }
  return OPR_OK;
}

/* A known divisor must be positive. */
static opr_status check_divisor(opr_infer_ctx *c, opr_num a, opr_num b,
                                const char *op, const char *what) {
  if (!b.known || b.v > 0) return OPR_OK;
  return arith_error(c, what, "has a divisor that is not positive", a, op,
                     b);
}

static opr_status num_div(opr_infer_ctx *c, opr_num a, opr_num b,
                          const char *what, opr_num *out) {
  *out = opr_sx_unknown_num();
  opr_status s = check_divisor(c, a, b, "/", what);
  if (s || !b.known) return s;
  if (b.v == 1) *out = opr_sx_computed(a);
  if (!a.known || b.v == 1) return OPR_OK;
  if (a.v % b.v != 0)
    return arith_error(c, what, "is not a whole number", a, "/", b);
  *out = known(a.v / b.v);
  return OPR_OK;
}

static opr_status num_mod(opr_infer_ctx *c, opr_num a, opr_num b,
                          const char *what, opr_num *out) {
  *out = opr_sx_unknown_num();
  opr_status s = check_divisor(c, a, b, "%", what);
  if (s || !a.known || !b.known) return s;
  int64_t r = a.v % b.v; /* b > 0: no overflow */
  *out = known(r < 0 ? r + b.v : r);
  return OPR_OK;
}

static opr_status num_ceil_div(opr_infer_ctx *c, opr_num a, opr_num b,
                               const char *what, opr_num *out) {
  *out = opr_sx_unknown_num();
  opr_status s = check_divisor(c, a, b, "ceil_div", what);
  if (s || !a.known || !b.known) return s;
  /* C truncates toward 0: that is up for a negative a already. */
  int64_t q = a.v / b.v;
  if (a.v > 0 && a.v % b.v != 0) q++;
  *out = known(q);
  return OPR_OK;
}

opr_status opr_sx_arith(opr_infer_ctx *c, opr_sx_arith_op op, opr_num a,
                        opr_num b, const char *what, opr_num *out) {
  switch (op) {
  case OPR_SX_ADD: return num_add(c, a, b, what, out);
  case OPR_SX_SUB: return num_sub(c, a, b, what, out);
  case OPR_SX_MUL: return num_mul(c, a, b, what, out);
  case OPR_SX_DIV: return num_div(c, a, b, what, out);
  case OPR_SX_MOD: return num_mod(c, a, b, what, out);
  case OPR_SX_CEIL_DIV: return num_ceil_div(c, a, b, what, out);
  }
  *out = opr_sx_unknown_num();
  return opr_infer_error(c, "%s: no arithmetic operation %d", sx_what(what),
                         (int)op);
}

opr_status opr_sx_neg(opr_infer_ctx *c, opr_num a, const char *what,
                      opr_num *out) {
  *out = opr_sx_unknown_num();
  if (!a.known) return OPR_OK;
  int64_t r;
  if (__builtin_sub_overflow((int64_t)0, a.v, &r))
    return opr_infer_error(c, "%s overflows (-(%" PRId64 "))", sx_what(what),
                           a.v);
  *out = known(r);
  return OPR_OK;
}

/* ---- window() ---- */

OPR_COLD static opr_status window_error(opr_infer_ctx *c, const char *what,
                                        const char *name, opr_num v) {
  return opr_infer_error(c, "%s: the %s is %" PRId64 "; it must be at "
                         "least 1", sx_what(what), name, v.v);
}

/* VALID: (D - window) / stride + 1 where window = (size-1)*dilation + 1. */
static opr_status window_valid(opr_infer_ctx *c, opr_num d, opr_num size,
                               opr_num stride, opr_num dilation,
                               const char *what, opr_num *out) {
  int64_t w, r;
  if (!size.known || !dilation.known) return OPR_OK;
  if (__builtin_sub_overflow(size.v, (int64_t)1, &w) ||
      __builtin_mul_overflow(w, dilation.v, &w) ||
      __builtin_add_overflow(w, (int64_t)1, &w))
    return opr_infer_error(c, "%s: the window overflows (size %" PRId64
                           ", dilation %" PRId64 ")", sx_what(what), size.v,
                           dilation.v);
  if (!d.known) return OPR_OK;
  if (d.v < w)
    return opr_infer_error(c, "%s: the input size %" PRId64 " is smaller "
                           "than the window %" PRId64 " (VALID padding)",
                           sx_what(what), d.v, w);
  if (!stride.known) return OPR_OK;
  if (__builtin_sub_overflow(d.v, w, &r) ||
      __builtin_add_overflow(r / stride.v, (int64_t)1, &r))
    return opr_infer_error(c, "%s overflows", sx_what(what));
  *out = known(r);
  return OPR_OK;
}

OPR_NOINLINE static opr_status window_rest(opr_infer_ctx *c, opr_num d,
                                          opr_num size, opr_num stride,
                                          opr_num dilation,
                                          const char *padding,
                                          const char *what, opr_num *out) {
  *out = opr_sx_unknown_num();
  if (stride.known && stride.v < 1)
    return window_error(c, what, "stride", stride);
  if (dilation.known && dilation.v < 1)
    return window_error(c, what, "dilation", dilation);
  if (padding == opr_sx_valid ||
      (padding && strcmp(padding, opr_sx_valid) == 0))
    return window_valid(c, d, size, stride, dilation, what, out);
  if (padding == opr_sx_same_padding ||
      (padding && strcmp(padding, opr_sx_same_padding) == 0))
    return num_ceil_div(c, d, stride, what, out);
  return opr_infer_error(c, "%s: padding '%s' is neither 'VALID' nor "
                         "'SAME'", sx_what(what), opr_text_or(padding, "?"));
}

/* The usual window: every number known, the padding one that
 * opr_sx_attr_string returned, nothing out of range; the rest above. */
opr_status opr_sx_window(opr_infer_ctx *c, opr_num d, opr_num size,
                         opr_num stride, opr_num dilation,
                         const char *padding, const char *what,
                         opr_num *out) {
  int64_t w, r;
  bool usual = d.known && size.known && stride.known && dilation.known &&
               d.v >= 0 && size.v >= 1 && stride.v >= 1 && dilation.v >= 1;
  if (usual && padding == opr_sx_same_padding) {
    *out = known(d.v / stride.v + (d.v % stride.v != 0));
    return OPR_OK;
  }
  if (usual && padding == opr_sx_valid &&
      !__builtin_sub_overflow(size.v, (int64_t)1, &w) &&
      !__builtin_mul_overflow(w, dilation.v, &w) && w < d.v) {
    r = (d.v - (w + 1)) / stride.v + 1; /* 1 <= w + 1 <= d: no overflow */
    *out = known(r);
    return OPR_OK;
  }
  return window_rest(c, d, size, stride, dilation, padding, what, out);
}
