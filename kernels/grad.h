/* The C gradients of the shipped ops (the kernels/..._grad.c files),
 * registered by opgen_shipped_register. Private to opgen_shipped. */
#ifndef OPGEN_GRAD_H
#define OPGEN_GRAD_H

#include "kernels.h"
#include "opr/gradient.h"

/* Registers every gradient below. A gradient already registered for one
 * of these ops by someone else (a user's override) is kept. */
opr_status kern_register_gradients(void);

/* One per file; the opr_gradient_fn contract (opr/gradient.h). */
opr_status grad_zero_out(const opr_grad_op *op,
                         const opr_tensor *const *out_grads,
                         opr_tensor **in_grads, void *user);
opr_status grad_example(const opr_grad_op *op,
                        const opr_tensor *const *out_grads,
                        opr_tensor **in_grads, void *user);
opr_status grad_add_n(const opr_grad_op *op,
                      const opr_tensor *const *out_grads,
                      opr_tensor **in_grads, void *user);
opr_status grad_pad(const opr_grad_op *op, const opr_tensor *const *out_grads,
                    opr_tensor **in_grads, void *user);

/* The resolved value of the recorded call's attr `name`, or NULL when
 * the op has none. */
const opr_attr_value *grad_attr(const opr_grad_op *op, const char *name);
/* UNIMPLEMENTED unless `t` is in host memory: these gradients compute on
 * the host. */
opr_status grad_on_host(const opr_grad_op *op, const opr_tensor *t);

#endif
