/* reduce() and permute() (opr/shape_expr.h): shapes rearranged by lists
 * of axes, each axis counting from the end when negative. */
#include "shape_expr_internal.h"

#include <string.h>

typedef char shape_text[256];

opr_status opr_sx_reduce(opr_infer_ctx *c, opr_shape s, opr_sx_ints axes,
                         opr_cond keep, const char *what, opr_shape *out) {
  *out = opr_shape_unknown();
  if (keep == OPR_COND_UNDECIDED) return OPR_OK;
  if (!axes.known)
    return keep == OPR_COND_TRUE && s.rank >= 0
               ? opr_sx_unknown_of_rank(c, s.rank, what, out)
               : OPR_OK;
  if (s.rank < 0) return OPR_OK;
  bool reduced[OPR_MAX_RANK] = {false};
  int n = 0; /* distinct axes: one listed twice counts once */
  for (size_t k = 0; k < axes.n; k++) {
    int a;
    opr_status st = opr_sx_axis(c, axes.v[k], s.rank, 0, what, &a);
    if (st) return st;
    n += !reduced[a];
    reduced[a] = true;
  }
  if (n == 0) {
    *out = s;
    return OPR_OK;
  }
  int rank = keep == OPR_COND_TRUE ? s.rank : s.rank - n;
  int64_t *d;
  opr_status st = opr_sx_alloc(c, (size_t)rank, &d);
  if (st) return st;
  for (int i = 0, j = 0; i < s.rank; i++)
    if (!reduced[i]) d[j++] = s.dims[i];
    else if (keep == OPR_COND_TRUE) d[j++] = 1;
  *out = (opr_shape){rank, rank ? d : NULL};
  return OPR_OK;
}

OPR_COLD static opr_status perm_length_error(opr_infer_ctx *c, opr_shape s,
                                             size_t n, const char *what) {
  shape_text t;
  return opr_infer_error(c, "%s: the permutation has %zu entries, but the "
                         "shape %s has rank %d", sx_what(what), n,
                         opr_infer_shape_text(s, t, sizeof t), s.rank);
}

opr_status opr_sx_permute(opr_infer_ctx *c, opr_shape s, opr_sx_ints perm,
                          const char *what, opr_shape *out) {
  *out = opr_shape_unknown();
  if (!perm.known)
    return s.rank < 0 ? OPR_OK : opr_sx_unknown_of_rank(c, s.rank, what, out);
  if (s.rank >= 0 && perm.n != (size_t)s.rank)
    return perm_length_error(c, s, perm.n, what);
  if (perm.n > OPR_MAX_RANK) /* s.rank unknown: its rank would be n */
    return opr_sx_unknown_of_rank(c, (int64_t)perm.n, what, out);
  int rank = (int)perm.n, a;
  int64_t *d;
  opr_status st = opr_sx_alloc(c, perm.n, &d);
  for (int k = 0; !st && k < rank; k++) {
    st = opr_sx_axis(c, perm.v[k], rank, 0, what, &a);
    if (!st) d[k] = s.rank >= 0 ? s.dims[a] : OPR_UNKNOWN_DIM;
  }
  if (!st) *out = (opr_shape){rank, rank ? d : NULL};
  return st;
}
