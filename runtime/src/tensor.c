/* Host tensors: one allocation holds the struct and the data, so that a
 * small output costs one block (from this thread's cache: see
 * tensor_cache.h). Shapes are validated with overflow checks before
 * anything is allocated. */
#include "internal.h"
#include "tensor_cache.h"
#include "tensor_small.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *opr_device_name(opr_device_kind kind) {
  switch (kind) {
  case OPR_DEVICE_CPU: return "CPU";
  case OPR_DEVICE_GPU: return "GPU";
  }
  return "unknown";
}

/* opr_shape_num_elements, inline for tensor creation. */
static inline int64_t num_elements(int rank, const int64_t *dims) {
  if (rank < 0 || (rank > 0 && !dims)) return -1;
  int64_t n = 1;
  bool zero = false, overflow = false;
  for (int i = 0; i < rank; i++) {
    int64_t d = dims[i];
    if (d < 0) return -1;
    /* [2^40, 2^40, 0] is an empty tensor, not an overflow. Small factors
     * skip the division. */
    if (d == 0) zero = true;
    else if ((uint64_t)(n | d) < (UINT64_C(1) << 31)) n *= d;
    else if (n > INT64_MAX / d) overflow = true;
    else n *= d;
  }
  return zero ? 0 : overflow ? -1 : n;
}

int64_t opr_shape_num_elements(int rank, const int64_t *dims) {
  return num_elements(rank, dims);
}

const char *opr_shape_text(int rank, const int64_t *dims, char *buf,
                           size_t n) {
  if (n == 0) return buf;
  if (rank < 0) {
    snprintf(buf, n, "?");
    return buf;
  }
  size_t pos = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < rank && pos < n; i++) {
    const char *sep = i ? ", " : "";
    int w = dims && dims[i] >= 0
                ? snprintf(buf + pos, n - pos, "%s%" PRId64, sep, dims[i])
                : snprintf(buf + pos, n - pos, "%s?", sep);
    pos += w > 0 ? (size_t)w : 0;
  }
  if (pos < n) snprintf(buf + pos, n - pos, "]");
  return buf;
}

/* check_new's fast size test relies on small elements. */
#define OPR_DTYPE(ID, VALUE, NAME, ALIAS, CTYPE, N, R, Q) \
  _Static_assert(sizeof(CTYPE) <= 16, #ID " elements fit in 16 bytes");
#include "opr/dtypes.def"
#undef OPR_DTYPE

/* Validates a new tensor's dtype and shape and computes its size. `who`
 * starts the messages. */
static opr_status check_new(const char *who, opr_dtype dtype, int rank,
                            const int64_t *dims, int64_t *count,
                            size_t *nbytes) {
  if (!opr_dtype_known(dtype))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: invalid dtype (value %d)",
                     who, (int)dtype);
  if (rank < 0 || rank > OPR_MAX_RANK)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: rank %d is out of range "
                     "[0, %d]", who, rank, (int)OPR_MAX_RANK);
  if (rank > 0 && !dims)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: dims is NULL for rank %d",
                     who, rank);
  int64_t n = num_elements(rank, dims);
  for (int i = 0; n < 0 && i < rank; i++)
    if (dims[i] < 0)
      return opr_error(OPR_INVALID_ARGUMENT, "%s: dim %d is %" PRId64
                       "; dims must be >= 0", who, i, dims[i]);
  char shape[128];
  size_t size = opr_dtype_size_table[dtype]; /* at most 16 */
  bool small = (uint64_t)n <= (SIZE_MAX >> 16); /* no division needed */
  if (n < 0 || (!small &&
                (uint64_t)n > (SIZE_MAX - opr_tensor_header_size()) / size))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: a tensor of type %s and "
                     "shape %s is too large (its size overflows)", who,
                     opr_dtype_name(dtype),
                     opr_shape_text(rank, dims, shape, sizeof shape));
  *count = n;
  *nbytes = (size_t)n * size;
  return OPR_OK;
}

/* Dims beyond the inline ones: on the heap. False when out of memory. */
static OPR_NOINLINE bool heap_dims(opr_tensor *t, const int64_t *dims) {
  int64_t *d = malloc((size_t)t->rank * sizeof *d);
  if (!d) return false;
  memcpy(d, dims, (size_t)t->rank * sizeof *d);
  t->dims = t->dims_heap = d;
  return true;
}

