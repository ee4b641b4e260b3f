/* Example: x * 2, element-wise, for every number type (complex: both
 * parts; integers and quantized types wrap). */
#include "kernels.h"

/* The arrays one block reads and writes. */
typedef struct example_args {
  const void *in;
  void *out;
} example_args;

/* Two block functions per type: plain stores, and for large outputs
 * (kern_streams) plain stores up to the first cache line boundary of the
 * output, then whole lines past the cache, then the rest. */
#define EXAMPLE_KERNEL(ID, CT)                                              \
  static void example_block_##ID(void *arg, int64_t begin, int64_t end) {   \
    const example_args *a = arg;                                            \
    const CT *restrict in = a->in;                                          \
    CT *restrict out = a->out;                                              \
    for (int64_t i = begin; i < end; i++) out[i] = kern_twice(in[i]);       \
  }                                                                         \
  static void example_stream_##ID(void *arg, int64_t begin, int64_t end) {  \
    const example_args *a = arg;                                            \
    const CT *restrict in = a->in;                                          \
    CT *restrict out = a->out;                                              \
    enum { K = KERN_STREAM_ELEMS(CT) };                                     \
    int64_t i = begin;                                                      \
    for (; i < end && !kern_aligned64(out + i); i++)                        \
      out[i] = kern_twice(in[i]);                                           \
    for (; end - i >= K; i += K) {                                          \
      _Alignas(64) CT t[K];                                                 \
      if (end - i > KERN_PREFETCH_AHEAD(CT))                                \
        kern_prefetch(in + i + KERN_PREFETCH_AHEAD(CT));                    \
      for (int e = 0; e < K; e++) t[e] = kern_twice(in[i + e]);             \
      kern_stream64(out + i, t);                                            \
    }                                                                       \
    for (; i < end; i++) out[i] = kern_twice(in[i]);                        \
    kern_stream_fence();                                                    \
  }                                                                         \
  static opr_status example_##ID(opr_kernel_ctx *k) {                       \
    const opr_tensor *in = demo_example_input_input(k);                     \
    opr_tensor *out;                                                        \
    opr_status s =                                                          \
        demo_example_alloc_input_times_two(k, in->rank, in->dims, &out);    \
    if (s) return s;                                                        \
    example_args a = {in->data, out->data};                                 \
    int64_t n = in->num_elements, unit = 2 * sizeof(CT);                    \
    if (kern_streams((int64_t)out->nbytes))                                 \
      kern_for(k, n, unit, example_stream_##ID, &a);                        \
    else                                                                    \
      kern_for(k, n, unit, example_block_##ID, &a);                         \
    return OPR_OK;                                                          \
  }
DEMO_EXAMPLE_T_TYPES(EXAMPLE_KERNEL)
#undef EXAMPLE_KERNEL

opr_status kern_register_example(void) {
  opr_status s = OPR_OK;
#define EXAMPLE_REGISTER(ID, CT)                                      \
  if (!s)                                                             \
    s = demo_example_register_kernel(&(demo_example_kernel_def){          \
        .fn = example_##ID, .device = OPR_DEVICE_CPU,                 \
        .T = OPR_DTYPE_BIT(OPR_DT_##ID), .label = "CPU x * 2, " #ID});
  DEMO_EXAMPLE_T_TYPES(EXAMPLE_REGISTER)
#undef EXAMPLE_REGISTER
  return s;
}
