/* opr_tape_gradient: chains, sums over fan-out, what is not connected,
 * targets that are sources, given target gradients, the errors (missing
 * gradient, a gradient of the wrong shape or dtype, a failing gradient
 * function), persistence, and zeros for outputs nothing depends on. */
#include "gradtest.h"

static opr_tape *tape;

/* Each test records on a fresh tape. */
static int start(void **state) {
  (void)state;
  kt_expect_ok(opr_tape_new(&tape));
  kt_expect_ok(opr_tape_start(tape));
  return 0;
}

static int finish(void **state) {
  (void)state;
  opr_tape_free(tape);
  tape = NULL;
  return 0;
}

static opr_tensor *example(const opr_tensor *x) {
  opr_tensor *y = NULL;
  kt_expect_ok(demo_example(gt_ctx, x, &y));
  return y;
}

static opr_tensor *add_n(const opr_tensor *const *xs, size_t n) {
  opr_tensor *y = NULL;
  kt_expect_ok(demo_add_n(gt_ctx, xs, n, &y));
  return y;
}

static void unref_all(opr_tensor **ts, size_t n) {
  for (size_t i = 0; i < n; i++) opr_tensor_unref(ts[i]);
}

static void chain_multiplies(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 2, (double[]){1, -2});
  opr_tensor *a = example(x), *b = example(a), *c = example(b);
  opr_tensor *g = gt_grad(tape, gt_ctx, c, x);
  gt_expect(g, (double[]){8, 8}, 2, 0);
  opr_tensor_unref(g);
  unref_all((opr_tensor *[]){x, a, b, c}, 4);
}

static void fan_out_sums(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_DOUBLE, 3, (double[]){1, 2, 3});
  opr_tensor *y = add_n((const opr_tensor *const[]){x, x}, 2);
  opr_tensor *g = gt_grad(tape, gt_ctx, y, x);
  gt_expect(g, (double[]){2, 2, 2}, 3, 0);
  opr_tensor_unref(g);
  /* Across calls: z = AddN(Example(x), x): 2 + 1. */
  opr_tensor *a = example(x);
  opr_tensor *z = add_n((const opr_tensor *const[]){a, x}, 2);
  g = gt_grad(tape, gt_ctx, z, x);
  gt_expect(g, (double[]){3, 3, 3}, 3, 0);
  opr_tensor_unref(g);
  unref_all((opr_tensor *[]){x, y, a, z}, 4);
}

static void unconnected_source_is_null(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 1, (double[]){1});
  opr_tensor *u = gt_vec(OPR_DT_FLOAT, 1, (double[]){5});
  opr_tensor *y = example(x), *v = example(u);
  const opr_tensor *sources[3] = {x, u, v}, *target = y;
  opr_tensor *g[3] = {NULL, NULL, NULL};
  kt_expect_ok(
      opr_tape_gradient(tape, gt_ctx, &target, NULL, 1, sources, 3, g));
  gt_expect(g[0], (double[]){2}, 1, 0);
  assert_null(g[1]);
  assert_null(g[2]);
  opr_tensor_unref(g[0]);
  unref_all((opr_tensor *[]){x, u, y, v}, 4);
}

static void target_that_is_a_source(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 2, (double[]){1, 2});
  opr_tensor *y = example(x);
  opr_tensor *g = gt_grad(tape, gt_ctx, x, x); /* d x / d x: ones */
  gt_expect(g, (double[]){1, 1}, 2, 0);
  opr_tensor_unref(g);
  /* An intermediate result as a source; the same source twice. */
  opr_tensor *z = example(y);
  const opr_tensor *sources[3] = {x, y, x}, *target = z;
  opr_tensor *gs[3];
  kt_expect_ok(opr_tape_gradient(tape, gt_ctx, &target, NULL, 1, sources, 3,
                                 gs));
  gt_expect(gs[0], (double[]){4, 4}, 2, 0);
  gt_expect(gs[1], (double[]){2, 2}, 2, 0);
  gt_expect(gs[2], (double[]){4, 4}, 2, 0);
  assert_ptr_not_equal(gs[0], gs[2]); /* each answer the caller's own */
  assert_int_equal(gs[0]->refcount, 1);
  assert_int_equal(gs[2]->refcount, 1);
  unref_all(gs, 3);
  unref_all((opr_tensor *[]){x, y, z}, 3);
}

/* Two targets: the sum of their gradients; a target without a source
 * contributes nothing. */
