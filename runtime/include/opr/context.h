/* The runtime context and the two ways to run an op: the generated typed
 * wrappers (through opr_invoke) and the generic entry by name. */
#ifndef OPR_CONTEXT_H
#define OPR_CONTEXT_H

#include "opr/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opr_context_options {
  opr_device_kind device; /* where ops run; default CPU */
  /* Threads for multithreaded CPU kernels (opr/parallel.h), the caller
   * included; 0: one per core of the machine. */
  int threads;
} opr_context_options;

/* options may be NULL (defaults). */
opr_status opr_context_new(const opr_context_options *options,
                           opr_context **out);
void opr_context_free(opr_context *ctx);
opr_device_kind opr_context_device(const opr_context *ctx);

/* Checks a call with its op's check, selects the kernel for the context's
 * device and the resolved type attrs, and runs it. On success every output
 * slot holds a tensor the caller owns; on failure none does. No kernel:
 * UNIMPLEMENTED naming the op, the device and the types. Also checks the
 * output slots (opr_check_outputs), and before returning releases what
 * the check allocated (opr_call_cleanup): inferred list(type) values in
 * call->attrs are not to be read afterwards. */
opr_status opr_invoke(opr_context *ctx, opr_call *call);

/* Runs any registered op by name: `inputs` one per input argument of the
 * op, attrs by name, outputs flattened into `outputs` (room for
 * `max_outputs`; *noutputs receives the count). Same checks and messages
 * as the typed wrappers. */
opr_status opr_execute(opr_context *ctx, const char *op,
                       const opr_input *inputs, size_t ninputs,
                       const opr_named_attr *attrs, size_t nattrs,
                       opr_tensor **outputs, size_t max_outputs,
                       size_t *noutputs);

/* The same for an op given by its definition (a registered table, or one
 * bound to a registered op: see opr_register_op), without the lookup by
 * name: for callers that keep the definition, such as the Python
 * extension's op functions. opr_execute calls it. */
opr_status opr_execute_op(opr_context *ctx, const opr_op_def *op,
                          const opr_input *inputs, size_t ninputs,
                          const opr_named_attr *attrs, size_t nattrs,
                          opr_tensor **outputs, size_t max_outputs,
                          size_t *noutputs);

/* An op handle: looks the registered op `name` up once, for running it
 * many times with opr_execute_op (no lookup by name per call). *out
 * receives the registered definition, valid for the life of the process
 * (registered ops are never removed). NOT_FOUND as opr_execute says it:
 * "no op named 'X' is registered"; *out is then NULL. Thread-safe. */
opr_status opr_op_handle(const char *name, const opr_op_def **out);

#ifdef __cplusplus
}
#endif

#endif
