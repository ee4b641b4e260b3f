/* A kernel call on a device. The kernel sees a copy of the call whose
 * inputs are where it wants them: on its device, or in host memory for
 * the arguments its registration marks host_memory (Pad's paddings).
 * Inputs already in the right place are shared, not copied. The outputs
 * it allocates on the device come back to host memory before the call
 * returns, so callers of a GPU context get host tensors as from a CPU
 * one (opr_tensor_to_device moves inputs up front). */
#include "device_internal.h"

#include <stdlib.h>
#include <string.h>

static bool host_memory_arg(const opr_kernel_def *kd, const char *name) {
  for (size_t i = 0; kd && i < kd->nhost_memory; i++)
    if (strcmp(kd->host_memory[i], name) == 0) return true;
  return false;
}

/* Restates a failed copy of input `arg`. */
OPR_COLD static opr_status input_error(const opr_op_def *op, size_t arg,
                                       opr_device_kind where, opr_status s,
                                       opr_input *ins, opr_input **out) {
  opr_status r = opr_error(opr_status_code(s), "%s: input '%s' cannot go "
                           "to %s memory: %s", op->name, op->inputs[arg].name,
                           where == OPR_DEVICE_CPU ? "host" : "device",
                           opr_status_message(s));
  opr_status_free(s);
  *out = ins;
  return r;
}

/* The inputs as the kernel wants them, in one allocation: the opr_input
 * array, then every tensor pointer. Each tensor holds a reference. */
static opr_status stage_inputs(const opr_kernel_ctx *k, opr_input **out) {
  const opr_call *call = k->call;
  const opr_op_def *op = call->op;
  size_t total = 0;
  for (size_t a = 0; a < op->ninputs; a++) total += call->inputs[a].count;
  opr_input *ins = calloc(1, op->ninputs * sizeof *ins +
                                 (total ? total : 1) * sizeof(opr_tensor *));
  if (!ins) return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory",
                             op->name);
  opr_tensor **slots = (opr_tensor **)(ins + op->ninputs);
  opr_status s = OPR_OK;
  for (size_t a = 0; a < op->ninputs; a++) {
    const opr_input *in = &call->inputs[a];
    opr_device_kind where = host_memory_arg(k->kernel, op->inputs[a].name)
                                ? OPR_DEVICE_CPU
                                : k->device;
    ins[a].tensors = (const opr_tensor *const *)slots;
    ins[a].count = in->count;
    for (size_t j = 0; j < in->count; j++, slots++)
      if (!s) s = opr_tensor_to_device(in->tensors[j], where, slots);
    if (s) return input_error(op, a, where, s, ins, out);
  }
  *out = ins;
  return s;
}

static void release_inputs(const opr_op_def *op, opr_input *ins) {
  for (size_t a = 0; ins && a < op->ninputs; a++)
    for (size_t j = 0; j < ins[a].count; j++)
      opr_tensor_unref((opr_tensor *)ins[a].tensors[j]);
  free(ins);
}

/* Replaces every output left on the device by a host copy. */
static opr_status outputs_to_host(const opr_call *call) {
  for (size_t o = 0; o < call->op->noutputs; o++) {
    opr_output *out = &call->outputs[o];
    for (size_t j = 0; out->tensors && j < out->count; j++) {
      opr_tensor *t = out->tensors[j];
      if (!t || t->device == OPR_DEVICE_CPU) continue;
      opr_tensor *host;
      opr_status s = opr_tensor_to_device(t, OPR_DEVICE_CPU, &host);
      if (s) return s; /* the caller releases the outputs */
      opr_tensor_unref(t);
      out->tensors[j] = host;
    }
  }
  return OPR_OK;
}

opr_status opr_device_run(opr_kernel_ctx *k) {
  const opr_op_def *op = k->call->op;
  opr_input *ins = NULL;
  opr_status s = stage_inputs(k, &ins);
  if (!s) {
    opr_call staged = *k->call;
    staged.inputs = ins;
    opr_kernel_ctx dk = *k;
    dk.call = &staged;
    s = k->kernel->fn(&dk);
    /* A failed kernel may still have work queued on the inputs. */
    opr_status w = opr_device_sync(k->device, op->name);
    if (!s) s = w;
    else opr_status_free(w);
  }
  if (!s) s = outputs_to_host(k->call);
  release_inputs(op, ins);
  return s;
}