static void several_targets_sum(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 1, (double[]){1});
  opr_tensor *c = gt_vec(OPR_DT_FLOAT, 1, (double[]){1});
  opr_tensor *y = example(x), *z = example(y), *w = example(c);
  const opr_tensor *targets[3] = {y, z, w}, *source = x;
  opr_tensor *g = NULL;
  kt_expect_ok(opr_tape_gradient(tape, gt_ctx, targets, NULL, 3, &source, 1,
                                 &g));
  gt_expect(g, (double[]){6}, 1, 0);
  opr_tensor_unref(g);
  unref_all((opr_tensor *[]){x, c, y, z, w}, 5);
}

static void target_gradients_are_used(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 3, (double[]){1, 2, 3});
  opr_tensor *dy = gt_vec(OPR_DT_FLOAT, 3, (double[]){1, -2, 0.5});
  opr_tensor *y = example(x);
  const opr_tensor *target = y, *tg = dy, *source = x;
  opr_tensor *g = NULL;
  kt_expect_ok(
      opr_tape_gradient(tape, gt_ctx, &target, &tg, 1, &source, 1, &g));
  gt_expect(g, (double[]){2, -4, 1}, 3, 0);
  opr_tensor_unref(g);
  /* A target that is the source gets the given gradient, as a copy. */
  kt_expect_ok(
      opr_tape_gradient(tape, gt_ctx, &source, &tg, 1, &source, 1, &g));
  gt_expect(g, (double[]){1, -2, 0.5}, 3, 0);
  assert_ptr_not_equal(g, dy);
  assert_int_equal(dy->refcount, 1);
  opr_tensor_unref(g);
  /* A NULL entry: ones. */
  const opr_tensor *none = NULL;
  kt_expect_ok(opr_tape_gradient(tape, gt_ctx, &target, &none, 1, &source, 1,
                                 &g));
  gt_expect(g, (double[]){2, 2, 2}, 3, 0);
  opr_tensor_unref(g);
  unref_all((opr_tensor *[]){x, dy, y}, 3);
}

static void target_gradient_of_another_shape_is_refused(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 3, (double[]){1, 2, 3});
  opr_tensor *dy = gt_vec(OPR_DT_DOUBLE, 2, (double[]){1, 1});
  opr_tensor *y = example(x);
  const opr_tensor *target = y, *tg = dy, *source = x;
  opr_tensor *g = dy; /* set to NULL on failure */
  kt_expect_status(
      opr_tape_gradient(tape, gt_ctx, &target, &tg, 1, &source, 1, &g),
      OPR_INVALID_ARGUMENT,
      "opr_tape_gradient: target_grads[0] has shape [2] and dtype double; "
      "target 0 has shape [3] and dtype float");
  assert_null(g);
  unref_all((opr_tensor *[]){x, dy, y}, 3);
}

static void missing_gradient_is_not_found(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_INT32, 2, (double[]){1, 2});
  opr_tensor *y = NULL;
  kt_expect_ok(demo_add_one(gt_ctx, x, &y));
  opr_tensor *z = example(y);
  const opr_tensor *target = z, *source = x;
  opr_tensor *g = NULL;
  kt_expect_status(
      opr_tape_gradient(tape, gt_ctx, &target, NULL, 1, &source, 1, &g),
      OPR_NOT_FOUND, "no gradient is registered for op 'AddOne'");
  assert_null(g);
  /* Off the path, a call without a gradient does not matter. */
  source = y;
  kt_expect_ok(opr_tape_gradient(tape, gt_ctx, &target, NULL, 1, &source, 1,
                                 &g));
  gt_expect(g, (double[]){2, 2}, 2, 0);
  opr_tensor_unref(g);
  unref_all((opr_tensor *[]){x, y, z}, 3);
}

/* Gradient functions for AddOne that get it wrong. */
static opr_status wrong_shape(const opr_grad_op *op,
                              const opr_tensor *const *out_grads,
                              opr_tensor **in_grads, void *user) {
  (void)op, (void)out_grads, (void)user;
  return opr_tensor_new(OPR_DT_INT32, 1, (int64_t[]){3}, &in_grads[0]);
}

static opr_status wrong_dtype(const opr_grad_op *op,
                              const opr_tensor *const *out_grads,
                              opr_tensor **in_grads, void *user) {
  (void)out_grads, (void)user;
  const opr_tensor *x = op->inputs[0];
  return opr_tensor_new(OPR_DT_FLOAT, x->rank, x->dims, &in_grads[0]);
}

