/* What the C side of the GPU kernels (gpu_*.c, compiled into
 * opgen_shipped) shares. The kernels read the call through the generated
 * accessors of demo_kernels.h and hand device pointers to the launchers
 * of launch.h; the runtime has already put the inputs on the device (or
 * the host, for host-memory arguments) and brings the outputs back. */
#ifndef OPGEN_CUDA_GPU_H
#define OPGEN_CUDA_GPU_H

#include "cuda_kernels.h"
#include "demo_kernels.h"
#include "launch.h"

#include <stdbool.h>

/* OPR_OK for a launcher's 0; else INTERNAL naming the op and the error. */
opr_status gpu_launched(const opr_kernel_ctx *k, int err);

/* The launchers' view of a number dtype: its kind and how many of them
 * make one element (2 for complex). False for other dtypes. */
bool gpu_kind(opr_dtype dt, opgen_cuda_kind *kind, int64_t *lanes);

/* UNIMPLEMENTED for a dtype the kernel was registered for but cannot
 * handle (a registration bug, kept from crashing). */
opr_status gpu_bad_type(const opr_kernel_ctx *k, opr_dtype dt);

/* Registration, one per file. */
opr_status gpu_register_elementwise(void);
opr_status gpu_register_zero_out(void);
opr_status gpu_register_pad(void);

/* The set of a *_TYPES(X) list: (0 LIST(GPU_TYPE_BIT)). */
#define GPU_TYPE_BIT(ID, CT) | OPR_DTYPE_BIT(OPR_DT_##ID)

#endif
