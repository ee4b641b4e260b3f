/* An op library whose op names a shape_fn defined in the library's
 * SOURCES (shape_fn_lib, shape_fn.op): it builds (its definition-hash
 * program links stand-ins instead of SOURCES), loads, and its calls run
 * the library's own shape function, not the stand-in. */
#include "testutil.h"

#include "opr/opr.h"

#include <string.h>

static opr_context *ctx;

static int setup(void **state) {
  (void)state;
  opr_library *lib = NULL;
  opr_status s = opr_load_library(OPLIB_SHAPE_FN, &lib);
  if (!s) s = opr_context_new(NULL, &ctx);
  if (s) fail_msg("setup: %s", opr_status_message(s));
  return 0;
}

static int teardown(void **state) {
  (void)state;
  opr_context_free(ctx);
  return 0;
}

static opr_status repeat(int rank, const int64_t *dims, const int32_t *x,
                         size_t bytes, opr_tensor **out) {
  opr_tensor *in = NULL;
  opr_status s = opr_tensor_from_data(OPR_DT_INT32, rank, dims, x, bytes,
                                      &in);
  if (s) return s;
  const opr_tensor *list[1] = {in};
  const opr_input inputs[1] = {{list, 1}};
  size_t n = 0;
  s = opr_execute(ctx, "LibRepeat", inputs, 1, NULL, 0, out, 1, &n);
  opr_tensor_unref(in);
  return s;
}

static void the_library_shape_fn_gives_the_output_shape(void **state) {
  (void)state;
  const int32_t x[3] = {1, 2, 3}, want[6] = {1, 2, 3, 1, 2, 3};
  const int64_t dims[1] = {3};
  opr_tensor *y = NULL;
  opr_status s = repeat(1, dims, x, sizeof x, &y);
  if (s) fail_msg("LibRepeat: %s", opr_status_message(s));
  assert_int_equal(y->rank, 1);
  assert_int_equal(y->dims[0], 6);
  assert_memory_equal(y->data, want, sizeof want);
  opr_tensor_unref(y);
}

static void the_library_shape_fn_refuses_a_matrix(void **state) {
  (void)state;
  const int32_t x[4] = {1, 2, 3, 4};
  const int64_t dims[2] = {2, 2};
  opr_tensor *y = NULL;
  opr_status s = repeat(2, dims, x, sizeof x, &y);
  assert_non_null(s);
  assert_null(y);
  assert_string_equal(opr_code_name(opr_status_code(s)),
                      opr_code_name(OPR_INVALID_ARGUMENT));
  assert_string_equal(opr_status_message(s),
                      "LibRepeat: 'x' must have rank 1, but has shape "
                      "[2, 2]");
  opr_status_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_library_shape_fn_gives_the_output_shape),
      cmocka_unit_test(the_library_shape_fn_refuses_a_matrix),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
