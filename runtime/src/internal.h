/* What the runtime's files share and nobody else sees. */
#ifndef OPR_INTERNAL_H
#define OPR_INTERNAL_H

#include "opr/opr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* Marks the functions that build error messages, so that the fast paths
 * calling them stay small. */
#if defined(__GNUC__) || defined(__clang__)
#define OPR_COLD __attribute__((cold, noinline))
#else
#define OPR_COLD
#endif

/* Marks the general case behind a short fast path, so that inlining it
 * does not make the fast path save and restore every register. */
#if defined(__GNUC__) || defined(__clang__)
#define OPR_NOINLINE __attribute__((noinline))
#else
#define OPR_NOINLINE
#endif

/* What a %s gets: `s`, or `otherwise` where s is NULL (a format given
 * NULL for %s is undefined behaviour). */
static inline const char *opr_text_or(const char *s, const char *otherwise) {
  return s ? s : otherwise;
}

struct opr_context {
  opr_device_kind device;
  struct opr_threadpool *pool; /* opr_shard's workers (threadpool.h) */
};

/* A type constraint with its attr name resolved to an index. */
typedef struct opr_kernel_match {
  size_t attr;
  opr_dtype_set allowed;
} opr_kernel_match;

/* A registered kernel: the copied definition (strings and arrays owned by
 * the record) and its constraints resolved for the hot path. Never freed:
 * a published table may still be read by a running call. */
typedef struct opr_kernel_rec {
  opr_kernel_def def;
  size_t nmatch;
  opr_kernel_match match[];
} opr_kernel_rec;

/* An op's kernels in selection order (priority high to low, then
 * registration order). Immutable once published through
 * opr_op_state.kernels; a registration publishes a new table. */
enum { OPR_KERNEL_CACHE_DTYPES = 64 };

struct opr_kernel_table {
  struct opr_kernel_table *retired_next; /* kept reachable once replaced */
  /* The fast paths' CPU kernel per input dtype, filled on first use
   * (atomically; NULL: not yet). A new table starts empty, so that a
   * kernel registered later is seen. */
  const opr_kernel_rec *cpu_by_dtype[OPR_KERNEL_CACHE_DTYPES];
  size_t count;
  const opr_kernel_rec *recs[];
};

/* The atomic fields of the public structs (opr_tensor.refcount,
 * opr_op_state) are plain in the headers, so that C++ can include them;
 * the runtime reads and writes them only through these, with the
 * GCC/clang __atomic builtins (the same instructions as <stdatomic.h>,
 * and understood by ThreadSanitizer). */
static inline void opr_refcount_init(opr_tensor *t, int n) {
  __atomic_store_n(&t->refcount, n, __ATOMIC_RELAXED);
}
static inline void opr_refcount_inc(opr_tensor *t) {
  __atomic_fetch_add(&t->refcount, 1, __ATOMIC_RELAXED);
}
/* The count before the decrement (release, and acquire for the last). */
static inline int opr_refcount_dec(opr_tensor *t) {
  return __atomic_fetch_sub(&t->refcount, 1, __ATOMIC_ACQ_REL);
}
static inline struct opr_kernel_table *opr_state_kernels(
    const opr_op_state *st, int order) {
  return __atomic_load_n(&st->kernels, order);
}
static inline void opr_state_publish_kernels(opr_op_state *st,
                                             struct opr_kernel_table *t) {
  __atomic_store_n(&st->kernels, t, __ATOMIC_RELEASE);
}
static inline bool opr_state_registered(const opr_op_state *st) {
  return __atomic_load_n(&st->registered, __ATOMIC_ACQUIRE);
}
static inline void opr_state_set_registered(opr_op_state *st) {
  __atomic_store_n(&st->registered, true, __ATOMIC_RELEASE);
}

/* True when dt is a dtype value present in `set`; safe for any value. */
static inline bool opr_dtype_in_set(opr_dtype dt, opr_dtype_set set) {
  return (unsigned)dt < 64 && (set >> (unsigned)dt & 1u);
}

