/* opr_infer_shapes: an op's shape function on partial inputs, for graph
 * builders. No tensors: the inputs are shapes (and values where known),
 * the attrs come by name. */
#include "shape_internal.h"

#include <stdlib.h>
#include <string.h>

enum { INFER_INLINE_ATTRS = 16 };

/* A shape a caller passes: rank -1 .. OPR_MAX_RANK, dims >= -1. */
static bool shape_valid(opr_shape s) {
  if (s.rank < OPR_UNKNOWN_RANK || s.rank > OPR_MAX_RANK) return false;
  if (s.rank > 0 && !s.dims) return false;
  for (int i = 0; i < s.rank; i++)
    if (s.dims[i] < OPR_UNKNOWN_DIM) return false;
  return true;
}

static opr_status check_input(const opr_op_def *op, size_t arg,
                              const opr_shape_input *in) {
  const opr_arg_def *a = &op->inputs[arg];
  bool is_list = a->number_attr != OPR_NO_ATTR ||
                 a->type_list_attr != OPR_NO_ATTR;
  if (!is_list && in->count != 1)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: input '%s' takes one shape, "
                     "got %zu", op->name, a->name, in->count);
  if (in->count && !in->shapes)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: input '%s' has no shapes",
                     op->name, a->name);
  for (size_t i = 0; i < in->count; i++) {
    opr_shape s = in->shapes[i];
    const opr_tensor *v = in->values ? in->values[i] : NULL;
    char ts[128], tv[128];
    if (!shape_valid(s))
      return opr_error(OPR_INVALID_ARGUMENT, "%s: input '%s' element %zu: "
                       "invalid shape (rank %d)", op->name, a->name, i,
                       s.rank);
    if (v && !opr_shape_compatible(s, (opr_shape){v->rank, v->dims}))
      return opr_error(OPR_INVALID_ARGUMENT, "%s: input '%s' element %zu: "
                       "the value's shape %s does not fit the shape %s",
                       op->name, a->name, i,
                       opr_shape_text(v->rank, v->dims, tv, sizeof tv),
                       opr_shape_text(s.rank, s.dims, ts, sizeof ts));
  }
  return OPR_OK;
}

/* Named attrs into vals (one per attr of the op), kinds checked here:
 * inference reads them before any attr check would. */
static opr_status set_attrs(const opr_op_def *op, const opr_named_attr *attrs,
                            size_t n, opr_attr_value *vals) {
  opr_status s = opr_set_named_attrs(op, attrs, n, vals);
  for (size_t a = 0; !s && a < op->nattrs; a++) {
    const opr_attr_def *d = &op->attrs[a];
    const opr_attr_value *v = &vals[a];
    if (v->kind != OPR_ATTR_UNSET &&
        (v->kind != d->type.kind || v->is_list != d->type.is_list))
      s = opr_attr_kind_error(op, d, v);
  }
  return s;
}

/* List lengths give their int attrs; unset attrs take their defaults. */
static opr_status complete_attrs(const opr_op_def *op,
                                 const opr_shape_input *inputs,
                                 opr_attr_value *vals) {
  for (size_t i = 0; i < op->ninputs; i++) {
    int n = op->inputs[i].number_attr;
    if (n == OPR_NO_ATTR) continue;
    int64_t count = (int64_t)inputs[i].count;
    if (vals[n].kind == OPR_ATTR_UNSET)
      vals[n] = (opr_attr_value){.kind = OPR_ATTR_INT, .u.i = count};
    else if (vals[n].u.i != count)
      return opr_error(OPR_INVALID_ARGUMENT, "%s: input '%s' has %lld "
                       "shapes, but attr %s is %lld", op->name,
                       op->inputs[i].name, (long long)count,
                       op->attrs[n].name, (long long)vals[n].u.i);
  }
  for (size_t a = 0; a < op->nattrs; a++)
    if (vals[a].kind == OPR_ATTR_UNSET && op->attrs[a].default_value)
      vals[a] = *op->attrs[a].default_value;
  return OPR_OK;
}

