/* Helpers of the gradient tests (test_gradient_*.c): tensors from double
 * values, one-source gradients, and two test ops written by hand (no
 * spec), which the shipped ones lack: GradTestSplit (one input, two
 * outputs: x and 3 * x) and GradTestTypes (a list(type) input, inferred;
 * the output is the list's length). */
#ifndef OPGEN_GRADTEST_H
#define OPGEN_GRADTEST_H

#include "kerneltest.h"

/* A tensor of `dt` from `vals` (n = its element count). */
static inline opr_tensor *gt_tensor(opr_dtype dt, int rank,
                                    const int64_t *dims, const double *vals) {
  opr_tensor *t = kt_new(dt, rank, dims);
  for (int64_t i = 0; i < t->num_elements; i++) {
    kt_val v = {(uint64_t)(int64_t)vals[i], vals[i], 0};
    kt_set(t, i, v);
  }
  return t;
}

static inline opr_tensor *gt_vec(opr_dtype dt, int64_t n,
                                 const double *vals) {
  return gt_tensor(dt, 1, &n, vals);
}

/* Element i as a double (reals; integers through their bits). */
static inline double gt_at(const opr_tensor *t, int64_t i) {
  kt_val v = kt_get(t, i);
  kt_kind k = kt_kind_of(t->dtype);
  return k == KT_SIGNED ? (double)(int64_t)v.bits
         : k == KT_UNSIGNED ? (double)v.bits : v.re;
}

/* Asserts t's elements equal `want` (within tol). */
static inline void gt_expect(const opr_tensor *t, const double *want,
                             int64_t n, double tol) {
  assert_non_null(t);
  assert_int_equal(t->num_elements, n);
  for (int64_t i = 0; i < n; i++)
    if (!(gt_at(t, i) >= want[i] - tol && gt_at(t, i) <= want[i] + tol))
      fail_msg("element %lld: got %g, want %g", (long long)i, gt_at(t, i),
               want[i]);
}

/* d target / d source (NULL when not connected); must succeed. */
static inline opr_tensor *gt_grad(opr_tape *tape, opr_context *ctx,
                                  const opr_tensor *target,
                                  const opr_tensor *source) {
  opr_tensor *g = NULL;
  kt_expect_ok(opr_tape_gradient(tape, ctx, &target, NULL, 1, &source, 1,
                                 &g));
  return g;
}

/* ---- GradTestSplit: x -> (x, 3 * x), float ---- */

static const opr_arg_def gt_split_in[1] = {
    {.name = "x", .type = OPR_DT_FLOAT, .type_attr = OPR_NO_ATTR,
     .number_attr = OPR_NO_ATTR, .type_list_attr = OPR_NO_ATTR}};
static const opr_arg_def gt_split_out[2] = {
    {.name = "a", .type = OPR_DT_FLOAT, .type_attr = OPR_NO_ATTR,
     .number_attr = OPR_NO_ATTR, .type_list_attr = OPR_NO_ATTR},
    {.name = "b", .type = OPR_DT_FLOAT, .type_attr = OPR_NO_ATTR,
     .number_attr = OPR_NO_ATTR, .type_list_attr = OPR_NO_ATTR}};

static inline opr_status gt_split_check(opr_call *call) {
  opr_status s = opr_check_single_input(call, 0);
  if (!s) s = opr_check_input_type(call, 0, OPR_DT_FLOAT);
  if (!s) s = opr_check_attrs(call);
  return s;
}

static opr_op_state gt_split_state;
static const opr_op_def gt_split_def = {
    .name = "GradTestSplit", .inputs = gt_split_in, .ninputs = 1,
    .outputs = gt_split_out, .noutputs = 2, .check = gt_split_check,
    .state = &gt_split_state};

static inline opr_status gt_split_kernel(opr_kernel_ctx *k) {
  const opr_tensor *x = k->call->inputs[0].tensors[0];
  opr_tensor *a, *b;
  opr_status s = opr_kernel_alloc_output(k, 0, 0, x->rank, x->dims, &a);
  if (!s) s = opr_kernel_alloc_output(k, 1, 0, x->rank, x->dims, &b);
  for (int64_t i = 0; !s && i < x->num_elements; i++) {
    ((float *)a->data)[i] = ((const float *)x->data)[i];
    ((float *)b->data)[i] = 3 * ((const float *)x->data)[i];
  }
  return s;
}

