/* The generic entry by a plan (plan_cache.h): the call's attrs, kernel
 * and output shapes as the general path found them for inputs of these
 * dtypes and shapes, so that what is left is the outputs and the kernel,
 * with the results and errors of opr_invoke_checked. */
#include "plan_cache.h"
#include "tensor_small.h"

/* Output argument and element of flat output `i`. */
static void flat_slot(const opr_call *call, size_t i, size_t *o, size_t *j) {
  *o = 0;
  while (i >= call->outputs[*o].count) i -= call->outputs[(*o)++].count;
  *j = i;
}

OPR_COLD static opr_status alloc_error(const opr_call *call, size_t i,
                                       opr_status s) {
  size_t o, j;
  flat_slot(call, i, &o, &j);
  return opr_output_alloc_error(call->op, o, s);
}

OPR_COLD static opr_status unset(const opr_call *call, size_t i) {
  size_t o, j;
  flat_slot(call, i, &o, &j);
  return opr_unset_output(call, o, j);
}

/* The outputs from the plan's shapes; small ones from this thread's
 * cache without a call. */
static opr_status preallocate(const opr_call *call, opr_tensor **flat,
                              size_t n, const opr_plan *p) {
  for (size_t i = 0; i < n; i++) {
    const opr_plan_shape *sh = &p->out[i];
    flat[i] = opr_tensor_small_host(sh->dtype, sh->rank, sh->dims);
    if (flat[i]) continue;
    opr_status s = opr_tensor_create_output("opr_tensor_new", sh->dtype,
                                            sh->rank, sh->dims, &flat[i]);
    if (s) return alloc_error(call, i, s);
  }
  return OPR_OK;
}

/* The kernel on the planned call, its outputs over `flat` (n of them). */
static opr_status run(opr_context *ctx, opr_call *call, const opr_plan *p,
                      opr_tensor **flat, size_t n) {
  for (size_t i = 0; i < n; i++) flat[i] = NULL;
  opr_kernel_ctx k = {ctx, call, &p->kernel->def, OPR_DEVICE_CPU,
                      p->preallocate, false};
  opr_status s = p->preallocate ? preallocate(call, flat, n, p) : OPR_OK;
  if (!s) s = p->kernel->def.fn(&k);
  for (size_t i = 0; !s && i < n; i++)
    if (!flat[i]) s = unset(call, i);
  if (s) {
    for (size_t i = 0; i < n; i++) {
      opr_tensor_unref(flat[i]);
      flat[i] = NULL;
    }
  } else if (OPR_UNLIKELY(opr_tape_top != NULL)) {
    opr_tape_record_call(call);
  }
  return s;
}

opr_status opr_plan_execute(opr_context *ctx, const opr_op_def *op,
                            const opr_input *inputs, size_t ninputs,
                            opr_tensor **outputs, size_t max_outputs,
                            size_t *noutputs) {
  opr_plans *ps = opr_plans_mine;
  opr_plan *p = ctx && ctx->device == OPR_DEVICE_CPU &&
                        ninputs == op->ninputs && (!ninputs || inputs)
                    ? opr_plan_find(ps, op, inputs)
                    : NULL;
  size_t n = p ? p->nout : 0;
  if (!p || (n > 0 && (!outputs || n > max_outputs)))
    return opr_execute_op_general(ctx, op, inputs, ninputs, outputs,
                                  max_outputs, noutputs);
  opr_output outs[OPR_PLAN_ARGS];
  for (size_t o = 0, at = 0; o < op->noutputs; o++) {
    outs[o] = (opr_output){outputs ? outputs + at : NULL, p->out_counts[o]};
    at += p->out_counts[o];
  }
  /* The plan's attrs, which stay as they are while it runs (busy). */
  opr_call call = {.op = op, .inputs = inputs, .attrs = p->attrs,
                   .outputs = outs};
  ps->busy++;
  opr_status s = run(ctx, &call, p, outputs, n);
  ps->busy--;
  if (!s && noutputs) *noutputs = n;
  return s;
}
