// What the CUDA kernels were built with, and error texts for the C glue
// (which includes no CUDA header).
#include "launch.h"

#include <cuda_runtime.h>

#define OPGEN_CUDA_STR2(x) #x
#define OPGEN_CUDA_STR(x) OPGEN_CUDA_STR2(x)

extern "C" const char *opgen_cuda_error_string(int err) {
  return cudaGetErrorString(static_cast<cudaError_t>(err));
}

// OPGEN_CUDA_ARCHS comes from CMake (CMAKE_CUDA_ARCHITECTURES).
extern "C" const char *opgen_cuda_build_info(void) {
  return "CUDA " OPGEN_CUDA_STR(__CUDACC_VER_MAJOR__) "." OPGEN_CUDA_STR(
      __CUDACC_VER_MINOR__) ", sm " OPGEN_CUDA_ARCHS;
}
