/* The kernels on several threads: 1 thread and N threads give the same
 * bytes on inputs large enough to be sharded, and many threads running
 * ops at once on one context each get their own right results. */
#include "kerneltest.h"

#include <pthread.h>
#include <stdatomic.h>

/* Contexts of 1 (the reference), 2, 4 and 7 threads. */
enum { NCTX = 4 };
static opr_context *ctxs[NCTX];

/* Elements of the large inputs: well above the parallel threshold, and
 * no multiple of any thread count. */
enum { BIG = (1 << 20) + 13 };

typedef opr_status (*run_fn)(opr_context *ctx, opr_tensor *const *in,
                             opr_tensor **out);

/* Runs fn on every context; each result must equal the 1-thread one. */
static void check_agree(run_fn fn, opr_tensor *const *in) {
  opr_tensor *want = NULL;
  kt_expect_ok(fn(ctxs[0], in, &want));
  for (int c = 1; c < NCTX; c++) {
    opr_tensor *got = NULL;
    kt_expect_ok(fn(ctxs[c], in, &got));
    kt_assert_same(got, want);
    opr_tensor_unref(got);
  }
  opr_tensor_unref(want);
}

static opr_status run_example(opr_context *ctx, opr_tensor *const *in,
                              opr_tensor **out) {
  return demo_example(ctx, in[0], out);
}

static void example_agrees_on_1_and_n_threads(void **state) {
  (void)state;
  const opr_dtype types[] = {OPR_DT_FLOAT, OPR_DT_INT32, OPR_DT_HALF,
                             OPR_DT_COMPLEX128, OPR_DT_UINT8};
  int64_t n = BIG;
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    opr_tensor *in = kt_filled(types[t], 1, &n, 5);
    check_agree(run_example, &in);
    opr_tensor_unref(in);
  }
}

static size_t add_n_count;
static opr_status run_add_n(opr_context *ctx, opr_tensor *const *in,
                            opr_tensor **out) {
  return demo_add_n(ctx, (const opr_tensor *const *)in, add_n_count, out);
}

static void add_n_agrees_on_1_and_n_threads(void **state) {
  (void)state;
  const opr_dtype types[] = {OPR_DT_FLOAT, OPR_DT_DOUBLE, OPR_DT_INT64,
                             OPR_DT_BFLOAT16};
  const size_t counts[] = {2, 3, 5, 2};
  const int64_t dims[2] = {1023, 1031};
  for (size_t t = 0; t < 4; t++) {
    opr_tensor *in[5];
    for (size_t i = 0; i < counts[t]; i++)
      in[i] = kt_filled(types[t], 2, dims, (int64_t)i * 77);
    add_n_count = counts[t];
    check_agree(run_add_n, in);
    for (size_t i = 0; i < counts[t]; i++) opr_tensor_unref(in[i]);
  }
}

static opr_status run_add_one(opr_context *ctx, opr_tensor *const *in,
                              opr_tensor **out) {
  return demo_add_one(ctx, in[0], out);
}

static opr_status run_zero_out(opr_context *ctx, opr_tensor *const *in,
                               opr_tensor **out) {
  demo_zero_out_attrs attrs = {.preserve_index = BIG / 2 + 1};
  return demo_zero_out(ctx, in[0], &attrs, out);
}

static opr_status run_zero_out_real(opr_context *ctx, opr_tensor *const *in,
                                    opr_tensor **out) {
  return demo_zero_out_real_number(ctx, in[0], out);
}

static void add_one_and_zero_out_agree_on_1_and_n_threads(void **state) {
  (void)state;
  int64_t n = BIG;
  opr_tensor *i32 = kt_filled(OPR_DT_INT32, 1, &n, 1);
  opr_tensor *f = kt_filled(OPR_DT_FLOAT, 1, &n, 2);
  opr_tensor *u16 = kt_filled(OPR_DT_UINT16, 1, &n, 3);
  check_agree(run_add_one, &i32);
  check_agree(run_zero_out, &f);
  check_agree(run_zero_out_real, &u16);
  opr_tensor_unref(i32);
  opr_tensor_unref(f);
  opr_tensor_unref(u16);
}

static demo_pad_mode pad_mode;
static opr_status run_pad(opr_context *ctx, opr_tensor *const *in,
                          opr_tensor **out) {
  demo_pad_attrs attrs = {.mode = pad_mode};
  return demo_pad(ctx, in[0], in[1], &attrs, out);
}

