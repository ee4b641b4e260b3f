/* Gradients: a registry of gradient functions by op name, and tapes that
 * record the calls run on a thread, so that the gradient of a result with
 * respect to the tensors it was computed from can be taken afterwards
 * (reverse mode, as TensorFlow's GradientTape and its RegisterGradient).
 *
 * A gradient function receives the recorded call (its op, resolved attrs,
 * input and output tensors) and the gradient of each of its outputs, and
 * returns the gradient of each of its inputs. Python registers functions
 * through the same registry (opgen.register_gradient). */
#ifndef OPR_GRADIENT_H
#define OPR_GRADIENT_H

#include "opr/context.h"
#include "opr/op.h"
#include "opr/status.h"
#include "opr/tensor.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A recorded call, as a gradient function sees it. Inputs and outputs are
 * flattened in argument order, a list argument contributing its tensors
 * in order: input argument a is inputs[input_starts[a]] up to (not
 * including) inputs[input_starts[a + 1]]; the same for outputs. */
typedef struct opr_grad_op {
  const opr_op_def *op;
  const opr_attr_value *attrs; /* [op->nattrs], every one resolved */
  const opr_tensor *const *inputs;
  size_t ninputs;
  const opr_tensor *const *outputs;
  size_t noutputs;
  const size_t *input_starts;  /* [op->ninputs + 1] */
  const size_t *output_starts; /* [op->noutputs + 1] */
  opr_context *ctx;            /* for ops the gradient runs */
} opr_grad_op;

/* Computes the gradients of a recorded call's inputs. out_grads[j] is the
 * gradient of flattened output j, never NULL: zeros of the output's shape
 * and dtype where nothing depends on it. in_grads[i] (NULL on entry) is
 * set to a tensor reference owned by the caller afterwards, of input i's
 * shape and dtype (a new tensor, or a new reference to one of out_grads:
 * the tape never writes into a gradient), or left NULL where input i is
 * not differentiable (an index, a shape). On failure, set nothing (the
 * caller releases what was set). */
typedef opr_status (*opr_gradient_fn)(const opr_grad_op *op,
                                      const opr_tensor *const *out_grads,
                                      opr_tensor **in_grads, void *user);

/* Registers `fn` (with `user`, passed back on each call) as the gradient
 * of the op named `op` (which need not be registered yet). The same fn
 * and user again is a no-op; another fn or user for a name that has one
 * fails with ALREADY_EXISTS naming the op. INVALID_ARGUMENT for a NULL or
 * empty name or a NULL fn. Thread-safe. */
opr_status opr_register_gradient(const char *op, opr_gradient_fn fn,
                                 void *user);
/* Removes the gradient of `op`; *user (may be NULL) receives the user
 * pointer it was registered with, for the caller to release. NOT_FOUND
 * when none is registered. Thread-safe; not while a tape computes a
 * gradient that uses it. */
opr_status opr_unregister_gradient(const char *op, void **user);
/* Whether `op` has a gradient; fn and user (may be NULL) receive it. */
bool opr_find_gradient(const char *op, opr_gradient_fn *fn, void **user);

/* ---- tapes ---- */

typedef struct opr_tape opr_tape;

/* An empty tape, not recording. */
opr_status opr_tape_new(opr_tape **out);
/* Drops the tape's records and the tensor references they hold. A tape
 * still recording is stopped first. NULL is ignored. */
void opr_tape_free(opr_tape *tape);
/* Starts recording on the calling thread: every successful call run on
 * this thread (typed wrappers, opr_invoke, opr_execute) until
 * opr_tape_stop is recorded, with a reference to each input and output
 * tensor and a copy of the resolved attrs. Tapes nest: every tape
 * recording on a thread records each call. FAILED_PRECONDITION when the
 * tape is already recording (on any thread). */
opr_status opr_tape_start(opr_tape *tape);
/* Stops recording. FAILED_PRECONDITION when the tape is not recording on
 * the calling thread, or when a tape started after it is still recording
 * there (tapes stop in the reverse order of their starts). */
opr_status opr_tape_stop(opr_tape *tape);
/* Whether any tape records on the calling thread. */
bool opr_tape_recording(void);
/* The number of calls recorded. */
size_t opr_tape_size(const opr_tape *tape);

/* The gradients of `targets` with respect to `sources`: grads[i] (for
 * each of the nsources sources) receives a new tensor of source i's shape
 * and dtype, or NULL when no target depends on source i. target_grads
 * (may be NULL; an entry may be NULL) gives the gradient flowing into
 * each target: ones where it is not given. Gradients reaching a tensor
 * along several paths are summed. Only the calls on a path from a source
 * to a target are differentiated: one of them whose op has no gradient
 * fails with NOT_FOUND ("no gradient is registered for op 'X'"). A
 * gradient function's failure comes back as its status; one that returns
 * a tensor of the wrong shape or dtype fails with INVALID_ARGUMENT naming
 * the op and the input. Gradient functions run their ops on `ctx`; the
 * calls they make are not recorded. The tape may be recording (on this
 * thread) or stopped, and may be asked any number of times. On failure
 * every grads[i] is NULL. */
opr_status opr_tape_gradient(opr_tape *tape, opr_context *ctx,
                             const opr_tensor *const *targets,
                             const opr_tensor *const *target_grads,
                             size_t ntargets,
                             const opr_tensor *const *sources,
                             size_t nsources, opr_tensor **grads);

/* ---- helpers for gradient functions ---- */

/* a + b, element-wise, for tensors of one shape and one number dtype
 * (every real, complex, half and bfloat16 type): a new host tensor.
 * INVALID_ARGUMENT naming the dtypes or shapes when they differ or the
 * dtype is not a number type. */
opr_status opr_tensor_add(const opr_tensor *a, const opr_tensor *b,
                          opr_tensor **out);
/* A host tensor of `like`'s dtype and shape, every element `value`
 * (0 or 1 in practice; converted to the dtype). */
opr_status opr_tensor_fill_like(const opr_tensor *like, double value,
                                opr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif
