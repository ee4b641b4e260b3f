/* AddN: the element-wise sum of N tensors of one shape, for every number
 * type ((((in0 + in1) + in2) + ...), so the result does not depend on the
 * thread count). variant has no kernel. */
#include "kernels.h"

#include <stdio.h>
#include <string.h>

/* Elements summed at a time: the partial sum stays in the L1 cache while
 * the third and later inputs are added to it. */
#define ADD_N_CHUNK 2048

typedef struct add_n_args {
  const opr_tensor *const *in;
  size_t n;
  void *out;
  bool stream; /* see kern_streams */
} add_n_args;

static opr_status add_n_run(opr_kernel_ctx *k, size_t size,
                            void (*block)(void *, int64_t, int64_t),
                            void (*stream_block)(void *, int64_t, int64_t));

/* out = in[0] (+ in[1]) over one chunk, then += each further input.
 * Streaming (see example.c): two inputs go straight to out past the
 * cache; with more, a chunk sums all but the last into `part` (in the L1
 * cache), then writes part + last to out past the cache. */
#define ADD_N_KERNEL(ID, CT)                                                \
  static void add_n_stream_##ID(CT *restrict out, const CT *restrict p,     \
                                const CT *restrict q, int64_t m) {          \
    enum { K = KERN_STREAM_ELEMS(CT) };                                     \
    int64_t i = 0;                                                          \
    for (; i < m && !kern_aligned64(out + i); i++) out[i] = kern_add(p[i], q[i]); \
    for (; m - i >= K; i += K) {                                            \
      _Alignas(64) CT t[K];                                                 \
      if (m - i > KERN_PREFETCH_AHEAD(CT)) {                                \
        kern_prefetch(p + i + KERN_PREFETCH_AHEAD(CT));                     \
        kern_prefetch(q + i + KERN_PREFETCH_AHEAD(CT));                     \
      }                                                                     \
      for (int e = 0; e < K; e++) t[e] = kern_add(p[i + e], q[i + e]);      \
      kern_stream64(out + i, t);                                            \
    }                                                                       \
    for (; i < m; i++) out[i] = kern_add(p[i], q[i]);                       \
  }                                                                         \
  static void add_n_chunk_##ID(const add_n_args *a, int64_t lo, int64_t hi) { \
    CT *restrict out = a->out;                                              \
    const CT *restrict x = a->in[0]->data;                                  \
    if (a->n == 1) {                                                        \
      for (int64_t i = lo; i < hi; i++) out[i] = x[i];                      \
      return;                                                               \
    }                                                                       \
    const CT *restrict y = a->in[1]->data;                                  \
    _Alignas(64) CT part[ADD_N_CHUNK];                                      \
    CT *restrict sum = a->stream ? part : out + lo;                         \
    int64_t m = hi - lo;                                                    \
    size_t last = a->stream ? a->n - 1 : a->n;                              \
    x += lo, y += lo;                                                       \
    for (int64_t i = 0; i < m; i++) sum[i] = kern_add(x[i], y[i]);          \
    for (size_t t = 2; t < last; t++) {                                     \
      const CT *restrict z = (const CT *)a->in[t]->data + lo;               \
      for (int64_t i = 0; i < m; i++) sum[i] = kern_add(sum[i], z[i]);      \
    }                                                                       \
    if (a->stream)                                                          \
      add_n_stream_##ID(out + lo, part, (const CT *)a->in[last]->data + lo, m); \
  }                                                                         \
  static void add_n_block_##ID(void *arg, int64_t begin, int64_t end) {     \
    for (int64_t lo = begin; lo < end; lo += ADD_N_CHUNK)                   \
      add_n_chunk_##ID(arg, lo, end - lo > ADD_N_CHUNK ? lo + ADD_N_CHUNK   \
                                                       : end);              \
  }                                                                         \
  static void add_n_stream_block_##ID(void *arg, int64_t begin,             \
                                      int64_t end) {                        \
    const add_n_args *a = arg;                                              \
    if (a->n == 2) /* no partial sums: one pass */                          \
      add_n_stream_##ID((CT *)a->out + begin,                               \
                        (const CT *)a->in[0]->data + begin,                 \
                        (const CT *)a->in[1]->data + begin, end - begin);   \
    else                                                                    \
      add_n_block_##ID(arg, begin, end);                                    \
    kern_stream_fence();                                                    \
  }                                                                         \
  static opr_status add_n_##ID(opr_kernel_ctx *k) {                         \
    return add_n_run(k, sizeof(CT), add_n_block_##ID,                       \
                     add_n_stream_block_##ID);                              \
  }

