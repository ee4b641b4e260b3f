/* The ZeroOut kernels (ZeroOut, ZeroOutInt32, ZeroOutFloatInt32,
 * ZeroOutRealNumber): for every allowed type the output is the input with
 * every element zeroed but one. */
#include "kerneltest.h"

static opr_context *ctx;

/* The input with every element but `keep` zeroed. */
static opr_tensor *reference(const opr_tensor *in, int64_t keep) {
  opr_tensor *want = kt_new(in->dtype, in->rank, in->dims);
  size_t size = opr_dtype_size(in->dtype);
  memcpy((char *)want->data + keep * size,
         (const char *)in->data + keep * size, size);
  return want;
}

/* Runs op (one of the wrappers) through a function of the same shape. */
typedef opr_status (*zero_fn)(const opr_tensor *in, int64_t keep,
                              opr_tensor **out);

static opr_status call_zero_out(const opr_tensor *in, int64_t keep,
                                opr_tensor **out) {
  demo_zero_out_attrs attrs = {.preserve_index = keep};
  return demo_zero_out(ctx, in, &attrs, out);
}
static opr_status call_int32(const opr_tensor *in, int64_t keep,
                             opr_tensor **out) {
  (void)keep;
  return demo_zero_out_int32(ctx, in, out);
}
static opr_status call_float_int32(const opr_tensor *in, int64_t keep,
                                   opr_tensor **out) {
  (void)keep;
  return demo_zero_out_float_int32(ctx, in, out);
}
static opr_status call_real_number(const opr_tensor *in, int64_t keep,
                                   opr_tensor **out) {
  (void)keep;
  return demo_zero_out_real_number(ctx, in, out);
}

/* Every type of `set`, keeping each of `keeps`. */
static void check_types(zero_fn fn, opr_dtype_set set, const int64_t *keeps,
                        size_t nkeeps) {
  const int64_t dims[3] = {3, 5, 7};
  int types = 0;
  kt_for_each_dtype(dt, set) {
    opr_tensor *in = kt_filled(dt, 3, dims, 11);
    for (size_t k = 0; k < nkeeps; k++) {
      opr_tensor *out = NULL, *want = reference(in, keeps[k]);
      kt_expect_ok(fn(in, keeps[k], &out));
      kt_assert_same(out, want);
      opr_tensor_unref(out);
      opr_tensor_unref(want);
    }
    opr_tensor_unref(in);
    types++;
  }
  assert_true(types > 0);
}

static void zero_out_keeps_preserve_index_for_each_type(void **state) {
  (void)state;
  const int64_t keeps[] = {0, 1, 52, 104};
  check_types(call_zero_out, kt_allowed(&demo_zero_out_def, "T"), keeps, 4);
}

static void zero_out_int32_keeps_the_first(void **state) {
  (void)state;
  const int64_t first = 0;
  check_types(call_int32, OPR_DTYPE_BIT(OPR_DT_INT32), &first, 1);
}

static void zero_out_float_int32_keeps_the_first_for_each_type(void **s) {
  (void)s;
  const int64_t first = 0;
  check_types(call_float_int32,
              kt_allowed(&demo_zero_out_float_int32_def, "T"), &first, 1);
}

static void zero_out_real_number_keeps_the_first_for_each_type(void **s) {
  (void)s;
  const int64_t first = 0;
  opr_dtype_set set = kt_allowed(&demo_zero_out_real_number_def, "T");
  assert_int_equal(__builtin_popcountll(set), 12); /* realnumbertype */
  check_types(call_real_number, set, &first, 1);
}

static void zero_out_of_the_guide_example(void **state) {
  (void)state;
  const int32_t v[] = {1, 2, 3, 4}, want[] = {1, 0, 0, 0};
  const int64_t dims[2] = {2, 2};
  opr_tensor *in = NULL, *out = NULL;
  kt_expect_ok(opr_tensor_from_data(OPR_DT_INT32, 2, dims, v, sizeof v, &in));
  kt_expect_ok(demo_zero_out(ctx, in, NULL, &out));
  assert_memory_equal(out->data, want, sizeof want);
  assert_int_equal(out->rank, 2);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
}

