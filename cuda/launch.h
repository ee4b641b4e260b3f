/* The CUDA side of the shipped GPU kernels: launchers compiled by nvcc
 * (the .cu files), callable from C. They know element widths, not
 * dtypes or tensors; the C glue (gpu_*.c) maps a call onto them. Every
 * pointer is device memory; each launcher queues its work on the default
 * stream, launches nothing for an empty range, and returns a cudaError_t
 * value (0: queued). */
#ifndef OPGEN_CUDA_LAUNCH_H
#define OPGEN_CUDA_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How the arithmetic kernels treat an element: integers by width,
 * computed unsigned so that they wrap (as the CPU kernels do; quantized
 * types are their integer storage); floats by format, half and bfloat16
 * through float, rounded once per operation. Complex numbers are pairs
 * of F32 or F64. */
typedef enum opgen_cuda_kind {
  OPGEN_CUDA_U8,
  OPGEN_CUDA_U16,
  OPGEN_CUDA_U32,
  OPGEN_CUDA_U64,
  OPGEN_CUDA_F16,
  OPGEN_CUDA_BF16,
  OPGEN_CUDA_F32,
  OPGEN_CUDA_F64,
} opgen_cuda_kind;

/* out[i] = in[i] * 2 for i < n. */
int opgen_cuda_times_two(opgen_cuda_kind kind, const void *in, void *out,
                         int64_t n);
/* out[i] = in[i] + 1 (wrapping). */
int opgen_cuda_add_one_int32(const int32_t *in, int32_t *out, int64_t n);
/* out[i] = ((in[0][i] + in[1][i]) + in[2][i]) + ..., count >= 1. */
int opgen_cuda_add_n(opgen_cuda_kind kind, const void *const *in,
                     size_t count, void *out, int64_t n);
/* out = zeros but out[keep] = in[keep] (keep < n), elements of
 * `elem_size` bytes (1, 2, 4 or 8). */
int opgen_cuda_zero_out(size_t elem_size, const void *in, void *out,
                        int64_t n, int64_t keep);

/* What Pad needs, by value (kernel parameters): ranks up to the limit. */
enum { OPGEN_CUDA_PAD_MAX_RANK = 16 };
typedef enum opgen_cuda_pad_mode {
  OPGEN_CUDA_PAD_CONSTANT,
  OPGEN_CUDA_PAD_REFLECT,
  OPGEN_CUDA_PAD_SYMMETRIC,
} opgen_cuda_pad_mode;
typedef struct opgen_cuda_pad_plan {
  int rank;
  opgen_cuda_pad_mode mode;
  int64_t in_dims[OPGEN_CUDA_PAD_MAX_RANK];
  int64_t out_dims[OPGEN_CUDA_PAD_MAX_RANK];
  int64_t before[OPGEN_CUDA_PAD_MAX_RANK];
} opgen_cuda_pad_plan;
/* Pads `in` into `out` (out_n elements of `elem_size` bytes: 1, 2, 4 or
 * 8). The paddings were checked against the dims. */
int opgen_cuda_pad(size_t elem_size, const void *in, void *out,
                   int64_t out_n, const opgen_cuda_pad_plan *plan);

/* cudaGetErrorString of a value the launchers return. */
const char *opgen_cuda_error_string(int err);
/* What the kernels were built with: "CUDA 13.0, sm_75 sm_80 sm_90". */
const char *opgen_cuda_build_info(void);

#ifdef __cplusplus
}
#endif

#endif