/* A tensor whose data follows its header (host), or a header only
 * (`host` false: the caller sets data and release). `zero` clears the
 * data; string data is always cleared (its elements own pointers). */
static OPR_NOINLINE opr_status tensor_alloc(const char *who, opr_dtype dtype,
                                            int rank, const int64_t *dims,
                                            bool host, bool zero, size_t extra,
                                            opr_tensor **out) {
  int64_t count = 0;
  size_t nbytes = 0;
  opr_status s = check_new(who, dtype, rank, dims, &count, &nbytes);
  if (s) return s;
  /* `extra`: room after a header-only tensor's header (opr_tensor_wrap). */
  size_t head = opr_tensor_header_size(), data = host ? nbytes : extra;
  /* Host tensors from this thread's cache (small ones) or malloc; not
   * calloc: glibc's calloc bypasses its per-thread cache. */
  opr_tensor *t =
      host ? opr_tc_alloc(head + data) : opr_host_alloc(head + data);
  if (!t) return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory "
                           "allocating %zu bytes", who, head + data);
  if (zero || dtype == OPR_DT_STRING)
    memset((char *)t + head, 0, data);
  opr_tensor_init_header(t, dtype, rank, dims, count, nbytes,
                         host ? (char *)t + head : NULL);
  if (rank > OPR_INLINE_DIMS && !heap_dims(t, dims)) {
    if (host) opr_tc_free(t, head + data);
    else opr_host_free(t, head + data);
    return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory", who);
  }
  *out = t;
  return OPR_OK;
}

opr_status opr_tensor_create(const char *who, opr_dtype dtype, int rank,
                             const int64_t *dims, opr_tensor **out) {
  opr_tensor *t = opr_tensor_small_host(dtype, rank, dims);
  if (!t) return tensor_alloc(who, dtype, rank, dims, true, true, 0, out);
  memset(t->data, 0, t->nbytes);
  *out = t;
  return OPR_OK;
}

/* The general case of opr_tensor_create_output: a tail call from its
 * fast path, so that the fast path saves no registers. */
static OPR_NOINLINE opr_status create_output_slow(const char *who,
                                                  opr_dtype dtype, int rank,
                                                  const int64_t *dims,
                                                  opr_tensor **out) {
  return tensor_alloc(who, dtype, rank, dims, true, false, 0, out);
}

opr_status opr_tensor_create_output(const char *who, opr_dtype dtype,
                                    int rank, const int64_t *dims,
                                    opr_tensor **out) {
  if ((*out = opr_tensor_small_host(dtype, rank, dims))) return OPR_OK;
  return create_output_slow(who, dtype, rank, dims, out);
}

opr_status opr_tensor_create_shell(const char *who, opr_dtype dtype,
                                   int rank, const int64_t *dims,
                                   opr_tensor **out) {
  return tensor_alloc(who, dtype, rank, dims, false, false, 0, out);
}

opr_status opr_tensor_new(opr_dtype dtype, int rank, const int64_t *dims,
                          opr_tensor **out) {
  if (!out)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_tensor_new: out is NULL");
  *out = NULL;
  return opr_tensor_create("opr_tensor_new", dtype, rank, dims, out);
}

/* opr_tensor_new_like's block when this thread's cache has none (or the
 * tensor is not small): malloc's, the shape still not checked again. */
static OPR_NOINLINE opr_status new_like_slow(opr_dtype dtype,
                                             const opr_tensor *like,
                                             size_t nbytes, opr_tensor **out) {
  size_t head = opr_tensor_header_size();
  opr_tensor *t = opr_tc_alloc(head + nbytes);
  if (!t) return opr_error(OPR_RESOURCE_EXHAUSTED, "opr_tensor_new_like: out "
                           "of memory allocating %zu bytes", head + nbytes);
  if (dtype == OPR_DT_STRING) memset((char *)t + head, 0, nbytes);
  opr_tensor_init_header(t, dtype, like->rank, like->dims,
                         like->num_elements, nbytes, (char *)t + head);
  *out = t;
  return OPR_OK;
}

