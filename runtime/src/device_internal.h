/* What the runtime's files share about devices (device.c, device_call.c,
 * and their callers in context.c and invoke.c). */
#ifndef OPR_DEVICE_INTERNAL_H
#define OPR_DEVICE_INTERNAL_H

#include "internal.h"
#include "opr/device.h"

/* A tensor on `device` (not the CPU) with uninitialized contents; `who`
 * starts the messages. Its memory is freed with its last reference. */
opr_status opr_device_tensor_create(const char *who, opr_device_kind device,
                                    opr_dtype dtype, int rank,
                                    const int64_t *dims, opr_tensor **out);

/* Every input tensor of the call is in host memory (a CPU kernel can
 * run on them as they are). */
static inline bool opr_inputs_on_host(const opr_call *call) {
  const opr_input *ins = call->inputs;
  for (size_t a = 0, n_in = call->op->ninputs; a < n_in; a++) {
    const opr_tensor *const *t = ins[a].tensors;
    for (size_t j = 0, n = ins[a].count; j < n; j++)
      if (t[j]->device != OPR_DEVICE_CPU) return false;
  }
  return true;
}

/* Runs a kernel through the device layer: a device kernel, or a CPU
 * kernel given inputs that live on a device. Copies the inputs that are
 * not where the kernel wants them (its device, or the host for
 * host-memory arguments), runs it on them, waits for the device and
 * brings every output it left on the device back to host memory. */
opr_status opr_device_run(opr_kernel_ctx *k);

/* Waits for the device's work and reports an error it raised, naming
 * `op`. */
opr_status opr_device_sync(opr_device_kind device, const char *op);

#endif
