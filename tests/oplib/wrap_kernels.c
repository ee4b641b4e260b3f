/* The kernels of wrap_early_lib (x * 2) and wrap_late_lib (x * 3): one
 * source, WRAP_LATE choosing the op. */
#ifdef WRAP_LATE
#include "wrap_late_kernels.h"
#define PKG(name) wrap_late_wrap_late_##name
#define FACTOR 3
#define REGISTER wrap_late_lib_register_kernels
#else
#include "wrap_early_kernels.h"
#define PKG(name) wrap_early_wrap_early_##name
#define FACTOR 2
#define REGISTER wrap_early_lib_register_kernels
#endif

opr_status REGISTER(void);

static opr_status scale(opr_kernel_ctx *k) {
  const opr_tensor *in = PKG(input_x)(k);
  opr_tensor *out;
  opr_status s = PKG(alloc_y)(k, in->rank, in->dims, &out);
  if (s) return s;
  const int32_t *x = in->data;
  int32_t *y = out->data;
  for (int64_t i = 0; i < in->num_elements; i++) y[i] = x[i] * FACTOR;
  return OPR_OK;
}

opr_status REGISTER(void) {
  return PKG(register_kernel)(&(PKG(kernel_def)){
      .fn = scale, .device = OPR_DEVICE_CPU, .label = "wrap"});
}
