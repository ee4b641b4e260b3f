/* Kernels of check_op_lib (check_op_lib.op): CheckTriple and CheckCopies
 * are correct; each other one breaks one rule of opgen.testing.check_op
 * on purpose, so that test_check_op.py can show the rule catches it. */
#include "opgen_library.h" /* the kernel headers; the prototype */

#include "opr/parallel.h"

#include <stdbool.h>
#include <string.h>

/* y = x * 3, for CheckTriple and CheckTripleBadGrad (the same output
 * argument, so either op's accessors fit). */
#define TRIPLE(ID, CT)                                                    \
  static opr_status triple_##ID(opr_kernel_ctx *k) {                      \
    const opr_tensor *x = k->call->inputs[0].tensors[0];                  \
    opr_tensor *y;                                                        \
    opr_status s = opr_kernel_alloc_output(k, 0, 0, x->rank, x->dims, &y); \
    if (s) return s;                                                      \
    const CT *in = x->data;                                               \
    CT *out = y->data;                                                    \
    for (int64_t i = 0; i < x->num_elements; i++) out[i] = in[i] * 3;     \
    return OPR_OK;                                                        \
  }
TRIPLE(FLOAT, float)
TRIPLE(DOUBLE, double)
TRIPLE(INT32, int32_t)
#undef TRIPLE

/* Wrong: copies x to y, then adds one to x[0] in the caller's memory. */
#define WRITES_INPUT(ID, CT)                                              \
  static opr_status writes_input_##ID(opr_kernel_ctx *k) {                \
    const opr_tensor *x = check_op_lib_check_writes_input_input_x(k);     \
    opr_tensor *y;                                                        \
    opr_status s = check_op_lib_check_writes_input_alloc_y(               \
        k, x->rank, x->dims, &y);                                         \
    if (s) return s;                                                      \
    if (x->nbytes) memcpy(y->data, x->data, x->nbytes);                   \
    if (x->num_elements > 0) ((CT *)x->data)[0] += 1;                     \
    return OPR_OK;                                                        \
  }
CHECK_OP_LIB_CHECK_WRITES_INPUT_T_TYPES(WRITES_INPUT)
#undef WRITES_INPUT

/* Wrong: element i is x[i] plus the first index of the block that
 * computed it, and the blocks follow the context's thread count. */
typedef struct shard_args {
  const opr_tensor *x;
  opr_tensor *y;
} shard_args;

#define THREAD_DEPENDENT(ID, CT)                                          \
  static void shard_block_##ID(void *arg, int64_t begin, int64_t end) {   \
    const shard_args *a = arg;                                            \
    const CT *in = a->x->data;                                            \
    CT *out = a->y->data;                                                 \
    for (int64_t i = begin; i < end; i++) out[i] = in[i] + (CT)begin;     \
  }                                                                       \
  static opr_status thread_dependent_##ID(opr_kernel_ctx *k) {            \
    const opr_tensor *x = check_op_lib_check_thread_dependent_input_x(k); \
    opr_tensor *y;                                                        \
    opr_status s = check_op_lib_check_thread_dependent_alloc_y(           \
        k, x->rank, x->dims, &y);                                         \
    if (s) return s;                                                      \
    shard_args a = {x, y};                                                \
    /* A cost per element that lets every element be a block. */          \
    opr_shard(k->ctx, x->num_elements, OPR_SHARD_MIN_COST,                \
              shard_block_##ID, &a);                                      \
    return OPR_OK;                                                        \
  }
CHECK_OP_LIB_CHECK_THREAD_DEPENDENT_T_TYPES(THREAD_DEPENDENT)
#undef THREAD_DEPENDENT

/* Wrong: the shape statement says [dim(x, 0), ?]; the output has one row
 * more. The runtime cannot notice: it checks only fully known shapes. */
#define WRONG_SHAPE(ID, CT)                                               \
  static opr_status wrong_shape_##ID(opr_kernel_ctx *k) {                 \
    const opr_tensor *x = check_op_lib_check_wrong_shape_input_x(k);      \
    int64_t dims[2] = {x->dims[0] + 1, x->dims[1]};                       \
    opr_tensor *y;                                                        \
    opr_status s = check_op_lib_check_wrong_shape_alloc_y(k, 2, dims, &y); \
    if (s) return s;                                                      \
    CT *out = y->data;                                                    \
    for (int64_t i = 0; i < y->num_elements; i++) out[i] = 0;             \
    return OPR_OK;                                                        \
  }
CHECK_OP_LIB_CHECK_WRONG_SHAPE_T_TYPES(WRONG_SHAPE)
#undef WRONG_SHAPE

