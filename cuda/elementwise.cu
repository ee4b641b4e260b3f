// Example (x * 2), AddOne and AddN on the GPU: grid-stride loops over
// the elements, arithmetic as the CPU kernels do it (see launch.h), so
// that both give the same bits.
#include "device_util.cuh"
#include "launch.h"

namespace opgen_cuda {
namespace {

template <typename T>
__global__ void times_two_kernel(const T *in, T *out, int64_t n) {
  for (int64_t i = first_index(); i < n; i += grid_stride())
    out[i] = Arith<T>::twice(in[i]);
}

template <typename T>
int times_two(const void *in, void *out, int64_t n) {
  if (n <= 0) return 0;
  times_two_kernel<T><<<blocks_for(n), kThreads>>>(
      static_cast<const T *>(in), static_cast<T *>(out), n);
  return launch_status();
}

__global__ void add_one_kernel(const int32_t *in, int32_t *out, int64_t n) {
  for (int64_t i = first_index(); i < n; i += grid_stride())
    out[i] = (int32_t)((uint32_t)in[i] + 1u);
}

// Inputs per launch, passed by value; more inputs take more launches.
constexpr int kAddNBatch = 8;
struct AddNInputs {
  const void *p[kAddNBatch];
};

// out = (((acc + in0) + in1) + ...): acc is out itself after the first
// batch, in0 before.
template <typename T>
__global__ void add_n_kernel(AddNInputs in, int count, bool accumulate,
                             T *out, int64_t n) {
  for (int64_t i = first_index(); i < n; i += grid_stride()) {
    int k = accumulate ? 0 : 1;
    T acc = accumulate ? out[i] : static_cast<const T *>(in.p[0])[i];
    for (; k < count; k++)
      acc = Arith<T>::add(acc, static_cast<const T *>(in.p[k])[i]);
    out[i] = acc;
  }
}

template <typename T>
int add_n(const void *const *in, size_t count, void *out, int64_t n) {
  if (n <= 0) return 0;
  for (size_t first = 0; first < count; first += kAddNBatch) {
    AddNInputs batch = {};
    size_t m = count - first < (size_t)kAddNBatch ? count - first
                                                  : (size_t)kAddNBatch;
    for (size_t j = 0; j < m; j++) batch.p[j] = in[first + j];
    add_n_kernel<T><<<blocks_for(n), kThreads>>>(
        batch, (int)m, first > 0, static_cast<T *>(out), n);
    int err = launch_status();
    if (err) return err;
  }
  return 0;
}

}  // namespace
}  // namespace opgen_cuda

extern "C" int opgen_cuda_times_two(opgen_cuda_kind kind, const void *in,
                                    void *out, int64_t n) {
  OPGEN_CUDA_BY_KIND(kind, opgen_cuda::times_two, in, out, n);
}

extern "C" int opgen_cuda_add_one_int32(const int32_t *in, int32_t *out,
                                        int64_t n) {
  if (n <= 0) return 0;
  opgen_cuda::add_one_kernel<<<opgen_cuda::blocks_for(n),
                               opgen_cuda::kThreads>>>(in, out, n);
  return opgen_cuda::launch_status();
}

extern "C" int opgen_cuda_add_n(opgen_cuda_kind kind, const void *const *in,
                                size_t count, void *out, int64_t n) {
  if (count == 0) return (int)cudaErrorInvalidValue;
  OPGEN_CUDA_BY_KIND(kind, opgen_cuda::add_n, in, count, out, n);
}
