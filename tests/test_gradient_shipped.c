/* The shipped ops' gradients against central differences, in double:
 * for a weight tensor w (the target's gradient), the tape's gradient of
 * each input must equal d sum(w * op(x)) / dx, each element perturbed by
 * +-h. The ops are linear, so the differences are exact up to rounding.
 * Then the half and bfloat16 gradients, and the ops' special cases. */
#include "gradtest.h"


/* A tensor of small distinct values (no overflow, exact in double). */
static opr_tensor *values(opr_dtype dt, int rank, const int64_t *dims,
                          int seed) {
  opr_tensor *t = kt_new(dt, rank, dims);
  for (int64_t i = 0; i < t->num_elements; i++) {
    double v = (double)((i * 7 + seed) % 11) - 5 + 0.25 * (double)(i % 4);
    kt_set(t, i, (kt_val){(uint64_t)(int64_t)v, v, 0});
  }
  return t;
}

/* Runs the op under test on xs. */
typedef opr_status (*op_fn)(opr_tensor *const *xs, opr_tensor **y,
                            const void *arg);

/* sum(w * op(xs)), in double. */
static double weighted(op_fn f, opr_tensor *const *xs, const opr_tensor *w,
                       const void *arg) {
  opr_tensor *y = NULL;
  kt_expect_ok(f(xs, &y, arg));
  assert_int_equal(y->num_elements, w->num_elements);
  double sum = 0;
  for (int64_t i = 0; i < y->num_elements; i++)
    sum += gt_at(w, i) * gt_at(y, i);
  opr_tensor_unref(y);
  return sum;
}

/* Input k's numeric gradient, element by element. */
static void numeric(op_fn f, opr_tensor *const *xs, size_t k,
                    const opr_tensor *w, const void *arg, double h,
                    double *out) {
  opr_tensor *x = xs[k];
  for (int64_t i = 0; i < x->num_elements; i++) {
    kt_val v = kt_get(x, i), p = v, m = v;
    p.re += h, m.re -= h;
    p.bits += (uint64_t)h, m.bits -= (uint64_t)h;
    kt_set(x, i, p);
    double up = weighted(f, xs, w, arg);
    kt_set(x, i, m);
    double down = weighted(f, xs, w, arg);
    kt_set(x, i, v);
    out[i] = (up - down) / (2 * h);
  }
}

/* Records op(xs), takes the gradient of every input with weights w, and
 * compares the first `ndiff` inputs' with the numeric ones; the others
 * must have none. */
static void check_op(op_fn f, opr_tensor *const *xs, size_t nxs,
                     size_t ndiff, const void *arg, double h, double tol) {
  opr_tape *tape = NULL;
  kt_expect_ok(opr_tape_new(&tape));
  kt_expect_ok(opr_tape_start(tape));
  opr_tensor *y = NULL;
  kt_expect_ok(f(xs, &y, arg));
  kt_expect_ok(opr_tape_stop(tape));
  opr_tensor *w = kt_new(y->dtype, y->rank, y->dims);
  for (int64_t i = 0; i < w->num_elements; i++) /* small weights */
    kt_set(w, i, (kt_val){(uint64_t)(i % 5) - 2, (double)(i % 7) - 3, 0});
  const opr_tensor *target = y, *tg = w;
  opr_tensor *g[4] = {NULL};
  assert_true(nxs <= 4);
  kt_expect_ok(opr_tape_gradient(tape, gt_ctx, &target, &tg, 1,
                                 (const opr_tensor *const *)xs, nxs, g));
  for (size_t k = 0; k < nxs; k++) {
    if (k >= ndiff) {
      assert_null(g[k]);
      continue;
    }
    double want[256];
    assert_true(xs[k]->num_elements <= 256);
    numeric(f, xs, k, w, arg, h, want);
    gt_expect(g[k], want, xs[k]->num_elements, tol);
    opr_tensor_unref(g[k]);
  }
  opr_tensor_unref(w);
  opr_tensor_unref(y);
  opr_tape_free(tape);
}

/* ---- the ops, as op_fn ---- */

static opr_status run_zero_out(opr_tensor *const *xs, opr_tensor **y,
                               const void *arg) {
  demo_zero_out_attrs a = {.preserve_index = *(const int64_t *)arg};
  return demo_zero_out(gt_ctx, xs[0], &a, y);
}

