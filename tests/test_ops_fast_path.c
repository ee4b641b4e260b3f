/* The typed wrappers' specialised fast path (docs/generated-code.md,
 * "The fast path") gives exactly what the general path gives: the same
 * outputs, and for every call it does not take, the same error. The
 * general path here is opr_invoke on the call the wrapper builds. */
#include "kerneltest.h"

#include "opr/gradient.h"

#include <pthread.h>

static opr_context *ctx;

/* Example through the general path, as the wrapper did before. */
static opr_status example_on(opr_context *c, const opr_tensor *x,
                             opr_tensor **y) {
  const opr_input in[1] = {{&x, 1}};
  opr_attr_value attrs[1] = {{.kind = OPR_ATTR_UNSET}};
  opr_output out[1] = {{y, 1}};
  opr_call call = {.op = &demo_example_def, .inputs = in, .attrs = attrs,
                   .outputs = out};
  return opr_invoke(c, &call);
}

static opr_status example_general(const opr_tensor *x, opr_tensor **y) {
  return example_on(ctx, x, y);
}

/* Both statuses fail alike: code and message. */
static void expect_same_error(opr_status fast, opr_status general) {
  assert_non_null(fast);
  assert_non_null(general);
  assert_string_equal(opr_status_message(fast), opr_status_message(general));
  assert_int_equal(opr_status_code(fast), opr_status_code(general));
  opr_status_free(fast);
  opr_status_free(general);
}

enum { THREADS = 4, CALLS = 200 };

static void *call_example(void *arg) {
  const opr_tensor *x = arg;
  for (int i = 0; i < CALLS; i++) {
    opr_tensor *y = NULL;
    opr_status s = demo_example(ctx, x, &y);
    if (s || ((const int16_t *)y->data)[0] != 2 * ((const int16_t *)x->data)[0])
      return (void *)1;
    opr_tensor_unref(y);
  }
  return NULL;
}

/* The first calls for a dtype race to fill its cache entry (under TSan:
 * no data race; the entry is written atomically, the same by all). */
static void threads_fill_the_cache_together(void **state) {
  (void)state;
  opr_tensor *x = kt_filled(OPR_DT_INT16, 0, NULL, 3);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    assert_int_equal(pthread_create(&t[i], NULL, call_example, x), 0);
  for (int i = 0; i < THREADS; i++) {
    void *failed = NULL;
    assert_int_equal(pthread_join(t[i], &failed), 0);
    assert_null(failed);
  }
  opr_tensor_unref(x);
}

static void fast_path_matches_general_for_every_type(void **state) {
  (void)state;
  const int64_t dims[2] = {3, 5};
  int types = 0;
  kt_for_each_dtype(dt, kt_allowed(&demo_example_def, "T")) {
    opr_tensor *x = kt_filled(dt, 2, dims, 0), *a = NULL, *b = NULL;
    kt_expect_ok(demo_example(ctx, x, &a));
    kt_expect_ok(example_general(x, &b));
    kt_assert_same(a, b);
    opr_tensor_unref(a);
    opr_tensor_unref(b);
    opr_tensor_unref(x);
    types++;
  }
  assert_int_equal(types, 17);
}

