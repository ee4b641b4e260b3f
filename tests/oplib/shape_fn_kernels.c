/* LibRepeat's shape function and kernel, both in the library's SOURCES.
 * The shape function's output shape is the one the kernel allocates
 * (opr_kernel_alloc_output checks that), and its error is the call's. */
#include "shape_fn_kernels.h"

opr_status shape_fn_lib_register_kernels(void);

opr_status shape_fn_lib_repeat_shape(opr_infer_ctx *c) {
  opr_shape x;
  int64_t n;
  opr_status s = opr_infer_input_shape(c, 0, &x);
  if (!s) s = opr_infer_with_rank(c, x, 1, "'x'", &x);
  if (!s) s = opr_infer_mul(c, x.dims[0], 2, "dim(x, 0) * 2", &n);
  if (s) return s;
  return opr_infer_set_output_dims(c, 0, 1, &n);
}

static opr_status repeat(opr_kernel_ctx *k) {
  const opr_tensor *in = shape_fn_lib_lib_repeat_input_x(k);
  const int64_t n = in->num_elements;
  const int64_t dims[1] = {2 * n};
  opr_tensor *out;
  opr_status s = shape_fn_lib_lib_repeat_alloc_y(k, 1, dims, &out);
  if (s) return s;
  const int32_t *x = in->data;
  int32_t *y = out->data;
  for (int64_t i = 0; i < 2 * n; i++) y[i] = x[i % n];
  return OPR_OK;
}

opr_status shape_fn_lib_register_kernels(void) {
  return shape_fn_lib_lib_repeat_register_kernel(
      &(shape_fn_lib_lib_repeat_kernel_def){.fn = repeat,
                                        .device = OPR_DEVICE_CPU,
                                        .label = "shape_fn_lib"});
}