/* opr_dtype_valid as a constant mask test, for the hot path. */
static inline bool opr_dtype_known(opr_dtype dt) {
  const opr_dtype_set known = 0
#define OPR_DTYPE(ID, VALUE, NAME, ALIAS, CTYPE, N, R, Q) | OPR_DTYPE_BIT(VALUE)
#include "opr/dtypes.def"
#undef OPR_DTYPE
      ;
  return opr_dtype_in_set(dt, known);
}

/* Bytes per element, indexed by dtype value (0 where no dtype). */
extern const size_t opr_dtype_size_table[OPR_DT_COUNT];

/* opr_output_count, inline for the hot path. */
static inline size_t opr_output_count_fast(const opr_call *call, size_t arg) {
  const opr_arg_def *a = &call->op->outputs[arg];
  if (a->number_attr != OPR_NO_ATTR) {
    const opr_attr_value *v = &call->attrs[a->number_attr];
    return v->kind == OPR_ATTR_INT && v->u.i > 0 ? (size_t)v->u.i : 0;
  }
  if (a->type_list_attr != OPR_NO_ATTR) {
    const opr_attr_value *v = &call->attrs[a->type_list_attr];
    return v->kind == OPR_ATTR_TYPE && v->is_list ? v->u.list.count : 0;
  }
  return 1;
}

/* opr_output_dtype, inline for the hot path. */
static inline opr_dtype opr_output_dtype_fast(const opr_call *call,
                                              size_t arg, size_t index) {
  const opr_arg_def *a = &call->op->outputs[arg];
  if (a->type != OPR_DT_INVALID) return a->type;
  if (a->type_attr != OPR_NO_ATTR) {
    const opr_attr_value *v = &call->attrs[a->type_attr];
    return v->kind == OPR_ATTR_TYPE && !v->is_list ? v->u.type
                                                   : OPR_DT_INVALID;
  }
  if (a->type_list_attr != OPR_NO_ATTR) {
    const opr_attr_value *v = &call->attrs[a->type_list_attr];
    if (v->kind == OPR_ATTR_TYPE && v->is_list && v->u.list.items &&
        index < v->u.list.count)
      return ((const opr_dtype *)v->u.list.items)[index];
  }
  return OPR_DT_INVALID;
}

/* Index of the first output whose slots cannot take what the call
 * produces, or noutputs. */
static inline size_t opr_first_bad_output(const opr_call *call) {
  const opr_output *outs = call->outputs;
  size_t o = 0, n = call->op->noutputs;
  for (; o < n; o++) {
    size_t count = opr_output_count_fast(call, o);
    if (count > 0 && (!outs || !outs[o].tensors || outs[o].count < count))
      break;
  }
  return o;
}

/* A new zero-filled host tensor; `who` starts the messages. */
opr_status opr_tensor_create(const char *who, opr_dtype dtype, int rank,
                             const int64_t *dims, opr_tensor **out);
/* The same, without clearing the data (except strings): for kernel
 * outputs, which the kernel writes in full; zeroing them would cost a
 * whole extra pass over memory. */
opr_status opr_tensor_create_output(const char *who, opr_dtype dtype,
                                    int rank, const int64_t *dims,
                                    opr_tensor **out);
/* The same checks, and a header with no data (data NULL, nbytes set),
 * for memory held elsewhere (a device): the caller sets device, data
 * and release. */
opr_status opr_tensor_create_shell(const char *who, opr_dtype dtype,
                                   int rank, const int64_t *dims,
                                   opr_tensor **out);

/* Host memory for tensors (host_alloc.c). Blocks of OPR_HOST_LARGE bytes
 * and more are kept for reuse when freed (see opr_tensor_cache_limit).
 * opr_host_free takes the size given to opr_host_alloc. */
