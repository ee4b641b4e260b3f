/* Tensors: dtype, shape, data, device and a reference count. */
#ifndef OPR_TENSOR_H
#define OPR_TENSOR_H

#include "opr/dtype.h"
#include "opr/status.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum opr_device_kind {
  OPR_DEVICE_CPU = 0,
  OPR_DEVICE_GPU = 1,
} opr_device_kind;

/* "CPU", "GPU". */
const char *opr_device_name(opr_device_kind kind);

enum { OPR_MAX_RANK = 254, OPR_INLINE_DIMS = 6 };

/* Fields are public for reading; change a tensor only through the calls
 * below. A string tensor's data is an array of opr_string, each owned by
 * the tensor. */
typedef struct opr_tensor {
  opr_dtype dtype;
  int rank;
  const int64_t *dims;
  int64_t num_elements;
  void *data;
  size_t nbytes;
  opr_device_kind device;
  int device_index;
  /* private */
  int refcount; /* read and written only atomically, by the runtime */
  void (*release)(struct opr_tensor *t); /* frees data (device memory) */
  int64_t dims_inline[OPR_INLINE_DIMS];
  int64_t *dims_heap;
} opr_tensor;

/* A zero-filled host tensor with one reference. Fails with
 * INVALID_ARGUMENT for a bad dtype, a negative dim, a rank beyond
 * OPR_MAX_RANK, or an element count or byte size that overflows. */
opr_status opr_tensor_new(opr_dtype dtype, int rank, const int64_t *dims,
                          opr_tensor **out);
/* Same, with `nbytes` bytes copied from `data` (which must be exactly the
 * tensor's size; not for string tensors). */
opr_status opr_tensor_from_data(opr_dtype dtype, int rank, const int64_t *dims,
                                const void *data, size_t nbytes,
                                opr_tensor **out);
/* A host tensor over the caller's memory, not copied: `data` holds its
 * elements (exactly the tensor's `nbytes`, aligned for the dtype; not for
 * string tensors). When the last reference goes, release(arg) runs (on
 * whichever thread drops it; release may be NULL). On failure nothing is
 * released: the memory stays the caller's. For zero-copy inputs (the
 * Python extension wraps numpy arrays). */
opr_status opr_tensor_wrap(opr_dtype dtype, int rank, const int64_t *dims,
                           void *data, size_t nbytes,
                           void (*release)(void *arg), void *arg,
                           opr_tensor **out);
/* A host tensor of `dtype` with `like`'s shape (a valid tensor's, so
 * not checked again), one reference, its data NOT cleared (string
 * elements excepted): for an output a kernel writes completely. The
 * generated fast paths allocate outputs with it. */
opr_status opr_tensor_new_like(opr_dtype dtype, const opr_tensor *like,
                               opr_tensor **out);
/* A string tensor from `count` C strings, or byte strings when `lens`
 * is given. */
opr_status opr_tensor_from_strings(int rank, const int64_t *dims,
                                   const char *const *strs, const size_t *lens,
                                   opr_tensor **out);
/* Replaces element `index` of a string tensor with a copy of the bytes. */
opr_status opr_tensor_set_string(opr_tensor *t, int64_t index,
                                 const char *bytes, size_t len);

opr_tensor *opr_tensor_ref(opr_tensor *t);
/* Drops one reference; frees the tensor with the last. NULL is ignored. */
void opr_tensor_unref(opr_tensor *t);

/* The host memory of freed large tensors (1 MiB and more) is kept for
 * reuse, up to `bytes` in all (1 GiB unless set; 0 keeps none and frees
 * what is kept), as TensorFlow's BFC allocator keeps its pool: an op run
 * again on tensors of the same size writes into memory already mapped
 * instead of faulting fresh pages in. Returns the previous limit.
 * Thread-safe. */
size_t opr_tensor_cache_limit(size_t bytes);

/* Element count for a shape, or -1 on a negative dim or overflow. */
int64_t opr_shape_num_elements(int rank, const int64_t *dims);
/* Writes "[2, 3]" (or "?" for rank -1, "?" for dims < 0). */
const char *opr_shape_text(int rank, const int64_t *dims, char *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif
