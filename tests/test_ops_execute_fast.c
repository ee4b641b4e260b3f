/* The generic entry's fast path (opr_op_def.has_fast_path; docs/
 * generated-code.md, "The fast path"): opr_execute_op(_into) without
 * named attrs on such an op gives exactly what its general path gives,
 * the same outputs and, for every call it does not take, the same error.
 * The general path here is the same entry on a copy of the op's table
 * with has_fast_path cleared (the same state record: the same kernels). */
#include "kerneltest.h"

#include "opr/gradient.h"

static opr_context *ctx;

/* Both statuses fail alike: code and message. */
static void expect_same_error(opr_status fast, opr_status general) {
  assert_non_null(fast);
  assert_non_null(general);
  assert_string_equal(opr_status_message(fast), opr_status_message(general));
  assert_int_equal(opr_status_code(fast), opr_status_code(general));
  opr_status_free(fast);
  opr_status_free(general);
}

static opr_op_def general_of(const opr_op_def *def) {
  opr_op_def g = *def;
  g.has_fast_path = false;
  return g;
}

static opr_status run(const opr_op_def *op, const opr_tensor *x,
                      opr_tensor **y, size_t room, size_t *n) {
  const opr_input in[1] = {{&x, 1}};
  return opr_execute_op(ctx, op, in, 1, NULL, 0, y, room, n);
}

static opr_status run_into(const opr_op_def *op, const opr_tensor *x,
                           opr_tensor *const *y, size_t n) {
  const opr_input in[1] = {{&x, 1}};
  return opr_execute_op_into(ctx, op, in, 1, NULL, 0, y, n);
}

static void opgen_sets_the_flag_where_the_check_is_decidable(void **state) {
  (void)state;
  assert_true(demo_example_def.has_fast_path);
  assert_true(demo_zero_out_int32_def.has_fast_path);   /* fixed type */
  assert_true(demo_zero_out_real_number_def.has_fast_path);
  assert_false(demo_zero_out_def.has_fast_path);        /* an int attr */
  assert_false(demo_add_n_def.has_fast_path);           /* a list */
}

/* Example (a type attr) and ZeroOutInt32 (a fixed type), every type. */
static void check_op(const opr_op_def *def, int dims_rank) {
  const opr_op_def general = general_of(def);
  const int64_t dims[2] = {3, 5};
  int types = 0;
  opr_dtype fixed = def->inputs[0].type;
  kt_for_each_dtype(dt, fixed != OPR_DT_INVALID ? OPR_DTYPE_BIT(fixed)
                                                : kt_allowed(def, "T")) {
    opr_tensor *x = kt_filled(dt, dims_rank, dims, 1), *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    kt_expect_ok(run(def, x, &a, 1, &na));
    kt_expect_ok(run(&general, x, &b, 1, &nb));
    assert_int_equal(na, 1);
    assert_int_equal(nb, 1);
    kt_assert_same(a, b);
    opr_tensor *c = kt_filled(dt, dims_rank, dims, 0);
    opr_tensor *d = kt_filled(dt, dims_rank, dims, 0);
    kt_expect_ok(run_into(def, x, &c, 1));
    kt_expect_ok(run_into(&general, x, &d, 1));
    kt_assert_same(c, a);
    kt_assert_same(d, a);
    opr_tensor_unref(a);
    opr_tensor_unref(b);
    opr_tensor_unref(c);
    opr_tensor_unref(d);
    opr_tensor_unref(x);
    types++;
  }
  assert_true(types > 0);
}

static void fast_and_general_entries_match_for_every_type(void **state) {
  (void)state;
  check_op(&demo_example_def, 2);
  check_op(&demo_example_def, 0);
  check_op(&demo_zero_out_int32_def, 2);
  check_op(&demo_zero_out_real_number_def, 1);
}

static void a_bad_dtype_or_null_input_fails_alike(void **state) {
  (void)state;
  const opr_op_def general = general_of(&demo_example_def);
  opr_tensor *x = NULL, *a = NULL, *b = NULL;
  kt_expect_ok(opr_tensor_new(OPR_DT_BOOL, 0, NULL, &x));
  expect_same_error(run(&demo_example_def, x, &a, 1, NULL),
                    run(&general, x, &b, 1, NULL));
  assert_null(a);
  assert_null(b);
  expect_same_error(run(&demo_example_def, NULL, &a, 1, NULL),
                    run(&general, NULL, &b, 1, NULL));
  const opr_input none[1] = {{NULL, 1}};
  expect_same_error(
      opr_execute_op(ctx, &demo_example_def, none, 1, NULL, 0, &a, 1, NULL),
      opr_execute_op(ctx, &general, none, 1, NULL, 0, &b, 1, NULL));
  opr_tensor_unref(x);
}

static void no_room_or_wrong_outputs_fail_alike(void **state) {
  (void)state;
  const opr_op_def general = general_of(&demo_example_def);
  const int64_t dims[1] = {4}, other[1] = {5};
  opr_tensor *x = kt_filled(OPR_DT_FLOAT, 1, dims, 1), *a = NULL;
  expect_same_error(run(&demo_example_def, x, &a, 0, NULL),
                    run(&general, x, &a, 0, NULL));
  expect_same_error(run(&demo_example_def, x, NULL, 1, NULL),
                    run(&general, x, NULL, 1, NULL));
  opr_tensor *bad[2] = {kt_filled(OPR_DT_FLOAT, 1, other, 0),
                        kt_filled(OPR_DT_DOUBLE, 1, dims, 0)};
  for (int i = 0; i < 2; i++)
    expect_same_error(run_into(&demo_example_def, x, &bad[i], 1),
                      run_into(&general, x, &bad[i], 1));
  expect_same_error(run_into(&demo_example_def, x, bad, 2),
                    run_into(&general, x, bad, 2));
  opr_tensor *null_out = NULL;
  expect_same_error(run_into(&demo_example_def, x, &null_out, 1),
                    run_into(&general, x, &null_out, 1));
  opr_tensor_unref(bad[0]);
  opr_tensor_unref(bad[1]);
  opr_tensor_unref(x);
}

/* A named attr takes the general path, which infers and checks it. */
static void a_named_attr_takes_the_general_path(void **state) {
  (void)state;
  opr_tensor *x = kt_filled(OPR_DT_FLOAT, 0, NULL, 1), *y = NULL;
  const opr_input in[1] = {{(const opr_tensor *const *)&x, 1}};
  const opr_named_attr t[1] = {
      {"T", {.kind = OPR_ATTR_TYPE, .u.type = OPR_DT_DOUBLE}}};
  kt_expect_status(
      opr_execute_op(ctx, &demo_example_def, in, 1, t, 1, &y, 1, NULL),
      OPR_INVALID_ARGUMENT,
      "Example: input 'input' has type float, but attr T is double");
  assert_null(y);
  opr_tensor_unref(x);
}

/* A call while a tape records takes the general path and is recorded. */
static void a_recording_tape_records_the_call(void **state) {
  (void)state;
  opr_tape *tape = NULL;
  opr_tensor *x = kt_filled(OPR_DT_FLOAT, 0, NULL, 0), *y = NULL, *g = NULL;
  kt_expect_ok(opr_tape_new(&tape));
  kt_expect_ok(opr_tape_start(tape));
  kt_expect_ok(run(&demo_example_def, x, &y, 1, NULL));
  kt_expect_ok(opr_tape_stop(tape));
  const opr_tensor *targets[1] = {y}, *sources[1] = {x};
  kt_expect_ok(opr_tape_gradient(tape, ctx, targets, NULL, 1, sources, 1,
                                 &g));
  assert_true(((float *)g->data)[0] == 2.0f);
  opr_tensor_unref(g);
  opr_tensor_unref(y);
  opr_tensor_unref(x);
  opr_tape_free(tape);
}

/* The flag is checked when registering: opr_execute_op relies on it. */
static void a_table_the_flag_does_not_fit_is_refused(void **state) {
  (void)state;
  static opr_op_state st;
  opr_op_def bad = demo_zero_out_def;
  bad.name = "ZeroOutFlagged";
  bad.state = &st;
  bad.has_fast_path = true;
  kt_expect_status(opr_register_op(&bad), OPR_INVALID_ARGUMENT,
                   "ZeroOutFlagged: has_fast_path, but the op is not one "
                   "input and one output of one type with at most its type "
                   "attr");
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
      cmocka_unit_test(opgen_sets_the_flag_where_the_check_is_decidable),
      cmocka_unit_test(fast_and_general_entries_match_for_every_type),
      cmocka_unit_test(a_bad_dtype_or_null_input_fails_alike),
      cmocka_unit_test(no_room_or_wrong_outputs_fail_alike),
      cmocka_unit_test(a_named_attr_takes_the_general_path),
      cmocka_unit_test(a_recording_tape_records_the_call),
      cmocka_unit_test(a_table_the_flag_does_not_fit_is_refused),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