/* Sets its result, then fails: the tape releases what was set. */
static opr_status failing(const opr_grad_op *op,
                          const opr_tensor *const *out_grads,
                          opr_tensor **in_grads, void *user) {
  (void)user;
  kt_expect_ok(opr_tensor_fill_like(op->inputs[0], 1, &in_grads[0]));
  return opr_error(OPR_DATA_LOSS, "%s: gradient failed (%lld elements)",
                   op->op->name, (long long)out_grads[0]->num_elements);
}

static void check_add_one_gradient(opr_gradient_fn fn, opr_code code,
                                   const char *message) {
  kt_expect_ok(opr_register_gradient("AddOne", fn, NULL));
  opr_tensor *x = gt_vec(OPR_DT_INT32, 2, (double[]){1, 2});
  opr_tensor *y = NULL;
  kt_expect_ok(demo_add_one(gt_ctx, x, &y));
  opr_tensor *z = example(y);
  const opr_tensor *target = z, *sources[2] = {y, x};
  opr_tensor *g[2] = {NULL, NULL};
  kt_expect_status(opr_tape_gradient(tape, gt_ctx, &target, NULL, 1, sources, 2,
                                     g),
                   code, message);
  assert_null(g[0]);
  assert_null(g[1]);
  kt_expect_ok(opr_unregister_gradient("AddOne", NULL));
  unref_all((opr_tensor *[]){x, y, z}, 3);
}

static void gradient_of_wrong_shape_or_dtype_is_refused(void **state) {
  (void)state;
  check_add_one_gradient(wrong_shape, OPR_INVALID_ARGUMENT,
                         "AddOne: the gradient of input 'input' has shape "
                         "[3] and dtype int32; the input has shape [2] and "
                         "dtype int32");
  check_add_one_gradient(wrong_dtype, OPR_INVALID_ARGUMENT,
                         "AddOne: the gradient of input 'input' has shape "
                         "[2] and dtype float; the input has shape [2] and "
                         "dtype int32");
}

/* A list input's element is named. */
static opr_status wrong_second(const opr_grad_op *op,
                               const opr_tensor *const *out_grads,
                               opr_tensor **in_grads, void *user) {
  (void)user;
  in_grads[0] = opr_tensor_ref((opr_tensor *)out_grads[0]);
  return opr_tensor_new(OPR_DT_FLOAT, 0, NULL, &in_grads[op->ninputs - 1]);
}

static void wrong_list_element_is_named(void **state) {
  (void)state;
  opr_gradient_fn shipped = NULL;
  assert_true(opr_find_gradient("AddN", &shipped, NULL));
  kt_expect_ok(opr_unregister_gradient("AddN", NULL));
  kt_expect_ok(opr_register_gradient("AddN", wrong_second, NULL));
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 2, (double[]){1, 2});
  opr_tensor *y = add_n((const opr_tensor *const[]){x, x}, 2);
  const opr_tensor *target = y, *source = x;
  opr_tensor *g = NULL;
  kt_expect_status(
      opr_tape_gradient(tape, gt_ctx, &target, NULL, 1, &source, 1, &g),
      OPR_INVALID_ARGUMENT,
      "AddN: the gradient of input 'inputs' element 1 has shape [] and "
      "dtype float; the input has shape [2] and dtype float");
  kt_expect_ok(opr_unregister_gradient("AddN", NULL));
  kt_expect_ok(opr_register_gradient("AddN", shipped, NULL));
  unref_all((opr_tensor *[]){x, y}, 2);
}

static void failing_gradient_passes_its_status(void **state) {
  (void)state;
  check_add_one_gradient(failing, OPR_DATA_LOSS,
                         "AddOne: gradient failed (2 elements)");
}

/* A persistent tape: asked again, the same answers; a recording tape may
 * be asked, and the gradient's own calls are not recorded. */
static void tape_answers_many_times(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 2, (double[]){1, 2});
  opr_tensor *y = example(x);
  opr_tensor *z = add_n((const opr_tensor *const[]){y, x, y}, 3);
  size_t size = opr_tape_size(tape);
  assert_true(opr_tape_recording());
  for (int i = 0; i < 3; i++) {
    opr_tensor *g = gt_grad(tape, gt_ctx, z, x);
    gt_expect(g, (double[]){5, 5}, 2, 0);
    opr_tensor_unref(g);
  }
  assert_int_equal(opr_tape_size(tape), size);
  kt_expect_ok(opr_tape_stop(tape));
  opr_tensor *g = gt_grad(tape, gt_ctx, z, y);
  gt_expect(g, (double[]){2, 2}, 2, 0);
  opr_tensor_unref(g);
  unref_all((opr_tensor *[]){x, y, z}, 3);
}

