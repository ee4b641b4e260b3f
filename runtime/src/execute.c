/* The generic entry: any registered op by name (or by its definition),
 * attrs by name, outputs flattened. The same check and dispatch as the
 * typed wrappers; only the name lookups are extra. */
#include "internal.h"
#include "device_internal.h"
#include "plan_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { EXEC_INLINE = 8 }; /* attrs and output args held on the stack */

opr_status opr_set_named_attrs(const opr_op_def *op,
                               const opr_named_attr *attrs, size_t n,
                               opr_attr_value *vals) {
  for (size_t i = 0; i < n; i++) {
    const char *name = attrs[i].name;
    size_t a = 0;
    /* The first letters first: most names differ there, and a strcmp
     * call costs more than the whole test. */
    while (a < op->nattrs &&
           !(name && op->attrs[a].name[0] == name[0] &&
             strcmp(op->attrs[a].name, name) == 0))
      a++;
    if (a == op->nattrs)
      return opr_error(OPR_INVALID_ARGUMENT, "%s: no attr named '%s'",
                       op->name, name ? name : "(null)");
    if (vals[a].kind != OPR_ATTR_UNSET)
      return opr_error(OPR_INVALID_ARGUMENT, "%s: attr '%s' given twice",
                       op->name, name);
    vals[a] = attrs[i].value;
  }
  return OPR_OK;
}

/* Points each output argument at its run of `outputs`, once the check
 * has resolved the counts. */
static opr_status layout_outputs(opr_call *call, opr_tensor **outputs,
                                 size_t max, bool into, size_t *total) {
  const opr_op_def *op = call->op;
  size_t n = 0;
  for (size_t o = 0; o < op->noutputs; o++) {
    size_t count = opr_output_count(call, o);
    call->outputs[o].tensors = outputs ? outputs + (n < max ? n : max) : NULL;
    call->outputs[o].count = count;
    if (count > SIZE_MAX - n) /* lengths from attrs: the sum must not wrap */
      return opr_error(OPR_INVALID_ARGUMENT, "%s: its attrs give more "
                       "output tensors than can be counted; room for %zu",
                       op->name, outputs ? max : 0);
    n += count;
  }
  if (into && n != max)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: produces %zu output %s, "
                     "given %zu", op->name, n,
                     n == 1 ? "tensor" : "tensors", max);
  if (n > 0 && (!outputs || n > max))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: produces %zu output %s, "
                     "room for %zu", op->name, n,
                     n == 1 ? "tensor" : "tensors", outputs ? max : 0);
  *total = n;
  return OPR_OK;
}

static opr_status check_request(opr_context *ctx, const opr_op_def *op,
                                size_t ninputs, const opr_input *inputs,
                                size_t nattrs, const opr_named_attr *attrs) {
  if (!ctx)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_execute: the context is "
                     "NULL");
  const char *op_name = op->name;
  if (ninputs != op->ninputs)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: takes %zu input %s, got %zu",
                     op_name, op->ninputs,
                     op->ninputs == 1 ? "argument" : "arguments", ninputs);
  if ((ninputs && !inputs) || (nattrs && !attrs))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: the %s array is NULL",
                     op_name, !inputs && ninputs ? "input" : "attr");
  return OPR_OK;
}

opr_status opr_execute(opr_context *ctx, const char *op_name,
                       const opr_input *inputs, size_t ninputs,
                       const opr_named_attr *attrs, size_t nattrs,
                       opr_tensor **outputs, size_t max_outputs,
                       size_t *noutputs) {
  if (noutputs) *noutputs = 0;
  if (!ctx || !op_name)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_execute: %s is NULL",
                     !ctx ? "the context" : "the op name");
  const opr_op_def *op = opr_find_op(op_name);
  if (!op)
    return opr_error(OPR_NOT_FOUND, "no op named '%s' is registered",
                     op_name);
  return opr_execute_op(ctx, op, inputs, ninputs, attrs, nattrs, outputs,
                        max_outputs, noutputs);
}

/* The typed wrappers' fast path for an op with has_fast_path, called
 * with no named attrs: the same tests (one input tensor of an allowed
 * type, room for the output), then opr_execute_fast; false where the
 * general path must run the call, which then gives the same result. */
static inline bool fast(opr_context *ctx, const opr_op_def *op,
                        const opr_input *inputs, opr_tensor **outputs,
                        size_t max_outputs, bool into, opr_status *s) {
  if (inputs[0].count != 1 || !inputs[0].tensors || !outputs ||
      (into ? max_outputs != 1 || !outputs[0] : max_outputs == 0))
    return false;
  const opr_tensor *in = inputs[0].tensors[0];
  if (!in) return false;
  int t = op->inputs[0].type_attr; /* 0 or none (opr_check_op_def) */
  if (t != OPR_NO_ATTR
          ? !opr_dtype_set_has(op->attrs[0].allowed_types, in->dtype)
          : in->dtype != op->inputs[0].type)
    return false;
  opr_attr_value type = {.kind = OPR_ATTR_TYPE, .u.type = in->dtype};
  opr_output out = {outputs, 1};
  opr_call call = {.op = op, .inputs = inputs, .attrs = &type,
                   .outputs = &out};
  return opr_execute_fast(ctx, &call, into, s);
}

/* The general path after the check, leaving a plan of a call that it
 * ran on the host with no named attrs (`plan`). */
static opr_status run_checked(opr_context *ctx, opr_call *call, bool into,
                              bool plan) {
  if (into) return opr_invoke_into_checked(ctx, call);
  if (!plan || ctx->device != OPR_DEVICE_CPU)
    return opr_invoke_checked(ctx, call);
  opr_plan_info info;
  opr_status s = opr_invoke_checked_plan(ctx, call, &info);
  if (!s && opr_inputs_on_host(call)) opr_plan_store(call, &info);
  return s;
}

