/* The runtime's value types: dtypes, statuses, attr type names and
 * tensors (creation errors, reference counts, string tensors). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "opr/opr.h"

#include <math.h>
#include <string.h>

/* Asserts that `s` failed with `code` and exactly `msg`; frees it. */
static void expect_status(opr_status s, opr_code code, const char *msg) {
  assert_non_null(s);
  assert_string_equal(opr_status_message(s), msg);
  assert_string_equal(opr_code_name(opr_status_code(s)),
                      opr_code_name(code));
  opr_status_free(s);
}

/* ---- dtypes ---- */

static void dtype_values_follow_tensorflow(void **state) {
  (void)state;
  assert_int_equal(OPR_DT_FLOAT, 1);
  assert_int_equal(OPR_DT_STRING, 7);
  assert_int_equal(OPR_DT_BFLOAT16, 14);
  assert_int_equal(OPR_DT_HALF, 19);
  assert_int_equal(OPR_DT_UINT4, 30);
}

static void dtype_names_and_sizes_come_from_the_list(void **state) {
  (void)state;
  assert_string_equal(opr_dtype_name(OPR_DT_FLOAT), "float");
  assert_string_equal(opr_dtype_name(OPR_DT_FLOAT8_E4M3FN), "float8_e4m3fn");
  assert_int_equal(opr_dtype_size(OPR_DT_FLOAT), 4);
  assert_int_equal(opr_dtype_size(OPR_DT_BOOL), sizeof(bool));
  assert_int_equal(opr_dtype_size(OPR_DT_STRING), sizeof(opr_string));
  assert_int_equal(opr_dtype_size(OPR_DT_COMPLEX128), 16);
  assert_int_equal(opr_dtype_size(OPR_DT_HALF), 2);
  assert_int_equal(opr_dtype_size(OPR_DT_INT4), 1);
}

static void invalid_dtype_values_are_recognised(void **state) {
  (void)state;
  assert_false(opr_dtype_valid(OPR_DT_INVALID));
  assert_false(opr_dtype_valid((opr_dtype)99));
  assert_false(opr_dtype_valid((opr_dtype)-1));
  assert_true(opr_dtype_valid(OPR_DT_UINT4));
  assert_string_equal(opr_dtype_name((opr_dtype)99), "invalid");
  assert_int_equal(opr_dtype_size((opr_dtype)99), 0);
}

static void dtype_set_text_lists_types_in_enum_order(void **state) {
  (void)state;
  char buf[128];
  opr_dtype_set set = OPR_DTYPE_BIT(OPR_DT_INT32) |
                      OPR_DTYPE_BIT(OPR_DT_FLOAT) |
                      OPR_DTYPE_BIT(OPR_DT_DOUBLE);
  assert_string_equal(opr_dtype_set_text(set, buf, sizeof buf),
                      "{float, double, int32}");
  assert_string_equal(opr_dtype_set_text(0, buf, sizeof buf), "{}");
  assert_string_equal(
      opr_dtype_set_text(OPR_DTYPE_BIT(OPR_DT_BOOL), buf, sizeof buf),
      "{bool}");
}

static void dtype_set_text_truncates_safely(void **state) {
  (void)state;
  char buf[8];
  opr_dtype_set set = OPR_DTYPE_BIT(OPR_DT_FLOAT) |
                      OPR_DTYPE_BIT(OPR_DT_DOUBLE);
  assert_string_equal(opr_dtype_set_text(set, buf, sizeof buf), "{float,");
  buf[0] = 'x';
  opr_dtype_set_text(set, buf, 0);
  assert_int_equal(buf[0], 'x');
}

static uint16_t half_bits(float f) { return opr_half_from_float(f).bits; }

static void half_converts_with_round_to_nearest_even(void **state) {
  (void)state;
  assert_int_equal(half_bits(1.0f), 0x3c00);
  assert_int_equal(half_bits(-2.0f), 0xc000);
  assert_int_equal(half_bits(65504.0f), 0x7bff);      /* largest half */
  assert_int_equal(half_bits(65520.0f), 0x7c00);      /* rounds to inf */
  assert_int_equal(half_bits(ldexpf(1, -24)), 0x0001); /* subnormal */
  assert_int_equal(half_bits(ldexpf(1, -25)), 0x0000); /* tie: even */
  assert_int_equal(half_bits(ldexpf(3, -26)), 0x0001);
  assert_int_equal(half_bits(ldexpf(1, -14)), 0x0400); /* smallest normal */
  assert_int_equal(half_bits(1.0f + ldexpf(1, -11)), 0x3c00); /* tie */
  assert_int_equal(half_bits(1.0f + ldexpf(3, -11)), 0x3c02);
  assert_int_equal(half_bits(INFINITY), 0x7c00);
  assert_true(isnan(opr_half_to_float(opr_half_from_float(NAN))));
}

static void every_half_value_round_trips(void **state) {
  (void)state;
  for (uint32_t b = 0; b <= 0xffff; b++) {
    opr_half h = {(uint16_t)b};
    float f = opr_half_to_float(h);
    if (isnan(f)) {
      assert_true((b & 0x7c00) == 0x7c00 && (b & 0x3ff));
      continue;
    }
    assert_int_equal(opr_half_from_float(f).bits, b);
  }
  assert_true(opr_half_to_float((opr_half){0x0001}) == ldexpf(1, -24));
}

static void bfloat16_converts_with_round_to_nearest_even(void **state) {
  (void)state;
  assert_int_equal(opr_bfloat16_from_float(1.0f).bits, 0x3f80);
  assert_int_equal(opr_bfloat16_from_float(1.0f + ldexpf(1, -8)).bits,
                   0x3f80);
  assert_int_equal(opr_bfloat16_from_float(1.0f + ldexpf(3, -8)).bits,
                   0x3f82);
  assert_true(opr_bfloat16_to_float((opr_bfloat16){0xc040}) == -3.0f);
  assert_true(isnan(opr_bfloat16_to_float(opr_bfloat16_from_float(NAN))));
  assert_true(isinf(opr_bfloat16_to_float(opr_bfloat16_from_float(
      INFINITY))));
}

/* ---- statuses ---- */

static void ok_status_is_null_with_empty_message(void **state) {
  (void)state;
  assert_null(OPR_OK);
  assert_int_equal(opr_status_code(OPR_OK), OPR_CODE_OK);
  assert_string_equal(opr_status_message(OPR_OK), "");
  opr_status_free(OPR_OK);
  assert_null(opr_error(OPR_CODE_OK, "ignored %d", 1));
}

static void error_status_carries_code_and_formatted_message(void **state) {
  (void)state;
  opr_status s = opr_error(OPR_NOT_FOUND, "no op named '%s' (%d)", "Foo", 7);
  assert_int_equal(opr_status_code(s), OPR_NOT_FOUND);
  assert_string_equal(opr_status_message(s), "no op named 'Foo' (7)");
  opr_status_free(s);
}

static void code_names_are_canonical(void **state) {
  (void)state;
  assert_string_equal(opr_code_name(OPR_CODE_OK), "OK");
  assert_string_equal(opr_code_name(OPR_INVALID_ARGUMENT),
                      "INVALID_ARGUMENT");
  assert_string_equal(opr_code_name(OPR_RESOURCE_EXHAUSTED),
                      "RESOURCE_EXHAUSTED");
  assert_string_equal(opr_code_name(OPR_UNAUTHENTICATED), "UNAUTHENTICATED");
  assert_string_equal(opr_code_name((opr_code)42), "UNKNOWN");
}

static void attr_type_names_match_the_language(void **state) {
  (void)state;
  assert_string_equal(opr_attr_type_name((opr_attr_type){OPR_ATTR_INT, 0}),
                      "int");
  assert_string_equal(opr_attr_type_name((opr_attr_type){OPR_ATTR_TYPE, 1}),
                      "list(type)");
  assert_string_equal(
      opr_attr_type_name((opr_attr_type){OPR_ATTR_STRING, 0}), "string");
  assert_string_equal(opr_attr_type_name((opr_attr_type){OPR_ATTR_FUNC, 1}),
                      "list(func)");
}

