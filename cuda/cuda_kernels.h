/* The GPU kernels of the shipped ops (cuda/), registered for
 * OPR_DEVICE_GPU. opgen_shipped is compiled with OPGEN_WITH_CUDA when
 * CMake found a CUDA compiler; without it the registration is a no-op,
 * and GPU calls of the shipped ops answer FAILED_PRECONDITION (no GPU
 * context can be made) or UNIMPLEMENTED. */
#ifndef OPGEN_CUDA_KERNELS_H
#define OPGEN_CUDA_KERNELS_H

#include "opr/opr.h"

#ifdef OPGEN_WITH_CUDA
/* Registers the GPU kernels of Example, ZeroOut (every form), AddOne,
 * AddN and Pad. The ops must be registered (demo_register_ops).
 * Idempotent. Registering needs no GPU: selection happens only in a GPU
 * context, which needs one. */
opr_status opgen_cuda_register(void);
#else
static inline opr_status opgen_cuda_register(void) { return OPR_OK; }
#endif

#endif
