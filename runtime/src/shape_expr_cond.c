/* Conditions of the shape language (opr/shape_expr.h): true, false or
 * undecided, and `require`, which fails only on false. */
#include "shape_expr_internal.h"

#include <inttypes.h>
#include <stdio.h>

static opr_cond of_bool(bool b) { return b ? OPR_COND_TRUE : OPR_COND_FALSE; }

opr_cond opr_sx_in(opr_num x, opr_num lo, opr_num hi) {
  if (!x.known || !lo.known || !hi.known) return OPR_COND_UNDECIDED;
  return of_bool(lo.v <= x.v && x.v <= hi.v);
}

opr_status opr_sx_bit(opr_infer_ctx *c, opr_num n, opr_num i,
                      const char *what, opr_cond *out) {
  *out = OPR_COND_UNDECIDED;
  if (i.known && (i.v < 0 || i.v >= 64))
    return opr_infer_error(c, "%s: bit %" PRId64 " is outside [0, 64)",
                           sx_what(what), i.v);
  if (n.known && i.known) *out = of_bool(((uint64_t)n.v >> i.v) & 1u);
  return OPR_OK;
}

opr_cond opr_sx_same(opr_infer_ctx *c, const opr_shape *shapes, size_t n) {
  (void)c;
  /* Per position the known dims must all agree: pairwise is enough. */
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++)
      if (!opr_shape_compatible(shapes[i], shapes[j])) return OPR_COND_FALSE;
  return OPR_COND_TRUE;
}

opr_cond opr_sx_known_shape(opr_shape s) {
  return of_bool(opr_shape_fully_defined(s));
}

OPR_COLD opr_status opr_sx_require_failed(opr_infer_ctx *c, const char *what,
                                          const char *detail) {
  if (detail)
    return opr_infer_error(c, "%s does not hold (%s)", sx_what(what),
                           detail);
  return opr_infer_error(c, "%s does not hold", sx_what(what));
}

OPR_COLD opr_status opr_sx_require_compare_failed(opr_infer_ctx *c,
                                                  opr_num a, opr_num b,
                                                  const char *what) {
  char detail[64];
  snprintf(detail, sizeof detail, "%" PRId64 " vs %" PRId64, a.v, b.v);
  return opr_sx_require_failed(c, what, detail);
}

OPR_COLD opr_status opr_sx_require_in_failed(opr_infer_ctx *c, opr_num x,
                                             opr_num lo, opr_num hi,
                                             const char *what) {
  char detail[96];
  snprintf(detail, sizeof detail,
           "%" PRId64 " is not in [%" PRId64 ", %" PRId64 "]", x.v, lo.v,
           hi.v);
  return opr_sx_require_failed(c, what, detail);
}
