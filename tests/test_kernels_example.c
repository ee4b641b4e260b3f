/* The Example (x * 2) and AddOne (x + 1) kernels against a reference, for
 * every type the spec allows, and their edge cases. */
#include "kerneltest.h"

#include <math.h>

static opr_context *ctx;

/* x * 2 in the reference model: integers wrap at their width, reals and
 * complex parts double (half and bfloat16 rounded once, on storing). */
static kt_val twice(opr_dtype dt, kt_val v) {
  switch (kt_kind_of(dt)) {
  case KT_SIGNED: case KT_UNSIGNED: v.bits *= 2; break;
  case KT_COMPLEX: v.im *= 2; /* fall through */
  default: v.re *= 2; break;
  }
  return v;
}

static void example_doubles_every_number_type(void **state) {
  (void)state;
  const int64_t dims[2] = {37, 11};
  int types = 0;
  kt_for_each_dtype(dt, kt_allowed(&demo_example_def, "T")) {
    opr_tensor *in = kt_filled(dt, 2, dims, 0), *out = NULL;
    opr_tensor *want = kt_new(dt, 2, dims);
    for (int64_t i = 0; i < in->num_elements; i++)
      kt_set(want, i, twice(dt, kt_get(in, i)));
    kt_expect_ok(demo_example(ctx, in, &out));
    kt_assert_same(out, want);
    opr_tensor_unref(out);
    opr_tensor_unref(want);
    opr_tensor_unref(in);
    types++;
  }
  assert_int_equal(types, 17); /* numbertype */
}

static void example_wraps_integers_like_tensorflow(void **state) {
  (void)state;
  const int8_t i8[] = {100, -100, 127, -128, 3};
  const int32_t i32[] = {INT32_MAX, INT32_MIN, -7, 0, 1 << 30};
  const uint8_t u8[] = {200, 128, 255, 0, 1};
  const int8_t want8[] = {-56, 56, -2, 0, 6};
  const int32_t want32[] = {-2, 0, -14, 0, INT32_MIN};
  const uint8_t wantu8[] = {144, 0, 254, 0, 2};
  struct { opr_dtype dt; const void *in, *want; size_t size; } cases[] = {
      {OPR_DT_INT8, i8, want8, 1},     {OPR_DT_QINT8, i8, want8, 1},
      {OPR_DT_INT32, i32, want32, 4},  {OPR_DT_QINT32, i32, want32, 4},
      {OPR_DT_UINT8, u8, wantu8, 1},   {OPR_DT_QUINT8, u8, wantu8, 1}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int64_t n = 5;
    opr_tensor *in = NULL, *out = NULL;
    kt_expect_ok(opr_tensor_from_data(cases[c].dt, 1, &n, cases[c].in,
                                      5 * cases[c].size, &in));
    kt_expect_ok(demo_example(ctx, in, &out));
    assert_memory_equal(out->data, cases[c].want, 5 * cases[c].size);
    opr_tensor_unref(out);
    opr_tensor_unref(in);
  }
}

static void example_doubles_both_parts_of_complex(void **state) {
  (void)state;
  const opr_complex64 c64[2] = {{1.5f, -2}, {0, 3}};
  const opr_complex128 c128[1] = {{-0.25, 1e308}};
  int64_t two = 2, one = 1;
  opr_tensor *a = NULL, *b = NULL, *out = NULL;
  kt_expect_ok(opr_tensor_from_data(OPR_DT_COMPLEX64, 1, &two, c64,
                                    sizeof c64, &a));
  kt_expect_ok(opr_tensor_from_data(OPR_DT_COMPLEX128, 1, &one, c128,
                                    sizeof c128, &b));
  kt_expect_ok(demo_example(ctx, a, &out));
  const opr_complex64 *r = out->data;
  assert_true(r[0].re == 3 && r[0].im == -4 && r[1].re == 0 && r[1].im == 6);
  opr_tensor_unref(out);
  kt_expect_ok(demo_example(ctx, b, &out));
  const opr_complex128 *q = out->data;
  assert_true(q[0].re == -0.5 && isinf(q[0].im));
  opr_tensor_unref(out);
  opr_tensor_unref(a);
  opr_tensor_unref(b);
}

