/* The registration of the shipped ops' gradients, and what the gradient
 * functions share. */
#include "grad.h"

#include <string.h>

const opr_attr_value *grad_attr(const opr_grad_op *op, const char *name) {
  for (size_t i = 0; i < op->op->nattrs; i++)
    if (strcmp(op->op->attrs[i].name, name) == 0) return &op->attrs[i];
  return NULL;
}

opr_status grad_on_host(const opr_grad_op *op, const opr_tensor *t) {
  if (t->device == OPR_DEVICE_CPU) return OPR_OK;
  return opr_error(OPR_UNIMPLEMENTED, "%s: the gradient takes host "
                   "tensors; got one on %s", op->op->name,
                   opr_device_name(t->device));
}

/* Registers fn for `op`, keeping one registered before. */
static opr_status add(const char *op, opr_gradient_fn fn) {
  opr_status s = opr_register_gradient(op, fn, NULL);
  if (s && opr_status_code(s) == OPR_ALREADY_EXISTS) {
    opr_status_free(s);
    return OPR_OK;
  }
  return s;
}

opr_status kern_register_gradients(void) {
  static const struct {
    const char *op;
    opr_gradient_fn fn;
  } grads[] = {
      {"ZeroOut", grad_zero_out},           {"ZeroOutInt32", grad_zero_out},
      {"ZeroOutFloatInt32", grad_zero_out}, {"ZeroOutRealNumber", grad_zero_out},
      {"Example", grad_example},            {"AddN", grad_add_n},
      {"Pad", grad_pad},
  };
  opr_status s = OPR_OK;
  for (size_t i = 0; !s && i < sizeof grads / sizeof grads[0]; i++)
    s = add(grads[i].op, grads[i].fn);
  return s;
}
