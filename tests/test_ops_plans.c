/* Plans of the generic entry (runtime/src/plan_cache.h): a call by handle
 * with no named attrs that the general path ran leaves a plan on its
 * thread, and the next call with inputs of the same dtypes and shapes
 * runs by it, with the results and errors of the general path. Calls
 * with other inputs, named attrs, value-dependent shapes or a kernel
 * registered since take the general path again. */
#include "opstest.h"

#include <pthread.h>
#include <string.h>

/* The runtime's test hook (runtime/src/plan_cache.h). */
size_t opr_plan_thread_count(void);

static opr_tensor *ints(int64_t n, int32_t first) {
  opr_tensor *t = NULL;
  assert_null(opr_tensor_new(OPR_DT_INT32, 1, &n, &t));
  for (int64_t i = 0; i < n; i++) ((int32_t *)t->data)[i] = first + (int32_t)i;
  return t;
}

static const opr_op_def *handle(const char *name) {
  const opr_op_def *op = NULL;
  assert_null(opr_op_handle(name, &op));
  return op;
}

/* ZeroOut of x by handle (no named attrs): its output, checked. */
static opr_tensor *zero_out(const opr_tensor *x) {
  const opr_input in[1] = {{&x, 1}};
  opr_tensor *out = NULL;
  size_t n = 9;
  assert_null(opr_execute_op(ctx, handle("ZeroOut"), in, 1, NULL, 0, &out, 1,
                             &n));
  assert_int_equal(n, 1);
  assert_int_equal(out->rank, x->rank);
  assert_int_equal(out->num_elements, x->num_elements);
  const int32_t *a = x->data, *b = out->data;
  for (int64_t i = 0; i < x->num_elements; i++)
    assert_int_equal(b[i], i == 0 ? a[0] : 0);
  return out;
}

static void a_second_call_runs_by_the_plan_with_the_same_result(void **state) {
  (void)state;
  opr_tensor *x = ints(4, 7);
  size_t before = opr_plan_thread_count();
  opr_tensor *a = zero_out(x);
  assert_int_equal(opr_plan_thread_count(), before + 1);
  opr_tensor *b = zero_out(x); /* by the plan */
  assert_int_equal(opr_plan_thread_count(), before + 1);
  assert_memory_equal(a->data, b->data, a->nbytes);
  opr_tensor_unref(a);
  opr_tensor_unref(b);
  opr_tensor_unref(x);
}

static void inputs_of_another_shape_get_their_own_shape(void **state) {
  (void)state;
  opr_tensor *x = ints(4, 1), *y = ints(9, 5);
  opr_tensor_unref(zero_out(x));
  opr_tensor_unref(zero_out(y)); /* replaces the plan */
  opr_tensor_unref(zero_out(y));
  opr_tensor_unref(zero_out(x));
  opr_tensor_unref(x);
  opr_tensor_unref(y);
}

static void a_planned_call_without_room_fails_as_the_general_path(
    void **state) {
  (void)state;
  opr_tensor *x = ints(3, 1);
  opr_tensor_unref(zero_out(x));
  const opr_input in[1] = {{(const opr_tensor *const *)&x, 1}};
  size_t n = 9;
  expect_status(opr_execute_op(ctx, handle("ZeroOut"), in, 1, NULL, 0, NULL,
                               0, &n),
                OPR_INVALID_ARGUMENT, "ZeroOut: produces 1 output tensor, "
                "room for 0");
  assert_int_equal(n, 0);
  expect_status(opr_execute_op(NULL, handle("ZeroOut"), in, 1, NULL, 0, NULL,
                               0, &n),
                OPR_INVALID_ARGUMENT, "opr_execute: the context is NULL");
  expect_status(opr_execute_op(ctx, handle("ZeroOut"), in, 2, NULL, 0, NULL,
                               0, &n),
                OPR_INVALID_ARGUMENT, "ZeroOut: takes 1 input argument, got 2");
  opr_tensor_unref(x);
}

static void a_kernel_error_is_the_same_by_the_plan(void **state) {
  (void)state;
  /* AddN of int32 and float: the general path's check error each time. */
  opr_tensor *x = ints(2, 1), *f = NULL;
  const int64_t two = 2;
  assert_null(opr_tensor_new(OPR_DT_FLOAT, 1, &two, &f));
  const opr_tensor *xs[2] = {x, f};
  const opr_input in[1] = {{xs, 2}};
  opr_tensor *out = NULL;
  size_t n;
  for (int i = 0; i < 2; i++)
    expect_status(opr_execute_op(ctx, handle("AddN"), in, 1, NULL, 0, &out,
                                 1, &n),
                  OPR_INVALID_ARGUMENT, "AddN: input 'inputs' element 1 has "
                  "type float, but attr T is int32");
  assert_null(out);
  opr_tensor_unref(x);
  opr_tensor_unref(f);
}

