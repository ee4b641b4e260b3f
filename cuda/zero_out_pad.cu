// ZeroOut and Pad on the GPU: both only move elements, so one kernel per
// element size serves every dtype.
#include "device_util.cuh"
#include "launch.h"

namespace opgen_cuda {
namespace {

template <typename T>
__global__ void zero_out_kernel(const T *in, T *out, int64_t n,
                                int64_t keep) {
  for (int64_t i = first_index(); i < n; i += grid_stride())
    out[i] = i == keep ? in[i] : T(0);
}

template <typename T>
int zero_out(const void *in, void *out, int64_t n, int64_t keep) {
  if (n <= 0) return 0;
  zero_out_kernel<T><<<blocks_for(n), kThreads>>>(
      static_cast<const T *>(in), static_cast<T *>(out), n, keep);
  return launch_status();
}

// The input index that output coordinate x (x < 0: before, x >= n:
// after) mirrors, or -1 for a zero (CONSTANT). One reflection suffices:
// the paddings were checked against n.
__device__ inline int64_t pad_source(int64_t x, int64_t n,
                                     opgen_cuda_pad_mode mode) {
  if (x >= 0 && x < n) return x;
  if (mode == OPGEN_CUDA_PAD_CONSTANT) return -1;
  int64_t edge = mode == OPGEN_CUDA_PAD_REFLECT ? 0 : 1;
  return x < 0 ? -x - edge : 2 * n - 2 + edge - x;
}

// One thread per output element: its coordinates, last dimension first,
// give the input element it copies.
template <typename T>
__global__ void pad_kernel(const T *in, T *out, int64_t out_n,
                           opgen_cuda_pad_plan plan) {
  for (int64_t o = first_index(); o < out_n; o += grid_stride()) {
    int64_t rest = o, src = 0, stride = 1;
    bool zero = false;
    for (int d = plan.rank - 1; d >= 0 && !zero; d--) {
      int64_t c = rest % plan.out_dims[d];
      rest /= plan.out_dims[d];
      int64_t x = pad_source(c - plan.before[d], plan.in_dims[d], plan.mode);
      zero = x < 0;
      src += x * stride;
      stride *= plan.in_dims[d];
    }
    out[o] = zero ? T(0) : in[src];
  }
}

template <typename T>
int pad(const void *in, void *out, int64_t out_n,
        const opgen_cuda_pad_plan *plan) {
  if (out_n <= 0) return 0;
  pad_kernel<T><<<blocks_for(out_n), kThreads>>>(
      static_cast<const T *>(in), static_cast<T *>(out), out_n, *plan);
  return launch_status();
}

}  // namespace
}  // namespace opgen_cuda

extern "C" int opgen_cuda_zero_out(size_t elem_size, const void *in,
                                   void *out, int64_t n, int64_t keep) {
  OPGEN_CUDA_BY_SIZE(elem_size, opgen_cuda::zero_out, in, out, n, keep);
}

extern "C" int opgen_cuda_pad(size_t elem_size, const void *in, void *out,
                              int64_t out_n,
                              const opgen_cuda_pad_plan *plan) {
  if (!plan || plan->rank < 0 || plan->rank > OPGEN_CUDA_PAD_MAX_RANK)
    return (int)cudaErrorInvalidValue;
  OPGEN_CUDA_BY_SIZE(elem_size, opgen_cuda::pad, in, out, out_n, plan);
}