/* GradTestSplit's second output feeds nothing: its gradient function gets
 * zeros there. */
static void unconnected_outputs_get_zeros(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 2, (double[]){1, 2});
  opr_tensor *a = NULL, *b = NULL;
  kt_expect_ok(gt_split(gt_ctx, x, &a, &b));
  opr_tensor *g = gt_grad(tape, gt_ctx, a, x);
  gt_expect(g, (double[]){1, 1}, 2, 0);
  opr_tensor_unref(g);
  g = gt_grad(tape, gt_ctx, b, x);
  gt_expect(g, (double[]){3, 3}, 2, 0);
  opr_tensor_unref(g);
  opr_tensor *c = add_n((const opr_tensor *const[]){a, b}, 2);
  g = gt_grad(tape, gt_ctx, c, x);
  gt_expect(g, (double[]){4, 4}, 2, 0);
  opr_tensor_unref(g);
  unref_all((opr_tensor *[]){x, a, b, c}, 4);
}

static void bad_arguments_are_invalid_argument(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 1, (double[]){1});
  const opr_tensor *t = x, *null = NULL;
  opr_tensor *g = NULL;
  struct {
    opr_status s;
    const char *msg;
  } cases[] = {
      {opr_tape_gradient(NULL, gt_ctx, &t, NULL, 1, &t, 1, &g),
       "the tape is NULL"},
      {opr_tape_gradient(tape, NULL, &t, NULL, 1, &t, 1, &g),
       "the context is NULL"},
      {opr_tape_gradient(tape, gt_ctx, NULL, NULL, 1, &t, 1, &g),
       "targets is NULL"},
      {opr_tape_gradient(tape, gt_ctx, &t, NULL, 1, NULL, 1, &g),
       "sources is NULL"},
      {opr_tape_gradient(tape, gt_ctx, &t, NULL, 1, &t, 1, NULL),
       "grads is NULL"},
      {opr_tape_gradient(tape, gt_ctx, &null, NULL, 1, &t, 1, &g),
       "a target is NULL"},
      {opr_tape_gradient(tape, gt_ctx, &t, NULL, 1, &null, 1, &g),
       "a source is NULL"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char want[128];
    snprintf(want, sizeof want, "opr_tape_gradient: %s", cases[i].msg);
    kt_expect_status(cases[i].s, OPR_INVALID_ARGUMENT, want);
  }
  assert_null(g);
  kt_expect_ok(opr_tape_gradient(tape, gt_ctx, NULL, NULL, 0, NULL, 0, NULL));
  opr_tensor_unref(x);
}

/* A chain of 20000 calls: linear time and bounded memory (the output
 * gradients are dropped as the pass goes). */
static void long_chain_is_linear(void **state) {
  (void)state;
  enum { LEN = 20000 };
  opr_tensor *x = gt_vec(OPR_DT_DOUBLE, 1, (double[]){1});
  opr_tensor *zero = gt_vec(OPR_DT_DOUBLE, 1, (double[]){0});
  opr_tensor *y = opr_tensor_ref(x);
  for (int i = 0; i < LEN; i++) { /* y = y + 0: the gradient stays 1 */
    opr_tensor *next = add_n((const opr_tensor *const[]){y, zero}, 2);
    opr_tensor_unref(y);
    y = next;
  }
  assert_int_equal(opr_tape_size(tape), LEN);
  opr_tensor *g = gt_grad(tape, gt_ctx, y, x);
  gt_expect(g, (double[]){1}, 1, 0);
  opr_tensor_unref(g);
  unref_all((opr_tensor *[]){x, zero, y}, 3);
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, start, finish)
  const struct CMUnitTest tests[] = {
      T(chain_multiplies),
      T(fan_out_sums),
      T(unconnected_source_is_null),
      T(target_that_is_a_source),
      T(several_targets_sum),
      T(target_gradients_are_used),
      T(target_gradient_of_another_shape_is_refused),
      T(missing_gradient_is_not_found),
      T(gradient_of_wrong_shape_or_dtype_is_refused),
      T(wrong_list_element_is_named),
      T(failing_gradient_passes_its_status),
      T(tape_answers_many_times),
      T(unconnected_outputs_get_zeros),
      T(bad_arguments_are_invalid_argument),
      T(long_chain_is_linear),
  };
#undef T
  return cmocka_run_group_tests(tests, gt_setup, gt_teardown);
}
