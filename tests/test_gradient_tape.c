/* Tapes: what they record (every successful call through the typed
 * wrappers, opr_invoke and opr_execute, with the resolved attrs copied),
 * nesting and stop order, recording paused while gradient functions run,
 * tensors the runtime did not allocate. */
#include "gradtest.h"

#include <stdlib.h>


static opr_tape *new_tape(void) {
  opr_tape *t = NULL;
  kt_expect_ok(opr_tape_new(&t));
  return t;
}

static opr_tensor *example(const opr_tensor *x) {
  opr_tensor *y = NULL;
  kt_expect_ok(demo_example(gt_ctx, x, &y));
  return y;
}

static void new_tape_is_empty_and_not_recording(void **state) {
  (void)state;
  opr_tape *t = new_tape();
  assert_int_equal(opr_tape_size(t), 0);
  assert_false(opr_tape_recording());
  assert_int_equal(opr_tape_size(NULL), 0);
  opr_tape_free(t);
  opr_tape_free(NULL);
  kt_expect_status(opr_tape_new(NULL), OPR_INVALID_ARGUMENT,
                   "opr_tape_new: out is NULL");
}

static void records_calls_only_while_recording(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 2, (double[]){1, 2});
  opr_tape *t = new_tape();
  opr_tensor *before = example(x);
  kt_expect_ok(opr_tape_start(t));
  assert_true(opr_tape_recording());
  opr_tensor *y = example(x);
  opr_tensor *z = example(y);
  kt_expect_ok(opr_tape_stop(t));
  assert_false(opr_tape_recording());
  opr_tensor *after = example(x);
  assert_int_equal(opr_tape_size(t), 2);
  opr_tensor *unrecorded[] = {before, after};
  for (int i = 0; i < 2; i++) /* not on the tape: not connected */
    assert_null(gt_grad(t, gt_ctx, unrecorded[i], x));
  opr_tape_free(t); /* drops its references: the tensors stay ours */
  assert_int_equal(y->refcount, 1);
  opr_tensor *ts[] = {x, before, y, z, after};
  for (int i = 0; i < 5; i++) opr_tensor_unref(ts[i]);
}

static void records_generic_calls_and_not_failed_ones(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 3, (double[]){1, 2, 3});
  opr_tape *t = new_tape();
  kt_expect_ok(opr_tape_start(t));
  const opr_input in[1] = {{(const opr_tensor *const *)&x, 1}};
  opr_tensor *y = NULL;
  size_t n = 0;
  kt_expect_ok(opr_execute(gt_ctx, "Example", in, 1, NULL, 0, &y, 1, &n));
  opr_tensor *bad = NULL;
  demo_zero_out_attrs attrs = {.preserve_index = 7};
  opr_status s = demo_zero_out(gt_ctx, x, &attrs, &bad);
  assert_non_null(s);
  opr_status_free(s);
  kt_expect_ok(opr_tape_stop(t));
  assert_int_equal(opr_tape_size(t), 1);
  opr_tensor *g = gt_grad(t, gt_ctx, y, x);
  gt_expect(g, (double[]){2, 2, 2}, 3, 0);
  opr_tensor_unref(g);
  opr_tape_free(t);
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

/* Tapes nest: each records what runs while it records. */
static void nested_tapes_each_record_their_span(void **state) {
  (void)state;
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 1, (double[]){1});
  opr_tape *outer = new_tape(), *inner = new_tape();
  kt_expect_ok(opr_tape_start(outer));
  opr_tensor *a = example(x);
  kt_expect_ok(opr_tape_start(inner));
  opr_tensor *b = example(a);
  kt_expect_ok(opr_tape_stop(inner));
  opr_tensor *c = example(b);
  kt_expect_ok(opr_tape_stop(outer));
  assert_int_equal(opr_tape_size(outer), 3);
  assert_int_equal(opr_tape_size(inner), 1);
  opr_tensor *g = gt_grad(outer, gt_ctx, c, x);
  gt_expect(g, (double[]){8}, 1, 0);
  opr_tensor_unref(g);
  assert_null(gt_grad(inner, gt_ctx, c, x)); /* inner did not see c's call */
  g = gt_grad(inner, gt_ctx, b, a);
  gt_expect(g, (double[]){2}, 1, 0);
  opr_tensor_unref(g);
  opr_tape_free(inner);
  opr_tape_free(outer);
  opr_tensor *ts[] = {x, a, b, c};
  for (int i = 0; i < 4; i++) opr_tensor_unref(ts[i]);
}

