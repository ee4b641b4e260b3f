/* Inputs in the shape language (opr/shape_expr.h): an input's shape
 * (merged with its value's shape when the value is known), the tensors
 * of list inputs, sum() and concat() over them. */
#include "shape_expr_internal.h"

#include <inttypes.h>

typedef char shape_text[256];

static const char *text(opr_shape s, shape_text buf) {
  return opr_infer_shape_text(s, buf, sizeof(shape_text));
}

opr_status opr_sx_input_tensor(opr_infer_ctx *c, size_t arg, size_t index,
                               opr_shape *out) {
  /* A call's values are its tensors: nothing to merge. */
  if (!c->shapes) {
    *out = opr_infer_input(c, arg, index);
    return OPR_OK;
  }
  if (arg >= c->op->ninputs || index >= c->shapes[arg].count) {
    *out = opr_shape_unknown();
    return OPR_OK;
  }
  const opr_shape_input *in = &c->shapes[arg];
  const opr_tensor *v = in->values ? in->values[index] : NULL;
  *out = in->shapes[index];
  if (!v || opr_shape_fully_defined(*out)) return OPR_OK;
  return opr_infer_merge(c, *out, (opr_shape){v->rank, v->dims}, NULL, out);
}

OPR_COLD static opr_status list_mismatch(opr_infer_ctx *c, size_t arg,
                                         size_t j, opr_shape before,
                                         opr_shape next) {
  shape_text ta, tb;
  return opr_infer_error(c, "the tensors of '%s' must have compatible "
                         "shapes, but element %zu is %s and the ones "
                         "before it are %s", sx_input_name(c, arg), j,
                         text(next, tb), text(before, ta));
}

static opr_status input_shape(opr_infer_ctx *c, size_t arg, opr_shape *out) {
  /* One tensor (merging it alone changes nothing): no loop. */
  if (c->shapes && arg < c->op->ninputs && c->shapes[arg].count == 1)
    return opr_sx_input_tensor(c, arg, 0, out);
  if (c->tensors || arg >= c->op->ninputs || !c->shapes[arg].values)
    return opr_infer_input_shape(c, arg, out);
  size_t n = opr_infer_num_inputs(c, arg);
  *out = opr_shape_unknown();
  for (size_t j = 0; j < n; j++) {
    opr_shape next;
    opr_status s = opr_sx_input_tensor(c, arg, j, &next);
    if (s) return s;
    if (!opr_shape_compatible(*out, next))
      return list_mismatch(c, arg, j, *out, next);
    if ((s = opr_infer_merge(c, *out, next, NULL, out))) return s;
  }
  return OPR_OK;
}

/* The first read of input `arg`, kept (apart: the read after it is
 * a few instructions). */
OPR_NOINLINE static opr_status first_read(opr_infer_ctx *c, size_t arg,
                                          opr_shape *out) {
  const opr_shape_input *in = c->shapes && arg < c->op->ninputs
                                  ? &c->shapes[arg] : NULL;
  /* One tensor of a fully known shape: its value's shape merges into it
   * without a change. */
  opr_status s = OPR_OK;
  if (in && in->count == 1 && opr_shape_fully_defined(in->shapes[0]))
    *out = in->shapes[0];
  else
    s = input_shape(c, arg, out);
  if (!s && arg < INFER_CACHED_INPUTS) {
    c->sx_inputs[arg] = *out;
    c->sx_inputs_set |= UINT32_C(1) << arg;
  }
  return s;
}

opr_status opr_sx_input(opr_infer_ctx *c, size_t arg, opr_shape *out) {
  if (arg >= INFER_CACHED_INPUTS) return first_read(c, arg, out);
  if (c->sx_inputs_set >> arg & 1u) {
    *out = c->sx_inputs[arg];
    return OPR_OK;
  }
  const opr_shape_input *in = c->shapes && arg < c->op->ninputs
                                  ? &c->shapes[arg] : NULL;
  if (!in || in->count != 1 || in->values) return first_read(c, arg, out);
  /* One tensor without a value (opr_infer_shapes' usual input). */
  *out = c->sx_inputs[arg] = in->shapes[0];
  c->sx_inputs_set |= UINT32_C(1) << arg;
  return OPR_OK;
}

opr_status opr_sx_input_at(opr_infer_ctx *c, size_t arg, opr_num i,
                           const char *what, opr_shape *out) {
  size_t n = opr_infer_num_inputs(c, arg);
  *out = opr_shape_unknown();
  if (!i.known) return OPR_OK;
  if (i.v < 0 || (uint64_t)i.v >= n)
    return opr_infer_error(c, "%s: index %" PRId64 " is out of range for "
                           "the %zu tensors of '%s'", sx_what(what), i.v, n,
                           sx_input_name(c, arg));
  return opr_sx_input_tensor(c, arg, (size_t)i.v, out);
}

opr_num opr_sx_length(opr_infer_ctx *c, size_t arg) {
  size_t n = opr_infer_num_inputs(c, arg);
  return opr_sx_dim_num(n > INT64_MAX ? OPR_UNKNOWN_DIM : (int64_t)n);
}

/* The shapes of list input `arg`'s tensors as they are, when nothing is
 * merged into them (opr_infer_shapes without values); else NULL. */
static const opr_shape *plain_shapes(const opr_infer_ctx *c, size_t arg) {
  if (!c->shapes || arg >= c->op->ninputs || c->shapes[arg].values)
    return NULL;
  return c->shapes[arg].shapes;
}

