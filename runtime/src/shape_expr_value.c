/* Input values in the shape language (opr/shape_expr.h): value(x) as a
 * shape, a number, an element (row-major) or a list of integers. Only
 * int32 and int64 values are read; others count as not known. */
#include "shape_expr_internal.h"

#include <inttypes.h>

typedef char shape_text[256];

/* The known int32/int64 value of tensor `index` of input `arg`. */
static const opr_tensor *int_value(const opr_infer_ctx *c, size_t arg,
                                   size_t index) {
  const opr_tensor *v = sx_input_value(c, arg, index);
  if (!v || (v->dtype != OPR_DT_INT32 && v->dtype != OPR_DT_INT64))
    return NULL;
  return v;
}

static size_t value_count(const opr_tensor *v) {
  if (v->rank == 0) return 1; /* the usual ones, without a call */
  if (v->rank == 1 && v->dims) return v->dims[0] > 0 ? (size_t)v->dims[0] : 0;
  int64_t n = opr_shape_num_elements(v->rank, v->dims);
  return n > 0 ? (size_t)n : 0;
}

static int64_t element(const opr_tensor *v, size_t i) {
  if (v->dtype == OPR_DT_INT64) return ((const int64_t *)v->data)[i];
  return ((const int32_t *)v->data)[i];
}

/* Fills c->sx_ints[arg] (see shape_internal.h) unless the values would
 * need a heap block; true when it is set. */
static bool decode_ints(opr_infer_ctx *c, size_t arg) {
  const opr_tensor *v = int_value(c, arg, 0);
  size_t n = v ? value_count(v) : 0;
  const int64_t *ints = NULL;
  if (v && v->dtype == OPR_DT_INT64) {
    ints = (const int64_t *)v->data;
  } else if (v) {
    if (n > c->free_count) return false;
    int64_t *room;
    if (opr_sx_alloc(c, n, &room)) return false; /* fits: never fails */
    for (size_t i = 0; i < n; i++) room[i] = ((const int32_t *)v->data)[i];
    ints = room;
  }
  c->sx_ints[arg] = ints;
  c->sx_nints[arg] = n;
  c->sx_ints_set |= UINT32_C(1) << arg;
  return true;
}

/* Input `arg`'s tensor-0 values as int64_t, decoded once (false: not
 * decoded, read them from the tensor; *ints NULL: not known). */
static inline bool cached_ints(opr_infer_ctx *c, size_t arg, size_t index,
                               const int64_t **ints, size_t *n) {
  if (index != 0 || arg >= INFER_CACHED_INPUTS) return false;
  if (!(c->sx_ints_set >> arg & 1u) && !decode_ints(c, arg)) return false;
  *ints = c->sx_ints[arg];
  *n = c->sx_nints[arg];
  return true;
}

OPR_COLD static opr_status rank_error(opr_infer_ctx *c, size_t arg,
                                      opr_shape x, const char *rule,
                                      const char *what) {
  shape_text t;
  return opr_infer_error(c, "%s: '%s' must %s, but has shape %s",
                         sx_what(what), sx_input_name(c, arg), rule,
                         opr_infer_shape_text(x, t, sizeof t));
}

/* Values 1-D, known: each a dim, -1 the unknown dim. */
static opr_status dims_of_values(opr_infer_ctx *c, size_t arg, size_t index,
                                 const opr_tensor *v, const char *what,
                                 opr_shape *out) {
  size_t n = value_count(v);
  if (n > OPR_MAX_RANK)
    return opr_infer_error(c, "%s has %zu values, more than the highest "
                           "rank %d", sx_what(what), n, OPR_MAX_RANK);
  for (size_t i = 0; i < n; i++)
    if (element(v, i) < OPR_UNKNOWN_DIM)
      return opr_infer_error(c, "element %zu of %s is %" PRId64 ", a "
                             "negative dim", i, sx_what(what),
                             element(v, i));
  *out = (opr_shape){(int)n, NULL};
  if (v->dtype == OPR_DT_INT64) { /* the values are the dims */
    out->dims = n ? (const int64_t *)v->data : NULL;
    return OPR_OK;
  }
  const int64_t *ints;
  size_t count;
  if (cached_ints(c, arg, index, &ints, &count)) { /* decoded already */
    out->dims = n ? ints : NULL;
    return OPR_OK;
  }
  int64_t *dims;
  opr_status s = opr_sx_alloc(c, n, &dims);
  if (s) return s;
  for (size_t i = 0; i < n; i++) dims[i] = element(v, i);
  out->dims = n ? dims : NULL;
  return OPR_OK;
}