static void tapes_stop_in_reverse_order(void **state) {
  (void)state;
  opr_tape *a = new_tape(), *b = new_tape();
  kt_expect_ok(opr_tape_start(a));
  kt_expect_ok(opr_tape_start(b));
  kt_expect_status(opr_tape_stop(a), OPR_FAILED_PRECONDITION,
                   "opr_tape_stop: a tape started after this one still "
                   "records on this thread (tapes stop in the reverse order "
                   "of their starts)");
  assert_true(opr_tape_recording());
  kt_expect_ok(opr_tape_stop(b));
  kt_expect_ok(opr_tape_stop(a));
  assert_false(opr_tape_recording());
  opr_tape_free(a);
  opr_tape_free(b);
}

static void start_and_stop_check_the_state(void **state) {
  (void)state;
  opr_tape *t = new_tape();
  kt_expect_status(opr_tape_stop(t), OPR_FAILED_PRECONDITION,
                   "opr_tape_stop: the tape is not recording on this "
                   "thread");
  kt_expect_ok(opr_tape_start(t));
  kt_expect_status(opr_tape_start(t), OPR_FAILED_PRECONDITION,
                   "opr_tape_start: the tape is already recording");
  kt_expect_ok(opr_tape_stop(t));
  kt_expect_ok(opr_tape_start(t)); /* a stopped tape may record again */
  kt_expect_ok(opr_tape_stop(t));
  kt_expect_status(opr_tape_start(NULL), OPR_INVALID_ARGUMENT,
                   "opr_tape_start: the tape is NULL");
  kt_expect_status(opr_tape_stop(NULL), OPR_INVALID_ARGUMENT,
                   "opr_tape_stop: the tape is NULL");
  opr_tape_free(t);
}

/* Freeing a recording tape stops it, wherever it is in the stack. */
static void free_stops_a_recording_tape(void **state) {
  (void)state;
  opr_tape *a = new_tape(), *b = new_tape(), *c = new_tape();
  kt_expect_ok(opr_tape_start(a));
  kt_expect_ok(opr_tape_start(b));
  kt_expect_ok(opr_tape_start(c));
  opr_tape_free(b); /* the middle one */
  kt_expect_ok(opr_tape_stop(c));
  kt_expect_ok(opr_tape_stop(a));
  assert_false(opr_tape_recording());
  kt_expect_ok(opr_tape_start(c));
  opr_tape_free(c);
  assert_false(opr_tape_recording());
  opr_tape_free(a);
}

/* What a gradient function sees of a record, checked inside it. */
typedef struct seen {
  int calls;
  bool recording;
  size_t ninputs, noutputs, starts[2];
  size_t ntypes;
  opr_dtype types[20];
  char mode[16];
  double first_input;
  opr_context *ctx;
} seen;

static opr_status inspect(const opr_grad_op *op,
                          const opr_tensor *const *out_grads,
                          opr_tensor **in_grads, void *user) {
  (void)out_grads, (void)in_grads;
  seen *w = user;
  w->calls++;
  w->recording = opr_tape_recording();
  w->ninputs = op->ninputs;
  w->noutputs = op->noutputs;
  w->starts[0] = op->input_starts[0];
  w->starts[1] = op->input_starts[1];
  w->ctx = op->ctx;
  w->first_input = op->ninputs ? gt_at(op->inputs[0], 0) : 0;
  for (size_t a = 0; a < op->op->nattrs; a++) {
    const opr_attr_value *v = &op->attrs[a];
    if (v->kind == OPR_ATTR_TYPE && v->is_list) {
      w->ntypes = v->u.list.count;
      memcpy(w->types, v->u.list.items, w->ntypes * sizeof(opr_dtype));
    }
    if (v->kind == OPR_ATTR_STRING)
      snprintf(w->mode, sizeof w->mode, "%.*s", (int)v->u.s.len, v->u.s.ptr);
  }
  /* Ops a gradient runs are not recorded. */
  opr_tensor *y = NULL;
  opr_status s = demo_example(op->ctx, op->outputs[0], &y);
  opr_tensor_unref(y);
  return s;
}

