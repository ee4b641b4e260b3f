/* opr_invoke_unary(_into): the whole typed wrapper of an op with
 * opr_op_def.has_fast_path (Example: a type attr; ZeroOutInt32: a fixed
 * type). The wrapper's tests, in the runtime: what passes runs the
 * cached kernel; anything else fails with the general path's error. */
#include "opstest.h"

#include "demo_ops.h"

static opr_tensor *ints(int32_t a, int32_t b) {
  const int32_t v[2] = {a, b};
  const int64_t n = 2;
  opr_tensor *t = NULL;
  assert_null(opr_tensor_from_data(OPR_DT_INT32, 1, &n, v, sizeof v, &t));
  return t;
}

static void a_fixed_type_op_runs_its_kernel(void **state) {
  (void)state;
  opr_tensor *x = ints(5, 6), *y = NULL, *z = ints(1, 1);
  assert_null(demo_zero_out_int32(ctx, x, &y));
  assert_int_equal(((const int32_t *)y->data)[0], 5);
  assert_int_equal(((const int32_t *)y->data)[1], 0);
  assert_null(demo_zero_out_int32_into(ctx, x, z));
  assert_memory_equal(z->data, y->data, y->nbytes);
  opr_tensor_unref(x);
  opr_tensor_unref(y);
  opr_tensor_unref(z);
}

static void another_type_fails_as_the_general_path(void **state) {
  (void)state;
  const int64_t n = 2;
  opr_tensor *f = NULL, *y = NULL;
  assert_null(opr_tensor_new(OPR_DT_FLOAT, 1, &n, &f));
  expect_status(demo_zero_out_int32(ctx, f, &y), OPR_INVALID_ARGUMENT,
                "ZeroOutInt32: input 'to_zero' has type float; expected "
                "int32");
  assert_null(y);
  expect_status(demo_zero_out_int32_into(ctx, f, f), OPR_INVALID_ARGUMENT,
                "ZeroOutInt32: input 'to_zero' has type float; expected "
                "int32");
  opr_tensor *s = NULL;
  assert_null(opr_tensor_new(OPR_DT_STRING, 0, NULL, &s));
  expect_status(demo_example(ctx, s, &y), OPR_INVALID_ARGUMENT,
                "Example: input 'input' has type string; attr T must be one "
                "of {float, double, int32, uint8, int16, int8, complex64, "
                "int64, qint8, quint8, qint32, bfloat16, uint16, complex128, "
                "half, uint32, uint64}");
  opr_tensor_unref(s);
  opr_tensor_unref(f);
}

static void a_null_input_or_slot_fails_as_the_general_path(void **state) {
  (void)state;
  opr_tensor *x = ints(1, 2), *y = NULL;
  expect_status(demo_example(ctx, NULL, &y), OPR_INVALID_ARGUMENT,
                "Example: input 'input' is NULL");
  expect_status(demo_example(ctx, x, NULL), OPR_INVALID_ARGUMENT,
                "Example: output 'input_times_two' is NULL");
  expect_status(demo_example_into(ctx, NULL, x), OPR_INVALID_ARGUMENT,
                "Example: input 'input' is NULL");
  opr_tensor_unref(x);
}

static void calls_by_the_entries_equal_the_wrappers(void **state) {
  (void)state;
  opr_tensor *x = ints(3, 4), *a = NULL, *b = NULL;
  assert_null(demo_example(ctx, x, &a));
  assert_null(opr_invoke_unary(ctx, &demo_example_def, x, &b));
  assert_memory_equal(a->data, b->data, a->nbytes);
  assert_int_equal(((const int32_t *)b->data)[1], 8);
  assert_null(opr_invoke_unary_into(ctx, &demo_example_def, x, b));
  assert_memory_equal(a->data, b->data, a->nbytes);
  opr_tensor_unref(x);
  opr_tensor_unref(a);
  opr_tensor_unref(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_fixed_type_op_runs_its_kernel),
      cmocka_unit_test(another_type_fails_as_the_general_path),
      cmocka_unit_test(a_null_input_or_slot_fails_as_the_general_path),
      cmocka_unit_test(calls_by_the_entries_equal_the_wrappers),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
