/* The gradient of Example (x * 2): 2 * grad, computed by Example itself
 * on the gradient's context (every number type; complex too, since 2 is
 * real). */
#include "grad.h"

opr_status grad_example(const opr_grad_op *op,
                        const opr_tensor *const *out_grads,
                        opr_tensor **in_grads, void *user) {
  (void)user;
  return demo_example(op->ctx, out_grads[0], &in_grads[0]);
}
