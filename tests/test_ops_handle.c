/* opr_op_handle: an op looked up once by name, then run by handle
 * (opr_execute_op) with the results, errors and tape records of
 * opr_execute by name. */
#include "opstest.h"

#include <string.h>

static opr_tensor *floats3(void) {
  const float v[3] = {1, 2, 3};
  const int64_t dims[1] = {3};
  opr_tensor *t = NULL;
  assert_null(opr_tensor_from_data(OPR_DT_FLOAT, 1, dims, v, sizeof v, &t));
  return t;
}

static void a_handle_is_the_registered_definition(void **state) {
  (void)state;
  const opr_op_def *op = NULL;
  assert_null(opr_op_handle("Example", &op));
  assert_ptr_equal(op, opr_find_op("Example"));
  assert_string_equal(op->name, "Example");
}

static void an_unknown_name_is_not_found_as_opr_execute_says(void **state) {
  (void)state;
  const opr_op_def *op = opr_find_op("Example");
  expect_status(opr_op_handle("NoSuchOp", &op), OPR_NOT_FOUND,
                "no op named 'NoSuchOp' is registered");
  assert_null(op);
  size_t n;
  expect_status(opr_execute(ctx, "NoSuchOp", NULL, 0, NULL, 0, NULL, 0, &n),
                OPR_NOT_FOUND, "no op named 'NoSuchOp' is registered");
}

static void null_arguments_are_refused(void **state) {
  (void)state;
  const opr_op_def *op = NULL;
  expect_status(opr_op_handle(NULL, &op), OPR_INVALID_ARGUMENT,
                "opr_op_handle: the op name is NULL");
  expect_status(opr_op_handle("Example", NULL), OPR_INVALID_ARGUMENT,
                "opr_op_handle: out is NULL");
}

/* Runs Example on x by handle and by name; both results must agree. */
static void calls_by_handle_equal_calls_by_name(void **state) {
  (void)state;
  const opr_op_def *op = NULL;
  assert_null(opr_op_handle("Example", &op));
  opr_tensor *x = floats3();
  const opr_tensor *in[1] = {x};
  opr_input inputs[1] = {{in, 1}};
  for (int i = 0; i < 3; i++) { /* the same handle, many calls */
    opr_tensor *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    assert_null(opr_execute_op(ctx, op, inputs, 1, NULL, 0, &a, 1, &na));
    assert_null(opr_execute(ctx, "Example", inputs, 1, NULL, 0, &b, 1, &nb));
    assert_int_equal(na, nb);
    assert_int_equal(a->nbytes, b->nbytes);
    assert_memory_equal(a->data, b->data, a->nbytes);
    opr_tensor_unref(a);
    opr_tensor_unref(b);
  }
  opr_tensor_unref(x);
}

static void errors_by_handle_equal_errors_by_name(void **state) {
  (void)state;
  const opr_op_def *op = NULL;
  assert_null(opr_op_handle("ZeroOut", &op));
  const char *strs[1] = {"a"};
  const int64_t dims[1] = {1};
  opr_tensor *x = NULL, *out = NULL;
  assert_null(opr_tensor_from_strings(1, dims, strs, NULL, &x));
  const opr_tensor *in[1] = {x};
  opr_input inputs[1] = {{in, 1}};
  size_t n;
  opr_status by_handle =
      opr_execute_op(ctx, op, inputs, 1, NULL, 0, &out, 1, &n);
  opr_status by_name =
      opr_execute(ctx, "ZeroOut", inputs, 1, NULL, 0, &out, 1, &n);
  assert_non_null(by_handle);
  assert_string_equal(opr_status_message(by_handle),
                      opr_status_message(by_name));
  expect_status(by_handle, OPR_INVALID_ARGUMENT,
                opr_status_message(by_name));
  opr_status_free(by_name);
  assert_null(out);
  opr_tensor_unref(x);
}

static void a_tape_records_calls_by_handle(void **state) {
  (void)state;
  const opr_op_def *op = NULL;
  assert_null(opr_op_handle("Example", &op));
  opr_tape *tape = NULL;
  assert_null(opr_tape_new(&tape));
  assert_null(opr_tape_start(tape));
  opr_tensor *x = floats3(), *y = NULL;
  const opr_tensor *in[1] = {x};
  opr_input inputs[1] = {{in, 1}};
  size_t n;
  assert_null(opr_execute_op(ctx, op, inputs, 1, NULL, 0, &y, 1, &n));
  assert_null(opr_tape_stop(tape));
  assert_int_equal(opr_tape_size(tape), 1);
  opr_tape_free(tape);
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_handle_is_the_registered_definition),
      cmocka_unit_test(an_unknown_name_is_not_found_as_opr_execute_says),
      cmocka_unit_test(null_arguments_are_refused),
      cmocka_unit_test(calls_by_handle_equal_calls_by_name),
      cmocka_unit_test(errors_by_handle_equal_errors_by_name),
      cmocka_unit_test(a_tape_records_calls_by_handle),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
