/* The Pad kernels: CONSTANT, REFLECT and SYMMETRIC for every allowed T and
 * both paddings types, against a reference that maps each output element
 * back to its source; the validation of paddings. */
#include "kerneltest.h"

#include <stdio.h>

static opr_context *ctx;

/* The input index output index x of a dimension of size n copies, or -1
 * (a zero): mirrored without the edge (REFLECT) or with it (SYMMETRIC). */
static int64_t source(int64_t x, int64_t n, demo_pad_mode mode) {
  if (x >= 0 && x < n) return x;
  if (mode == DEMO_PAD_MODE_CONSTANT) return -1;
  if (mode == DEMO_PAD_MODE_REFLECT) return x < 0 ? -x : 2 * (n - 1) - x;
  return x < 0 ? -1 - x : 2 * n - 1 - x;
}

/* The padded tensor, element by element. */
static opr_tensor *reference(const opr_tensor *in, const int64_t *pads,
                             demo_pad_mode mode) {
  int64_t dims[8];
  for (int d = 0; d < in->rank; d++)
    dims[d] = pads[2 * d] + in->dims[d] + pads[2 * d + 1];
  opr_tensor *want = kt_new(in->dtype, in->rank, dims);
  size_t size = opr_dtype_size(in->dtype);
  for (int64_t o = 0; o < want->num_elements; o++) {
    int64_t rest = o, src = 0, stride = 1;
    for (int d = in->rank - 1; d >= 0; d--) {
      int64_t x = source(rest % dims[d] - pads[2 * d], in->dims[d], mode);
      rest /= dims[d];
      if (x < 0) {
        src = -1;
        break;
      }
      src += x * stride;
      stride *= in->dims[d];
    }
    if (src >= 0)
      memcpy((char *)want->data + o * size,
             (const char *)in->data + src * size, size);
  }
  return want;
}

static opr_tensor *paddings(opr_dtype dt, int rows, const int64_t *v) {
  const int64_t dims[2] = {rows, 2};
  opr_tensor *p = kt_new(dt, 2, dims);
  for (int i = 0; i < 2 * rows; i++) {
    if (dt == OPR_DT_INT32) ((int32_t *)p->data)[i] = (int32_t)v[i];
    else ((int64_t *)p->data)[i] = v[i];
  }
  return p;
}

static opr_status pad(const opr_tensor *in, const opr_tensor *p,
                      demo_pad_mode mode, opr_tensor **out) {
  demo_pad_attrs attrs = {.mode = mode};
  return demo_pad(ctx, in, p, &attrs, out);
}

/* Pads `in` by `pads` in `mode` with both paddings types; compares. */
static void check_pad(const opr_tensor *in, const int64_t *pads,
                      demo_pad_mode mode) {
  opr_tensor *want = reference(in, pads, mode);
  kt_for_each_dtype(pt, kt_allowed(&demo_pad_def, "Tpaddings")) {
    opr_tensor *p = paddings(pt, in->rank, pads), *out = NULL;
    kt_expect_ok(pad(in, p, mode, &out));
    kt_assert_same(out, want);
    opr_tensor_unref(out);
    opr_tensor_unref(p);
  }
  opr_tensor_unref(want);
}

static void pad_each_mode_for_every_type(void **state) {
  (void)state;
  const int64_t dims[3] = {2, 3, 4};
  /* REFLECT needs each side < the dim, SYMMETRIC <= the dim. */
  const int64_t reflect[6] = {1, 0, 2, 1, 3, 2};
  const int64_t symmetric[6] = {2, 1, 3, 0, 4, 4};
  const int64_t constant[6] = {0, 3, 1, 1, 5, 0};
  int types = 0;
  kt_for_each_dtype(dt, kt_allowed(&demo_pad_def, "T")) {
    opr_tensor *in = kt_filled(dt, 3, dims, 7);
    check_pad(in, constant, DEMO_PAD_MODE_CONSTANT);
    check_pad(in, reflect, DEMO_PAD_MODE_REFLECT);
    check_pad(in, symmetric, DEMO_PAD_MODE_SYMMETRIC);
    opr_tensor_unref(in);
    types++;
  }
  assert_int_equal(types, 13); /* realnumbertype and bool */
}

static void pad_matches_tensorflow_documentation(void **state) {
  (void)state;
  const int32_t v[] = {1, 2, 3, 4, 5, 6};
  const int64_t dims[2] = {2, 3}, pads[4] = {1, 1, 2, 2};
  static const int32_t want[3][28] = {
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0,
       0, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1,
       6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1},
      {2, 1, 1, 2, 3, 3, 2, 2, 1, 1, 2, 3, 3, 2,
       5, 4, 4, 5, 6, 6, 5, 5, 4, 4, 5, 6, 6, 5}};
  opr_tensor *in = NULL;
  kt_expect_ok(opr_tensor_from_data(OPR_DT_INT32, 2, dims, v, sizeof v, &in));
  opr_tensor *p = paddings(OPR_DT_INT32, 2, pads);
  for (int m = 0; m < 3; m++) {
    opr_tensor *out = NULL;
    kt_expect_ok(pad(in, p, (demo_pad_mode)m, &out));
    assert_int_equal(out->dims[0], 4);
    assert_int_equal(out->dims[1], 7);
    assert_memory_equal(out->data, want[m], sizeof want[m]);
    opr_tensor_unref(out);
  }
  opr_tensor_unref(p);
  opr_tensor_unref(in);
}

static void pad_of_rank_one_zero_paddings_and_a_scalar(void **state) {
  (void)state;
  const int64_t n[1] = {5}, zero[4] = {0, 0, 0, 0}, one[2] = {4, 4};
  opr_tensor *v = kt_filled(OPR_DT_DOUBLE, 1, n, 3);
  for (int m = 0; m < 3; m++) {
    check_pad(v, one, (demo_pad_mode)m);
    check_pad(v, zero, (demo_pad_mode)m);
  }
  opr_tensor_unref(v);
  opr_tensor *s = kt_filled(OPR_DT_INT16, 0, NULL, 1);
  for (int m = 0; m < 3; m++) check_pad(s, NULL, (demo_pad_mode)m);
  opr_tensor_unref(s);
}

static void pad_of_empty_tensors(void **state) {
  (void)state;
  const int64_t dims[2] = {0, 3}, pads[4] = {1, 2, 0, 1};
  const int64_t sym[4] = {0, 0, 1, 3};
  opr_tensor *in = kt_new(OPR_DT_FLOAT, 2, dims);
  check_pad(in, pads, DEMO_PAD_MODE_CONSTANT); /* [3, 4] of zeros */
  check_pad(in, sym, DEMO_PAD_MODE_SYMMETRIC); /* [0, 7] */
  opr_tensor_unref(in);
}

static void expect_pad_error(const int64_t *dims, const int64_t *pads,
                             demo_pad_mode mode, const char *message) {
  opr_tensor *in = kt_new(OPR_DT_FLOAT, 2, dims), *out = NULL;
  opr_tensor *p = paddings(OPR_DT_INT64, 2, pads);
  kt_expect_status(pad(in, p, mode, &out), OPR_INVALID_ARGUMENT, message);
  assert_null(out);
  opr_tensor_unref(p);
  opr_tensor_unref(in);
}

static void pad_rejects_negative_paddings(void **state) {
  (void)state;
  const int64_t dims[2] = {2, 3}, pads[4] = {0, 0, 1, -1};
  expect_pad_error(dims, pads, DEMO_PAD_MODE_CONSTANT,
                   "Pad: all(value(paddings)[j] >= 0 for j < "
                   "product(paddings)) does not hold");
}

static void pad_reflect_needs_paddings_below_the_size(void **state) {
  (void)state;
  const int64_t dims[2] = {2, 3}, pads[4] = {1, 1, 3, 0};
  const int64_t after[4] = {1, 1, 2, 5};
  expect_pad_error(dims, pads, DEMO_PAD_MODE_REFLECT,
                   "Pad: REFLECT paddings of dimension 1 are (3, 0); each "
                   "must be less than the dimension's size 3");
  expect_pad_error(dims, after, DEMO_PAD_MODE_REFLECT,
                   "Pad: REFLECT paddings of dimension 1 are (2, 5); each "
                   "must be less than the dimension's size 3");
  /* An empty dimension has nothing to mirror, not even by 0. */
  const int64_t empty[2] = {0, 3}, none[4] = {0, 0, 1, 1};
  expect_pad_error(empty, none, DEMO_PAD_MODE_REFLECT,
                   "Pad: REFLECT paddings of dimension 0 are (0, 0); each "
                   "must be less than the dimension's size 0");
}

static void pad_symmetric_needs_paddings_up_to_the_size(void **state) {
  (void)state;
  const int64_t dims[2] = {2, 3}, pads[4] = {2, 3, 0, 0};
  expect_pad_error(dims, pads, DEMO_PAD_MODE_SYMMETRIC,
                   "Pad: SYMMETRIC paddings of dimension 0 are (2, 3); each "
                   "must be at most the dimension's size 2");
}

static void pad_rejects_paddings_of_a_wrong_shape(void **state) {
  (void)state;
  const int64_t dims[2] = {2, 3}, p13[2] = {1, 3}, p3[1] = {4};
  opr_tensor *in = kt_new(OPR_DT_FLOAT, 2, dims), *out = NULL;
  opr_tensor *bad[2] = {kt_new(OPR_DT_INT32, 2, p13),
                        kt_new(OPR_DT_INT32, 1, p3)};
  for (int i = 0; i < 2; i++) {
    opr_status s = pad(in, bad[i], DEMO_PAD_MODE_CONSTANT, &out);
    assert_non_null(s);
    assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
    if (strncmp(opr_status_message(s), "Pad: ", 5) != 0)
      fail_msg("unexpected: %s", opr_status_message(s));
    opr_status_free(s);
    assert_null(out);
    opr_tensor_unref(bad[i]);
  }
  opr_tensor_unref(in);
}

static void pad_rejects_paddings_that_overflow(void **state) {
  (void)state;
  const int64_t dims[2] = {2, 3};
  const int64_t pads[4] = {0, 0, INT64_MAX - 2, 1};
  char msg[160];
  snprintf(msg, sizeof msg, "Pad: dim(input, k) + before(k) overflows "
           "(3 + %lld)", (long long)(INT64_MAX - 2));
  expect_pad_error(dims, pads, DEMO_PAD_MODE_CONSTANT, msg);
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
      cmocka_unit_test(pad_each_mode_for_every_type),
      cmocka_unit_test(pad_matches_tensorflow_documentation),
      cmocka_unit_test(pad_of_rank_one_zero_paddings_and_a_scalar),
      cmocka_unit_test(pad_of_empty_tensors),
      cmocka_unit_test(pad_rejects_negative_paddings),
      cmocka_unit_test(pad_reflect_needs_paddings_below_the_size),
      cmocka_unit_test(pad_symmetric_needs_paddings_up_to_the_size),
      cmocka_unit_test(pad_rejects_paddings_of_a_wrong_shape),
      cmocka_unit_test(pad_rejects_paddings_that_overflow),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
