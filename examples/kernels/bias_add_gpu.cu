// MyBiasAdd on a CUDA GPU, float only: built into the library only when
// the installed opgen has CUDA and a CUDA compiler is present (see
// ../CMakeLists.txt). The runtime has moved the inputs to the device
// before the kernel runs (their data pointers are device pointers), and
// output tensors allocated through the kernel context live there too; it
// brings the results back to the host after the call.
#include "kernels.h"
#include "myops_kernels.h"

#include <cuda_runtime.h>

namespace {

__global__ void bias_add_nhwc(const float *x, const float *b, float *y,
                              int64_t n, int64_t channels, int64_t inner) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    y[i] = x[i] + b[(i / inner) % channels];
}

opr_status bias_add_gpu(opr_kernel_ctx *k) {
  const opr_tensor *value = my_bias_add_input_value(k);
  const opr_tensor *bias = my_bias_add_input_bias(k);
  opr_tensor *out = nullptr;
  opr_status s = my_bias_add_alloc_output(k, value->rank, value->dims,
                                          &out);
  if (s || out->num_elements == 0) return s;
  int64_t inner = 1;
  if (my_bias_add_attr_data_format(k) == MY_BIAS_ADD_DATA_FORMAT_NCHW)
    for (int d = 2; d < value->rank; d++) inner *= value->dims[d];
  const int threads = 256;
  const int64_t want = (out->num_elements + threads - 1) / threads;
  const int blocks = want < 4096 ? (int)want : 4096;
  bias_add_nhwc<<<blocks, threads>>>(
      static_cast<const float *>(value->data),
      static_cast<const float *>(bias->data), static_cast<float *>(out->data),
      out->num_elements, bias->dims[0], inner);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    return opr_error(OPR_INTERNAL, "MyBiasAdd: CUDA launch failed: %s",
                     cudaGetErrorString(err));
  return OPR_OK;
}

}  // namespace

opr_status register_bias_add_gpu(void) {
  my_bias_add_kernel_def kernel = {};
  kernel.fn = bias_add_gpu;
  kernel.device = OPR_DEVICE_GPU;
  kernel.T = OPR_DTYPE_BIT(OPR_DT_FLOAT);  // double stays on the CPU kernel
  kernel.label = "cuda";
  return my_bias_add_register_kernel(&kernel);
}
