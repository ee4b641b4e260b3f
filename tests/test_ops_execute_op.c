/* opr_execute_op: the generic entry by op definition, with the same checks
 * and results as opr_execute by name. */
#include "opstest.h"

static opr_tensor *floats3(void) {
  const float v[3] = {1, 2, 3};
  const int64_t dims[1] = {3};
  opr_tensor *t = NULL;
  assert_null(opr_tensor_from_data(OPR_DT_FLOAT, 1, dims, v, sizeof v, &t));
  return t;
}

static void an_op_runs_by_its_definition(void **state) {
  (void)state;
  const opr_op_def *op = opr_find_op("Example");
  assert_non_null(op);
  opr_tensor *x = floats3();
  const opr_tensor *in[1] = {x};
  opr_input inputs[1] = {{in, 1}};
  opr_tensor *out[2] = {NULL, NULL};
  size_t n = 9;
  assert_null(opr_execute_op(ctx, op, inputs, 1, NULL, 0, out, 2, &n));
  assert_int_equal(n, 1);
  const float *y = out[0]->data;
  assert_true(y[0] == 2 && y[1] == 4 && y[2] == 6);
  opr_tensor_unref(out[0]);
  opr_tensor_unref(x);
}

static void attrs_by_name_and_their_errors_are_opr_executes(void **state) {
  (void)state;
  const opr_op_def *op = opr_find_op("ZeroOut");
  opr_tensor *x = floats3();
  const opr_tensor *in[1] = {x};
  opr_input inputs[1] = {{in, 1}};
  opr_named_attr attrs[1] = {{"preserve_index", {.kind = OPR_ATTR_INT,
                                                 .u.i = 7}}};
  opr_tensor *out[1] = {NULL};
  size_t n = 9;
  opr_status s = opr_execute_op(ctx, op, inputs, 1, attrs, 1, out, 1, &n);
  opr_status r = opr_execute(ctx, "ZeroOut", inputs, 1, attrs, 1, out, 1,
                             &n);
  assert_non_null(s);
  assert_non_null(r);
  assert_int_equal(opr_status_code(s), opr_status_code(r));
  assert_string_equal(opr_status_message(s), opr_status_message(r));
  assert_int_equal(n, 0);
  assert_null(out[0]);
  opr_status_free(s);
  opr_status_free(r);
  opr_tensor_unref(x);
}

static void a_null_op_or_context_is_refused(void **state) {
  (void)state;
  size_t n = 9;
  opr_status s = opr_execute_op(ctx, NULL, NULL, 0, NULL, 0, NULL, 0, &n);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  assert_string_equal(opr_status_message(s),
                      "opr_execute_op: the op is NULL");
  opr_status_free(s);
  assert_int_equal(n, 0);
  s = opr_execute_op(NULL, opr_find_op("Example"), NULL, 1, NULL, 0, NULL,
                     0, NULL);
  assert_string_equal(opr_status_message(s),
                      "opr_execute: the context is NULL");
  opr_status_free(s);
}

static void a_wrong_input_count_names_the_op(void **state) {
  (void)state;
  opr_status s = opr_execute_op(ctx, opr_find_op("Pad"), NULL, 0, NULL, 0,
                                NULL, 0, NULL);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  assert_string_equal(opr_status_message(s),
                      "Pad: takes 2 input arguments, got 0");
  opr_status_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(an_op_runs_by_its_definition),
      cmocka_unit_test(attrs_by_name_and_their_errors_are_opr_executes),
      cmocka_unit_test(a_null_op_or_context_is_refused),
      cmocka_unit_test(a_wrong_input_count_names_the_op),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
