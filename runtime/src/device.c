/* Devices: detection, device memory and copies. Built with CUDA
 * (OPR_WITH_CUDA, set when CMake finds a CUDA compiler) these use the
 * CUDA runtime API, loaded at run time (cudart.h); built without, the
 * GPU is simply never available.
 * Either way a missing device is a status, found once and cached: no
 * driver, no GPU, or no CUDA in the build. Device memory is cudaMalloc
 * on device 0 through a pool that keeps freed blocks for reuse
 * (device_pool.h); copies are synchronous on the default stream. */
#include "device_internal.h"
#include "device_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OPR_WITH_CUDA
#include "cudart.h"

static const opr_cudart *rt; /* set by probe; NULL: no CUDA runtime */
#endif

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int gpu_count;
static char gpu_absent[256]; /* why there is none, when gpu_count is 0 */

static void probe(void) {
#ifdef OPR_WITH_CUDA
  int n = 0;
  rt = opr_cudart_open(gpu_absent, sizeof gpu_absent);
  if (!rt) {
    gpu_count = 0;
    return;
  }
  cudaError_t e = rt->GetDeviceCount(&n);
  if (e != cudaSuccess) {
    snprintf(gpu_absent, sizeof gpu_absent, "%s (%s)", rt->GetErrorString(e),
             rt->GetErrorName(e));
    rt->GetLastError(); /* not sticky: clear it for later calls */
    n = 0;
  } else if (n == 0) {
    snprintf(gpu_absent, sizeof gpu_absent, "the CUDA runtime finds no "
             "device");
  }
  gpu_count = n;
#else
  snprintf(gpu_absent, sizeof gpu_absent, "this runtime was built without "
           "CUDA support (no CUDA compiler was found at configure time)");
  gpu_count = 0;
#endif
}

bool opr_gpu_support_built(void) {
#ifdef OPR_WITH_CUDA
  return true;
#else
  return false;
#endif
}

int opr_gpu_device_count(void) {
  pthread_once(&probe_once, probe);
  return gpu_count;
}

opr_status opr_device_available(opr_device_kind device) {
  if (device == OPR_DEVICE_CPU) return OPR_OK;
  if (device != OPR_DEVICE_GPU)
    return opr_error(OPR_INVALID_ARGUMENT, "invalid device (value %d)",
                     (int)device);
  if (opr_gpu_device_count() > 0) return OPR_OK;
  return opr_error(OPR_FAILED_PRECONDITION, "no CUDA device is available: "
                   "%s", gpu_absent);
}

/* ---- the CUDA backend: allocation, copies, waiting ---- */

#ifdef OPR_WITH_CUDA
OPR_COLD static opr_status cuda_failure(opr_code code, const char *who,
                                        const char *what, cudaError_t e) {
  return opr_error(code, "%s: %s failed: %s (%s)", who, what,
                   rt->GetErrorString(e), rt->GetErrorName(e));
}

static int cuda_alloc(void **p, size_t n) {
  cudaError_t e = rt->Malloc(p, n);
  if (e != cudaSuccess) rt->GetLastError(); /* not sticky: clear it */
  return (int)e;
}

static void cuda_free(void *p) { rt->Free(p); }

/* Every block in it was last used by work the device has finished: each
 * call waits for its kernel before it releases its tensors. */
static opr_pool pool = OPR_POOL_INIT(cuda_alloc, cuda_free, (size_t)1 << 30);

static void release_device_memory(opr_tensor *t) {
  opr_pool_put(&pool, t->data, t->nbytes);
}

/* What the pool keeps is freed at exit, before the CUDA runtime's own
 * exit handlers (registered earlier, so run later) tear the device down:
 * leak checkers such as compute-sanitizer then see nothing left. */
static void free_kept_at_exit(void) { opr_pool_set_limit(&pool, 0); }

static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static void register_exit(void) { atexit(free_kept_at_exit); }
#else
/* Recorded, but nothing to keep. */
static _Atomic size_t pool_limit = (size_t)1 << 30;
#endif

size_t opr_gpu_cache_limit(size_t bytes) {
#ifdef OPR_WITH_CUDA
  return opr_pool_set_limit(&pool, bytes);
#else
  return atomic_exchange(&pool_limit, bytes);
#endif
}