/* N copies of x (output 0, a list) and 2 * x (output 1). With `longer`,
 * the last copy has one row more than x: wrong for CheckCopiesWrongShape,
 * whose shape statement leaves that dim unknown, so only check_op sees
 * it. */
#define COPIES(ID, CT)                                                    \
  static opr_status copies_body_##ID(opr_kernel_ctx *k, size_t n,         \
                                     bool longer) {                       \
    const opr_tensor *x = k->call->inputs[0].tensors[0];                  \
    opr_tensor *t;                                                        \
    opr_status s;                                                         \
    for (size_t i = 0; i < n; i++) {                                      \
      int64_t dims[OPR_MAX_RANK];                                         \
      memcpy(dims, x->dims, (size_t)x->rank * sizeof *dims);              \
      if (longer && i == n - 1) dims[0]++;                                \
      if ((s = opr_kernel_alloc_output(k, 0, i, x->rank, dims, &t)))      \
        return s;                                                         \
      CT *out = t->data;                                                  \
      for (int64_t j = 0; j < t->num_elements; j++) /* x, repeated */     \
        out[j] = x->num_elements                                          \
                     ? ((const CT *)x->data)[j % x->num_elements]         \
                     : 0;                                                 \
    }                                                                     \
    if ((s = opr_kernel_alloc_output(k, 1, 0, x->rank, x->dims, &t)))     \
      return s;                                                           \
    for (int64_t j = 0; j < t->num_elements; j++)                         \
      ((CT *)t->data)[j] = 2 * ((const CT *)x->data)[j];                  \
    return OPR_OK;                                                        \
  }                                                                       \
  static opr_status copies_##ID(opr_kernel_ctx *k) {                      \
    return copies_body_##ID(                                              \
        k, check_op_lib_check_copies_output_copies_count(k), false);      \
  }                                                                       \
  static opr_status copies_wrong_shape_##ID(opr_kernel_ctx *k) {          \
    return copies_body_##ID(                                              \
        k, check_op_lib_check_copies_wrong_shape_output_copies_count(k),  \
        true);                                                            \
  }
CHECK_OP_LIB_CHECK_COPIES_T_TYPES(COPIES)
#undef COPIES

/* Registers `kernel` for one type of one op through its generated function. */
#define REGISTER(op, kernel, ID)                                              \
  if (!s)                                                                 \
    s = check_op_lib_##op##_register_kernel(                              \
        &(check_op_lib_##op##_kernel_def){                                \
            .fn = kernel##_##ID, .device = OPR_DEVICE_CPU,                    \
            .T = OPR_DTYPE_BIT(OPR_DT_##ID), .label = #kernel});

opr_status check_op_lib_register_kernels(void) {
  opr_status s = OPR_OK;
#define TRIPLE_REG(ID, CT) REGISTER(check_triple, triple, ID)
  CHECK_OP_LIB_CHECK_TRIPLE_T_TYPES(TRIPLE_REG)
#undef TRIPLE_REG
#define BAD_GRAD_REG(ID, CT) REGISTER(check_triple_bad_grad, triple, ID)
  CHECK_OP_LIB_CHECK_TRIPLE_BAD_GRAD_T_TYPES(BAD_GRAD_REG)
#undef BAD_GRAD_REG
#define WRITES_REG(ID, CT) REGISTER(check_writes_input, writes_input, ID)
  CHECK_OP_LIB_CHECK_WRITES_INPUT_T_TYPES(WRITES_REG)
#undef WRITES_REG
#define THREADS_REG(ID, CT) \
  REGISTER(check_thread_dependent, thread_dependent, ID)
  CHECK_OP_LIB_CHECK_THREAD_DEPENDENT_T_TYPES(THREADS_REG)
#undef THREADS_REG
#define SHAPE_REG(ID, CT) REGISTER(check_wrong_shape, wrong_shape, ID)
  CHECK_OP_LIB_CHECK_WRONG_SHAPE_T_TYPES(SHAPE_REG)
#undef SHAPE_REG
#define COPIES_REG(ID, CT) REGISTER(check_copies, copies, ID)
  CHECK_OP_LIB_CHECK_COPIES_T_TYPES(COPIES_REG)
#undef COPIES_REG
#define COPIES_SHAPE_REG(ID, CT) \
  REGISTER(check_copies_wrong_shape, copies_wrong_shape, ID)
  CHECK_OP_LIB_CHECK_COPIES_WRONG_SHAPE_T_TYPES(COPIES_SHAPE_REG)
#undef COPIES_SHAPE_REG
  return s;
}