/* Swaps op's gradient for `fn` (returns the one it had). */
static opr_gradient_fn swap_gradient(const char *op, opr_gradient_fn fn,
                                     void *user) {
  opr_gradient_fn had = NULL;
  opr_find_gradient(op, &had, NULL);
  if (had) kt_expect_ok(opr_unregister_gradient(op, NULL));
  if (fn) kt_expect_ok(opr_register_gradient(op, fn, user));
  return had;
}

/* An inferred list(type) of 17 types lives in heap memory the call frees
 * as it returns: the record holds its own copy. */
static void record_copies_inferred_type_lists(void **state) {
  (void)state;
  seen w = {0};
  kt_expect_ok(opr_register_gradient("GradTestTypes", inspect, &w));
  enum { N = 17 };
  opr_tensor *xs[N];
  for (int i = 0; i < N; i++)
    xs[i] = kt_vec(i % 2 ? OPR_DT_DOUBLE : OPR_DT_FLOAT, 1);
  opr_tape *t = new_tape();
  kt_expect_ok(opr_tape_start(t));
  opr_tensor *n = NULL;
  kt_expect_ok(gt_types(gt_ctx, (const opr_tensor *const *)xs, N, &n));
  kt_expect_ok(opr_tape_stop(t));
  assert_int_equal(*(float *)n->data, 17);
  opr_tensor_unref(gt_grad(t, gt_ctx, n, xs[0]));
  assert_int_equal(w.calls, 1);
  assert_int_equal(w.ninputs, N);
  assert_int_equal(w.noutputs, 1);
  assert_int_equal(w.starts[0], 0);
  assert_int_equal(w.starts[1], N);
  assert_ptr_equal(w.ctx, gt_ctx);
  assert_false(w.recording);
  assert_int_equal(w.ntypes, N);
  for (int i = 0; i < N; i++)
    assert_int_equal(w.types[i], i % 2 ? OPR_DT_DOUBLE : OPR_DT_FLOAT);
  assert_int_equal(opr_tape_size(t), 1); /* inspect's call not recorded */
  kt_expect_ok(opr_unregister_gradient("GradTestTypes", NULL));
  opr_tape_free(t);
  opr_tensor_unref(n);
  for (int i = 0; i < N; i++) opr_tensor_unref(xs[i]);
}

/* A string attr given from memory the caller reuses right after. */
static void record_copies_string_attrs(void **state) {
  (void)state;
  seen w = {0};
  opr_gradient_fn pad_grad = swap_gradient("Pad", inspect, &w);
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 3, (double[]){1, 2, 3});
  opr_tensor *p = gt_tensor(OPR_DT_INT32, 2, (int64_t[]){1, 2},
                            (double[]){1, 1});
  char *mode = malloc(16);
  strcpy(mode, "REFLECT");
  opr_tape *t = new_tape();
  kt_expect_ok(opr_tape_start(t));
  opr_tensor *y = NULL;
  const opr_input in[2] = {{(const opr_tensor *const *)&x, 1},
                           {(const opr_tensor *const *)&p, 1}};
  opr_named_attr attrs[1] = {{"mode", opr_attr_cstring(OPR_ATTR_STRING,
                                                       mode)}};
  size_t n = 0;
  kt_expect_ok(opr_execute(gt_ctx, "Pad", in, 2, attrs, 1, &y, 1, &n));
  kt_expect_ok(opr_tape_stop(t));
  strcpy(mode, "XXXXXXXXXX");
  free(mode);
  opr_tensor_unref(gt_grad(t, gt_ctx, y, x));
  assert_int_equal(w.calls, 1);
  assert_string_equal(w.mode, "REFLECT");
  assert_int_equal(w.ninputs, 2);
  swap_gradient("Pad", pad_grad, NULL);
  opr_tape_free(t);
  opr_tensor *ts[] = {x, p, y};
  for (int i = 0; i < 3; i++) opr_tensor_unref(ts[i]);
}

/* A tensor on the caller's stack (reference count 0) cannot be
 * referenced: the tape records a copy, which is a constant of the
 * computation (the stack tensor is no source), and never touches the
 * caller's struct. */
