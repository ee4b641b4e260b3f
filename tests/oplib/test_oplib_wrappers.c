/* Typed wrappers for library ops: this host compiled the specs of two op
 * libraries itself (for their typed wrappers) and registers those ops,
 * before loading one library and after loading the other. Either way its
 * registration succeeds and binds its tables to the library's op, and a
 * call through the host's wrapper or by name runs the library's kernel.
 * A third spec defines WrapLate differently: its registration is refused
 * naming what differs. The tests run in order. */
#include "testutil.h"

#include "opr/opr.h"
#include "wrap_early_ops.h"
#include "wrap_late_ops.h"
#include "wrap_late_other_ops.h"

#include <pthread.h>
#include <string.h>

static opr_context *ctx;

#define expect_ok(status)                                               \
  do {                                                                  \
    opr_status st_ = (status);                                          \
    if (st_) fail_msg("unexpected: %s", opr_status_message(st_));       \
  } while (0)

static opr_tensor *vector3(const int32_t *values) {
  opr_tensor *t;
  const int64_t dims[1] = {3};
  expect_ok(opr_tensor_from_data(OPR_DT_INT32, 1, dims, values,
                                 3 * sizeof *values, &t));
  return t;
}

typedef opr_status (*wrapper_fn)(opr_context *, const opr_tensor *,
                                 opr_tensor **);

/* {1, 2, 3} times `factor`, through `wrapper` and through op `name`. */
static void expect_scaled(wrapper_fn wrapper, const char *name,
                          int32_t factor) {
  const int32_t x[3] = {1, 2, 3};
  const int32_t want[3] = {factor, 2 * factor, 3 * factor};
  opr_tensor *in = vector3(x), *out = NULL;
  expect_ok(wrapper(ctx, in, &out));
  assert_memory_equal(out->data, want, sizeof want);
  opr_tensor_unref(out);
  out = NULL;
  const opr_tensor *list[1] = {in};
  opr_input inputs[1] = {{list, 1}};
  size_t n = 0;
  expect_ok(opr_execute(ctx, name, inputs, 1, NULL, 0, &out, 1, &n));
  assert_memory_equal(out->data, want, sizeof want);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
}

static void register_then_load(void **state) {
  (void)state;
  expect_ok(wrap_early_register_ops());
  opr_library *lib = NULL;
  expect_ok(opr_load_library(OPLIB_WRAP_EARLY, &lib));
  const opr_op_def *ops[1];
  assert_int_equal(opr_library_ops(lib, ops, 1), 1);
  assert_ptr_equal(ops[0], opr_find_op("WrapEarly")); /* the host's */
  expect_scaled(wrap_early_wrap_early, "WrapEarly", 2);
}

/* Calls the host's WrapLate wrapper until it answers (it is refused
 * while unbound), racing the load and the registration: the result must
 * then be the library kernel's (a race TSan builds check). */
static void *call_until_bound(void *arg) {
  (void)arg;
  const int32_t x[3] = {1, 2, 3};
  opr_tensor *in = NULL, *out = NULL;
  const int64_t dims[1] = {3};
  opr_status s = opr_tensor_from_data(OPR_DT_INT32, 1, dims, x, sizeof x,
                                      &in);
  for (long i = 0; !s; i++) {
    s = wrap_late_wrap_late(ctx, in, &out);
    if (!s || opr_status_code(s) != OPR_FAILED_PRECONDITION || i > 50000000)
      break;
    opr_status_free(s);
    s = OPR_OK;
  }
  bool ok = !s && ((const int32_t *)out->data)[2] == 9;
  opr_status_free(s);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
  return ok ? (void *)1 : NULL;
}

static void load_then_register(void **state) {
  (void)state;
  pthread_t caller;
  assert_int_equal(pthread_create(&caller, NULL, call_until_bound, NULL), 0);
  opr_library *lib = NULL;
  expect_ok(opr_load_library(OPLIB_WRAP_LATE, &lib));
  const opr_op_def *library_op = opr_find_op("WrapLate");
  assert_non_null(library_op);
  expect_ok(wrap_late_register_ops());
  void *bound = NULL;
  assert_int_equal(pthread_join(caller, &bound), 0);
  assert_non_null(bound);
  assert_ptr_equal(opr_find_op("WrapLate"), library_op); /* still */
  expect_scaled(wrap_late_wrap_late, "WrapLate", 3);
  /* Registering again is a no-op. */
  expect_ok(wrap_late_register_ops());
  expect_scaled(wrap_late_wrap_late, "WrapLate", 3);
}

static void a_different_definition_is_refused_naming_it(void **state) {
  (void)state;
  opr_status s = wrap_other_register_ops();
  assert_non_null(s);
  assert_string_equal(opr_status_message(s),
                      "WrapLate: another op of that name is already "
                      "registered with a different definition (input 0 "
                      "'x': types differ (int32 vs float))");
  assert_string_equal(opr_code_name(opr_status_code(s)), "ALREADY_EXISTS");
  opr_status_free(s);
  /* Its wrapper is not bound: the call is refused, not misrouted. */
  const float x[1] = {1};
  const int64_t dims[1] = {1};
  opr_tensor *in = NULL, *out = NULL;
  expect_ok(opr_tensor_from_data(OPR_DT_FLOAT, 1, dims, x, sizeof x, &in));
  s = wrap_other_wrap_late(ctx, in, &out);
  assert_non_null(s);
  assert_string_equal(opr_code_name(opr_status_code(s)),
                      "FAILED_PRECONDITION");
  opr_status_free(s);
  assert_null(out);
  opr_tensor_unref(in);
}

static int setup(void **state) {
  (void)state;
  opr_status s = opr_context_new(NULL, &ctx);
  if (s) opr_status_free(s);
  return s ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  opr_context_free(ctx);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(register_then_load),
      cmocka_unit_test(load_then_register),
      cmocka_unit_test(a_different_definition_is_refused_naming_it),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