static void attr_item_sizes_are_the_list_item_c_types(void **state) {
  (void)state;
  assert_int_equal(opr_attr_item_size(OPR_ATTR_STRING), sizeof(opr_str));
  assert_int_equal(opr_attr_item_size(OPR_ATTR_INT), sizeof(int64_t));
  assert_int_equal(opr_attr_item_size(OPR_ATTR_FLOAT), sizeof(float));
  assert_int_equal(opr_attr_item_size(OPR_ATTR_BOOL), sizeof(bool));
  assert_int_equal(opr_attr_item_size(OPR_ATTR_TYPE), sizeof(opr_dtype));
  assert_int_equal(opr_attr_item_size(OPR_ATTR_SHAPE), sizeof(opr_shape));
  assert_int_equal(opr_attr_item_size(OPR_ATTR_TENSOR),
                   sizeof(const opr_tensor *));
  assert_int_equal(opr_attr_item_size(OPR_ATTR_FUNC), sizeof(const char *));
  assert_int_equal(opr_attr_item_size(OPR_ATTR_UNSET), 0);
}

/* ---- tensors ---- */

static void new_tensor_is_zero_filled_with_one_reference(void **state) {
  (void)state;
  opr_tensor *t;
  assert_null(opr_tensor_new(OPR_DT_FLOAT, 2, (int64_t[]){2, 3}, &t));
  assert_int_equal(t->dtype, OPR_DT_FLOAT);
  assert_int_equal(t->rank, 2);
  assert_int_equal(t->dims[0], 2);
  assert_int_equal(t->dims[1], 3);
  assert_int_equal(t->num_elements, 6);
  assert_int_equal(t->nbytes, 24);
  assert_int_equal(t->device, OPR_DEVICE_CPU);
  assert_int_equal(t->refcount, 1);
  const float *f = t->data;
  for (int i = 0; i < 6; i++) assert_true(f[i] == 0.0f);
  assert_int_equal((uintptr_t)t->data % _Alignof(max_align_t), 0);
  opr_tensor_unref(t);
}

static void scalar_and_empty_tensors_have_the_right_size(void **state) {
  (void)state;
  opr_tensor *scalar, *empty;
  assert_null(opr_tensor_new(OPR_DT_DOUBLE, 0, NULL, &scalar));
  assert_int_equal(scalar->num_elements, 1);
  assert_int_equal(scalar->nbytes, 8);
  assert_null(opr_tensor_new(OPR_DT_INT32, 3,
                             (int64_t[]){INT64_C(1) << 40, 0,
                                         INT64_C(1) << 40}, &empty));
  assert_int_equal(empty->num_elements, 0);
  assert_int_equal(empty->nbytes, 0);
  opr_tensor_unref(scalar);
  opr_tensor_unref(empty);
}

static void high_rank_tensor_keeps_all_dims(void **state) {
  (void)state;
  int64_t dims[9] = {1, 2, 1, 1, 1, 1, 1, 1, 3};
  opr_tensor *t;
  assert_null(opr_tensor_new(OPR_DT_INT8, 9, dims, &t));
  assert_int_equal(t->rank, 9);
  assert_memory_equal(t->dims, dims, sizeof dims);
  assert_int_equal(t->num_elements, 6);
  opr_tensor_unref(t);
}

static void tensor_rejects_negative_dim(void **state) {
  (void)state;
  opr_tensor *t = (opr_tensor *)&t;
  expect_status(opr_tensor_new(OPR_DT_FLOAT, 2, (int64_t[]){2, -3}, &t),
                OPR_INVALID_ARGUMENT,
                "opr_tensor_new: dim 1 is -3; dims must be >= 0");
  assert_null(t);
}

static void tensor_rejects_overflowing_dims(void **state) {
  (void)state;
  opr_tensor *t;
  int64_t big = INT64_C(1) << 40;
  expect_status(opr_tensor_new(OPR_DT_FLOAT, 2, (int64_t[]){big, big}, &t),
                OPR_INVALID_ARGUMENT,
                "opr_tensor_new: a tensor of type float and shape "
                "[1099511627776, 1099511627776] is too large (its size "
                "overflows)");
  /* The element count fits in int64 but the byte size does not. */
  expect_status(opr_tensor_new(OPR_DT_COMPLEX128, 1,
                               (int64_t[]){INT64_C(1) << 61}, &t),
                OPR_INVALID_ARGUMENT,
                "opr_tensor_new: a tensor of type complex128 and shape "
                "[2305843009213693952] is too large (its size overflows)");
}

