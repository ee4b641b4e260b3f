/* The ZeroOut ops on the GPU: every form and type (the kernel moves
 * elements by size). As on the CPU, an empty tensor gives an empty
 * output, and ZeroOut's preserve_index must name an element. */
#include "gpu.h"

#include <inttypes.h>

static opr_status zero_out_run(opr_kernel_ctx *k, int64_t keep,
                               opr_status (*alloc)(opr_kernel_ctx *, int,
                                                   const int64_t *,
                                                   opr_tensor **)) {
  const opr_tensor *in = k->call->inputs[0].tensors[0];
  if (in->num_elements > 0 && (keep < 0 || keep >= in->num_elements))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: preserve_index %" PRId64
                     " is out of range for a tensor of %" PRId64
                     " elements", k->call->op->name, keep,
                     in->num_elements);
  opr_tensor *out;
  opr_status s = alloc(k, in->rank, in->dims, &out);
  if (s) return s;
  return gpu_launched(k, opgen_cuda_zero_out(opr_dtype_size(in->dtype),
                                             in->data, out->data,
                                             in->num_elements, keep));
}

static opr_status zero_out_gpu(opr_kernel_ctx *k) {
  return zero_out_run(k, demo_zero_out_attr_preserve_index(k),
                      demo_zero_out_alloc_zeroed);
}

static opr_status zero_out_int32_gpu(opr_kernel_ctx *k) {
  return zero_out_run(k, 0, demo_zero_out_int32_alloc_zeroed);
}

static opr_status zero_out_float_int32_gpu(opr_kernel_ctx *k) {
  return zero_out_run(k, 0, demo_zero_out_float_int32_alloc_zeroed);
}

static opr_status zero_out_real_number_gpu(opr_kernel_ctx *k) {
  return zero_out_run(k, 0, demo_zero_out_real_number_alloc_zeroed);
}

opr_status gpu_register_zero_out(void) {
  opr_status s = demo_zero_out_register_kernel(&(demo_zero_out_kernel_def){
      .fn = zero_out_gpu, .device = OPR_DEVICE_GPU,
      .T = 0 DEMO_ZERO_OUT_T_TYPES(GPU_TYPE_BIT), .label = "CUDA"});
  if (!s)
    s = demo_zero_out_int32_register_kernel(&(demo_zero_out_int32_kernel_def){
        .fn = zero_out_int32_gpu, .device = OPR_DEVICE_GPU,
        .label = "CUDA"});
  if (!s)
    s = demo_zero_out_float_int32_register_kernel(
        &(demo_zero_out_float_int32_kernel_def){
            .fn = zero_out_float_int32_gpu, .device = OPR_DEVICE_GPU,
            .T = 0 DEMO_ZERO_OUT_FLOAT_INT32_T_TYPES(GPU_TYPE_BIT),
            .label = "CUDA"});
  if (!s)
    s = demo_zero_out_real_number_register_kernel(
        &(demo_zero_out_real_number_kernel_def){
            .fn = zero_out_real_number_gpu, .device = OPR_DEVICE_GPU,
            .T = 0 DEMO_ZERO_OUT_REAL_NUMBER_T_TYPES(GPU_TYPE_BIT),
            .label = "CUDA"});
  return s;
}