static opr_status value_shape(opr_infer_ctx *c, size_t arg, size_t index,
                               const char *what, opr_shape *out) {
  opr_shape x;
  /* The input's one tensor: opr_sx_input's read, kept already. */
  bool one = index == 0 && c->shapes && arg < c->op->ninputs &&
             c->shapes[arg].count == 1;
  opr_status s = one ? opr_sx_input(c, arg, &x)
                     : opr_sx_input_tensor(c, arg, index, &x);
  *out = opr_shape_unknown();
  if (s) return s;
  if (x.rank >= 0 && x.rank != 1) return rank_error(c, arg, x, "be 1-D", what);
  const opr_tensor *v = int_value(c, arg, index);
  if (v) return dims_of_values(c, arg, index, v, what, out);
  if (x.rank < 0 || x.dims[0] < 0) return OPR_OK;
  return opr_sx_unknown_of_rank(c, x.dims[0], what, out);
}

opr_status opr_sx_value_shape(opr_infer_ctx *c, size_t arg, size_t index,
                              const char *what, opr_shape *out) {
  uint32_t bit = arg < INFER_CACHED_INPUTS && index == 0
                     ? UINT32_C(1) << arg : 0;
  if (c->sx_values_set & bit) {
    *out = c->sx_values[arg];
    return OPR_OK;
  }
  opr_status s = value_shape(c, arg, index, what, out);
  if (!s && bit) {
    c->sx_values[arg] = *out;
    c->sx_values_set |= bit;
  }
  return s;
}

opr_status opr_sx_value_num(opr_infer_ctx *c, size_t arg, size_t index,
                            const char *what, opr_num *out) {
  const opr_tensor *v = int_value(c, arg, index);
  *out = opr_sx_unknown_num();
  if (!v) return OPR_OK;
  size_t n = value_count(v);
  if (n != 1)
    return opr_infer_error(c, "%s: '%s' has %zu values; a number needs "
                           "exactly one", sx_what(what),
                           sx_input_name(c, arg), n);
  *out = opr_sx_int(element(v, 0));
  return OPR_OK;
}

OPR_NOINLINE static opr_status value_at_rest(opr_infer_ctx *c, size_t arg,
                                            size_t index, opr_num i,
                                            const char *what,
                                            opr_num *out) {
  const opr_tensor *v = int_value(c, arg, index);
  *out = opr_sx_unknown_num();
  if (!i.known) return OPR_OK;
  if (i.v < 0 || (v && (uint64_t)i.v >= value_count(v))) {
    if (!v)
      return opr_infer_error(c, "%s: index %" PRId64 " is negative",
                             sx_what(what), i.v);
    return opr_infer_error(c, "%s: index %" PRId64 " is out of range for "
                           "the %zu values of '%s'", sx_what(what), i.v,
                           value_count(v), sx_input_name(c, arg));
  }
  if (v) *out = opr_sx_int(element(v, (size_t)i.v));
  return OPR_OK;
}

opr_status opr_sx_value_at(opr_infer_ctx *c, size_t arg, size_t index,
                           opr_num i, const char *what, opr_num *out) {
  const int64_t *ints;
  size_t n;
  if (i.known && i.v >= 0 && cached_ints(c, arg, index, &ints, &n) && ints &&
      (uint64_t)i.v < n) {
    *out = opr_sx_int(ints[i.v]);
    return OPR_OK;
  }
  return value_at_rest(c, arg, index, i, what, out);
}

opr_cond opr_sx_value_known(opr_infer_ctx *c, size_t arg, size_t index) {
  return int_value(c, arg, index) ? OPR_COND_TRUE : OPR_COND_FALSE;
}

opr_status opr_sx_value_ints(opr_infer_ctx *c, size_t arg, size_t index,
                             const char *what, opr_sx_ints *out) {
  opr_shape x;
  opr_status s = opr_sx_input_tensor(c, arg, index, &x);
  *out = (opr_sx_ints){NULL, 0, false};
  if (s) return s;
  if (x.rank > 1) return rank_error(c, arg, x, "have rank 0 or 1", what);
  const opr_tensor *v = int_value(c, arg, index);
  if (!v) return OPR_OK;
  size_t n = value_count(v);
  *out = (opr_sx_ints){NULL, n, true};
  if (v->dtype == OPR_DT_INT64 || n == 0) {
    out->v = n ? (const int64_t *)v->data : NULL;
    return OPR_OK;
  }
  int64_t *ints;
  if ((s = opr_sx_alloc(c, n, &ints))) return s;
  for (size_t i = 0; i < n; i++) ints[i] = element(v, i);
  out->v = ints;
  return OPR_OK;
}
