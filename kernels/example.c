/* Example: x * 2, element-wise, for every number type (complex: both
 * parts; integers and quantized types wrap). */
#include "kernels.h"

/* The arrays one block reads and writes. */
typedef struct example_args {
  const void *in;
  void *out;
} example_args;

#define EXAMPLE_KERNEL(ID, CT)                                              \
  static void example_block_##ID(void *arg, int64_t begin, int64_t end) {   \
    const example_args *a = arg;                                            \
    const CT *restrict in = a->in;                                          \
    CT *restrict out = a->out;                                              \
    for (int64_t i = begin; i < end; i++) out[i] = kern_twice(in[i]);       \
  }                                                                         \
  static opr_status example_##ID(opr_kernel_ctx *k) {                       \
    const opr_tensor *in = demo_example_input_input(k);                     \
    opr_tensor *out;                                                        \
    opr_status s =                                                          \
        demo_example_alloc_input_times_two(k, in->rank, in->dims, &out);    \
    if (s) return s;                                                        \
    example_args a = {in->data, out->data};                                 \
    kern_for(k, in->num_elements, 2 * sizeof(CT), example_block_##ID, &a); \
    return OPR_OK;                                                          \
  }
DEMO_EXAMPLE_T_TYPES(EXAMPLE_KERNEL)
#undef EXAMPLE_KERNEL

opr_status kern_register_example(void) {
  opr_status s = OPR_OK;
#define EXAMPLE_REGISTER(ID, CT)                                      \
  if (!s)                                                             \
    s = demo_example_register_kernel(&(demo_example_kernel){          \
        .fn = example_##ID, .device = OPR_DEVICE_CPU,                 \
        .T = OPR_DTYPE_BIT(OPR_DT_##ID), .label = "CPU x * 2, " #ID});
  DEMO_EXAMPLE_T_TYPES(EXAMPLE_REGISTER)
#undef EXAMPLE_REGISTER
  return s;
}