static void example_of_half_and_bfloat16_rounds_like_float(void **state) {
  (void)state;
  opr_tensor *h = kt_vec(OPR_DT_HALF, 3), *b = kt_vec(OPR_DT_BFLOAT16, 2);
  opr_half *hv = h->data;
  hv[0] = opr_half_from_float(1.5f);
  hv[1] = opr_half_from_float(65504.0f); /* the largest half */
  hv[2] = opr_half_from_float(-0.0f);
  opr_bfloat16 *bv = b->data;
  bv[0] = opr_bfloat16_from_float(-3.0f);
  bv[1] = opr_bfloat16_from_float(3e38f);
  opr_tensor *out = NULL;
  kt_expect_ok(demo_example(ctx, h, &out));
  const opr_half *ho = out->data;
  assert_true(opr_half_to_float(ho[0]) == 3.0f);
  assert_true(isinf(opr_half_to_float(ho[1])));
  assert_int_equal(ho[2].bits, 0x8000); /* -0 stays -0 */
  opr_tensor_unref(out);
  kt_expect_ok(demo_example(ctx, b, &out));
  const opr_bfloat16 *bo = out->data;
  assert_true(opr_bfloat16_to_float(bo[0]) == -6.0f);
  assert_true(isinf(opr_bfloat16_to_float(bo[1])));
  opr_tensor_unref(out);
  opr_tensor_unref(h);
  opr_tensor_unref(b);
}

static void example_of_empty_and_scalar_tensors(void **state) {
  (void)state;
  const int64_t empty[3] = {2, 0, 5};
  opr_tensor *e = kt_new(OPR_DT_DOUBLE, 3, empty), *out = NULL;
  kt_expect_ok(demo_example(ctx, e, &out));
  assert_int_equal(out->num_elements, 0);
  assert_int_equal(out->rank, 3);
  assert_int_equal(out->dims[1], 0);
  opr_tensor_unref(out);
  opr_tensor *s = kt_new(OPR_DT_INT64, 0, NULL);
  *(int64_t *)s->data = -21;
  kt_expect_ok(demo_example(ctx, s, &out));
  assert_int_equal(out->rank, 0);
  assert_int_equal(*(const int64_t *)out->data, -42);
  opr_tensor_unref(out);
  opr_tensor_unref(s);
  opr_tensor_unref(e);
}

static void example_rejects_a_type_outside_numbertype(void **state) {
  (void)state;
  opr_tensor *in = kt_vec(OPR_DT_BOOL, 2), *out = NULL;
  kt_expect_status(demo_example(ctx, in, &out), OPR_INVALID_ARGUMENT,
                   "Example: input 'input' has type bool; attr T must be "
                   "one of {float, double, int32, uint8, int16, int8, "
                   "complex64, int64, qint8, quint8, qint32, bfloat16, "
                   "uint16, complex128, half, uint32, uint64}");
  assert_null(out);
  opr_tensor_unref(in);
}

static void add_one_adds_one_and_wraps(void **state) {
  (void)state;
  const int32_t v[] = {0, -1, 41, INT32_MAX, INT32_MIN};
  const int32_t want[] = {1, 0, 42, INT32_MIN, INT32_MIN + 1};
  int64_t n = 5;
  opr_tensor *in = NULL, *out = NULL;
  kt_expect_ok(opr_tensor_from_data(OPR_DT_INT32, 1, &n, v, sizeof v, &in));
  kt_expect_ok(demo_add_one(ctx, in, &out));
  assert_memory_equal(out->data, want, sizeof want);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
}

static void add_one_of_pattern_empty_and_scalar(void **state) {
  (void)state;
  const int64_t dims[2] = {19, 23}, none[1] = {0};
  opr_tensor *in = kt_filled(OPR_DT_INT32, 2, dims, 3), *out = NULL;
  kt_expect_ok(demo_add_one(ctx, in, &out));
  for (int64_t i = 0; i < in->num_elements; i++) {
    kt_val v = kt_get(in, i);
    assert_int_equal(kt_get(out, i).bits & 0xffffffffu,
                     (v.bits + 1) & 0xffffffffu);
  }
  opr_tensor_unref(out);
  opr_tensor_unref(in);
  in = kt_new(OPR_DT_INT32, 1, none);
  kt_expect_ok(demo_add_one(ctx, in, &out));
  assert_int_equal(out->num_elements, 0);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
  in = kt_new(OPR_DT_INT32, 0, NULL);
  kt_expect_ok(demo_add_one(ctx, in, &out));
  assert_int_equal(*(const int32_t *)out->data, 1);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
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
      cmocka_unit_test(example_doubles_every_number_type),
      cmocka_unit_test(example_wraps_integers_like_tensorflow),
      cmocka_unit_test(example_doubles_both_parts_of_complex),
      cmocka_unit_test(example_of_half_and_bfloat16_rounds_like_float),
      cmocka_unit_test(example_of_empty_and_scalar_tensors),
      cmocka_unit_test(example_rejects_a_type_outside_numbertype),
      cmocka_unit_test(add_one_adds_one_and_wraps),
      cmocka_unit_test(add_one_of_pattern_empty_and_scalar),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
