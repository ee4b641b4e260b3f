/* Small host tensors from this thread's cache, inline: the header's
 * fields written once, no call. Shared by tensor.c and the kernels'
 * opr_kernel_alloc_output (invoke.c), whose common case, a small output
 * allocated by a CPU kernel, then needs no call either. */
#ifndef OPR_TENSOR_SMALL_H
#define OPR_TENSOR_SMALL_H

#include "internal.h"
#include "tensor_cache.h"

#if defined(__GNUC__) || defined(__clang__)
#define OPR_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define OPR_ALWAYS_INLINE inline
#endif

/* Where a host tensor's data starts after its header, aligned for any
 * element type. */
static inline size_t opr_tensor_header_size(void) {
  size_t a = _Alignof(max_align_t);
  return (sizeof(opr_tensor) + a - 1) / a * a;
}

/* Fills a new tensor's header (every field but the unused inline dims;
 * the data is the caller's to clear). The dims are inline up to
 * OPR_INLINE_DIMS; more go to dims_heap, which the caller sets. */
static inline void opr_tensor_init_header(opr_tensor *t, opr_dtype dtype,
                                          int rank, const int64_t *dims,
                                          int64_t count, size_t nbytes,
                                          void *data) {
  t->dtype = dtype;
  t->rank = rank;
  t->num_elements = count;
  t->data = data;
  t->nbytes = nbytes;
  t->device = OPR_DEVICE_CPU;
  t->device_index = 0;
  t->release = NULL;
  t->dims_heap = NULL;
  int64_t *d = t->dims_inline;
  if (rank <= OPR_INLINE_DIMS)
    for (int i = 0; i < rank; i++) d[i] = dims[i];
  t->dims = d;
  opr_refcount_init(t, 1);
}

/* A small host tensor (a block of at most OPR_TC_MAX bytes, at most
 * OPR_INLINE_DIMS dims) straight from this thread's cache: every factor
 * and partial product is bounded by OPR_TC_MAX, so nothing overflows.
 * NULL for any other case (strings, and when the cache has no block: no
 * call here, so no registers to save), which the general path handles.
 * The data is not cleared. */
static OPR_ALWAYS_INLINE opr_tensor *opr_tensor_small_host(
    opr_dtype dtype, int rank, const int64_t *dims) {
  if (!opr_dtype_known(dtype) || dtype == OPR_DT_STRING ||
      (unsigned)rank > OPR_INLINE_DIMS || (rank > 0 && !dims))
    return NULL;
  uint64_t n = 1;
  for (int i = 0; i < rank; i++) {
    uint64_t d = (uint64_t)dims[i]; /* a negative dim: huge */
    if (d > OPR_TC_MAX || (n *= d) > OPR_TC_MAX) return NULL;
  }
  size_t head = opr_tensor_header_size();
  size_t nbytes = n * opr_dtype_size_table[dtype];
  if (head + nbytes > OPR_TC_MAX) return NULL;
  opr_tensor *t = opr_tc_take(head + nbytes); /* NULL: the general path's */
  if (!t) return NULL;
  opr_tensor_init_header(t, dtype, rank, dims, (int64_t)n, nbytes,
                         (char *)t + head);
  return t;
}

#endif