opr_status opr_tensor_new_like(opr_dtype dtype, const opr_tensor *like,
                               opr_tensor **out) {
  if (!out || !like)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_tensor_new_like: %s is NULL",
                     !out ? "out" : "like");
  *out = NULL;
  int64_t n = like->num_elements;
  /* A valid tensor's shape: only the byte size for `dtype` is new (no
   * overflow: at most 16 bytes an element, below 2^48 elements). */
  if (OPR_UNLIKELY(!opr_dtype_known(dtype) || like->rank > OPR_INLINE_DIMS ||
                   (uint64_t)n > (SIZE_MAX >> 16)))
    return opr_tensor_create_output("opr_tensor_new_like", dtype, like->rank,
                                    like->dims, out);
  size_t nbytes = (size_t)n * opr_dtype_size_table[dtype];
  size_t head = opr_tensor_header_size();
  opr_tensor *t = head + nbytes <= OPR_TC_MAX && dtype != OPR_DT_STRING
                      ? opr_tc_take(head + nbytes)
                      : NULL;
  if (!t) return new_like_slow(dtype, like, nbytes, out);
  opr_tensor_init_header(t, dtype, like->rank, like->dims, n, nbytes,
                         (char *)t + head);
  *out = t;
  return OPR_OK;
}

opr_status opr_tensor_from_data(opr_dtype dtype, int rank, const int64_t *dims,
                                const void *data, size_t nbytes,
                                opr_tensor **out) {
  static const char who[] = "opr_tensor_from_data";
  if (!out) return opr_error(OPR_INVALID_ARGUMENT, "%s: out is NULL", who);
  *out = NULL;
  if (dtype == OPR_DT_STRING)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: string tensors are made "
                     "with opr_tensor_from_strings", who);
  opr_tensor *t; /* not cleared: the copy below writes every byte */
  opr_status s = opr_tensor_create_output(who, dtype, rank, dims, &t);
  if (s) return s;
  if (nbytes != t->nbytes || (nbytes > 0 && !data)) {
    char shape[128];
    s = opr_error(OPR_INVALID_ARGUMENT, "%s: a tensor of type %s and shape "
                  "%s takes %zu bytes; got %zu%s", who, opr_dtype_name(dtype),
                  opr_shape_text(rank, dims, shape, sizeof shape), t->nbytes,
                  nbytes, data ? "" : " (NULL)");
    opr_tensor_unref(t);
    return s;
  }
  if (nbytes > 0) memcpy(t->data, data, nbytes);
  *out = t;
  return OPR_OK;
}

/* What follows a wrapped tensor's header: who releases its memory. */
typedef struct wrap_owner {
  void (*release)(void *arg);
  void *arg;
} wrap_owner;

static void wrap_release(opr_tensor *t) {
  const wrap_owner *w =
      (const wrap_owner *)((char *)t + opr_tensor_header_size());
  if (w->release) w->release(w->arg);
}

/* The alignment of one element's C type. */
static size_t dtype_align(opr_dtype dt) {
  switch (dt) {
#define OPR_DTYPE(ID, VALUE, NAME, ALIAS, CTYPE, N, R, Q) \
  case OPR_DT_##ID: return _Alignof(CTYPE);
#include "opr/dtypes.def"
#undef OPR_DTYPE
  default: return 1;
  }
}

opr_status opr_tensor_wrap(opr_dtype dtype, int rank, const int64_t *dims,
                           void *data, size_t nbytes,
                           void (*release)(void *arg), void *arg,
                           opr_tensor **out) {
  static const char who[] = "opr_tensor_wrap";
  if (!out) return opr_error(OPR_INVALID_ARGUMENT, "%s: out is NULL", who);
  *out = NULL;
  if (dtype == OPR_DT_STRING)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: string tensors own their "
                     "elements; make them with opr_tensor_from_strings", who);
  opr_tensor *t;
  opr_status s = tensor_alloc(who, dtype, rank, dims, false, false,
                              sizeof(wrap_owner), &t);
  if (s) return s;
  size_t align = dtype_align(dtype);
  if (nbytes != t->nbytes || (nbytes > 0 && !data) ||
      (uintptr_t)data % align != 0) {
    char shape[128];
    s = opr_error(OPR_INVALID_ARGUMENT, "%s: a tensor of type %s and shape "
                  "%s takes %zu bytes aligned to %zu; got %zu at %p", who,
                  opr_dtype_name(dtype),
                  opr_shape_text(rank, dims, shape, sizeof shape), t->nbytes,
                  align, nbytes, data);
    opr_tensor_unref(t);
    return s;
  }
  wrap_owner *w = (wrap_owner *)((char *)t + opr_tensor_header_size());
  w->release = release;
  w->arg = arg;
  t->data = data;
  t->release = wrap_release;
  *out = t;
  return OPR_OK;
}