static opr_status run_zero_out_int32(opr_tensor *const *xs, opr_tensor **y,
                                     const void *arg) {
  (void)arg;
  return demo_zero_out_int32(gt_ctx, xs[0], y);
}

static opr_status run_zero_out_float_int32(opr_tensor *const *xs,
                                           opr_tensor **y, const void *arg) {
  (void)arg;
  return demo_zero_out_float_int32(gt_ctx, xs[0], y);
}

static opr_status run_zero_out_real(opr_tensor *const *xs, opr_tensor **y,
                                    const void *arg) {
  (void)arg;
  return demo_zero_out_real_number(gt_ctx, xs[0], y);
}

static opr_status run_example(opr_tensor *const *xs, opr_tensor **y,
                              const void *arg) {
  (void)arg;
  return demo_example(gt_ctx, xs[0], y);
}

static opr_status run_add_n(opr_tensor *const *xs, opr_tensor **y,
                            const void *arg) {
  return demo_add_n(gt_ctx, (const opr_tensor *const *)xs,
                    *(const size_t *)arg, y);
}

static opr_status run_pad(opr_tensor *const *xs, opr_tensor **y,
                          const void *arg) {
  demo_pad_attrs a = {.mode = *(const demo_pad_mode *)arg};
  return demo_pad(gt_ctx, xs[0], xs[1], &a, y);
}

/* ---- the checks ---- */

static void zero_out_passes_only_the_kept_element(void **state) {
  (void)state;
  int64_t dims[2] = {2, 3};
  opr_tensor *x = values(OPR_DT_DOUBLE, 2, dims, 1);
  for (int64_t keep = 0; keep < 6; keep += 4) /* 0, and > 0 */
    check_op(run_zero_out, &x, 1, 1, &keep, 1e-3, 1e-6);
  int64_t keep = 4;
  opr_tensor *g = NULL;
  opr_tape *tape = NULL;
  kt_expect_ok(opr_tape_new(&tape));
  kt_expect_ok(opr_tape_start(tape));
  opr_tensor *y = NULL;
  kt_expect_ok(run_zero_out(&x, &y, &keep));
  kt_expect_ok(opr_tape_stop(tape));
  g = gt_grad(tape, gt_ctx, y, x);
  gt_expect(g, (double[]){0, 0, 0, 0, 1, 0}, 6, 0);
  opr_tensor_unref(g);
  opr_tensor_unref(y);
  opr_tape_free(tape);
  opr_tensor_unref(x);
}

static void zero_out_variants_pass_the_first_element(void **state) {
  (void)state;
  opr_tensor *i32 = values(OPR_DT_INT32, 1, (int64_t[]){5}, 2);
  check_op(run_zero_out_int32, &i32, 1, 1, NULL, 1, 0);
  check_op(run_zero_out_float_int32, &i32, 1, 1, NULL, 1, 0);
  opr_tensor *f = values(OPR_DT_FLOAT, 1, (int64_t[]){4}, 2);
  check_op(run_zero_out_float_int32, &f, 1, 1, NULL, 0.25, 1e-4);
  opr_tensor *d = values(OPR_DT_DOUBLE, 2, (int64_t[]){3, 2}, 2);
  check_op(run_zero_out_real, &d, 1, 1, NULL, 1e-3, 1e-6);
  opr_tensor_unref(i32);
  opr_tensor_unref(f);
  opr_tensor_unref(d);
}

static void example_gradient_is_twice(void **state) {
  (void)state;
  opr_tensor *x = values(OPR_DT_DOUBLE, 2, (int64_t[]){2, 2}, 4);
  check_op(run_example, &x, 1, 1, NULL, 1e-3, 1e-6);
  opr_tensor_unref(x);
}

static void add_n_gradient_reaches_every_input(void **state) {
  (void)state;
  opr_tensor *xs[3];
  for (int i = 0; i < 3; i++)
    xs[i] = values(OPR_DT_DOUBLE, 1, (int64_t[]){4}, 10 * i);
  size_t n = 3;
  check_op(run_add_n, xs, 3, 3, &n, 1e-3, 1e-6);
  n = 1;
  check_op(run_add_n, xs, 1, 1, &n, 1e-3, 1e-6);
  for (int i = 0; i < 3; i++) opr_tensor_unref(xs[i]);
}

/* Pad of one mode: input of `rank` dims, paddings (before, after) per
 * dim, int32 and int64 paddings. */