static void named_attrs_take_the_general_path(void **state) {
  (void)state;
  opr_tensor *x = ints(3, 4);
  opr_tensor_unref(zero_out(x)); /* a plan with preserve_index 0 */
  const opr_input in[1] = {{(const opr_tensor *const *)&x, 1}};
  const opr_named_attr keep2[1] = {
      {"preserve_index", {.kind = OPR_ATTR_INT, .u.i = 2}}};
  opr_tensor *out = NULL;
  size_t n;
  assert_null(opr_execute_op(ctx, handle("ZeroOut"), in, 1, keep2, 1, &out, 1,
                             &n));
  const int32_t *v = out->data;
  assert_int_equal(v[0], 0);
  assert_int_equal(v[1], 0);
  assert_int_equal(v[2], 6);
  opr_tensor_unref(out);
  opr_tensor_unref(x);
}

static void an_add_n_plan_sums_the_new_values(void **state) {
  (void)state;
  opr_tensor *x = ints(3, 1), *y = ints(3, 10);
  const opr_tensor *xs[2] = {x, y};
  const opr_input in[1] = {{xs, 2}};
  for (int round = 0; round < 3; round++) {
    ((int32_t *)x->data)[0] = round;
    opr_tensor *out = NULL;
    size_t n;
    assert_null(opr_execute_op(ctx, handle("AddN"), in, 1, NULL, 0, &out, 1,
                               &n));
    const int32_t *v = out->data;
    assert_int_equal(v[0], round + 10);
    assert_int_equal(v[2], 3 + 12);
    opr_tensor_unref(out);
  }
  opr_tensor_unref(x);
  opr_tensor_unref(y);
}

/* Pad by handle: x (2 floats) padded by (before, after). */
static opr_tensor *pad(const opr_tensor *x, int32_t before, int32_t after) {
  const int32_t p[2] = {before, after};
  const int64_t dims[2] = {1, 2};
  opr_tensor *pads = NULL, *out = NULL;
  assert_null(opr_tensor_from_data(OPR_DT_INT32, 2, dims, p, sizeof p,
                                   &pads));
  const opr_input in[2] = {{&x, 1}, {(const opr_tensor *const *)&pads, 1}};
  size_t n;
  assert_null(opr_execute_op(ctx, handle("Pad"), in, 2, NULL, 0, &out, 1,
                             &n));
  opr_tensor_unref(pads);
  return out;
}

static void a_shape_that_reads_values_leaves_no_plan(void **state) {
  (void)state;
  const int64_t two = 2;
  opr_tensor *x = NULL;
  assert_null(opr_tensor_new(OPR_DT_FLOAT, 1, &two, &x));
  size_t before = opr_plan_thread_count();
  opr_tensor *a = pad(x, 1, 2), *b = pad(x, 0, 0);
  assert_int_equal(opr_plan_thread_count(), before);
  assert_int_equal(a->dims[0], 5);
  assert_int_equal(b->dims[0], 2);
  opr_tensor_unref(a);
  opr_tensor_unref(b);
  opr_tensor_unref(x);
}

static void a_planned_call_is_recorded_on_the_tape(void **state) {
  (void)state;
  opr_tensor *x = ints(2, 3);
  opr_tensor_unref(zero_out(x));
  opr_tape *tape = NULL;
  assert_null(opr_tape_new(&tape));
  assert_null(opr_tape_start(tape));
  opr_tensor_unref(zero_out(x));
  assert_null(opr_tape_stop(tape));
  assert_int_equal(opr_tape_size(tape), 1);
  opr_tape_free(tape);
  opr_tensor_unref(x);
}

/* A thread's plans are its own: each thread runs its calls by its
 * plans, with the same results. */
static void *thread_calls(void *arg) {
  int64_t n = (int64_t)(intptr_t)arg;
  opr_tensor *x = ints(n, (int32_t)n);
  for (int i = 0; i < 200; i++) {
    const opr_input in[1] = {{(const opr_tensor *const *)&x, 1}};
    opr_tensor *out = NULL;
    size_t k;
    opr_status s =
        opr_execute_op(ctx, opr_find_op("ZeroOut"), in, 1, NULL, 0, &out, 1,
                       &k);
    bool ok = !s && out->num_elements == n &&
              ((const int32_t *)out->data)[0] == (int32_t)n &&
              (n < 2 || ((const int32_t *)out->data)[1] == 0);
    opr_status_free(s);
    opr_tensor_unref(out);
    if (!ok) {
      opr_tensor_unref(x);
      return (void *)1;
    }
  }
  opr_tensor_unref(x);
  return NULL;
}