/* Device memory of t->nbytes for a shell tensor. */
static opr_status device_alloc(const char *who, opr_tensor *t) {
#ifdef OPR_WITH_CUDA
  void *p = NULL;
  pthread_once(&exit_once, register_exit);
  int e = t->nbytes ? opr_pool_get(&pool, t->nbytes, &p) : 0;
  if (e)
    return cuda_failure(OPR_RESOURCE_EXHAUSTED, who, "cudaMalloc",
                        (cudaError_t)e);
  t->data = p;
  t->device = OPR_DEVICE_GPU;
  t->device_index = 0;
  t->release = release_device_memory;
  return OPR_OK;
#else
  (void)t;
  return opr_error(OPR_FAILED_PRECONDITION, "%s: no CUDA device is "
                   "available: %s", who, gpu_absent);
#endif
}

/* Copies the bytes of src to dst (same size; one of them on the GPU). */
static opr_status device_copy(const char *who, opr_tensor *dst,
                              const opr_tensor *src) {
  if (src->nbytes == 0) return OPR_OK;
#ifdef OPR_WITH_CUDA
  enum cudaMemcpyKind kind = dst->device == OPR_DEVICE_CPU
                                 ? cudaMemcpyDeviceToHost
                                 : src->device == OPR_DEVICE_CPU
                                       ? cudaMemcpyHostToDevice
                                       : cudaMemcpyDeviceToDevice;
  cudaError_t e = rt->Memcpy(dst->data, src->data, src->nbytes, kind);
  if (e != cudaSuccess)
    return cuda_failure(OPR_INTERNAL, who, "cudaMemcpy", e);
  return OPR_OK;
#else
  (void)dst;
  return opr_error(OPR_FAILED_PRECONDITION, "%s: no CUDA device is "
                   "available: %s", who, gpu_absent);
#endif
}

opr_status opr_device_sync(opr_device_kind device, const char *op) {
  if (device == OPR_DEVICE_CPU) return OPR_OK;
#ifdef OPR_WITH_CUDA
  if (!rt)
    return opr_error(OPR_FAILED_PRECONDITION, "%s: no CUDA device is "
                     "available: %s", op, gpu_absent);
  cudaError_t e = rt->DeviceSynchronize();
  if (e == cudaSuccess) e = rt->GetLastError();
  if (e != cudaSuccess)
    return cuda_failure(OPR_INTERNAL, op, "the GPU kernel", e);
  return OPR_OK;
#else
  return opr_error(OPR_FAILED_PRECONDITION, "%s: no CUDA device is "
                   "available: %s", op, gpu_absent);
#endif
}

/* ---- device tensors ---- */

opr_status opr_device_tensor_create(const char *who, opr_device_kind device,
                                    opr_dtype dtype, int rank,
                                    const int64_t *dims, opr_tensor **out) {
  opr_status s = opr_device_available(device);
  if (s) {
    opr_status r = opr_error(opr_status_code(s), "%s: %s", who,
                             opr_status_message(s));
    opr_status_free(s);
    return r;
  }
  if (dtype == OPR_DT_STRING)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: string tensors stay in host "
                     "memory; a %s tensor cannot hold them", who,
                     opr_device_name(device));
  opr_tensor *t;
  s = opr_tensor_create_shell(who, dtype, rank, dims, &t);
  if (s) return s;
  s = device_alloc(who, t);
  if (s) {
    opr_tensor_unref(t);
    return s;
  }
  *out = t;
  return OPR_OK;
}

opr_status opr_tensor_to_device(const opr_tensor *t, opr_device_kind device,
                                opr_tensor **out) {
  static const char who[] = "opr_tensor_to_device";
  if (!out) return opr_error(OPR_INVALID_ARGUMENT, "%s: out is NULL", who);
  *out = NULL;
  if (!t) return opr_error(OPR_INVALID_ARGUMENT, "%s: tensor is NULL", who);
  if (device != OPR_DEVICE_CPU && device != OPR_DEVICE_GPU)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: invalid device (value %d)",
                     who, (int)device);
  if (t->device == device) {
    /* The reference count is atomic; sharing is safe for a const one. */
    *out = opr_tensor_ref((opr_tensor *)t);
    return OPR_OK;
  }
  opr_tensor *copy;
  opr_status s = device == OPR_DEVICE_CPU
                     ? opr_tensor_create(who, t->dtype, t->rank, t->dims,
                                         &copy)
                     : opr_device_tensor_create(who, device, t->dtype,
                                                t->rank, t->dims, &copy);
  if (s) return s;
  s = device_copy(who, copy, t);
  if (s) {
    opr_tensor_unref(copy);
    return s;
  }
  *out = copy;
  return OPR_OK;
}
