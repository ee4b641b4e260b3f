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
} add_n_args;

/* out = in[0] (+ in[1]) over one chunk, then += each further input. */
#define ADD_N_KERNEL(ID, CT)                                                \
  static void add_n_chunk_##ID(const add_n_args *a, int64_t lo, int64_t hi) { \
    CT *restrict out = a->out;                                              \
    const CT *restrict x = a->in[0]->data;                                  \
    if (a->n == 1) {                                                        \
      for (int64_t i = lo; i < hi; i++) out[i] = x[i];                      \
      return;                                                               \
    }                                                                       \
    const CT *restrict y = a->in[1]->data;                                  \
    for (int64_t i = lo; i < hi; i++) out[i] = kern_add(x[i], y[i]);        \
    for (size_t t = 2; t < a->n; t++) {                                     \
      const CT *restrict z = a->in[t]->data;                                \
      for (int64_t i = lo; i < hi; i++) out[i] = kern_add(out[i], z[i]);    \
    }                                                                       \
  }                                                                         \
  static void add_n_block_##ID(void *arg, int64_t begin, int64_t end) {     \
    for (int64_t lo = begin; lo < end; lo += ADD_N_CHUNK)                   \
      add_n_chunk_##ID(arg, lo, end - lo > ADD_N_CHUNK ? lo + ADD_N_CHUNK   \
                                                       : end);              \
  }                                                                         \
  static opr_status add_n_##ID(opr_kernel_ctx *k) {                         \
    return add_n_run(k, sizeof(CT), add_n_block_##ID);                      \
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

/* Checks the shapes, allocates the sum and runs `block` over it. */
static opr_status add_n_run(opr_kernel_ctx *k, size_t size,
                            void (*block)(void *, int64_t, int64_t)) {
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
  add_n_args a = {k->call->inputs[0].tensors, n, out->data};
  kern_for(k, first->num_elements, (int64_t)((n + 1) * size), block, &a);
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
    s = demo_add_n_register_kernel(&(demo_add_n_kernel){              \
        .fn = add_n_##ID, .device = OPR_DEVICE_CPU,                   \
        .T = OPR_DTYPE_BIT(OPR_DT_##ID), .label = "CPU sum, " #ID});
#define ADD_N_REGISTER_NUMBERS(ID, CT) \
  KERN_UNLESS_VARIANT(ID)(ADD_N_REGISTER(ID, CT))
  DEMO_ADD_N_T_TYPES(ADD_N_REGISTER_NUMBERS)
#undef ADD_N_REGISTER_NUMBERS
#undef ADD_N_REGISTER
  return s;
}