/* The context's outputs copied into one block the caller frees. */
static opr_status collect(const opr_infer_ctx *c, opr_inferred_shapes *out) {
  size_t ndims = 0;
  for (size_t i = 0; i < c->noutputs; i++)
    ndims += c->outputs[i].rank > 0 ? (size_t)c->outputs[i].rank : 0;
  size_t head = c->noutputs * sizeof(opr_shape);
  char *block = malloc(head + ndims * sizeof(int64_t) + 1);
  if (!block)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory inferring "
                     "shapes", c->op->name);
  opr_shape *shapes = (opr_shape *)(void *)block;
  int64_t *dims = (int64_t *)(void *)(block + head);
  for (size_t i = 0; i < c->noutputs; i++) {
    opr_shape s = c->outputs[i];
    shapes[i] = (opr_shape){s.rank, s.rank > 0 ? dims : NULL};
    for (int d = 0; d < s.rank; d++) *dims++ = s.dims[d];
  }
  out->shapes = shapes;
  out->count = c->noutputs;
  return OPR_OK;
}

static opr_status check_request(const opr_op_def *op,
                                const opr_shape_input *inputs,
                                size_t ninputs, const opr_named_attr *attrs,
                                size_t nattrs) {
  if (!op)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_infer_shapes: the op is "
                     "NULL");
  /* A registered table was checked when registered; another one (a
   * graph builder's own) is checked here, so that its names and attr
   * references can be trusted. */
  if (!op->name || opr_find_op(op->name) != op) {
    opr_status s = opr_check_op_def(op, "opr_infer_shapes");
    if (s) return s;
  }
  if (ninputs != op->ninputs)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: takes %zu input %s, got %zu",
                     op->name, op->ninputs,
                     op->ninputs == 1 ? "argument" : "arguments", ninputs);
  if ((ninputs && !inputs) || (nattrs && !attrs))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: the %s array is NULL",
                     op->name, ninputs && !inputs ? "input" : "attr");
  opr_status s = OPR_OK;
  for (size_t i = 0; !s && i < ninputs; i++)
    s = check_input(op, i, &inputs[i]);
  return s;
}

opr_status opr_infer_shapes(const opr_op_def *op,
                            const opr_shape_input *inputs, size_t ninputs,
                            const opr_named_attr *attrs, size_t nattrs,
                            opr_inferred_shapes *out) {
  if (!out)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_infer_shapes: out is NULL");
  *out = (opr_inferred_shapes){NULL, 0};
  opr_status s = check_request(op, inputs, ninputs, attrs, nattrs);
  if (s) return s;
  opr_attr_value vals_inline[INFER_INLINE_ATTRS] = {{0}};
  opr_attr_value *vals = op->nattrs <= INFER_INLINE_ATTRS
                             ? vals_inline
                             : calloc(op->nattrs, sizeof *vals);
  if (!vals)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory inferring "
                     "shapes", op->name);
  s = set_attrs(op, attrs, nattrs, vals);
  if (!s) s = complete_attrs(op, inputs, vals);
  opr_infer_ctx c;
  if (!s) s = opr_infer_ctx_init(&c, op, vals, NULL, inputs);
  if (!s) {
    if (op->shape_fn) s = op->shape_fn(&c);
    if (!s) s = collect(&c, out);
    opr_infer_ctx_free(&c);
  }
  if (vals != vals_inline) free(vals);
  return s;
}

opr_status opr_infer_shapes_by_name(const char *op,
                                    const opr_shape_input *inputs,
                                    size_t ninputs,
                                    const opr_named_attr *attrs,
                                    size_t nattrs, opr_inferred_shapes *out) {
  if (out) *out = (opr_inferred_shapes){NULL, 0};
  if (!op)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_infer_shapes: the op name "
                     "is NULL");
  const opr_op_def *def = opr_find_op(op);
  if (!def)
    return opr_error(OPR_NOT_FOUND, "no op named '%s' is registered", op);
  return opr_infer_shapes(def, inputs, ninputs, attrs, nattrs, out);
}

void opr_inferred_shapes_free(opr_inferred_shapes *shapes) {
  if (!shapes) return;
  free(shapes->shapes);
  shapes->shapes = NULL;
  shapes->count = 0;
}
