// What the .cu files share: element arithmetic per kind and launch
// geometry. Device code only; included by the .cu files.
#ifndef OPGEN_CUDA_DEVICE_UTIL_CUH
#define OPGEN_CUDA_DEVICE_UTIL_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <stdint.h>

namespace opgen_cuda {

constexpr int kThreads = 256;
// Grid-stride loops cover the rest: more blocks than this only queue.
constexpr int64_t kMaxBlocks = 65535;

inline unsigned blocks_for(int64_t n) {
  int64_t b = (n + kThreads - 1) / kThreads;
  return (unsigned)(b < kMaxBlocks ? b : kMaxBlocks);
}

__device__ inline int64_t first_index() {
  return (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ inline int64_t grid_stride() {
  return (int64_t)gridDim.x * blockDim.x;
}

// x * 2 and a + b per element type. Unsigned integers wrap; the narrow
// ones are promoted to int by C++, hence the casts back.
template <typename T> struct Arith {
  __device__ static T twice(T x) { return (T)(x + x); }
  __device__ static T add(T a, T b) { return (T)(a + b); }
};
template <> struct Arith<float> {
  __device__ static float twice(float x) { return x * 2.0f; }
  __device__ static float add(float a, float b) { return a + b; }
};
template <> struct Arith<double> {
  __device__ static double twice(double x) { return x * 2.0; }
  __device__ static double add(double a, double b) { return a + b; }
};
// half and bfloat16: computed in float, rounded once per operation.
template <> struct Arith<__half> {
  __device__ static __half twice(__half x) {
    return __float2half_rn(__half2float(x) * 2.0f);
  }
  __device__ static __half add(__half a, __half b) {
    return __float2half_rn(__half2float(a) + __half2float(b));
  }
};
template <> struct Arith<__nv_bfloat16> {
  __device__ static __nv_bfloat16 twice(__nv_bfloat16 x) {
    return __float2bfloat16_rn(__bfloat162float(x) * 2.0f);
  }
  __device__ static __nv_bfloat16 add(__nv_bfloat16 a, __nv_bfloat16 b) {
    return __float2bfloat16_rn(__bfloat162float(a) + __bfloat162float(b));
  }
};

// The error of the launch just made (and clears it: not sticky).
inline int launch_status() { return (int)cudaGetLastError(); }

}  // namespace opgen_cuda

// Calls F<T>(args...) with T the C++ type of `kind`; cudaErrorInvalidValue
// for an unknown kind.
#define OPGEN_CUDA_BY_KIND(kind, F, ...)                       \
  switch (kind) {                                              \
  case OPGEN_CUDA_U8: return F<uint8_t>(__VA_ARGS__);          \
  case OPGEN_CUDA_U16: return F<uint16_t>(__VA_ARGS__);        \
  case OPGEN_CUDA_U32: return F<uint32_t>(__VA_ARGS__);        \
  case OPGEN_CUDA_U64: return F<uint64_t>(__VA_ARGS__);        \
  case OPGEN_CUDA_F16: return F<__half>(__VA_ARGS__);          \
  case OPGEN_CUDA_BF16: return F<__nv_bfloat16>(__VA_ARGS__);  \
  case OPGEN_CUDA_F32: return F<float>(__VA_ARGS__);           \
  case OPGEN_CUDA_F64: return F<double>(__VA_ARGS__);          \
  }                                                            \
  return (int)cudaErrorInvalidValue

// The same by element size, for kernels that only move elements.
#define OPGEN_CUDA_BY_SIZE(size, F, ...)                       \
  switch (size) {                                              \
  case 1: return F<uint8_t>(__VA_ARGS__);                      \
  case 2: return F<uint16_t>(__VA_ARGS__);                     \
  case 4: return F<uint32_t>(__VA_ARGS__);                     \
  case 8: return F<uint64_t>(__VA_ARGS__);                     \
  }                                                            \
  return (int)cudaErrorInvalidValue

#endif