static void zero_out_rejects_preserve_index_out_of_range(void **state) {
  (void)state;
  opr_tensor *in = kt_vec(OPR_DT_FLOAT, 4), *out = NULL;
  demo_zero_out_attrs attrs = {.preserve_index = 7};
  kt_expect_status(demo_zero_out(ctx, in, &attrs, &out),
                   OPR_INVALID_ARGUMENT, "ZeroOut: preserve_index 7 is out "
                   "of range for a tensor of 4 elements");
  assert_null(out);
  attrs.preserve_index = 4;
  kt_expect_status(demo_zero_out(ctx, in, &attrs, &out),
                   OPR_INVALID_ARGUMENT, "ZeroOut: preserve_index 4 is out "
                   "of range for a tensor of 4 elements");
  opr_tensor_unref(in);
  in = kt_new(OPR_DT_INT32, 0, NULL);
  attrs.preserve_index = 1;
  kt_expect_status(demo_zero_out(ctx, in, &attrs, &out),
                   OPR_INVALID_ARGUMENT, "ZeroOut: preserve_index 1 is out "
                   "of range for a tensor of 1 element");
  opr_tensor_unref(in);
}

static void zero_out_of_a_scalar_keeps_it(void **state) {
  (void)state;
  opr_tensor *in = kt_new(OPR_DT_DOUBLE, 0, NULL), *out = NULL;
  *(double *)in->data = -2.5;
  kt_expect_ok(demo_zero_out(ctx, in, NULL, &out));
  assert_int_equal(out->rank, 0);
  assert_true(*(const double *)out->data == -2.5);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
}

/* Nothing to keep: an empty output, whatever preserve_index says. */
static void zero_out_of_empty_tensors_is_empty(void **state) {
  (void)state;
  const int64_t dims[2] = {4, 0};
  opr_tensor *in = kt_new(OPR_DT_FLOAT, 2, dims), *out = NULL;
  demo_zero_out_attrs attrs = {.preserve_index = 3};
  kt_expect_ok(demo_zero_out(ctx, in, &attrs, &out));
  assert_int_equal(out->num_elements, 0);
  assert_int_equal(out->dims[0], 4);
  opr_tensor_unref(out);
  kt_expect_ok(demo_zero_out_real_number(ctx, in, &out));
  assert_int_equal(out->num_elements, 0);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
  in = kt_new(OPR_DT_INT32, 2, dims);
  kt_expect_ok(demo_zero_out_int32(ctx, in, &out));
  assert_int_equal(out->num_elements, 0);
  opr_tensor_unref(out);
  kt_expect_ok(demo_zero_out_float_int32(ctx, in, &out));
  assert_int_equal(out->num_elements, 0);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
}

static void zero_out_of_a_string_tensor_is_rejected(void **state) {
  (void)state;
  opr_tensor *in = kt_vec(OPR_DT_STRING, 1), *out = NULL;
  kt_expect_status(demo_zero_out(ctx, in, NULL, &out), OPR_INVALID_ARGUMENT,
                   "ZeroOut: input 'to_zero' has type string; attr T must "
                   "be one of {float, double, int32}");
  opr_tensor_unref(in);
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
      cmocka_unit_test(zero_out_keeps_preserve_index_for_each_type),
      cmocka_unit_test(zero_out_int32_keeps_the_first),
      cmocka_unit_test(zero_out_float_int32_keeps_the_first_for_each_type),
      cmocka_unit_test(zero_out_real_number_keeps_the_first_for_each_type),
      cmocka_unit_test(zero_out_of_the_guide_example),
      cmocka_unit_test(zero_out_rejects_preserve_index_out_of_range),
      cmocka_unit_test(zero_out_of_a_scalar_keeps_it),
      cmocka_unit_test(zero_out_of_empty_tensors_is_empty),
      cmocka_unit_test(zero_out_of_a_string_tensor_is_rejected),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
