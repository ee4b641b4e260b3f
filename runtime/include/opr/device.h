/* Devices: the CPU always; CUDA GPUs when the runtime was built with a
 * CUDA compiler and a device is present at run time. Without either,
 * every GPU request answers FAILED_PRECONDITION ("no CUDA device is
 * available: ...", with the reason); nothing crashes. */
#ifndef OPR_DEVICE_H
#define OPR_DEVICE_H

#include "opr/status.h"
#include "opr/tensor.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* True when this runtime was built with CUDA support (a CUDA compiler was
 * found at configure time). Says nothing about devices. */
bool opr_gpu_support_built(void);

/* The number of usable CUDA devices: 0 without CUDA support, without a
 * driver or without a GPU. The first call probes; later calls reuse the
 * answer. Thread-safe. */
int opr_gpu_device_count(void);

/* OPR_OK when `device` can run ops here; otherwise FAILED_PRECONDITION
 * naming the reason (built without CUDA, no driver, no device). */
opr_status opr_device_available(opr_device_kind device);

/* A tensor holding the same elements on `device` (device 0 for the GPU):
 * `t` itself with one more reference when it is already there, else a
 * copy with one reference. String tensors stay on the host
 * (INVALID_ARGUMENT for the GPU). Results of GPU ops come back in host
 * memory; this moves inputs up front, so that a tensor used by several
 * GPU calls is copied once. */
opr_status opr_tensor_to_device(const opr_tensor *t, opr_device_kind device,
                                opr_tensor **out);

/* The device memory of freed GPU tensors is kept for reuse, up to
 * `bytes` in all (1 GiB unless set; 0 keeps none and frees what is
 * kept), as opr_tensor_cache_limit does for host memory: cudaMalloc and
 * cudaFree cost more than a small kernel. When the device runs out of
 * memory, what is kept is freed and the allocation tried again. Returns
 * the previous limit. Thread-safe; without CUDA it only records the
 * limit. */
size_t opr_gpu_cache_limit(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
