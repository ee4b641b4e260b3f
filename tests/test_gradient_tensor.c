/* opr_tensor_add and opr_tensor_fill_like over every number dtype, and
 * their refusals. */
#include "gradtest.h"

/* Number types: the dtypes Example allows (numbertype). */
static opr_dtype_set numbers(void) {
  kt_register();
  return kt_allowed(&demo_example_def, "T");
}

static void fill_like_fills_every_number_type(void **state) {
  (void)state;
  int64_t dims[2] = {2, 3};
  kt_for_each_dtype(dt, numbers()) {
    opr_tensor *like = kt_new(dt, 2, dims), *ones = NULL, *zeros = NULL;
    kt_expect_ok(opr_tensor_fill_like(like, 1, &ones));
    kt_expect_ok(opr_tensor_fill_like(like, 0, &zeros));
    assert_int_equal(ones->dtype, dt);
    assert_int_equal(ones->rank, 2);
    assert_int_equal(ones->dims[1], 3);
    gt_expect(ones, (double[]){1, 1, 1, 1, 1, 1}, 6, 0);
    gt_expect(zeros, (double[]){0, 0, 0, 0, 0, 0}, 6, 0);
    if (kt_kind_of(dt) == KT_COMPLEX)
      for (int64_t i = 0; i < 6; i++) assert_true(kt_get(ones, i).im == 0);
    opr_tensor_unref(like);
    opr_tensor_unref(ones);
    opr_tensor_unref(zeros);
  }
}

static void add_adds_every_number_type(void **state) {
  (void)state;
  kt_for_each_dtype(dt, numbers()) {
    opr_tensor *a = gt_vec(dt, 4, (double[]){1, 2, 3, 100});
    opr_tensor *b = gt_vec(dt, 4, (double[]){5, 0, 7, 27});
    opr_tensor *c = NULL;
    kt_expect_ok(opr_tensor_add(a, b, &c));
    assert_int_equal(c->dtype, dt);
    gt_expect(c, (double[]){6, 2, 10, 127}, 4, 0);
    opr_tensor_unref(a);
    opr_tensor_unref(b);
    opr_tensor_unref(c);
  }
}

static void add_wraps_integers_and_adds_complex_parts(void **state) {
  (void)state;
  opr_tensor *a = gt_vec(OPR_DT_INT8, 1, (double[]){120});
  opr_tensor *c = NULL;
  kt_expect_ok(opr_tensor_add(a, a, &c));
  assert_int_equal(((int8_t *)c->data)[0], -16);
  opr_tensor_unref(c);
  opr_tensor_unref(a);
  opr_tensor *z = kt_vec(OPR_DT_COMPLEX128, 1);
  ((opr_complex128 *)z->data)[0] = (opr_complex128){1.5, -2};
  kt_expect_ok(opr_tensor_add(z, z, &c));
  assert_true(((opr_complex128 *)c->data)[0].re == 3);
  assert_true(((opr_complex128 *)c->data)[0].im == -4);
  opr_tensor_unref(c);
  opr_tensor_unref(z);
}

static void add_refuses_mismatches(void **state) {
  (void)state;
  opr_tensor *f2 = kt_vec(OPR_DT_FLOAT, 2), *f3 = kt_vec(OPR_DT_FLOAT, 3);
  opr_tensor *d2 = kt_vec(OPR_DT_DOUBLE, 2), *b2 = kt_vec(OPR_DT_BOOL, 2);
  opr_tensor *c = f2;
  kt_expect_status(opr_tensor_add(f2, d2, &c), OPR_INVALID_ARGUMENT,
                   "opr_tensor_add: the dtypes differ (float and double)");
  assert_null(c);
  kt_expect_status(opr_tensor_add(f2, f3, &c), OPR_INVALID_ARGUMENT,
                   "opr_tensor_add: the shapes differ ([2] and [3])");
  kt_expect_status(opr_tensor_add(b2, b2, &c), OPR_INVALID_ARGUMENT,
                   "opr_tensor_add: dtype bool is not a number type");
  kt_expect_status(opr_tensor_add(NULL, f2, &c), OPR_INVALID_ARGUMENT,
                   "opr_tensor_add: a tensor is NULL");
  kt_expect_status(opr_tensor_add(f2, f2, NULL), OPR_INVALID_ARGUMENT,
                   "opr_tensor_add: out is NULL");
  opr_tensor *s = NULL;
  kt_expect_ok(opr_tensor_from_strings(1, (int64_t[]){1},
                                       (const char *[]){"a"}, NULL, &s));
  kt_expect_status(opr_tensor_fill_like(s, 1, &c), OPR_INVALID_ARGUMENT,
                   "opr_tensor_fill_like: dtype string is not a number "
                   "type");
  kt_expect_status(opr_tensor_fill_like(NULL, 1, &c), OPR_INVALID_ARGUMENT,
                   "opr_tensor_fill_like: like is NULL");
  opr_tensor *ts[] = {f2, f3, d2, b2, s};
  for (int i = 0; i < 5; i++) opr_tensor_unref(ts[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fill_like_fills_every_number_type),
      cmocka_unit_test(add_adds_every_number_type),
      cmocka_unit_test(add_wraps_integers_and_adds_complex_parts),
      cmocka_unit_test(add_refuses_mismatches),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
