/* C ? X : Y with C undecided (opr/shape_expr.h): both branches were
 * evaluated; a branch that failed is left out of the join, since a more
 * complete input could take the other one. */
#include "shape_expr_internal.h"

typedef enum taken { BOTH, ONLY_X, ONLY_Y, NEITHER } taken;

/* Which branches count; a failed one's status is freed, except the
 * first's when both failed (that is the error). */
static taken drop_failed(opr_status sx, opr_status sy) {
  if (!sx && !sy) return BOTH;
  if (sx && sy) {
    opr_status_free(sy);
    return NEITHER;
  }
  opr_status_free(sx ? sx : sy);
  return sx ? ONLY_Y : ONLY_X;
}

opr_status opr_sx_join_branches_num(opr_status sx, opr_num x, opr_status sy,
                                    opr_num y, opr_num *out) {
  taken t = drop_failed(sx, sy);
  *out = t == ONLY_X ? x : t == ONLY_Y ? y : opr_sx_unknown_num();
  if (t == BOTH && x.known && y.known && x.v == y.v)
    *out = (opr_num){x.v, true, x.direct && y.direct};
  return t == NEITHER ? sx : OPR_OK;
}

opr_status opr_sx_join_branches_shape(opr_infer_ctx *c, opr_status sx,
                                      opr_shape x, opr_status sy,
                                      opr_shape y, opr_shape *out) {
  taken t = drop_failed(sx, sy);
  *out = t == ONLY_X ? x : t == ONLY_Y ? y : opr_shape_unknown();
  if (t == BOTH) return opr_sx_join_shapes(c, x, y, out);
  return t == NEITHER ? sx : OPR_OK;
}

opr_status opr_sx_join_branches_cond(opr_status sx, opr_cond x,
                                     opr_status sy, opr_cond y,
                                     opr_cond *out) {
  taken t = drop_failed(sx, sy);
  *out = t == ONLY_X ? x : t == ONLY_Y ? y : OPR_COND_UNDECIDED;
  if (t == BOTH && x == y) *out = x;
  return t == NEITHER ? sx : OPR_OK;
}
