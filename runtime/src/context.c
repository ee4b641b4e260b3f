/* The runtime context: for now, the device that ops run on. */
#include "internal.h"
#include "opr/device.h"
#include "threadpool.h"

#include <stdlib.h>

opr_status opr_context_new(const opr_context_options *options,
                           opr_context **out) {
  if (!out)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_context_new: out is NULL");
  *out = NULL;
  opr_device_kind device = options ? options->device : OPR_DEVICE_CPU;
  if (options && (options->threads < 0 || options->threads > 1024))
    return opr_error(OPR_INVALID_ARGUMENT, "opr_context_new: threads is "
                     "%d; must be in [0, 1024] (0: one per core)",
                     options->threads);
  if (device != OPR_DEVICE_CPU && device != OPR_DEVICE_GPU)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_context_new: invalid "
                     "device (value %d)", (int)device);
  if (device == OPR_DEVICE_GPU) { /* refused now, not at the first op */
    opr_status s = opr_device_available(device);
    if (s) {
      opr_status r = opr_error(opr_status_code(s), "opr_context_new: %s",
                               opr_status_message(s));
      opr_status_free(s);
      return r;
    }
  }
  opr_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "opr_context_new: out of "
                     "memory");
  ctx->device = device;
  /* The pool lives as long as the context. */
  int threads = options && options->threads ? options->threads
                                            : opr_threadpool_default_size();
  opr_status s = opr_threadpool_new(threads, &ctx->pool);
  if (s) {
    free(ctx);
    return s;
  }
  *out = ctx;
  return OPR_OK;
}

void opr_context_free(opr_context *ctx) {
  if (!ctx) return;
  opr_threadpool_free(ctx->pool);
  free(ctx);
}

opr_device_kind opr_context_device(const opr_context *ctx) {
  return ctx ? ctx->device : OPR_DEVICE_CPU;
}
