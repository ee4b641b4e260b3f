/* Caller-owned outputs (docs/generated-code.md, "Caller-owned outputs";
 * docs/runtime.md, "Executing into caller-owned outputs"): the _into
 * forms and opr_execute_into write the caller's tensors, after checking
 * them against the call's dtype, host memory and inferred shape. */
#include "kerneltest.h"

static opr_context *ctx;

static opr_tensor *tensor(opr_dtype dt, int rank, const int64_t *dims) {
  return kt_new(dt, rank, dims);
}

static void into_writes_the_callers_tensor(void **state) {
  (void)state;
  const int64_t dims[1] = {4};
  opr_tensor *x = kt_filled(OPR_DT_FLOAT, 1, dims, 0);
  opr_tensor *y = tensor(OPR_DT_FLOAT, 1, dims), *want = NULL;
  void *data = y->data;
  kt_expect_ok(demo_example_into(ctx, x, y));
  kt_expect_ok(demo_example(ctx, x, &want));
  assert_ptr_equal(y->data, data);
  kt_assert_same(y, want);
  /* No reference taken: one unref frees it (ASan would see a leak). */
  opr_tensor_unref(y);
  opr_tensor_unref(want);
  opr_tensor_unref(x);
}

/* The same through the general path: an op without the fast path
 * (AddN: a list input), and ZeroOut's attrs. */
static void into_matches_the_allocating_wrapper(void **state) {
  (void)state;
  const int64_t dims[2] = {2, 3};
  opr_tensor *a = kt_filled(OPR_DT_INT32, 2, dims, 0);
  opr_tensor *b = kt_filled(OPR_DT_INT32, 2, dims, 5);
  opr_tensor *y = tensor(OPR_DT_INT32, 2, dims), *want = NULL;
  const opr_tensor *const ins[2] = {a, b};
  kt_expect_ok(demo_add_n_into(ctx, ins, 2, y));
  kt_expect_ok(demo_add_n(ctx, ins, 2, &want));
  kt_assert_same(y, want);
  opr_tensor_unref(want);
  demo_zero_out_attrs attrs = {.preserve_index = 4};
  kt_expect_ok(demo_zero_out_into(ctx, a, &attrs, y));
  kt_expect_ok(demo_zero_out(ctx, a, &attrs, &want));
  kt_assert_same(y, want);
  opr_tensor_unref(want);
  opr_tensor_unref(y);
  opr_tensor_unref(b);
  opr_tensor_unref(a);
}

