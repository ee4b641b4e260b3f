/* The library's kernel registration: opgen_add_op_library calls
 * myops_lib_register_kernels once the ops are registered. The GPU kernel
 * is there only when CMakeLists.txt built bias_add_gpu.cu
 * (MYOPS_WITH_CUDA). */
#include "kernels.h"

opr_status myops_lib_register_kernels(void);

opr_status myops_lib_register_kernels(void) {
  opr_status s = register_bias_add();
  if (!s) s = register_softmax();
  if (!s) s = register_concat();
#ifdef MYOPS_WITH_CUDA
  if (!s) s = register_bias_add_gpu();
#endif
  return s;
}