/* opr_execute_op, and with caller-owned outputs (`into`: `outputs`
 * holds exactly the op's output tensors). */
static opr_status execute(opr_context *ctx, const opr_op_def *op,
                          const opr_input *inputs, size_t ninputs,
                          const opr_named_attr *attrs, size_t nattrs,
                          opr_tensor **outputs, size_t max_outputs,
                          bool into, size_t *noutputs) {
  opr_status s = check_request(ctx, op, ninputs, inputs, nattrs, attrs);
  if (s) return s;
  if (op->has_fast_path && nattrs == 0 && fast(ctx, op, inputs, outputs,
                                               max_outputs, into, &s)) {
    if (!s && noutputs) *noutputs = 1;
    return s;
  }

  /* Only the entries the op uses are set (below): clearing whole
   * arrays was a large part of a small call's cost. */
  opr_attr_value vals_inline[EXEC_INLINE];
  opr_output outs_inline[EXEC_INLINE];
  opr_attr_value *vals = op->nattrs <= EXEC_INLINE
                             ? vals_inline
                             : calloc(op->nattrs, sizeof *vals);
  if (vals == vals_inline)
    for (size_t i = 0; i < op->nattrs; i++)
      vals[i] = (opr_attr_value){.kind = OPR_ATTR_UNSET};
  opr_output *outs = op->noutputs <= EXEC_INLINE
                         ? outs_inline
                         : calloc(op->noutputs, sizeof *outs);
  opr_call call = {.op = op, .inputs = inputs, .attrs = vals,
                   .outputs = outs};
  size_t total = 0;
  if (!vals || !outs)
    s = opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory", op->name);
  /* Output counts are known only after the check, which may itself call
   * opr_check_outputs: until layout_outputs, every output argument gets
   * unlimited room that nothing writes to. */
  opr_tensor *unwritten = NULL;
  for (size_t o = 0; !s && o < op->noutputs; o++)
    outs[o] = (opr_output){&unwritten, SIZE_MAX};
  if (!s) s = opr_set_named_attrs(op, attrs, nattrs, vals);
  if (!s) s = op->check(&call);
  if (!s) s = layout_outputs(&call, outputs, max_outputs, into, &total);
  if (!s) s = run_checked(ctx, &call, into,
                          nattrs == 0 && !op->has_fast_path);
  if (!s && noutputs) *noutputs = total;
  opr_call_cleanup(&call);
  if (vals != vals_inline) free(vals);
  if (outs != outs_inline) free(outs);
  return s;
}

opr_status opr_execute_op_general(opr_context *ctx, const opr_op_def *op,
                                  const opr_input *inputs, size_t ninputs,
                                  opr_tensor **outputs, size_t max_outputs,
                                  size_t *noutputs) {
  return execute(ctx, op, inputs, ninputs, NULL, 0, outputs, max_outputs,
                 false, noutputs);
}

/* A call with no named attrs of an op without the fast path: by this
 * thread's plan of it where there may be one (plan_cache.h). Out of line,
 * so that the fast path's calls save no register for it. */
OPR_NOINLINE static opr_status execute_plain(
    opr_context *ctx, const opr_op_def *op, const opr_input *inputs,
    size_t ninputs, opr_tensor **outputs, size_t max_outputs,
    size_t *noutputs) {
  if (opr_plan_maybe(op))
    return opr_plan_execute(ctx, op, inputs, ninputs, outputs, max_outputs,
                            noutputs);
  return opr_execute_op_general(ctx, op, inputs, ninputs, outputs,
                                max_outputs, noutputs);
}

opr_status opr_execute_op(opr_context *ctx, const opr_op_def *op,
                          const opr_input *inputs, size_t ninputs,
                          const opr_named_attr *attrs, size_t nattrs,
                          opr_tensor **outputs, size_t max_outputs,
                          size_t *noutputs) {
  if (noutputs) *noutputs = 0;
  if (!op)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_execute_op: the op is NULL");
  if (nattrs == 0 && !op->has_fast_path)
    return execute_plain(ctx, op, inputs, ninputs, outputs, max_outputs,
                         noutputs);
  return execute(ctx, op, inputs, ninputs, attrs, nattrs, outputs,
                 max_outputs, false, noutputs);
}

opr_status opr_execute_op_into(opr_context *ctx, const opr_op_def *op,
                               const opr_input *inputs, size_t ninputs,
                               const opr_named_attr *attrs, size_t nattrs,
                               opr_tensor *const *outputs, size_t noutputs) {
  if (!op)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_execute_op_into: the op is "
                     "NULL");
  if (noutputs && !outputs)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: the output array is NULL",
                     op->name);
  /* Only read: the caller-owned path writes no slot. */
  return execute(ctx, op, inputs, ninputs, attrs, nattrs,
                 (opr_tensor **)(uintptr_t)outputs, noutputs, true, NULL);
}

opr_status opr_execute_into(opr_context *ctx, const char *op_name,
                            const opr_input *inputs, size_t ninputs,
                            const opr_named_attr *attrs, size_t nattrs,
                            opr_tensor *const *outputs, size_t noutputs) {
  if (!ctx || !op_name)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_execute_into: %s is NULL",
                     !ctx ? "the context" : "the op name");
  const opr_op_def *op = opr_find_op(op_name);
  if (!op)
    return opr_error(OPR_NOT_FOUND, "no op named '%s' is registered",
                     op_name);
  return opr_execute_op_into(ctx, op, inputs, ninputs, attrs, nattrs,
                             outputs, noutputs);
}
