/* Dispatch with caller-owned outputs: the output slots hold the caller's
 * tensors, checked against the call (dtype, host memory, inferred shape)
 * before the kernel writes them. Nothing is allocated, and nothing is
 * released on failure: the tensors stay the caller's. */
#include "internal.h"
#include "device_internal.h"
#include "shape_internal.h"

#include <stdio.h>
#include <string.h>

/* " element 2" for an element of a list output, else "". */
static const char *element_text(const opr_arg_def *a, size_t j, char *buf,
                                size_t n) {
  buf[0] = '\0';
  if (a->number_attr != OPR_NO_ATTR || a->type_list_attr != OPR_NO_ATTR)
    snprintf(buf, n, " element %zu", j);
  return buf;
}

OPR_COLD static opr_status bad_output(const opr_call *call, size_t o,
                                      size_t j, const opr_tensor *t) {
  const opr_op_def *op = call->op;
  const opr_arg_def *a = &op->outputs[o];
  char el[48];
  element_text(a, j, el, sizeof el);
  if (!t)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: output '%s'%s is NULL "
                     "(caller-owned outputs are the caller's tensors)",
                     op->name, a->name, el);
  opr_dtype want = opr_output_dtype_fast(call, o, j);
  if (t->dtype != want)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: output '%s'%s has dtype %s; "
                     "the call produces %s", op->name, a->name, el,
                     opr_dtype_name(t->dtype), opr_dtype_name(want));
  return opr_error(OPR_INVALID_ARGUMENT, "%s: output '%s'%s is in %s memory; "
                   "caller-owned outputs must be host tensors", op->name,
                   a->name, el, opr_device_name(t->device));
}

/* Every slot holds a host tensor of the dtype the call resolved. */
static opr_status check_outputs(const opr_call *call) {
  const opr_op_def *op = call->op;
  for (size_t o = 0; o < op->noutputs; o++) {
    size_t n = opr_output_count_fast(call, o);
    for (size_t j = 0; j < n; j++) {
      const opr_tensor *t = call->outputs[o].tensors[j];
      if (!t || t->dtype != opr_output_dtype_fast(call, o, j) ||
          t->device != OPR_DEVICE_CPU)
        return bad_output(call, o, j, t);
    }
  }
  return OPR_OK;
}

OPR_COLD static opr_status device_kernel(const opr_call *call,
                                         opr_device_kind device) {
  return opr_error(OPR_UNIMPLEMENTED, "%s: caller-owned outputs need a CPU "
                   "kernel; the call's kernel runs on %s", call->op->name,
                   opr_device_name(device));
}

opr_status opr_invoke_into_checked(opr_context *ctx, opr_call *call) {
  const opr_op_def *op = call->op;
  if (opr_first_bad_output(call) != op->noutputs)
    return opr_check_outputs(call);
  opr_status s = check_outputs(call);
  if (s) return s;
  const opr_kernel_rec *r = opr_select_kernel(
      opr_state_kernels(op->state, __ATOMIC_ACQUIRE), call, ctx->device);
  if (!r) return opr_no_kernel(call, ctx->device);
  if (ctx->device != OPR_DEVICE_CPU) return device_kernel(call, ctx->device);
  opr_kernel_ctx k = {ctx, call, &r->def, ctx->device, true, true};
  /* Checks the caller's tensors against the inferred shapes. */
  s = opr_infer_for_call(&k);
  /* A CPU kernel given device inputs runs on host copies of them. */
  if (!s) s = opr_inputs_on_host(call) ? r->def.fn(&k) : opr_device_run(&k);
  if (!s && OPR_UNLIKELY(opr_tape_top != NULL)) opr_tape_record_call(call);
  return s;
}

opr_status opr_invoke_into(opr_context *ctx, opr_call *call) {
  const opr_op_def *op = call ? call->op : NULL;
  if (!ctx || !op || !op->state || !opr_state_registered(op->state) ||
      (op->ninputs && !call->inputs) || (op->nattrs && !call->attrs))
    return opr_invoke(ctx, call); /* says what is missing */
  opr_status s = op->check(call);
  if (!s) s = opr_invoke_into_checked(ctx, call);
  if (call->heap_types) opr_call_cleanup(call);
  return s;
}

OPR_COLD opr_status opr_into_wrong_shape(const opr_kernel_ctx *k,
                                         size_t arg, size_t index, int rank,
                                         const int64_t *dims,
                                         const char *whose) {
  const opr_op_def *op = k->call->op;
  const opr_arg_def *a = &op->outputs[arg];
  const opr_tensor *t = k->call->outputs[arg].tensors[index];
  char el[48], given[256], want[256];
  element_text(a, index, el, sizeof el);
  return opr_error(OPR_INVALID_ARGUMENT, "%s: output '%s'%s has shape %s; "
                   "%s %s", op->name, a->name, el,
                   opr_shape_text(t->rank, t->dims, given, sizeof given),
                   whose, opr_shape_text(rank, dims, want, sizeof want));
}