static void tensor_rejects_bad_dtype_and_rank(void **state) {
  (void)state;
  opr_tensor *t;
  expect_status(opr_tensor_new((opr_dtype)99, 0, NULL, &t),
                OPR_INVALID_ARGUMENT,
                "opr_tensor_new: invalid dtype (value 99)");
  expect_status(opr_tensor_new(OPR_DT_INVALID, 0, NULL, &t),
                OPR_INVALID_ARGUMENT,
                "opr_tensor_new: invalid dtype (value 0)");
  expect_status(opr_tensor_new(OPR_DT_FLOAT, 255, NULL, &t),
                OPR_INVALID_ARGUMENT,
                "opr_tensor_new: rank 255 is out of range [0, 254]");
  expect_status(opr_tensor_new(OPR_DT_FLOAT, -1, NULL, &t),
                OPR_INVALID_ARGUMENT,
                "opr_tensor_new: rank -1 is out of range [0, 254]");
  expect_status(opr_tensor_new(OPR_DT_FLOAT, 2, NULL, &t),
                OPR_INVALID_ARGUMENT,
                "opr_tensor_new: dims is NULL for rank 2");
}

static void tensor_from_data_copies_exactly_its_size(void **state) {
  (void)state;
  const int32_t v[3] = {1, 2, 3};
  opr_tensor *t;
  assert_null(opr_tensor_from_data(OPR_DT_INT32, 1, (int64_t[]){3}, v,
                                   sizeof v, &t));
  assert_memory_equal(t->data, v, sizeof v);
  opr_tensor_unref(t);
  expect_status(opr_tensor_from_data(OPR_DT_INT32, 1, (int64_t[]){3}, v, 8,
                                     &t),
                OPR_INVALID_ARGUMENT,
                "opr_tensor_from_data: a tensor of type int32 and shape [3] "
                "takes 12 bytes; got 8");
  assert_null(t);
  expect_status(opr_tensor_from_data(OPR_DT_STRING, 0, NULL, v, 16, &t),
                OPR_INVALID_ARGUMENT,
                "opr_tensor_from_data: string tensors are made with "
                "opr_tensor_from_strings");
}

static void references_keep_a_tensor_alive(void **state) {
  (void)state;
  opr_tensor *t;
  assert_null(opr_tensor_new(OPR_DT_UINT8, 1, (int64_t[]){4}, &t));
  assert_ptr_equal(opr_tensor_ref(t), t);
  assert_int_equal(t->refcount, 2);
  opr_tensor_unref(t);
  assert_int_equal(t->refcount, 1);
  ((uint8_t *)t->data)[3] = 7; /* still alive: valgrind would object */
  opr_tensor_unref(t);
  opr_tensor_unref(NULL);
  assert_null(opr_tensor_ref(NULL));
}

static void string_tensor_owns_copies_of_its_bytes(void **state) {
  (void)state;
  char a[] = "apple";
  const char *strs[3] = {a, "a\0b", ""};
  size_t lens[3] = {5, 3, 0};
  opr_tensor *t;
  assert_null(opr_tensor_from_strings(1, (int64_t[]){3}, strs, lens, &t));
  a[0] = 'X'; /* the tensor holds its own copy */
  const opr_string *e = t->data;
  assert_int_equal(e[0].len, 5);
  assert_memory_equal(e[0].data, "apple", 5);
  assert_int_equal(e[1].len, 3);
  assert_memory_equal(e[1].data, "a\0b", 3);
  assert_int_equal(e[2].len, 0);
  assert_null(opr_tensor_set_string(t, 2, "orange", 6));
  assert_int_equal(e[2].len, 6);
  assert_memory_equal(e[2].data, "orange", 6);
  assert_null(opr_tensor_set_string(t, 0, "fig", 3));
  assert_string_equal(e[0].data, "fig");
  opr_tensor_unref(t);
}

static void string_tensor_from_c_strings(void **state) {
  (void)state;
  const char *strs[2] = {"x", "yz"};
  opr_tensor *t;
  assert_null(opr_tensor_from_strings(2, (int64_t[]){1, 2}, strs, NULL, &t));
  const opr_string *e = t->data;
  assert_int_equal(e[1].len, 2);
  assert_string_equal(e[1].data, "yz");
  opr_tensor_unref(t);
  strs[1] = NULL;
  expect_status(opr_tensor_from_strings(1, (int64_t[]){2}, strs, NULL, &t),
                OPR_INVALID_ARGUMENT, "opr_tensor_from_strings: string 1 is "
                "NULL");
  assert_null(t);
}

