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

/* The same with caller-owned outputs: every output slot holds a tensor
 * of the caller's, which the kernel writes (the call takes no reference
 * and sets no slot). Each is checked first against the dtype the call
 * resolves, host memory, and the shape the op's shape function infers
 * (and against the shape the kernel asks opr_kernel_alloc_output for);
 * a mismatch is INVALID_ARGUMENT naming the op, the output and what
 * differs. A kernel that runs on a device: UNIMPLEMENTED. */
opr_status opr_invoke_into(opr_context *ctx, opr_call *call);

/* The generated fast paths, for ops whose checks the wrapper decided:
 * one input tensor and one output of its dtype (shape `out = in`), the
 * input and output non-NULL, the input's dtype in the op's allowed set,
 * the attrs valid and set (generated code only: these are not checked
 * again). They run
 * the CPU kernel cached for the input's dtype directly; anything else
 * (a device context or tensor, a tape recording on the thread, no
 * kernel) goes through opr_invoke / opr_invoke_into, so that results and
 * errors are the same. */
opr_status opr_invoke_fast(opr_context *ctx, opr_call *call);
opr_status opr_invoke_fast_into(opr_context *ctx, opr_call *call);
/* The typed wrappers of an op with opr_op_def.has_fast_path (one input
 * of its type attr's allowed types or its fixed type, the type attr, if
 * any, the only attr, one output shaped like the input): the wrapper's
 * tests and its fast path in one frame, else its general path (the
 * type attr unset), with the same results and errors. */
opr_status opr_invoke_unary(opr_context *ctx, const opr_op_def *op,
                            const opr_tensor *in, opr_tensor **out);
opr_status opr_invoke_unary_into(opr_context *ctx, const opr_op_def *op,
                                 const opr_tensor *in, opr_tensor *out);

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

/* opr_execute and opr_execute_op with caller-owned outputs (see
 * opr_invoke_into): `outputs` holds exactly the op's `noutputs` output
 * tensors, flattened, which the kernel writes; none is replaced. */
opr_status opr_execute_into(opr_context *ctx, const char *op,
                            const opr_input *inputs, size_t ninputs,
                            const opr_named_attr *attrs, size_t nattrs,
                            opr_tensor *const *outputs, size_t noutputs);
opr_status opr_execute_op_into(opr_context *ctx, const opr_op_def *op,
                               const opr_input *inputs, size_t ninputs,
                               const opr_named_attr *attrs, size_t nattrs,
                               opr_tensor *const *outputs, size_t noutputs);

#ifdef __cplusplus
}
#endif

#endif
