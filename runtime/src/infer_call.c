/* Shape inference inside a call: the op's shape function runs on the
 * actual input shapes once the kernel is chosen and before it runs. An
 * error stops the call; fully known output shapes are allocated up front
 * and handed to the kernel when it asks for them. */
#include "shape_internal.h"

#include <stdio.h>
#include <string.h>

/* Every output from its inferred shape, through opr_kernel_alloc_output
 * (which knows devices and host-memory marks); nothing when any shape
 * is partial. */
static inline bool fully_defined(opr_shape s) {
  if (s.rank < 0) return false;
  for (int i = 0; i < s.rank; i++)
    if (s.dims[i] < 0) return false;
  return true;
}

/* Every output from its inferred shape; nothing when any shape is
 * partial. Host outputs of a CPU kernel are created here directly (the
 * call's checks have resolved their dtypes); the rest go through
 * opr_kernel_alloc_output, which knows devices and host-memory marks. */
static opr_status preallocate(opr_kernel_ctx *k, const opr_infer_ctx *c) {
  for (size_t i = 0; i < c->noutputs; i++)
    if (!fully_defined(c->outputs[i])) return OPR_OK;
  const opr_call *call = k->call;
  const opr_op_def *op = call->op;
  if (c->noutputs == 1 && op->noutputs == 1 && k->device == OPR_DEVICE_CPU &&
      !call->outputs[0].tensors[0]) { /* one output tensor, on the host */
    opr_shape s = c->outputs[0];
    opr_status st = opr_tensor_create_output(
        "opr_tensor_new", opr_output_dtype_fast(call, 0, 0), s.rank, s.dims,
        &call->outputs[0].tensors[0]);
    if (st) return opr_output_alloc_error(op, 0, st);
    k->outputs_preallocated = true;
    return OPR_OK;
  }
  size_t flat = 0;
  for (size_t o = 0; o < op->noutputs; o++) {
    size_t n = opr_output_count_fast(call, o);
    for (size_t j = 0; j < n && flat < c->noutputs; j++, flat++) {
      opr_shape s = c->outputs[flat];
      opr_tensor **slot = &call->outputs[o].tensors[j];
      opr_status st;
      if (k->device == OPR_DEVICE_CPU && !*slot) {
        st = opr_tensor_create_output("opr_tensor_new",
                                      opr_output_dtype_fast(call, o, j),
                                      s.rank, s.dims, slot);
        if (st) return opr_output_alloc_error(op, o, st);
      } else {
        st = opr_kernel_alloc_output(k, o, j, s.rank, s.dims, NULL);
        if (st) return st; /* the caller releases what was allocated */
      }
    }
  }
  k->outputs_preallocated = true;
  return OPR_OK;
}

/* A caller-owned tensor fits a shape where the shape is known. */
static bool fits(const opr_tensor *t, opr_shape s) {
  if (s.rank < 0) return true;
  if (t->rank != s.rank) return false;
  for (int i = 0; i < s.rank; i++)
    if (s.dims[i] >= 0 && t->dims[i] != s.dims[i]) return false;
  return true;
}

/* Caller-owned outputs (opr_invoke_into): each against its inferred
 * shape, instead of allocating. */
static opr_status check_into(opr_kernel_ctx *k, const opr_infer_ctx *c) {
  const opr_call *call = k->call;
  size_t flat = 0;
  for (size_t o = 0; o < call->op->noutputs; o++) {
    size_t n = opr_output_count_fast(call, o);
    for (size_t j = 0; j < n && flat < c->noutputs; j++, flat++) {
      opr_shape s = c->outputs[flat];
      if (!fits(call->outputs[o].tensors[j], s))
        return opr_into_wrong_shape(k, o, j, s.rank, s.dims,
                                    "its inferred shape is");
    }
  }
  return OPR_OK;
}

/* A call's inputs are tensors and its attrs are resolved: the context is
 * set up here without opr_infer_ctx_init's general case. */
static opr_status ctx_for_call(opr_infer_ctx *c, const opr_call *call) {
  const opr_op_def *op = call->op;
  size_t n = 0;
  for (size_t o = 0; o < op->noutputs; o++) {
    size_t count = opr_output_count_fast(call, o);
    if (count > INFER_INLINE_OUTPUTS - n) /* more (or a sum that wraps) */
      return opr_infer_ctx_init(c, op, call->attrs, call->inputs, NULL);
    n += count;
  }
  c->op = op;
  c->attrs = call->attrs;
  c->tensors = call->inputs;
  c->shapes = NULL;
  c->free_dims = c->dims_inline;
  c->free_count = INFER_INLINE_DIMS;
  c->chunks = NULL;
  opr_infer_ctx_clear_reads(c);
  c->noutputs = n;
  c->outputs = c->outputs_inline;
  for (size_t i = 0; i < n; i++) c->outputs[i] = opr_shape_unknown();
  return OPR_OK;
}

static inline opr_status infer_for_call(opr_kernel_ctx *k,
                                        bool *values_read) {
  const opr_call *call = k->call;
  const opr_op_def *op = call->op;
  k->outputs_preallocated = k->outputs_into; /* the caller's tensors */
  *values_read = false;
  if (!op->shape_fn) return OPR_OK;
  opr_infer_ctx c;
  opr_status s = ctx_for_call(&c, call);
  if (s) return s;
  s = op->shape_fn(&c);
  *values_read = c.values_read;
  if (!s) s = k->outputs_into ? check_into(k, &c) : preallocate(k, &c);
  if (c.chunks || c.outputs != c.outputs_inline) opr_infer_ctx_free(&c);
  return s;
}

opr_status opr_infer_for_call(opr_kernel_ctx *k) {
  bool values_read;
  return infer_for_call(k, &values_read);
}

opr_status opr_infer_for_call_reads(opr_kernel_ctx *k, bool *values_read) {
  return infer_for_call(k, values_read);
}

OPR_COLD static opr_status wrong_shape(const opr_kernel_ctx *k, size_t arg,
                                       size_t index, int rank,
                                       const int64_t *dims) {
  const opr_op_def *op = k->call->op;
  const opr_arg_def *a = &op->outputs[arg];
  const opr_tensor *t = k->call->outputs[arg].tensors[index];
  bool is_list = a->number_attr != OPR_NO_ATTR ||
                 a->type_list_attr != OPR_NO_ATTR;
  char element[48] = "", asked[256], inferred[256];
  if (is_list) snprintf(element, sizeof element, " element %zu", index);
  return opr_error(OPR_INTERNAL, "%s: the kernel allocates output '%s'%s "
                   "with shape %s, but its inferred shape is %s", op->name,
                   a->name, element,
                   opr_shape_text(rank, dims, asked, sizeof asked),
                   opr_shape_text(t->rank, t->dims, inferred,
                                  sizeof inferred));
}

opr_status opr_infer_take_output(opr_kernel_ctx *k, size_t arg,
                                 size_t index, int rank,
                                 const int64_t *dims, opr_tensor **out) {
  opr_tensor *t = k->call->outputs[arg].tensors[index];
  bool same = t->rank == rank &&
              (rank == 0 ||
               (dims && memcmp(t->dims, dims, (size_t)rank * sizeof *dims) == 0));
  if (!same) return wrong_shape(k, arg, index, rank, dims);
  if (out) *out = t;
  return OPR_OK;
}