static void set_string_rejects_misuse(void **state) {
  (void)state;
  opr_tensor *f, *s;
  assert_null(opr_tensor_new(OPR_DT_FLOAT, 0, NULL, &f));
  assert_null(opr_tensor_new(OPR_DT_STRING, 1, (int64_t[]){2}, &s));
  expect_status(opr_tensor_set_string(f, 0, "a", 1), OPR_INVALID_ARGUMENT,
                "opr_tensor_set_string: tensor has type float; expected "
                "string");
  expect_status(opr_tensor_set_string(s, 2, "a", 1), OPR_OUT_OF_RANGE,
                "opr_tensor_set_string: index 2 is out of range [0, 2)");
  assert_null(opr_tensor_set_string(s, 1, "b", 1));
  opr_tensor_unref(f);
  opr_tensor_unref(s);
}

static void shape_element_count_detects_overflow(void **state) {
  (void)state;
  assert_int_equal(opr_shape_num_elements(0, NULL), 1);
  assert_int_equal(opr_shape_num_elements(2, (int64_t[]){3, 4}), 12);
  assert_int_equal(opr_shape_num_elements(1, (int64_t[]){-1}), -1);
  assert_int_equal(opr_shape_num_elements(-1, NULL), -1);
  int64_t big = INT64_C(1) << 62;
  assert_int_equal(opr_shape_num_elements(2, (int64_t[]){big, 2}), -1);
  assert_int_equal(opr_shape_num_elements(3, (int64_t[]){big, big, 0}), 0);
}

static void shape_text_marks_unknowns(void **state) {
  (void)state;
  char buf[32];
  assert_string_equal(opr_shape_text(2, (int64_t[]){2, 3}, buf, sizeof buf),
                      "[2, 3]");
  assert_string_equal(opr_shape_text(0, NULL, buf, sizeof buf), "[]");
  assert_string_equal(opr_shape_text(-1, NULL, buf, sizeof buf), "?");
  assert_string_equal(opr_shape_text(2, (int64_t[]){2, -1}, buf, sizeof buf),
                      "[2, ?]");
  assert_string_equal(opr_shape_text(2, (int64_t[]){123, 456}, buf, 6),
                      "[123,");
  assert_string_equal(opr_device_name(OPR_DEVICE_GPU), "GPU");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(dtype_values_follow_tensorflow),
      cmocka_unit_test(dtype_names_and_sizes_come_from_the_list),
      cmocka_unit_test(invalid_dtype_values_are_recognised),
      cmocka_unit_test(dtype_set_text_lists_types_in_enum_order),
      cmocka_unit_test(dtype_set_text_truncates_safely),
      cmocka_unit_test(half_converts_with_round_to_nearest_even),
      cmocka_unit_test(every_half_value_round_trips),
      cmocka_unit_test(bfloat16_converts_with_round_to_nearest_even),
      cmocka_unit_test(ok_status_is_null_with_empty_message),
      cmocka_unit_test(error_status_carries_code_and_formatted_message),
      cmocka_unit_test(code_names_are_canonical),
      cmocka_unit_test(attr_type_names_match_the_language),
      cmocka_unit_test(attr_item_sizes_are_the_list_item_c_types),
      cmocka_unit_test(new_tensor_is_zero_filled_with_one_reference),
      cmocka_unit_test(scalar_and_empty_tensors_have_the_right_size),
      cmocka_unit_test(high_rank_tensor_keeps_all_dims),
      cmocka_unit_test(tensor_rejects_negative_dim),
      cmocka_unit_test(tensor_rejects_overflowing_dims),
      cmocka_unit_test(tensor_rejects_bad_dtype_and_rank),
      cmocka_unit_test(tensor_from_data_copies_exactly_its_size),
      cmocka_unit_test(references_keep_a_tensor_alive),
      cmocka_unit_test(string_tensor_owns_copies_of_its_bytes),
      cmocka_unit_test(string_tensor_from_c_strings),
      cmocka_unit_test(set_string_rejects_misuse),
      cmocka_unit_test(shape_element_count_detects_overflow),
      cmocka_unit_test(shape_text_marks_unknowns),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