static void a_wrong_shape_names_op_output_and_shapes(void **state) {
  (void)state;
  const int64_t two[1] = {2}, three[1] = {3};
  opr_tensor *x = kt_filled(OPR_DT_FLOAT, 1, two, 0);
  opr_tensor *y = tensor(OPR_DT_FLOAT, 1, three);
  kt_expect_status(demo_example_into(ctx, x, y), OPR_INVALID_ARGUMENT,
                   "Example: output 'input_times_two' has shape [3]; its "
                   "inferred shape is [2]");
  opr_tensor *s = tensor(OPR_DT_FLOAT, 0, NULL);
  kt_expect_status(demo_example_into(ctx, x, s), OPR_INVALID_ARGUMENT,
                   "Example: output 'input_times_two' has shape []; its "
                   "inferred shape is [2]");
  opr_tensor_unref(s);
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

static void a_wrong_dtype_names_op_output_and_dtypes(void **state) {
  (void)state;
  opr_tensor *x = kt_filled(OPR_DT_FLOAT, 0, NULL, 0);
  opr_tensor *y = tensor(OPR_DT_INT32, 0, NULL);
  kt_expect_status(demo_example_into(ctx, x, y), OPR_INVALID_ARGUMENT,
                   "Example: output 'input_times_two' has dtype int32; the "
                   "call produces float");
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

static void a_null_output_is_refused(void **state) {
  (void)state;
  opr_tensor *x = kt_filled(OPR_DT_FLOAT, 0, NULL, 0);
  kt_expect_status(demo_example_into(ctx, x, NULL), OPR_INVALID_ARGUMENT,
                   "Example: output 'input_times_two' is NULL (caller-owned "
                   "outputs are the caller's tensors)");
  opr_tensor *y = tensor(OPR_DT_FLOAT, 0, NULL);
  kt_expect_status(demo_example_into(ctx, NULL, y), OPR_INVALID_ARGUMENT,
                   "Example: input 'input' is NULL");
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

/* A kernel asking for another shape than the caller's tensor has. */
static opr_status wrong_shape(opr_kernel_ctx *k) {
  const int64_t dims[1] = {7};
  opr_tensor *out;
  return demo_add_one_alloc_output(k, 1, dims, &out);
}

static void a_kernel_asking_another_shape_is_refused(void **state) {
  (void)state;
  opr_tensor *x = kt_filled(OPR_DT_INT32, 0, NULL, 0);
  opr_tensor *y = tensor(OPR_DT_INT32, 0, NULL);
  kt_expect_ok(demo_add_one_into(ctx, x, y));
  kt_expect_ok(demo_add_one_register_kernel(&(demo_add_one_kernel_def){
      .fn = wrong_shape, .device = OPR_DEVICE_CPU, .priority = 10,
      .label = "test: wrong shape"}));
  kt_expect_status(demo_add_one_into(ctx, x, y), OPR_INVALID_ARGUMENT,
                   "AddOne: output 'output' has shape []; the kernel "
                   "computes [7]");
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

static void execute_into_writes_the_callers_tensor(void **state) {
  (void)state;
  const int64_t dims[1] = {3};
  opr_tensor *x = kt_filled(OPR_DT_DOUBLE, 1, dims, 0);
  opr_tensor *y = tensor(OPR_DT_DOUBLE, 1, dims), *want = NULL;
  const opr_input in[1] = {{(const opr_tensor *const *)&x, 1}};
  kt_expect_ok(opr_execute_into(ctx, "Example", in, 1, NULL, 0, &y, 1));
  kt_expect_ok(demo_example(ctx, x, &want));
  kt_assert_same(y, want);
  opr_tensor *two[2] = {y, y};
  kt_expect_status(opr_execute_into(ctx, "Example", in, 1, NULL, 0, two, 2),
                   OPR_INVALID_ARGUMENT,
                   "Example: produces 1 output tensor, given 2");
  kt_expect_status(opr_execute_op_into(ctx, &demo_example_def, in, 1, NULL,
                                       0, NULL, 1),
                   OPR_INVALID_ARGUMENT, "Example: the output array is NULL");
  kt_expect_status(opr_execute_into(ctx, "NoSuchOp", in, 1, NULL, 0, &y, 1),
                   OPR_NOT_FOUND, "no op named 'NoSuchOp' is registered");
  opr_tensor_unref(want);
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

static void execute_into_checks_like_the_wrapper(void **state) {
  (void)state;
  const int64_t dims[1] = {3};
  opr_tensor *x = kt_filled(OPR_DT_DOUBLE, 1, dims, 0);
  opr_tensor *y = tensor(OPR_DT_FLOAT, 1, dims);
  const opr_input in[1] = {{(const opr_tensor *const *)&x, 1}};
  kt_expect_status(opr_execute_into(ctx, "Example", in, 1, NULL, 0, &y, 1),
                   OPR_INVALID_ARGUMENT,
                   "Example: output 'input_times_two' has dtype float; the "
                   "call produces double");
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

static int setup(void **state) {
  (void)state;
  kt_register();
  ctx = kt_context(0);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  opr_context_free(ctx);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(into_writes_the_callers_tensor),
      cmocka_unit_test(into_matches_the_allocating_wrapper),
      cmocka_unit_test(a_wrong_shape_names_op_output_and_shapes),
      cmocka_unit_test(a_wrong_dtype_names_op_output_and_dtypes),
      cmocka_unit_test(a_null_output_is_refused),
      cmocka_unit_test(execute_into_writes_the_callers_tensor),
      cmocka_unit_test(execute_into_checks_like_the_wrapper),
      /* last: it registers a kernel that outranks AddOne's */
      cmocka_unit_test(a_kernel_asking_another_shape_is_refused),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
