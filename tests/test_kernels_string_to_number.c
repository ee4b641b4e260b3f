/* The StringToNumber kernels: float and int32 outputs, what parses and
 * what does not (the message names the element and its text), and
 * independence from the host's locale. */
#include "kerneltest.h"

#include <math.h>

static opr_context *ctx;

static opr_tensor *strings(size_t n, const char *const *s, const size_t *lens) {
  int64_t dim = (int64_t)n;
  opr_tensor *t = NULL;
  kt_expect_ok(opr_tensor_from_strings(1, &dim, s, lens, &t));
  return t;
}

static opr_status convert(const opr_tensor *in, opr_dtype type,
                          opr_tensor **out) {
  demo_string_to_number_attrs attrs = {.out_type = type};
  return demo_string_to_number(ctx, in, &attrs, out);
}

static void string_to_number_reads_floats(void **state) {
  (void)state;
  static const char *const s[] = {"3.25", " -1e3 ", "0x1p4", "inf",
                                  "-Infinity", ".5", "5.", "+2.5E-1",
                                  "1e39", "1e-50", "\t7\n", "16777217"};
  static const float want[] = {3.25f, -1000.0f, 16.0f, INFINITY, -INFINITY,
                               0.5f, 5.0f, 0.25f, INFINITY, 0.0f, 7.0f,
                               16777216.0f};
  opr_tensor *in = strings(12, s, NULL), *out = NULL;
  kt_expect_ok(convert(in, OPR_DT_FLOAT, &out));
  assert_int_equal(out->dtype, OPR_DT_FLOAT);
  assert_memory_equal(out->data, want, sizeof want);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
}

static void string_to_number_reads_nan(void **state) {
  (void)state;
  static const char *const s[] = {"nan", "-NaN", "nan(123)"};
  opr_tensor *in = strings(3, s, NULL), *out = NULL;
  kt_expect_ok(convert(in, OPR_DT_FLOAT, &out));
  for (int i = 0; i < 3; i++) assert_true(isnan(((float *)out->data)[i]));
  opr_tensor_unref(out);
  opr_tensor_unref(in);
}

static void string_to_number_reads_int32(void **state) {
  (void)state;
  static const char *const s[] = {"0", "-2147483648", "2147483647", " +42 ",
                                  "\t-7\n", "007", "-0"};
  static const int32_t want[] = {0, INT32_MIN, INT32_MAX, 42, -7, 7, 0};
  opr_tensor *in = strings(7, s, NULL), *out = NULL;
  kt_expect_ok(convert(in, OPR_DT_INT32, &out));
  assert_int_equal(out->dtype, OPR_DT_INT32);
  assert_memory_equal(out->data, want, sizeof want);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
}

/* `bad` alone at element 2, behind two good elements. */
static void expect_bad(const char *bad, size_t len, opr_dtype type,
                       const char *message) {
  const char *s[3] = {"1", "2", bad};
  const size_t lens[3] = {1, 1, len};
  opr_tensor *in = strings(3, s, lens), *out = NULL;
  kt_expect_status(convert(in, type, &out), OPR_INVALID_ARGUMENT, message);
  assert_null(out);
  opr_tensor_unref(in);
}

#define BAD(text, type, message) \
  expect_bad(text, sizeof text - 1, type, message)

static void string_to_number_rejects_what_is_no_float(void **state) {
  (void)state;
  BAD("abc", OPR_DT_FLOAT,
      "StringToNumber: element 2 ('abc') is not a valid float");
  BAD("", OPR_DT_FLOAT, "StringToNumber: element 2 ('') is not a valid float");
  BAD("  ", OPR_DT_FLOAT,
      "StringToNumber: element 2 ('  ') is not a valid float");
  BAD("1.5x", OPR_DT_FLOAT,
      "StringToNumber: element 2 ('1.5x') is not a valid float");
  BAD("1,5", OPR_DT_FLOAT,
      "StringToNumber: element 2 ('1,5') is not a valid float");
  BAD("1 2", OPR_DT_FLOAT,
      "StringToNumber: element 2 ('1 2') is not a valid float");
  BAD("1\0", OPR_DT_FLOAT,
      "StringToNumber: element 2 ('1\\x00') is not a valid float");
  BAD("'\\\xff", OPR_DT_FLOAT,
      "StringToNumber: element 2 ('\\x27\\x5c\\xff') is not a valid float");
}

