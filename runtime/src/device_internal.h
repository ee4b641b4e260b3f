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

/* Runs a device kernel: copies the inputs that are not where the kernel
 * wants them (its device, or the host for host-memory arguments), runs
 * it on them, waits for the device and brings every output it left on
 * the device back to host memory. */
opr_status opr_device_run(opr_kernel_ctx *k);

/* Waits for the device's work and reports an error it raised, naming
 * `op`. */
opr_status opr_device_sync(opr_device_kind device, const char *op);

#endif
