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
static opr_status preallocate(opr_kernel_ctx *k, const opr_infer_ctx *c) {
  for (size_t i = 0; i < c->noutputs; i++)
    if (!opr_shape_fully_defined(c->outputs[i])) return OPR_OK;
  const opr_op_def *op = k->call->op;
  size_t flat = 0;
  for (size_t o = 0; o < op->noutputs; o++) {
    size_t n = opr_output_count_fast(k->call, o);
    for (size_t j = 0; j < n && flat < c->noutputs; j++, flat++) {
      opr_shape s = c->outputs[flat];
      opr_status st = opr_kernel_alloc_output(k, o, j, s.rank, s.dims, NULL);
      if (st) return st; /* the caller releases what was allocated */
    }
  }
  k->outputs_preallocated = true;
  return OPR_OK;
}

opr_status opr_infer_for_call(opr_kernel_ctx *k) {
  const opr_call *call = k->call;
  const opr_op_def *op = call->op;
  k->outputs_preallocated = false;
  if (!op->shape_fn) return OPR_OK;
  opr_infer_ctx c;
  opr_status s = opr_infer_ctx_init(&c, op, call->attrs, call->inputs, NULL);
  if (s) return s;
  s = op->shape_fn(&c);
  if (!s) s = preallocate(k, &c);
  opr_infer_ctx_free(&c);
  return s;
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