static void stack_tensors_are_recorded_as_copies(void **state) {
  (void)state;
  seen w = {0};
  opr_gradient_fn example_grad = swap_gradient("Example", inspect, &w);
  float data[2] = {5, 6};
  int64_t dims[1] = {2};
  opr_tensor stack = {.dtype = OPR_DT_FLOAT, .rank = 1, .dims = dims,
                      .num_elements = 2, .data = data,
                      .nbytes = sizeof data, .device = OPR_DEVICE_CPU};
  opr_tape *t = new_tape();
  kt_expect_ok(opr_tape_start(t));
  opr_tensor *y = example(&stack);
  kt_expect_ok(opr_tape_stop(t));
  assert_int_equal(opr_tape_size(t), 1);
  assert_int_equal(stack.refcount, 0);
  data[0] = -1; /* the record kept the values of the call */
  assert_null(gt_grad(t, gt_ctx, y, &stack));
  assert_int_equal(w.calls, 0);
  /* Target gradients on the stack are copied too. */
  float ones[2] = {1, 1};
  opr_tensor g_stack = stack;
  g_stack.data = ones;
  swap_gradient("Example", example_grad, NULL);
  const opr_tensor *target = y, *tg = &g_stack;
  opr_tensor *g = NULL;
  kt_expect_ok(opr_tape_gradient(t, gt_ctx, &target, &tg, 1, &target, 1, &g));
  gt_expect(g, (double[]){1, 1}, 2, 0);
  assert_int_equal(g_stack.refcount, 0);
  opr_tensor_unref(g);
  swap_gradient("Example", inspect, &w);
  opr_tensor *x = gt_vec(OPR_DT_FLOAT, 2, (double[]){1, 1});
  kt_expect_ok(opr_tape_start(t));
  opr_tensor *z = NULL;
  kt_expect_ok(demo_add_n(gt_ctx, (const opr_tensor *const[]){x, y}, 2, &z));
  kt_expect_ok(opr_tape_stop(t));
  opr_tensor_unref(gt_grad(t, gt_ctx, z, &stack)); /* not connected */
  opr_tensor *dx = gt_grad(t, gt_ctx, z, x);
  gt_expect(dx, (double[]){1, 1}, 2, 0);
  assert_int_equal(w.calls, 0); /* Example is not on x's path */
  opr_tensor_unref(dx);
  swap_gradient("Example", example_grad, NULL);
  opr_tape_free(t);
  opr_tensor *ts[] = {x, y, z};
  for (int i = 0; i < 3; i++) opr_tensor_unref(ts[i]);
}

/* The record of a stack tensor holds the values it had during the call. */
static void stack_tensor_copy_holds_the_call_values(void **state) {
  (void)state;
  seen w = {0};
  opr_gradient_fn add_n_grad = swap_gradient("AddN", inspect, &w);
  float data[1] = {5};
  opr_tensor stack = {.dtype = OPR_DT_FLOAT, .rank = 0, .num_elements = 1,
                      .data = data, .nbytes = sizeof data,
                      .device = OPR_DEVICE_CPU};
  opr_tensor *x = gt_tensor(OPR_DT_FLOAT, 0, NULL, (double[]){1});
  opr_tape *t = new_tape();
  kt_expect_ok(opr_tape_start(t));
  opr_tensor *y = NULL;
  kt_expect_ok(demo_add_n(gt_ctx, (const opr_tensor *const[]){&stack, x}, 2,
                          &y));
  kt_expect_ok(opr_tape_stop(t));
  data[0] = -1;
  opr_tensor_unref(gt_grad(t, gt_ctx, y, x));
  assert_int_equal(w.calls, 1);
  assert_true(w.first_input == 5);
  swap_gradient("AddN", add_n_grad, NULL);
  opr_tape_free(t);
  opr_tensor_unref(x);
  opr_tensor_unref(y);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(new_tape_is_empty_and_not_recording),
      cmocka_unit_test(records_calls_only_while_recording),
      cmocka_unit_test(records_generic_calls_and_not_failed_ones),
      cmocka_unit_test(nested_tapes_each_record_their_span),
      cmocka_unit_test(tapes_stop_in_reverse_order),
      cmocka_unit_test(start_and_stop_check_the_state),
      cmocka_unit_test(free_stops_a_recording_tape),
      cmocka_unit_test(record_copies_inferred_type_lists),
      cmocka_unit_test(record_copies_string_attrs),
      cmocka_unit_test(stack_tensors_are_recorded_as_copies),
      cmocka_unit_test(stack_tensor_copy_holds_the_call_values),
  };
  return cmocka_run_group_tests(tests, gt_setup, gt_teardown);
}
