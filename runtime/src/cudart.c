/* Opening the CUDA runtime library (see cudart.h). OPR_CUDART_SONAME
 * (libcudart.so.<major> of the toolkit built against) and
 * OPR_CUDART_PATH (its file in that toolkit, for when the loader's search
 * path does not reach it) come from CMake. */
#ifdef OPR_WITH_CUDA
#include "cudart.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static opr_cudart api;

/* Resolves `name` into *fn (a function pointer object); false if absent. */
static bool resolve(void *h, const char *name, void *fn, size_t size) {
  void *sym = dlsym(h, name);
  if (sym) memcpy(fn, &sym, size); /* ISO C: no direct cast */
  return sym != NULL;
}

#define RESOLVE(field, name) \
  resolve(h, name, &api.field, sizeof api.field) ? NULL : name

static void *open_library(void) {
  void *h = dlopen(OPR_CUDART_SONAME, RTLD_NOW | RTLD_NOLOAD);
  if (!h) h = dlopen(OPR_CUDART_SONAME, RTLD_NOW);
  if (!h) h = dlopen(OPR_CUDART_PATH, RTLD_NOW);
  return h;
}

const opr_cudart *opr_cudart_open(char *why, size_t n) {
  void *h = open_library();
  if (!h) {
    const char *e = dlerror();
    snprintf(why, n, "no CUDA runtime (%s cannot be loaded: %s)",
             OPR_CUDART_SONAME, e ? e : "not found");
    return NULL;
  }
  const char *missing = RESOLVE(GetDeviceCount, "cudaGetDeviceCount");
  if (!missing) missing = RESOLVE(GetErrorString, "cudaGetErrorString");
  if (!missing) missing = RESOLVE(GetErrorName, "cudaGetErrorName");
  if (!missing) missing = RESOLVE(GetLastError, "cudaGetLastError");
  if (!missing) missing = RESOLVE(Malloc, "cudaMalloc");
  if (!missing) missing = RESOLVE(Free, "cudaFree");
  if (!missing) missing = RESOLVE(Memcpy, "cudaMemcpy");
  if (!missing) missing = RESOLVE(DeviceSynchronize, "cudaDeviceSynchronize");
  if (missing) {
    snprintf(why, n, "no CUDA runtime (%s has no %s)", OPR_CUDART_SONAME,
             missing);
    return NULL; /* the handle stays open: the library may be in use */
  }
  return &api;
}
#else
/* ISO C: a translation unit is never empty. */
typedef int opr_cudart_unused;
#endif