/* Copies `len` bytes into a string element, NUL-terminated for
 * convenience (the length is what counts). */
static opr_status store_string(const char *who, opr_string *dst,
                               const char *bytes, size_t len) {
  char *copy = len < SIZE_MAX ? malloc(len + 1) : NULL;
  if (!copy) return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory",
                              who);
  if (len > 0) memcpy(copy, bytes, len);
  copy[len] = '\0';
  free(dst->data);
  dst->data = copy;
  dst->len = len;
  return OPR_OK;
}

opr_status opr_tensor_from_strings(int rank, const int64_t *dims,
                                   const char *const *strs, const size_t *lens,
                                   opr_tensor **out) {
  static const char who[] = "opr_tensor_from_strings";
  if (!out) return opr_error(OPR_INVALID_ARGUMENT, "%s: out is NULL", who);
  *out = NULL;
  opr_tensor *t;
  opr_status s = opr_tensor_create(who, OPR_DT_STRING, rank, dims, &t);
  if (s) return s;
  if (t->num_elements > 0 && !strs)
    s = opr_error(OPR_INVALID_ARGUMENT, "%s: strs is NULL", who);
  opr_string *elems = t->data;
  for (int64_t i = 0; !s && i < t->num_elements; i++) {
    size_t len = lens ? lens[i] : strs[i] ? strlen(strs[i]) : 0;
    if (!strs[i] && (len > 0 || !lens))
      s = opr_error(OPR_INVALID_ARGUMENT, "%s: string %" PRId64 " is NULL",
                    who, i);
    else
      s = store_string(who, &elems[i], strs[i], len);
  }
  if (s) {
    opr_tensor_unref(t);
    return s;
  }
  *out = t;
  return OPR_OK;
}

opr_status opr_tensor_set_string(opr_tensor *t, int64_t index,
                                 const char *bytes, size_t len) {
  static const char who[] = "opr_tensor_set_string";
  if (!t) return opr_error(OPR_INVALID_ARGUMENT, "%s: tensor is NULL", who);
  if (t->dtype != OPR_DT_STRING)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: tensor has type %s; "
                     "expected string", who, opr_dtype_name(t->dtype));
  if (index < 0 || index >= t->num_elements)
    return opr_error(OPR_OUT_OF_RANGE, "%s: index %" PRId64 " is out of "
                     "range [0, %" PRId64 ")", who, index, t->num_elements);
  if (!bytes && len > 0)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: bytes is NULL", who);
  return store_string(who, (opr_string *)t->data + index, bytes, len);
}

opr_tensor *opr_tensor_ref(opr_tensor *t) {
  if (t) opr_refcount_inc(t);
  return t;
}

static OPR_NOINLINE void tensor_destroy(opr_tensor *t) {
  if (t->dtype == OPR_DT_STRING && t->device == OPR_DEVICE_CPU) {
    opr_string *elems = t->data;
    for (int64_t i = 0; i < t->num_elements; i++) free(elems[i].data);
  }
  if (t->release) t->release(t);
  if (t->dims_heap) free(t->dims_heap);
  /* The size tensor_alloc asked for: the data follows a host tensor's
   * header; a shell's block is its header (and a wrap's owner: small). */
  size_t head = opr_tensor_header_size();
  if (t->data == (void *)((char *)t + head))
    opr_tc_free(t, head + t->nbytes);
  else
    opr_host_free(t, head);
}

void opr_tensor_unref(opr_tensor *t) {
  if (!t) return;
  /* The only reference (the common case: an output released): nobody
   * else can reach the tensor, so no atomic write is needed. The
   * acquire load pairs with the release decrements of the owners before.
   * Otherwise: release on the way down, acquire by the last owner, in
   * one acq_rel operation rather than a release and an acquire fence:
   * the same cost on x86 (any RMW is a full barrier), and
   * ThreadSanitizer, which does not model fences, then sees the order
   * too. */
  if (__atomic_load_n(&t->refcount, __ATOMIC_ACQUIRE) != 1 &&
      opr_refcount_dec(t) != 1)
    return;
  /* A small plain host tensor back to this thread's cache without a
   * call; anything else through tensor_destroy. */
  size_t head = opr_tensor_header_size(), size = head + t->nbytes;
  if (t->data == (void *)((char *)t + head) && !t->release &&
      !t->dims_heap && t->dtype != OPR_DT_STRING && opr_tc_put(t, size))
    return;
  tensor_destroy(t);
}
