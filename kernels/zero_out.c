/* The ZeroOut ops of TensorFlow's "Create an op" guide: the output is all
 * zeros but one element copied from the input (element preserve_index for
 * ZeroOut, the first for the others). An empty tensor gives an empty
 * output. */
#include "kernels.h"

#include <inttypes.h>

/* The zeroing, then the kept element; one body per element type, from the
 * widest of the ops' type lists (ZeroOutRealNumber's). The zeros are
 * written rather than assumed from the allocator. */
#define ZERO_OUT_BODY(ID, CT)                                              \
  static void zero_block_##ID(void *arg, int64_t begin, int64_t end) {     \
    CT *restrict out = arg;                                                \
    for (int64_t i = begin; i < end; i++) out[i] = (CT){0};                \
  }                                                                        \
  static opr_status zero_out_keep_##ID(opr_kernel_ctx *k, int64_t keep,    \
                                       kern_alloc_fn alloc) {              \
    const opr_tensor *in = k->call->inputs[0].tensors[0];                  \
    opr_tensor *out;                                                       \
    opr_status s = zero_out_prepare(k, in, keep, alloc, &out);             \
    if (s) return s;                                                       \
    kern_for(k, in->num_elements, sizeof(CT), zero_block_##ID, out->data); \
    if (in->num_elements > 0)                                              \
      ((CT *)out->data)[keep] = ((const CT *)in->data)[keep];              \
    return OPR_OK;                                                         \
  }

/* Checks `keep` against the input and allocates the output. */
static opr_status zero_out_prepare(opr_kernel_ctx *k, const opr_tensor *in,
                                   int64_t keep, kern_alloc_fn alloc,
                                   opr_tensor **out) {
  if (in->num_elements > 0 && (keep < 0 || keep >= in->num_elements))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: preserve_index %" PRId64
                     " is out of range for a tensor of %" PRId64
                     " element%s", k->call->op->name, keep,
                     in->num_elements, in->num_elements == 1 ? "" : "s");
  return alloc(k, in->rank, in->dims, out);
}

DEMO_ZERO_OUT_REAL_NUMBER_T_TYPES(ZERO_OUT_BODY)
#undef ZERO_OUT_BODY

/* One kernel per op and type. */
#define ZERO_OUT_KERNEL(ID, CT)                                          \
  static opr_status zero_out_##ID(opr_kernel_ctx *k) {                   \
    return zero_out_keep_##ID(k, demo_zero_out_attr_preserve_index(k),  \
                              demo_zero_out_alloc_zeroed);               \
  }
#define ZERO_OUT_FLOAT_INT32_KERNEL(ID, CT)                              \
  static opr_status zero_out_float_int32_##ID(opr_kernel_ctx *k) {       \
    return zero_out_keep_##ID(k, 0, demo_zero_out_float_int32_alloc_zeroed); \
  }
#define ZERO_OUT_REAL_NUMBER_KERNEL(ID, CT)                              \
  static opr_status zero_out_real_number_##ID(opr_kernel_ctx *k) {       \
    return zero_out_keep_##ID(k, 0, demo_zero_out_real_number_alloc_zeroed); \
  }
DEMO_ZERO_OUT_T_TYPES(ZERO_OUT_KERNEL)
DEMO_ZERO_OUT_FLOAT_INT32_T_TYPES(ZERO_OUT_FLOAT_INT32_KERNEL)
DEMO_ZERO_OUT_REAL_NUMBER_T_TYPES(ZERO_OUT_REAL_NUMBER_KERNEL)
#undef ZERO_OUT_KERNEL
#undef ZERO_OUT_FLOAT_INT32_KERNEL
#undef ZERO_OUT_REAL_NUMBER_KERNEL

static opr_status zero_out_int32(opr_kernel_ctx *k) {
  return zero_out_keep_INT32(k, 0, demo_zero_out_int32_alloc_zeroed);
}

/* The generated register functions take one kernel type each, hence one
 * registration macro per op. */
#define ZERO_OUT_REGISTER(ID, CT)                                        \
  if (!s)                                                                \
    s = demo_zero_out_register_kernel(&(demo_zero_out_kernel_def){           \
        .fn = zero_out_##ID, .device = OPR_DEVICE_CPU,                   \
        .T = OPR_DTYPE_BIT(OPR_DT_##ID), .label = "CPU, " #ID});
#define ZERO_OUT_FLOAT_INT32_REGISTER(ID, CT)                            \
  if (!s)                                                                \
    s = demo_zero_out_float_int32_register_kernel(                       \
        &(demo_zero_out_float_int32_kernel_def){                             \
            .fn = zero_out_float_int32_##ID, .device = OPR_DEVICE_CPU,   \
            .T = OPR_DTYPE_BIT(OPR_DT_##ID), .label = "CPU, " #ID});
#define ZERO_OUT_REAL_NUMBER_REGISTER(ID, CT)                            \
  if (!s)                                                                \
    s = demo_zero_out_real_number_register_kernel(                       \
        &(demo_zero_out_real_number_kernel_def){                             \
            .fn = zero_out_real_number_##ID, .device = OPR_DEVICE_CPU,   \
            .T = OPR_DTYPE_BIT(OPR_DT_##ID), .label = "CPU, " #ID});

opr_status kern_register_zero_out(void) {
  opr_status s = demo_zero_out_int32_register_kernel(
      &(demo_zero_out_int32_kernel_def){.fn = zero_out_int32,
                                    .device = OPR_DEVICE_CPU,
                                    .label = "CPU, INT32"});
  DEMO_ZERO_OUT_T_TYPES(ZERO_OUT_REGISTER)
  DEMO_ZERO_OUT_FLOAT_INT32_T_TYPES(ZERO_OUT_FLOAT_INT32_REGISTER)
  DEMO_ZERO_OUT_REAL_NUMBER_T_TYPES(ZERO_OUT_REAL_NUMBER_REGISTER)
  return s;
}