/* dx = ga + 3 gb. */
static inline opr_status gt_split_grad(const opr_grad_op *op,
                                const opr_tensor *const *out_grads,
                                opr_tensor **in_grads, void *user) {
  (void)user;
  const opr_tensor *x = op->inputs[0];
  opr_tensor *d = NULL;
  opr_status s = opr_tensor_new(OPR_DT_FLOAT, x->rank, x->dims, &d);
  for (int64_t i = 0; !s && i < x->num_elements; i++)
    ((float *)d->data)[i] = ((const float *)out_grads[0]->data)[i] +
                            3 * ((const float *)out_grads[1]->data)[i];
  if (!s) in_grads[0] = d;
  return s;
}

static inline opr_status gt_split(opr_context *ctx, const opr_tensor *x,
                           opr_tensor **a, opr_tensor **b) {
  const opr_input in[1] = {{&x, 1}};
  opr_output out[2] = {{a, 1}, {b, 1}};
  opr_call call = {.op = &gt_split_def, .inputs = in, .outputs = out};
  return opr_invoke(ctx, &call);
}

/* ---- GradTestTypes: xs (list(type) Tlist) -> float scalar, len(xs) ---- */

static const opr_attr_def gt_types_attrs[1] = {
    {.name = "Tlist", .type = {OPR_ATTR_TYPE, true}, .inferred = true}};
static const opr_arg_def gt_types_in[1] = {
    {.name = "xs", .type = OPR_DT_INVALID, .type_attr = OPR_NO_ATTR,
     .number_attr = OPR_NO_ATTR, .type_list_attr = 0}};
static const opr_arg_def gt_types_out[1] = {
    {.name = "n", .type = OPR_DT_FLOAT, .type_attr = OPR_NO_ATTR,
     .number_attr = OPR_NO_ATTR, .type_list_attr = OPR_NO_ATTR}};

static inline opr_status gt_types_check(opr_call *call) {
  opr_status s = opr_check_list_input(call, 0);
  if (!s) s = opr_infer_type_list_attr(call, 0, 0);
  if (!s) s = opr_check_attrs(call);
  return s;
}

static opr_op_state gt_types_state;
static const opr_op_def gt_types_def = {
    .name = "GradTestTypes", .inputs = gt_types_in, .ninputs = 1,
    .outputs = gt_types_out, .noutputs = 1, .attrs = gt_types_attrs,
    .nattrs = 1, .check = gt_types_check, .state = &gt_types_state};

static inline opr_status gt_types_kernel(opr_kernel_ctx *k) {
  opr_tensor *n;
  opr_status s = opr_kernel_alloc_output(k, 0, 0, 0, NULL, &n);
  if (!s) *(float *)n->data = (float)k->call->inputs[0].count;
  return s;
}

static inline opr_status gt_types(opr_context *ctx,
                                  const opr_tensor *const *xs,
                                  size_t count, opr_tensor **n) {
  const opr_input in[1] = {{xs, count}};
  opr_attr_value attrs[1] = {{.kind = OPR_ATTR_UNSET}};
  opr_output out[1] = {{n, 1}};
  opr_call call = {.op = &gt_types_def, .inputs = in, .attrs = attrs,
                   .outputs = out};
  return opr_invoke(ctx, &call);
}

/* Registers the shipped ops and gradients and the two test ops with their
 * kernels and GradTestSplit's gradient (idempotent). */
static inline void gt_register(void) {
  kt_register();
  kt_expect_ok(opr_register_op(&gt_split_def));
  kt_expect_ok(opr_register_op(&gt_types_def));
  static const opr_kernel_def split_k = {.op = "GradTestSplit",
                                         .device = OPR_DEVICE_CPU,
                                         .fn = gt_split_kernel};
  static const opr_kernel_def types_k = {.op = "GradTestTypes",
                                         .device = OPR_DEVICE_CPU,
                                         .fn = gt_types_kernel};
  if (opr_list_kernels(&gt_split_def, NULL, 0) == 0)
    kt_expect_ok(opr_register_kernel(&split_k));
  if (opr_list_kernels(&gt_types_def, NULL, 0) == 0)
    kt_expect_ok(opr_register_kernel(&types_k));
  kt_expect_ok(opr_register_gradient("GradTestSplit", gt_split_grad, NULL));
}

/* The one-thread context a gradient test program shares: the group setup
 * gt_setup registers the ops and makes it, gt_teardown frees it. */
static opr_context *gt_ctx;

static inline int gt_setup(void **state) {
  (void)state;
  gt_register();
  gt_ctx = kt_context(1);
  return 0;
}

static inline int gt_teardown(void **state) {
  (void)state;
  opr_context_free(gt_ctx);
  gt_ctx = NULL;
  return 0;
}

#endif
