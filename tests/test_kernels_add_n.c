/* The AddN kernels: the element-wise sum of N tensors for every number
 * type, against a reference that adds in the same order; shapes that
 * disagree; variant, which has no kernel. */
#include "kerneltest.h"

#include <stdio.h>

static opr_context *ctx;

/* a + b in the reference model: integers wrap at their width; float and
 * double add in their own precision; half and bfloat16 add in float and
 * round once per addition (on storing). */
static kt_val add(opr_dtype dt, kt_val a, kt_val b) {
  switch (dt) {
  case OPR_DT_FLOAT: case OPR_DT_HALF: case OPR_DT_BFLOAT16:
    a.re = (float)a.re + (float)b.re;
    break;
  case OPR_DT_COMPLEX64:
    a.re = (float)a.re + (float)b.re;
    a.im = (float)a.im + (float)b.im;
    break;
  case OPR_DT_DOUBLE: a.re += b.re; break;
  case OPR_DT_COMPLEX128: a.re += b.re; a.im += b.im; break;
  default: a.bits += b.bits; break;
  }
  return a;
}

/* ((in[0] + in[1]) + in[2]) + ..., rounded to the type at each step. */
static opr_tensor *reference(opr_tensor *const *in, size_t n) {
  opr_tensor *want = kt_new(in[0]->dtype, in[0]->rank, in[0]->dims);
  for (int64_t i = 0; i < want->num_elements; i++) {
    kt_set(want, i, kt_get(in[0], i));
    for (size_t t = 1; t < n; t++)
      kt_set(want, i, add(want->dtype, kt_get(want, i), kt_get(in[t], i)));
  }
  return want;
}

static void check_sum(opr_dtype dt, size_t n, int rank, const int64_t *dims) {
  opr_tensor *in[8], *out = NULL;
  for (size_t t = 0; t < n; t++) in[t] = kt_filled(dt, rank, dims, 1000 * t);
  opr_tensor *want = reference(in, n);
  kt_expect_ok(demo_add_n(ctx, (const opr_tensor *const *)in, n, &out));
  kt_assert_same(out, want);
  opr_tensor_unref(out);
  opr_tensor_unref(want);
  for (size_t t = 0; t < n; t++) opr_tensor_unref(in[t]);
}

static void add_n_sums_every_number_type(void **state) {
  (void)state;
  const int64_t dims[2] = {3, 2050}; /* more than one chunk of 2048 */
  const size_t counts[] = {1, 2, 3, 8};
  int types = 0;
  kt_for_each_dtype(dt, kt_allowed(&demo_add_n_def, "T")) {
    if (dt == OPR_DT_VARIANT) continue;
    for (size_t c = 0; c < 4; c++) check_sum(dt, counts[c], 2, dims);
    types++;
  }
  assert_int_equal(types, 17);
}

static void add_n_of_scalars_and_empty_tensors(void **state) {
  (void)state;
  const int64_t empty[2] = {0, 3};
  check_sum(OPR_DT_FLOAT, 3, 0, NULL);
  check_sum(OPR_DT_INT64, 2, 2, empty);
}

static void add_n_takes_one_tensor_twice(void **state) {
  (void)state;
  const int32_t v[] = {1, -2, INT32_MAX};
  const int32_t want[] = {2, -4, -2};
  int64_t n = 3;
  opr_tensor *a = NULL, *out = NULL;
  kt_expect_ok(opr_tensor_from_data(OPR_DT_INT32, 1, &n, v, sizeof v, &a));
  const opr_tensor *in[2] = {a, a};
  kt_expect_ok(demo_add_n(ctx, in, 2, &out));
  assert_memory_equal(out->data, want, sizeof want);
  opr_tensor_unref(out);
  opr_tensor_unref(a);
}

/* The message names the op and both shapes (the shape function may
 * catch it before the kernel, in its own words). */
static void expect_shape_error(opr_status s, const char *a, const char *b) {
  assert_non_null(s);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  const char *msg = opr_status_message(s);
  if (strncmp(msg, "AddN:", 5) != 0 || !strstr(msg, a) || !strstr(msg, b))
    fail_msg("unexpected message: %s", msg);
  opr_status_free(s);
}

static void add_n_rejects_inputs_of_different_shapes(void **state) {
  (void)state;
  const int64_t d22[2] = {2, 2}, d4[1] = {4}, d23[2] = {2, 3};
  opr_tensor *a = kt_new(OPR_DT_FLOAT, 2, d22);
  opr_tensor *b = kt_new(OPR_DT_FLOAT, 1, d4);
  opr_tensor *c = kt_new(OPR_DT_FLOAT, 2, d23), *out = NULL;
  const opr_tensor *ab[2] = {a, b}, *aac[3] = {a, a, c};
  expect_shape_error(demo_add_n(ctx, ab, 2, &out), "[2, 2]", "[4]");
  expect_shape_error(demo_add_n(ctx, aac, 3, &out), "[2, 2]", "[2, 3]");
  assert_null(out);
  opr_tensor_unref(a);
  opr_tensor_unref(b);
  opr_tensor_unref(c);
}

static void add_n_of_variant_has_no_kernel(void **state) {
  (void)state;
  opr_tensor *v = kt_vec(OPR_DT_VARIANT, 2), *out = NULL;
  const opr_tensor *in[2] = {v, v};
  kt_expect_status(demo_add_n(ctx, in, 2, &out), OPR_UNIMPLEMENTED,
                   "AddN: no kernel for device CPU with T=variant");
  assert_null(out);
  opr_tensor_unref(v);
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
      cmocka_unit_test(add_n_sums_every_number_type),
      cmocka_unit_test(add_n_of_scalars_and_empty_tensors),
      cmocka_unit_test(add_n_takes_one_tensor_twice),
      cmocka_unit_test(add_n_rejects_inputs_of_different_shapes),
      cmocka_unit_test(add_n_of_variant_has_no_kernel),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
