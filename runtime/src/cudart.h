/* The CUDA runtime library, opened with dlopen at first use rather than
 * linked: a runtime built with CUDA then has no link dependency on
 * libcudart (a CPU-only program needs neither it nor the toolkit), and
 * one without a loadable libcudart reports "no CUDA device" cleanly.
 * Built with CUDA only (OPR_WITH_CUDA): the header gives the types. */
#ifndef OPR_CUDART_H
#define OPR_CUDART_H

#include <cuda_runtime_api.h>
#include <stddef.h>

/* The entry points the runtime uses, resolved from the library. */
typedef struct opr_cudart {
  cudaError_t (*GetDeviceCount)(int *count);
  const char *(*GetErrorString)(cudaError_t e);
  const char *(*GetErrorName)(cudaError_t e);
  cudaError_t (*GetLastError)(void);
  cudaError_t (*Malloc)(void **p, size_t n);
  cudaError_t (*Free)(void *p);
  cudaError_t (*Memcpy)(void *dst, const void *src, size_t n,
                        enum cudaMemcpyKind kind);
  cudaError_t (*DeviceSynchronize)(void);
} opr_cudart;

/* Opens the library (the one the program already loaded, if any: one
 * libcudart for the runtime and the kernels) and resolves the entry
 * points; NULL when that fails, with the reason in why[n]. Not
 * thread-safe: the device probe calls it once. */
const opr_cudart *opr_cudart_open(char *why, size_t n);

#endif
