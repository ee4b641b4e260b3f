/* Helpers the shape_expr_*.c files share: number text, storage, axes and
 * the join of two shapes. */
#include "shape_expr_internal.h"

#include <inttypes.h>
#include <stdio.h>

const char *opr_sx_num_text(opr_num n, sx_num_text buf) {
  if (!n.known) return "?";
  snprintf(buf, sizeof(sx_num_text), "%" PRId64, n.v);
  return buf;
}

OPR_COLD opr_status opr_sx_out_of_memory(const opr_infer_ctx *c) {
  return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory inferring "
                   "shapes", c->op->name);
}

const char opr_sx_valid[] = "VALID", opr_sx_same_padding[] = "SAME";

OPR_COLD static opr_status too_many_dims(opr_infer_ctx *c, int64_t rank,
                                         const char *what) {
  return opr_infer_error(c, "%s has rank %" PRId64 ", more than the "
                         "highest rank %d", sx_what(what), rank,
                         OPR_MAX_RANK);
}

opr_status opr_sx_unknown_of_rank(opr_infer_ctx *c, int64_t rank,
                                  const char *what, opr_shape *out) {
  *out = opr_shape_unknown();
  if (rank > OPR_MAX_RANK) return too_many_dims(c, rank, what);
  int64_t *dims;
  opr_status s = opr_sx_alloc(c, (size_t)rank, &dims);
  if (s) return s;
  for (int64_t i = 0; i < rank; i++) dims[i] = OPR_UNKNOWN_DIM;
  *out = (opr_shape){(int)rank, rank ? dims : NULL};
  return OPR_OK;
}

OPR_COLD static opr_status axis_error(opr_infer_ctx *c, int64_t axis,
                                      int rank, int extra,
                                      const char *what) {
  return opr_infer_error(c, "axis %" PRId64 " is out of range for rank %d "
                         "in %s; it must be in [%d, %d%c", axis, rank,
                         sx_what(what), -rank - extra, rank,
                         extra ? ']' : ')');
}

opr_status opr_sx_axis(opr_infer_ctx *c, int64_t axis, int rank, int extra,
                       const char *what, int *out) {
  int64_t top = (int64_t)rank + extra; /* positions: [0, top) */
  int64_t i = axis < 0 ? axis + top : axis; /* axis >= -top: no overflow */
  if (axis < -top || i >= top) return axis_error(c, axis, rank, extra, what);
  *out = (int)i;
  return OPR_OK;
}

opr_status opr_sx_join_shapes(opr_infer_ctx *c, opr_shape a, opr_shape b,
                              opr_shape *out) {
  if (a.rank < 0 || b.rank < 0 || a.rank != b.rank) {
    *out = opr_shape_unknown();
    return OPR_OK;
  }
  int i = 0;
  while (i < a.rank && (a.dims[i] < 0 || a.dims[i] == b.dims[i])) i++;
  if (i == a.rank) { /* a knows nothing b contradicts: a is the join */
    *out = a;
    return OPR_OK;
  }
  int64_t *dims;
  opr_status s = opr_sx_alloc(c, (size_t)a.rank, &dims);
  if (s) return s;
  for (i = 0; i < a.rank; i++)
    dims[i] = a.dims[i] >= 0 && a.dims[i] == b.dims[i] ? a.dims[i]
                                                       : OPR_UNKNOWN_DIM;
  *out = (opr_shape){a.rank, dims};
  return OPR_OK;
}

/* Dims in the context's inline room live until inference ends: the first
 * output (one tensor, the usual case) takes them as they are. */
opr_status opr_sx_set_output(opr_infer_ctx *c, size_t arg, opr_shape s) {
  const opr_op_def *op = c->op;
  uintptr_t at = (uintptr_t)s.dims, room = (uintptr_t)c->dims_inline;
  if (arg != 0 || s.rank <= 0 || at < room ||
      at >= room + sizeof c->dims_inline || op->noutputs == 0 ||
      op->outputs[0].number_attr != OPR_NO_ATTR ||
      op->outputs[0].type_list_attr != OPR_NO_ATTR)
    return opr_infer_set_output(c, arg, s);
  for (int i = 0; i < s.rank; i++) /* checked as a copy would be */
    if (s.dims[i] < OPR_UNKNOWN_DIM) return opr_infer_set_output(c, arg, s);
  c->outputs[0] = s;
  return OPR_OK;
}