static void threads_run_by_their_own_plans(void **state) {
  (void)state;
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    assert_int_equal(pthread_create(&t[i], NULL, thread_calls,
                                    (void *)(intptr_t)(i + 1)),
                     0);
  for (int i = 0; i < 4; i++) {
    void *r = (void *)1;
    assert_int_equal(pthread_join(t[i], &r), 0);
    assert_null(r);
  }
}

/* A kernel registered after a plan was made (a new kernel table) runs:
 * ZeroOut for int32 that writes 42 everywhere, at a higher priority. */
static opr_status forty_two(opr_kernel_ctx *k) {
  const opr_tensor *in = k->call->inputs[0].tensors[0];
  opr_tensor *out = NULL;
  opr_status s = opr_kernel_alloc_output(k, 0, 0, in->rank, in->dims, &out);
  if (s) return s;
  for (int64_t i = 0; i < out->num_elements; i++)
    ((int32_t *)out->data)[i] = 42;
  return OPR_OK;
}

static void a_kernel_registered_later_replaces_the_plan(void **state) {
  (void)state;
  opr_tensor *x = ints(2, 5);
  opr_tensor_unref(zero_out(x)); /* a plan with the shipped kernel */
  const opr_type_constraint c[1] = {{"T", OPR_DTYPE_BIT(OPR_DT_INT32)}};
  const opr_kernel_def def = {.op = "ZeroOut", .device = OPR_DEVICE_CPU,
                              .constraints = c, .nconstraints = 1,
                              .priority = 100, .fn = forty_two,
                              .label = "test: 42"};
  assert_null(opr_register_kernel(&def));
  const opr_input in[1] = {{(const opr_tensor *const *)&x, 1}};
  for (int i = 0; i < 2; i++) {
    opr_tensor *out = NULL;
    size_t n;
    assert_null(opr_execute_op(ctx, handle("ZeroOut"), in, 1, NULL, 0, &out,
                               1, &n));
    assert_int_equal(((const int32_t *)out->data)[1], 42);
    opr_tensor_unref(out);
  }
  opr_tensor_unref(x);
}

/* A kernel that runs ZeroOut itself (on int32 tensors of another shape:
 * the general path, which would keep a plan in the same slot) before it
 * reads its own attr T: a planned call's attrs stay its own. */
static opr_status nested(opr_kernel_ctx *k) {
  opr_tensor *x = ints(3, 1), *inner = zero_out(x);
  opr_tensor_unref(inner);
  opr_tensor_unref(x);
  const opr_tensor *in = k->call->inputs[0].tensors[0];
  opr_tensor *out = NULL;
  opr_status s = opr_kernel_alloc_output(k, 0, 0, in->rank, in->dims, &out);
  if (s) return s;
  for (int64_t i = 0; i < out->num_elements; i++)
    ((double *)out->data)[i] = (double)k->call->attrs[0].u.type;
  return OPR_OK;
}

static void a_kernels_own_calls_leave_its_plan_alone(void **state) {
  (void)state;
  const opr_type_constraint c[1] = {{"T", OPR_DTYPE_BIT(OPR_DT_DOUBLE)}};
  const opr_kernel_def def = {.op = "ZeroOut", .device = OPR_DEVICE_CPU,
                              .constraints = c, .nconstraints = 1,
                              .priority = 100, .fn = nested,
                              .label = "test: nested"};
  assert_null(opr_register_kernel(&def));
  const int64_t two = 2;
  opr_tensor *d = NULL;
  assert_null(opr_tensor_new(OPR_DT_DOUBLE, 1, &two, &d));
  const opr_input in[1] = {{(const opr_tensor *const *)&d, 1}};
  for (int i = 0; i < 3; i++) { /* the general path, then by the plan */
    opr_tensor *out = NULL;
    size_t n;
    assert_null(opr_execute_op(ctx, handle("ZeroOut"), in, 1, NULL, 0, &out,
                               1, &n));
    assert_true(((const double *)out->data)[1] == (double)OPR_DT_DOUBLE);
    opr_tensor_unref(out);
  }
  opr_tensor_unref(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_second_call_runs_by_the_plan_with_the_same_result),
      cmocka_unit_test(inputs_of_another_shape_get_their_own_shape),
      cmocka_unit_test(a_planned_call_without_room_fails_as_the_general_path),
      cmocka_unit_test(a_kernel_error_is_the_same_by_the_plan),
      cmocka_unit_test(named_attrs_take_the_general_path),
      cmocka_unit_test(an_add_n_plan_sums_the_new_values),
      cmocka_unit_test(a_shape_that_reads_values_leaves_no_plan),
      cmocka_unit_test(a_planned_call_is_recorded_on_the_tape),
      cmocka_unit_test(threads_run_by_their_own_plans),
      cmocka_unit_test(a_kernels_own_calls_leave_its_plan_alone),
      /* Last: it changes ZeroOut's int32 kernel for the program. */
      cmocka_unit_test(a_kernel_registered_later_replaces_the_plan),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
