/* opgen_cuda_register: every GPU kernel of the shipped ops. */
#include "gpu.h"

opr_status opgen_cuda_register(void) {
  opr_status s = gpu_register_elementwise();
  if (!s) s = gpu_register_zero_out();
  if (!s) s = gpu_register_pad();
  return s;
}