static void string_to_number_rejects_what_is_no_int32(void **state) {
  (void)state;
  BAD("1.5", OPR_DT_INT32,
      "StringToNumber: element 2 ('1.5') is not a valid int32");
  BAD("0x10", OPR_DT_INT32,
      "StringToNumber: element 2 ('0x10') is not a valid int32");
  BAD("+", OPR_DT_INT32,
      "StringToNumber: element 2 ('+') is not a valid int32");
  BAD("- 1", OPR_DT_INT32,
      "StringToNumber: element 2 ('- 1') is not a valid int32");
  BAD("", OPR_DT_INT32, "StringToNumber: element 2 ('') is not a valid int32");
  BAD("99999999999999999999x", OPR_DT_INT32,
      "StringToNumber: element 2 ('99999999999999999999x') is not a valid "
      "int32");
}

static void string_to_number_rejects_int32_overflow(void **state) {
  (void)state;
  BAD("2147483648", OPR_DT_INT32,
      "StringToNumber: element 2 ('2147483648') is out of range for int32");
  BAD("-2147483649", OPR_DT_INT32,
      "StringToNumber: element 2 ('-2147483649') is out of range for int32");
  BAD("123456789012345678901234567890", OPR_DT_INT32,
      "StringToNumber: element 2 ('123456789012345678901234567890') is out "
      "of range for int32");
}

static void string_to_number_names_the_first_bad_element(void **state) {
  (void)state;
  static const char *const s[] = {"1", "x", "2", "y"};
  opr_tensor *in = strings(4, s, NULL), *out = NULL;
  kt_expect_status(convert(in, OPR_DT_INT32, &out), OPR_INVALID_ARGUMENT,
                   "StringToNumber: element 1 ('x') is not a valid int32");
  opr_tensor_unref(in);
}

static void string_to_number_cuts_long_text_in_messages(void **state) {
  (void)state;
  char text[101];
  memset(text, 'z', 100);
  text[100] = '\0';
  char message[200];
  snprintf(message, sizeof message, "StringToNumber: element 2 ('%.64s...')"
           " is not a valid float", text);
  expect_bad(text, 100, OPR_DT_FLOAT, message);
}

static void string_to_number_of_empty_and_scalar_tensors(void **state) {
  (void)state;
  opr_tensor *e = strings(0, NULL, NULL), *out = NULL;
  kt_expect_ok(convert(e, OPR_DT_INT32, &out));
  assert_int_equal(out->num_elements, 0);
  opr_tensor_unref(out);
  opr_tensor_unref(e);
  const char *one = "-12.5";
  opr_tensor *s = NULL;
  kt_expect_ok(opr_tensor_from_strings(0, NULL, &one, NULL, &s));
  kt_expect_ok(demo_string_to_number(ctx, s, NULL, &out)); /* float */
  assert_int_equal(out->rank, 0);
  assert_true(*(const float *)out->data == -12.5f);
  opr_tensor_unref(out);
  opr_tensor_unref(s);
}

/* A host that set a comma locale still reads "1.5" as 1.5. */
static void string_to_number_ignores_the_host_locale(void **state) {
  (void)state;
  bool switched = tu_comma_locale();
  static const char *const s[] = {"1.5", "-0.25e1"};
  opr_tensor *in = strings(2, s, NULL), *out = NULL;
  opr_status st = convert(in, OPR_DT_FLOAT, &out);
  tu_c_locale();
  kt_expect_ok(st);
  assert_true(((float *)out->data)[0] == 1.5f);
  assert_true(((float *)out->data)[1] == -2.5f);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
  if (!switched) print_message("no comma locale here: checked under C\n");
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
      cmocka_unit_test(string_to_number_reads_floats),
      cmocka_unit_test(string_to_number_reads_nan),
      cmocka_unit_test(string_to_number_reads_int32),
      cmocka_unit_test(string_to_number_rejects_what_is_no_float),
      cmocka_unit_test(string_to_number_rejects_what_is_no_int32),
      cmocka_unit_test(string_to_number_rejects_int32_overflow),
      cmocka_unit_test(string_to_number_names_the_first_bad_element),
      cmocka_unit_test(string_to_number_cuts_long_text_in_messages),
      cmocka_unit_test(string_to_number_of_empty_and_scalar_tensors),
      cmocka_unit_test(string_to_number_ignores_the_host_locale),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