static void a_scalar_keeps_its_shape(void **state) {
  (void)state;
  opr_tensor *x = kt_filled(OPR_DT_FLOAT, 0, NULL, 0), *y = NULL;
  kt_expect_ok(demo_example(ctx, x, &y));
  assert_int_equal(y->rank, 0);
  assert_int_equal(y->num_elements, 1);
  assert_true(((float *)y->data)[0] == 2 * ((float *)x->data)[0]);
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

static void a_bad_dtype_fails_as_the_general_path_does(void **state) {
  (void)state;
  opr_tensor *x = NULL, *a = NULL, *b = NULL;
  kt_expect_ok(opr_tensor_new(OPR_DT_BOOL, 0, NULL, &x));
  expect_same_error(demo_example(ctx, x, &a), example_general(x, &b));
  assert_null(a);
  assert_null(b);
  opr_tensor_unref(x);
}

static void a_null_input_fails_as_the_general_path_does(void **state) {
  (void)state;
  opr_tensor *a = NULL, *b = NULL;
  expect_same_error(demo_example(ctx, NULL, &a), example_general(NULL, &b));
  opr_tensor *x = kt_filled(OPR_DT_FLOAT, 0, NULL, 0);
  expect_same_error(demo_example(ctx, x, NULL), example_general(x, NULL));
  expect_same_error(demo_example(NULL, x, &a), example_on(NULL, x, &b));
  opr_tensor_unref(x);
}

/* ZeroOut's minimum is tested inline; a negative index takes the general
 * path, which says why. */
static void a_bad_attr_fails_as_the_general_path_does(void **state) {
  (void)state;
  opr_tensor *x = kt_filled(OPR_DT_INT32, 0, NULL, 0), *a = NULL;
  demo_zero_out_attrs attrs = DEMO_ZERO_OUT_ATTRS_DEFAULT;
  attrs.preserve_index = -1;
  kt_expect_status(demo_zero_out(ctx, x, &attrs, &a),
                   OPR_INVALID_ARGUMENT,
                   "ZeroOut: attr 'preserve_index' is -1; must be >= 0");
  assert_null(a);
  opr_tensor_unref(x);
}

/* A call while a tape records takes the general path, and is recorded:
 * its gradient exists. */
static void a_recording_tape_records_the_call(void **state) {
  (void)state;
  opr_tape *tape = NULL;
  opr_tensor *x = kt_filled(OPR_DT_FLOAT, 0, NULL, 0), *y = NULL, *g = NULL;
  kt_expect_ok(opr_tape_new(&tape));
  kt_expect_ok(opr_tape_start(tape));
  assert_true(opr_tape_recording());
  kt_expect_ok(demo_example(ctx, x, &y));
  kt_expect_ok(opr_tape_stop(tape));
  const opr_tensor *targets[1] = {y}, *sources[1] = {x};
  kt_expect_ok(opr_tape_gradient(tape, ctx, targets, NULL, 1, sources, 1,
                                 &g));
  assert_non_null(g);
  assert_true(((float *)g->data)[0] == 2.0f);
  opr_tensor_unref(g);
  opr_tensor_unref(y);
  opr_tensor_unref(x);
  opr_tape_free(tape);
}

static opr_status thrice_float(opr_kernel_ctx *k) {
  const opr_tensor *in = demo_example_input_input(k);
  opr_tensor *out;
  opr_status s = demo_example_alloc_input_times_two(k, in->rank, in->dims,
                                                    &out);
  if (s) return s;
  for (int64_t i = 0; i < in->num_elements; i++)
    ((float *)out->data)[i] = 3 * ((const float *)in->data)[i];
  return OPR_OK;
}

/* The cached kernel is per kernel table: a kernel registered after the
 * first call (here one that outranks the shipped one) runs from then on. */
static void a_kernel_registered_later_is_used(void **state) {
  (void)state;
  opr_tensor *x = kt_filled(OPR_DT_FLOAT, 0, NULL, 0), *y = NULL;
  float v = ((float *)x->data)[0];
  kt_expect_ok(demo_example(ctx, x, &y));
  assert_true(((float *)y->data)[0] == 2 * v);
  opr_tensor_unref(y);
  kt_expect_ok(demo_example_register_kernel(&(demo_example_kernel_def){
      .fn = thrice_float, .device = OPR_DEVICE_CPU, .priority = 10,
      .T = OPR_DTYPE_BIT(OPR_DT_FLOAT), .label = "test x * 3"}));
  kt_expect_ok(demo_example(ctx, x, &y));
  assert_true(((float *)y->data)[0] == 3 * v);
  opr_tensor_unref(y);
  kt_expect_ok(example_general(x, &y));
  assert_true(((float *)y->data)[0] == 3 * v);
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

static opr_status unary_copy(opr_kernel_ctx *k) {
  const opr_tensor *in = demo_my_general_unary_op_input_in(k);
  opr_tensor *out;
  opr_status s = demo_my_general_unary_op_alloc_out(k, in->rank, in->dims,
                                                    &out);
  if (!s) memcpy(out->data, in->data, in->nbytes);
  return s;
}

/* No kernel: the general path's message; once one is registered, the
 * fast path runs it. */
static void no_kernel_then_one_registered(void **state) {
  (void)state;
  opr_tensor *x = kt_filled(OPR_DT_DOUBLE, 0, NULL, 0), *y = NULL;
  kt_expect_status(demo_my_general_unary_op(ctx, x, &y), OPR_UNIMPLEMENTED,
                   "MyGeneralUnaryOp: no kernel for device CPU with "
                   "T=double");
  assert_null(y);
  kt_expect_ok(demo_my_general_unary_op_register_kernel(
      &(demo_my_general_unary_op_kernel_def){
          .fn = unary_copy, .device = OPR_DEVICE_CPU, .label = "copy"}));
  kt_expect_ok(demo_my_general_unary_op(ctx, x, &y));
  kt_assert_same(y, x);
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

/* A kernel that allocates another shape than `out = in` fails as in the
 * general path. */
static opr_status wrong_shape(opr_kernel_ctx *k) {
  const int64_t dims[1] = {7};
  opr_tensor *out;
  return demo_add_one_alloc_output(k, 1, dims, &out);
}

static void a_kernel_asking_another_shape_fails_as_in_general(void **state) {
  (void)state;
  kt_expect_ok(demo_add_one_register_kernel(&(demo_add_one_kernel_def){
      .fn = wrong_shape, .device = OPR_DEVICE_CPU, .priority = 10,
      .label = "test: wrong shape"}));
  opr_tensor *x = kt_filled(OPR_DT_INT32, 0, NULL, 0), *y = NULL;
  kt_expect_status(demo_add_one(ctx, x, &y), OPR_INTERNAL,
                   "AddOne: the kernel allocates output 'output' with shape "
                   "[7], but its inferred shape is []");
  assert_null(y);
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
      cmocka_unit_test(threads_fill_the_cache_together), /* first */
      cmocka_unit_test(fast_path_matches_general_for_every_type),
      cmocka_unit_test(a_scalar_keeps_its_shape),
      cmocka_unit_test(a_bad_dtype_fails_as_the_general_path_does),
      cmocka_unit_test(a_null_input_fails_as_the_general_path_does),
      cmocka_unit_test(a_bad_attr_fails_as_the_general_path_does),
      cmocka_unit_test(a_recording_tape_records_the_call),
      cmocka_unit_test(a_kernel_registered_later_is_used),
      cmocka_unit_test(no_kernel_then_one_registered),
      cmocka_unit_test(a_kernel_asking_another_shape_fails_as_in_general),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
