/* The gradient of the ZeroOut ops, as the guide defines it: only the
 * kept element (preserve_index for ZeroOut, the first for the others)
 * passes its gradient back; every other input element was replaced by a
 * zero, so its gradient is zero. Any element type: a byte copy. */
#include "grad.h"

#include <string.h>

opr_status grad_zero_out(const opr_grad_op *op,
                         const opr_tensor *const *out_grads,
                         opr_tensor **in_grads, void *user) {
  (void)user;
  const opr_tensor *in = op->inputs[0], *grad = out_grads[0];
  const opr_attr_value *keep_attr = grad_attr(op, "preserve_index");
  int64_t keep = keep_attr ? keep_attr->u.i : 0;
  opr_status s = grad_on_host(op, grad);
  if (s) return s;
  opr_tensor *d = NULL;
  s = opr_tensor_new(in->dtype, in->rank, in->dims, &d); /* zeros */
  if (s) return s;
  if (keep >= 0 && keep < d->num_elements) {
    size_t size = opr_dtype_size(d->dtype);
    memcpy((char *)d->data + (size_t)keep * size,
           (const char *)grad->data + (size_t)keep * size, size);
  }
  in_grads[0] = d;
  return OPR_OK;
}
