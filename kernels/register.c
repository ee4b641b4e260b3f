/* opgen_shipped_register: the shipped ops, then their kernels and
 * gradients. Every registration is idempotent (the same op table, kernel
 * or gradient again is a no-op), so calling this twice is harmless. */
#include "grad.h"
#include "kernels.h"
#include "shipped.h"

#include "cuda_kernels.h"
#include "guide_attrs_ops.h"
#include "guide_io_ops.h"
#include "guide_shapes_ops.h"

opr_status opgen_shipped_register(void) {
  opr_status (*const steps[])(void) = {
      demo_register_ops,         guide_attrs_register_ops,
      guide_io_register_ops,     guide_shapes_register_ops,
      kern_register_zero_out,    kern_register_example,
      kern_register_add_one,     kern_register_add_n,
      kern_register_pad,         kern_register_string_to_number,
      opgen_cuda_register, /* GPU kernels; OPR_OK without CUDA */
      kern_register_gradients,
  };
  opr_status s = OPR_OK;
  for (size_t i = 0; !s && i < sizeof steps / sizeof steps[0]; i++)
    s = steps[i]();
  return s;
}
