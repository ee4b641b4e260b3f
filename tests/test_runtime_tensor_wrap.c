/* opr_tensor_wrap: a host tensor over the caller's memory, released
 * through the caller's callback with the last reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "opr/opr.h"

#include <string.h>

static int released;
static void *released_arg;

static void on_release(void *arg) {
  released++;
  released_arg = arg;
}

static void expect_error(opr_status s, opr_code code, const char *msg) {
  assert_non_null(s);
  assert_int_equal(opr_status_code(s), code);
  assert_string_equal(opr_status_message(s), msg);
  opr_status_free(s);
}

static void a_wrapped_tensor_uses_the_memory_without_copying(void **state) {
  (void)state;
  float data[6] = {1, 2, 3, 4, 5, 6};
  const int64_t dims[2] = {2, 3};
  opr_tensor *t = NULL;
  assert_null(opr_tensor_wrap(OPR_DT_FLOAT, 2, dims, data, sizeof data,
                              on_release, NULL, &t));
  assert_ptr_equal(t->data, data);
  assert_int_equal(t->dtype, OPR_DT_FLOAT);
  assert_int_equal(t->rank, 2);
  assert_int_equal(t->dims[1], 3);
  assert_int_equal(t->num_elements, 6);
  assert_int_equal(t->nbytes, sizeof data);
  assert_int_equal(t->device, OPR_DEVICE_CPU);
  opr_tensor_unref(t);
}

static void release_runs_once_with_the_last_reference(void **state) {
  (void)state;
  int64_t data[4] = {0};
  const int64_t dims[1] = {4};
  int token;
  opr_tensor *t = NULL;
  released = 0;
  released_arg = NULL;
  assert_null(opr_tensor_wrap(OPR_DT_INT64, 1, dims, data, sizeof data,
                              on_release, &token, &t));
  opr_tensor_ref(t);
  opr_tensor_unref(t);
  assert_int_equal(released, 0);
  opr_tensor_unref(t);
  assert_int_equal(released, 1);
  assert_ptr_equal(released_arg, &token);
}

static void a_null_release_is_allowed(void **state) {
  (void)state;
  double x = 2.5;
  opr_tensor *t = NULL;
  assert_null(opr_tensor_wrap(OPR_DT_DOUBLE, 0, NULL, &x, sizeof x, NULL,
                              NULL, &t));
  assert_ptr_equal(t->data, &x);
  opr_tensor_unref(t);
}

static void a_wrong_size_is_refused_and_nothing_released(void **state) {
  (void)state;
  float data[4] = {0};
  const int64_t dims[1] = {3};
  opr_tensor *t = (opr_tensor *)&data;
  released = 0;
  opr_status s = opr_tensor_wrap(OPR_DT_FLOAT, 1, dims, data, sizeof data,
                                 on_release, NULL, &t);
  assert_non_null(s);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  assert_non_null(strstr(opr_status_message(s), "opr_tensor_wrap: a tensor "
                         "of type float and shape [3] takes 12 bytes "
                         "aligned to 4; got 16 at "));
  opr_status_free(s);
  assert_null(t);
  assert_int_equal(released, 0);
}

static void misaligned_memory_is_refused(void **state) {
  (void)state;
  int64_t storage[3];
  char *p = (char *)storage + 1;
  const int64_t dims[1] = {2};
  opr_tensor *t = NULL;
  opr_status s = opr_tensor_wrap(OPR_DT_INT32, 1, dims, p, 8, on_release,
                                 NULL, &t);
  assert_non_null(s);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  opr_status_free(s);
  assert_null(t);
}

static void string_tensors_cannot_be_wrapped(void **state) {
  (void)state;
  opr_string strs[1] = {{NULL, 0}};
  const int64_t dims[1] = {1};
  opr_tensor *t = NULL;
  expect_error(opr_tensor_wrap(OPR_DT_STRING, 1, dims, strs, sizeof strs,
                               NULL, NULL, &t),
               OPR_INVALID_ARGUMENT,
               "opr_tensor_wrap: string tensors own their elements; make "
               "them with opr_tensor_from_strings");
}

static void a_bad_shape_is_refused_as_by_opr_tensor_new(void **state) {
  (void)state;
  float x = 0;
  const int64_t dims[1] = {-2};
  opr_tensor *t = NULL;
  expect_error(opr_tensor_wrap(OPR_DT_FLOAT, 1, dims, &x, sizeof x, NULL,
                               NULL, &t),
               OPR_INVALID_ARGUMENT,
               "opr_tensor_wrap: dim 0 is -2; dims must be >= 0");
  expect_error(opr_tensor_wrap(OPR_DT_FLOAT, 0, NULL, &x, sizeof x, NULL,
                               NULL, NULL),
               OPR_INVALID_ARGUMENT, "opr_tensor_wrap: out is NULL");
}

static void an_empty_tensor_may_have_no_memory(void **state) {
  (void)state;
  const int64_t dims[2] = {0, 5};
  opr_tensor *t = NULL;
  assert_null(opr_tensor_wrap(OPR_DT_FLOAT, 2, dims, NULL, 0, NULL, NULL,
                              &t));
  assert_int_equal(t->num_elements, 0);
  opr_tensor_unref(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_wrapped_tensor_uses_the_memory_without_copying),
      cmocka_unit_test(release_runs_once_with_the_last_reference),
      cmocka_unit_test(a_null_release_is_allowed),
      cmocka_unit_test(a_wrong_size_is_refused_and_nothing_released),
      cmocka_unit_test(misaligned_memory_is_refused),
      cmocka_unit_test(string_tensors_cannot_be_wrapped),
      cmocka_unit_test(a_bad_shape_is_refused_as_by_opr_tensor_new),
      cmocka_unit_test(an_empty_tensor_may_have_no_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