static void check_pad(demo_pad_mode mode, int rank, const int64_t *dims,
                      const double *pads) {
  opr_tensor *xs[2];
  xs[0] = values(OPR_DT_DOUBLE, rank, dims, 7);
  opr_dtype ptypes[2] = {OPR_DT_INT32, OPR_DT_INT64};
  for (int p = 0; p < 2; p++) {
    xs[1] = gt_tensor(ptypes[p], 2, (int64_t[]){rank, 2}, pads);
    check_op(run_pad, xs, 2, 1, &mode, 1e-3, 1e-6);
    opr_tensor_unref(xs[1]);
  }
  opr_tensor_unref(xs[0]);
}

static void pad_constant_gradient_is_the_slice(void **state) {
  (void)state;
  check_pad(DEMO_PAD_MODE_CONSTANT, 2, (int64_t[]){3, 4},
            (double[]){0, 2, 3, 1});
  check_pad(DEMO_PAD_MODE_CONSTANT, 1, (int64_t[]){3},
            (double[]){4, 1});
  check_pad(DEMO_PAD_MODE_CONSTANT, 3, (int64_t[]){2, 1, 3},
            (double[]){1, 0, 2, 1, 0, 2});
}

static void pad_reflect_gradient_folds_the_mirrors(void **state) {
  (void)state;
  check_pad(DEMO_PAD_MODE_REFLECT, 2, (int64_t[]){3, 4},
            (double[]){1, 2, 2, 1});
  check_pad(DEMO_PAD_MODE_REFLECT, 1, (int64_t[]){5}, (double[]){4, 1});
  check_pad(DEMO_PAD_MODE_REFLECT, 3, (int64_t[]){2, 3, 3},
            (double[]){1, 0, 2, 1, 0, 2});
}

static void pad_symmetric_gradient_folds_the_mirrors(void **state) {
  (void)state;
  check_pad(DEMO_PAD_MODE_SYMMETRIC, 2, (int64_t[]){3, 4},
            (double[]){2, 3, 0, 4});
  check_pad(DEMO_PAD_MODE_SYMMETRIC, 1, (int64_t[]){3}, (double[]){1, 3});
  check_pad(DEMO_PAD_MODE_SYMMETRIC, 3, (int64_t[]){2, 2, 3},
            (double[]){2, 1, 1, 0, 3, 2});
}

/* REFLECT of [a, b, c] by (2, 1): [c, b, a, b, c, b]: ones fold back to
 * [1, 3, 2]; SYMMETRIC by (2, 1): [b, a, a, b, c, c]: [2, 2, 2]. */
static void pad_folds_by_hand(void **state) {
  (void)state;
  demo_pad_mode modes[2] = {DEMO_PAD_MODE_REFLECT, DEMO_PAD_MODE_SYMMETRIC};
  double want[2][3] = {{1, 3, 2}, {2, 2, 2}};
  for (int m = 0; m < 2; m++) {
    opr_tensor *xs[2] = {gt_vec(OPR_DT_FLOAT, 3, (double[]){1, 2, 3}),
                         gt_tensor(OPR_DT_INT32, 2, (int64_t[]){1, 2},
                                   (double[]){2, 1})};
    opr_tape *tape = NULL;
    kt_expect_ok(opr_tape_new(&tape));
    kt_expect_ok(opr_tape_start(tape));
    opr_tensor *y = NULL;
    kt_expect_ok(run_pad(xs, &y, &modes[m]));
    kt_expect_ok(opr_tape_stop(tape));
    opr_tensor *g = gt_grad(tape, gt_ctx, y, xs[0]);
    gt_expect(g, want[m], 3, 0);
    opr_tensor_unref(g);
    opr_tape_free(tape);
    opr_tensor_unref(y);
    opr_tensor_unref(xs[0]);
    opr_tensor_unref(xs[1]);
  }
}

/* Gradient of op(x) for ones, as doubles. */
static opr_tensor *ones_grad(op_fn f, opr_tensor *const *xs, const void *arg) {
  opr_tape *tape = NULL;
  kt_expect_ok(opr_tape_new(&tape));
  kt_expect_ok(opr_tape_start(tape));
  opr_tensor *y = NULL;
  kt_expect_ok(f(xs, &y, arg));
  kt_expect_ok(opr_tape_stop(tape));
  opr_tensor *g = gt_grad(tape, gt_ctx, y, xs[0]);
  opr_tape_free(tape);
  opr_tensor_unref(y);
  return g;
}