static void pad_agrees_on_1_and_n_threads(void **state) {
  (void)state;
  const int64_t dims[2] = {1001, 999}, pdims[2] = {2, 2};
  const int64_t p[4] = {7, 3, 5, 11};
  opr_tensor *in[2] = {kt_filled(OPR_DT_FLOAT, 2, dims, 9),
                       kt_new(OPR_DT_INT64, 2, pdims)};
  memcpy(in[1]->data, p, sizeof p);
  for (int m = 0; m < 3; m++) {
    pad_mode = (demo_pad_mode)m;
    check_agree(run_pad, in);
  }
  opr_tensor_unref(in[0]);
  opr_tensor_unref(in[1]);
}

/* ---- many threads at once ---- */

enum { NTHREADS = 8, CALLS = 1000, SMALL = 257 };

static opr_context *shared;
static opr_tensor *small_f, *big_f, *small_i, *words;
static atomic_int failures;

static bool check(opr_status s, opr_tensor *out, bool ok) {
  if (s) opr_status_free(s);
  ok = ok && !s && out;
  opr_tensor_unref(out);
  return ok;
}

/* Call k of a thread: one of the ops, each result verified. */
static bool one_call(int k) {
  opr_tensor *out = NULL;
  const float *f = small_f->data;
  const int32_t *x = small_i->data;
  switch (k % 5) {
  case 0: {
    opr_tensor *in = k % 100 == 0 ? big_f : small_f; /* sharded, or not */
    opr_status s = demo_example(shared, in, &out);
    const float *src = in->data;
    int64_t j = (k * 7919) % in->num_elements;
    return check(s, out, !s && ((float *)out->data)[j] == src[j] * 2);
  }
  case 1: {
    const opr_tensor *in[3] = {small_i, small_i, small_i};
    opr_status s = demo_add_n(shared, in, 3, &out);
    int j = k % SMALL;
    return check(s, out, !s && ((int32_t *)out->data)[j] ==
                                   (int32_t)(3u * (uint32_t)x[j]));
  }
  case 2: {
    demo_zero_out_attrs a = {.preserve_index = k % SMALL};
    opr_status s = demo_zero_out(shared, small_f, &a, &out);
    const float *o = s ? NULL : out->data;
    return check(s, out, o && o[k % SMALL] == f[k % SMALL] &&
                             o[(k + 1) % SMALL] == 0);
  }
  case 3: {
    opr_status s = demo_add_one(shared, small_i, &out);
    return check(s, out, !s && ((int32_t *)out->data)[5] ==
                                   (int32_t)((uint32_t)x[5] + 1));
  }
  default: {
    opr_status s = demo_string_to_number(shared, words, NULL, &out);
    return check(s, out, !s && ((float *)out->data)[1] == -2.5f);
  }
  }
}

static void *caller(void *arg) {
  int id = (int)(intptr_t)arg;
  for (int k = 0; k < CALLS; k++)
    if (!one_call(k + id)) atomic_fetch_add(&failures, 1);
  return NULL;
}

static void many_threads_run_ops_on_one_context(void **state) {
  (void)state;
  int64_t n = SMALL, big = BIG / 4;
  static const char *const w[] = {"1.5", "-2.5", "1e3"};
  const int64_t three = 3;
  small_f = kt_filled(OPR_DT_FLOAT, 1, &n, 1);
  small_i = kt_filled(OPR_DT_INT32, 1, &n, 2);
  big_f = kt_filled(OPR_DT_FLOAT, 1, &big, 3);
  kt_expect_ok(opr_tensor_from_strings(1, &three, w, NULL, &words));
  shared = kt_context(0);
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++)
    assert_int_equal(
        pthread_create(&t[i], NULL, caller, (void *)(intptr_t)i), 0);
  for (int i = 0; i < NTHREADS; i++) pthread_join(t[i], NULL);
  opr_context_free(shared);
  assert_int_equal(atomic_load(&failures), 0);
  opr_tensor_unref(small_f);
  opr_tensor_unref(small_i);
  opr_tensor_unref(big_f);
  opr_tensor_unref(words);
}

static int setup(void **state) {
  (void)state;
  kt_register();
  const int threads[NCTX] = {1, 2, 4, 7};
  for (int c = 0; c < NCTX; c++) ctxs[c] = kt_context(threads[c]);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  for (int c = 0; c < NCTX; c++) opr_context_free(ctxs[c]);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(example_agrees_on_1_and_n_threads),
      cmocka_unit_test(add_n_agrees_on_1_and_n_threads),
      cmocka_unit_test(add_one_and_zero_out_agree_on_1_and_n_threads),
      cmocka_unit_test(pad_agrees_on_1_and_n_threads),
      cmocka_unit_test(many_threads_run_ops_on_one_context),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