#define OPR_HOST_LARGE ((size_t)1 << 20)
void *opr_host_alloc_large(size_t size);
void opr_host_free_large(void *p);

static inline void *opr_host_alloc(size_t size) {
  return size < OPR_HOST_LARGE ? malloc(size ? size : 1)
                               : opr_host_alloc_large(size);
}

static inline void opr_host_free(void *p, size_t size) {
  if (size < OPR_HOST_LARGE) free(p);
  else opr_host_free_large(p);
}

/* One lock guards both registries (registration is rare; calls never
 * take it). */
void opr_registry_lock(void);
void opr_registry_unlock(void);
/* opr_find_op with the lock already held. */
const opr_op_def *opr_find_op_locked(const char *name);
/* The checks opr_register_op makes of a table (names, a state record, a
 * check, attr references); `who` names the caller when the op has no
 * name. */
opr_status opr_check_op_def(const opr_op_def *def, const char *who);

/* Named attrs into vals (one per attr of the op, UNSET where not given):
 * an unknown name or one given twice is INVALID_ARGUMENT. Kinds are not
 * checked here. */
opr_status opr_set_named_attrs(const opr_op_def *op,
                               const opr_named_attr *attrs, size_t n,
                               opr_attr_value *vals);

/* "Op: attr 'a' must be int, got string". */
opr_status opr_attr_kind_error(const opr_op_def *op, const opr_attr_def *d,
                               const opr_attr_value *v);

/* Restates an error of opr_tensor_create_output ("opr_tensor_new: ...")
 * for output `arg` of `op`; takes `s`. */
opr_status opr_output_alloc_error(const opr_op_def *op, size_t arg,
                                  opr_status s);

/* opr_invoke after the op's check: outputs, kernel, run. */
opr_status opr_invoke_checked(opr_context *ctx, opr_call *call);
/* The same with caller-owned outputs (opr_invoke_into), for a checked
 * call. */
opr_status opr_invoke_into_checked(opr_context *ctx, opr_call *call);
/* opr_invoke_fast(_into) for opr_execute_op, whose caller has made the
 * wrapper's tests (the op's has_fast_path): false, with nothing done,
 * when the general path must run the call; else true, and *out is its
 * status. */
bool opr_execute_fast(opr_context *ctx, opr_call *call, bool into,
                      opr_status *out);
/* The first kernel of table `t` in selection order that fits the call's
 * resolved attrs on `device`; NULL when none. */
const opr_kernel_rec *opr_select_kernel(const struct opr_kernel_table *t,
                                        const opr_call *call,
                                        opr_device_kind device);
/* UNIMPLEMENTED: "Op: no kernel for device CPU with T=float". */
opr_status opr_no_kernel(const opr_call *call, opr_device_kind device);
/* INTERNAL: the kernel left an output slot unset. */
opr_status opr_unset_output(const opr_call *call, size_t o, size_t j);

/* The innermost tape recording on this thread (tape.c), NULL when none:
 * the dispatch tests it after every successful call, so that a call
 * without a tape pays one thread-local load and a branch. initial-exec:
 * one load even where the runtime is part of a shared object (the Python
 * extension) rather than a __tls_get_addr call; a pointer fits in the
 * static TLS that glibc keeps for objects loaded later. */
#if defined(__GNUC__) || defined(__clang__)
#define OPR_TLS_FAST __attribute__((tls_model("initial-exec")))
#define OPR_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define OPR_TLS_FAST
#define OPR_UNLIKELY(x) (x)
#endif
extern _Thread_local opr_tape *opr_tape_top OPR_TLS_FAST;
/* Whether `dt` is a number type (the NUMBER column of dtypes.def):
 * those opr_tensor_add and opr_tensor_fill_like take. */
bool opr_dtype_is_number(opr_dtype dt);
/* Records a successful call (its attrs still resolved) on every tape
 * recording on this thread. */
void opr_tape_record_call(const opr_call *call);

#endif