static void half_and_bfloat16_gradients(void **state) {
  (void)state;
  opr_dtype types[2] = {OPR_DT_HALF, OPR_DT_BFLOAT16};
  for (int t = 0; t < 2; t++) {
    opr_tensor *x = gt_vec(types[t], 3, (double[]){1.5, -2, 0.25});
    opr_tensor *g = ones_grad(run_example, &x, NULL);
    assert_int_equal(g->dtype, types[t]);
    gt_expect(g, (double[]){2, 2, 2}, 3, 0);
    opr_tensor_unref(g);
    g = ones_grad(run_zero_out_real, &x, NULL);
    gt_expect(g, (double[]){1, 0, 0}, 3, 0);
    opr_tensor_unref(g);
    size_t n = 2;
    opr_tensor *pair[2] = {x, x};
    g = ones_grad(run_add_n, pair, &n);
    gt_expect(g, (double[]){2, 2, 2}, 3, 0);
    opr_tensor_unref(g);
    demo_pad_mode mode = DEMO_PAD_MODE_REFLECT;
    opr_tensor *xs[2] = {x, gt_tensor(OPR_DT_INT32, 2, (int64_t[]){1, 2},
                                      (double[]){2, 1})};
    g = ones_grad(run_pad, xs, &mode);
    gt_expect(g, (double[]){1, 3, 2}, 3, 0);
    opr_tensor_unref(g);
    opr_tensor_unref(xs[1]);
    opr_tensor_unref(x);
  }
}

/* Pad of bool has no gradient; a scalar pads (and differentiates) to
 * itself; an empty input gets an empty gradient. */
static void pad_special_cases(void **state) {
  (void)state;
  demo_pad_mode mode = DEMO_PAD_MODE_CONSTANT;
  opr_tensor *b[2] = {gt_vec(OPR_DT_BOOL, 2, (double[]){1, 0}),
                      gt_tensor(OPR_DT_INT32, 2, (int64_t[]){1, 2},
                                (double[]){1, 1})};
  opr_tensor *g = ones_grad(run_pad, b, &mode); /* a bool target */
  assert_null(g);
  opr_tape *tape = NULL; /* a bool gradient given: Pad's gives none */
  kt_expect_ok(opr_tape_new(&tape));
  kt_expect_ok(opr_tape_start(tape));
  opr_tensor *y = NULL;
  kt_expect_ok(run_pad(b, &y, &mode));
  kt_expect_ok(opr_tape_stop(tape));
  const opr_tensor *target = y, *source = b[0];
  kt_expect_ok(opr_tape_gradient(tape, gt_ctx, &target, &target, 1, &source, 1,
                                 &g));
  assert_null(g);
  opr_tensor_unref(y);
  opr_tape_free(tape);
  opr_tensor *s[2] = {gt_tensor(OPR_DT_FLOAT, 0, NULL, (double[]){3}),
                      kt_new(OPR_DT_INT32, 2, (int64_t[]){0, 2})};
  g = ones_grad(run_pad, s, &mode);
  gt_expect(g, (double[]){1}, 1, 0);
  assert_int_equal(g->rank, 0);
  opr_tensor_unref(g);
  opr_tensor *e[2] = {kt_new(OPR_DT_FLOAT, 2, (int64_t[]){0, 2}),
                      gt_tensor(OPR_DT_INT32, 2, (int64_t[]){2, 2},
                                (double[]){1, 1, 0, 0})};
  g = ones_grad(run_pad, e, &mode);
  assert_int_equal(g->num_elements, 0);
  assert_int_equal(g->dims[0], 0);
  opr_tensor_unref(g);
  opr_tensor *ts[] = {b[0], b[1], s[0], s[1], e[0], e[1]};
  for (int i = 0; i < 6; i++) opr_tensor_unref(ts[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(zero_out_passes_only_the_kept_element),
      cmocka_unit_test(zero_out_variants_pass_the_first_element),
      cmocka_unit_test(example_gradient_is_twice),
      cmocka_unit_test(add_n_gradient_reaches_every_input),
      cmocka_unit_test(pad_constant_gradient_is_the_slice),
      cmocka_unit_test(pad_reflect_gradient_folds_the_mirrors),
      cmocka_unit_test(pad_symmetric_gradient_folds_the_mirrors),
      cmocka_unit_test(pad_folds_by_hand),
      cmocka_unit_test(half_and_bfloat16_gradients),
      cmocka_unit_test(pad_special_cases),
  };
  return cmocka_run_group_tests(tests, gt_setup, gt_teardown);
}