/* INVALID_ARGUMENT naming the shapes of inputs 0 and i. */
static opr_status shape_mismatch(const opr_kernel_ctx *k, size_t i) {
  const opr_tensor *a = demo_add_n_input_inputs(k, 0);
  const opr_tensor *b = demo_add_n_input_inputs(k, i);
  char sa[128], sb[128];
  return opr_error(OPR_INVALID_ARGUMENT, "%s: all inputs must have the "
                   "same shape; inputs[0] has shape %s and inputs[%zu] has "
                   "shape %s", k->call->op->name,
                   opr_shape_text(a->rank, a->dims, sa, sizeof sa), i,
                   opr_shape_text(b->rank, b->dims, sb, sizeof sb));
}

/* Checks the shapes, allocates the sum and runs `block` over it
 * (`stream_block` for a sum large enough to stream, kern_streams). */
static opr_status add_n_run(opr_kernel_ctx *k, size_t size,
                            void (*block)(void *, int64_t, int64_t),
                            void (*stream_block)(void *, int64_t, int64_t)) {
  size_t n = demo_add_n_input_inputs_count(k);
  const opr_tensor *first = demo_add_n_input_inputs(k, 0);
  for (size_t i = 1; i < n; i++) {
    const opr_tensor *t = demo_add_n_input_inputs(k, i);
    size_t dims_size = (size_t)t->rank * sizeof *t->dims;
    if (t->rank != first->rank ||
        (t->rank > 0 && memcmp(t->dims, first->dims, dims_size) != 0))
      return shape_mismatch(k, i);
  }
  opr_tensor *out;
  opr_status s = demo_add_n_alloc_sum(k, first->rank, first->dims, &out);
  if (s) return s;
  bool stream = kern_streams((int64_t)out->nbytes);
  add_n_args a = {k->call->inputs[0].tensors, n, out->data, stream};
  kern_for(k, first->num_elements, (int64_t)((n + 1) * size),
           stream ? stream_block : block, &a);
  return OPR_OK;
}

#define ADD_N_KERNEL_NUMBERS(ID, CT) \
  KERN_UNLESS_VARIANT(ID)(ADD_N_KERNEL(ID, CT))
DEMO_ADD_N_T_TYPES(ADD_N_KERNEL_NUMBERS)
#undef ADD_N_KERNEL_NUMBERS
#undef ADD_N_KERNEL

opr_status kern_register_add_n(void) {
  opr_status s = OPR_OK;
#define ADD_N_REGISTER(ID, CT)                                        \
  if (!s)                                                             \
    s = demo_add_n_register_kernel(&(demo_add_n_kernel_def){              \
        .fn = add_n_##ID, .device = OPR_DEVICE_CPU,                   \
        .T = OPR_DTYPE_BIT(OPR_DT_##ID), .label = "CPU sum, " #ID});
#define ADD_N_REGISTER_NUMBERS(ID, CT) \
  KERN_UNLESS_VARIANT(ID)(ADD_N_REGISTER(ID, CT))
  DEMO_ADD_N_T_TYPES(ADD_N_REGISTER_NUMBERS)
#undef ADD_N_REGISTER_NUMBERS
#undef ADD_N_REGISTER
  return s;
}
