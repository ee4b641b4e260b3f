/* The gradient of AddN: the sum's gradient, unchanged, to every input.
 * One tensor serves them all (a reference each): the tape never writes
 * into a gradient, and hands out copies of shared ones. */
#include "grad.h"

opr_status grad_add_n(const opr_grad_op *op,
                      const opr_tensor *const *out_grads,
                      opr_tensor **in_grads, void *user) {
  (void)user;
  opr_tensor *grad = (opr_tensor *)out_grads[0];
  for (size_t i = 0; i < op->ninputs; i++) in_grads[i] = opr_tensor_ref(grad);
  return OPR_OK;
}