/* opr_sx_input_tensor, straight from `plain` when there is one. */
static inline opr_status tensor_shape(opr_infer_ctx *c, size_t arg, size_t j,
                                      const opr_shape *plain,
                                      opr_shape *out) {
  if (!plain) return opr_sx_input_tensor(c, arg, j, out);
  *out = plain[j];
  return OPR_OK;
}

/* ---- sum(L, i) ---- */

opr_status opr_sx_sum_dims(opr_infer_ctx *c, size_t arg, opr_num i,
                           const char *what, opr_num *out) {
  size_t n = opr_infer_num_inputs(c, arg);
  opr_num sum = opr_sx_dim_num(0);
  *out = opr_sx_unknown_num();
  for (size_t j = 0; j < n && i.known; j++) {
    opr_shape s;
    int axis;
    opr_status st = opr_sx_input_tensor(c, arg, j, &s);
    if (!st && s.rank >= 0) st = opr_sx_axis(c, i.v, s.rank, 0, what, &axis);
    if (st) return st;
    opr_num d = s.rank >= 0 ? opr_sx_dim_num(s.dims[axis])
                            : opr_sx_unknown_num();
    if (!d.known) sum.known = false; /* go on: later tensors may be errors */
    else if (sum.known && (st = opr_sx_add(c, sum, d, what, &sum))) return st;
  }
  if (i.known) *out = opr_sx_computed(sum);
  return OPR_OK;
}

/* ---- concat(L, axis) ---- */

/* The rank the tensors of `arg` agree on (-1: none known). */
static opr_status concat_rank(opr_infer_ctx *c, size_t arg,
                              const opr_shape *plain, const char *what,
                              int *rank) {
  size_t n = opr_infer_num_inputs(c, arg), first = 0;
  *rank = OPR_UNKNOWN_RANK;
  for (size_t j = 0; j < n; j++) {
    opr_shape s, f;
    opr_status st = tensor_shape(c, arg, j, plain, &s);
    if (st || s.rank < 0) {
      if (st) return st;
      continue;
    }
    if (*rank < 0) {
      *rank = s.rank;
      first = j;
    } else if (s.rank != *rank) {
      shape_text ta, tb;
      if ((st = opr_sx_input_tensor(c, arg, first, &f))) return st;
      return opr_infer_error(c, "%s: the tensors of '%s' must have the same "
                             "rank, but element %zu is %s and element %zu "
                             "is %s", sx_what(what), sx_input_name(c, arg),
                             first, text(f, ta), j, text(s, tb));
    }
  }
  return OPR_OK;
}

OPR_COLD static opr_status concat_mismatch(opr_infer_ctx *c, size_t arg,
                                           size_t j, int p, int64_t want,
                                           int64_t got, const char *what) {
  return opr_infer_error(c, "%s: dim %d of the tensors of '%s' must be "
                         "equal, but is %" PRId64 " before element %zu and "
                         "%" PRId64 " in it", sx_what(what), p,
                         sx_input_name(c, arg), want, j, got);
}

/* Tensor j into dims: merged except at `axis`, summed there. */
static opr_status concat_one(opr_infer_ctx *c, size_t arg, size_t j,
                             const opr_shape *plain, int axis, int64_t *dims,
                             opr_num *sum, const char *what) {
  opr_shape s;
  opr_status st = tensor_shape(c, arg, j, plain, &s);
  if (st || s.rank < 0) {
    sum->known = false;
    return st;
  }
  for (int p = 0; p < s.rank; p++) {
    int64_t d = s.dims[p];
    if (p == axis) {
      if (d < 0) sum->known = false;
      else if (sum->known &&
               (st = opr_sx_add(c, *sum, opr_sx_dim_num(d), what, sum)))
        return st;
    } else if (dims[p] < 0) {
      dims[p] = d < 0 ? OPR_UNKNOWN_DIM : d;
    } else if (d >= 0 && d != dims[p]) {
      return concat_mismatch(c, arg, j, p, dims[p], d, what);
    }
  }
  return OPR_OK;
}

opr_status opr_sx_concat(opr_infer_ctx *c, size_t arg, opr_num axis,
                         const char *what, opr_shape *out) {
  int rank, a;
  const opr_shape *plain = plain_shapes(c, arg);
  *out = opr_shape_unknown();
  opr_status st = concat_rank(c, arg, plain, what, &rank);
  if (st || rank < 0) return st;
  /* TensorFlow's ConcatV2: scalars never concatenate, whatever the axis. */
  if (rank == 0)
    return opr_infer_error(c, "%s: the tensors of '%s' are scalars, which "
                           "do not concatenate", sx_what(what),
                           sx_input_name(c, arg));
  if (!axis.known) return opr_sx_unknown_of_rank(c, rank, what, out);
  if ((st = opr_sx_axis(c, axis.v, rank, 0, what, &a))) return st;
  int64_t *dims;
  if ((st = opr_sx_alloc(c, (size_t)rank, &dims))) return st;
  for (int p = 0; p < rank; p++) dims[p] = OPR_UNKNOWN_DIM;
  opr_num sum = opr_sx_dim_num(0);
  size_t n = opr_infer_num_inputs(c, arg);
  for (size_t j = 0; j < n; j++)
    if ((st = concat_one(c, arg, j, plain, a, dims, &sum, what))) return st;
  dims[a] = sum.known ? sum.v : OPR_UNKNOWN_DIM;
  *out = (opr_shape){rank, dims};
  return OPR_OK;
}
