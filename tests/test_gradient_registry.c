/* The gradient registry: registration rules, lookups, removal, and the
 * shipped ops' gradients. */
#include "gradtest.h"

static opr_status fn_a(const opr_grad_op *op, const opr_tensor *const *g,
                       opr_tensor **d, void *user) {
  (void)op, (void)g, (void)d, (void)user;
  return OPR_OK;
}

static opr_status fn_b(const opr_grad_op *op, const opr_tensor *const *g,
                       opr_tensor **d, void *user) {
  (void)op, (void)g, (void)d, (void)user;
  return OPR_OK;
}

static int user_a, user_b;

static void registered_gradient_is_found_with_its_user(void **state) {
  (void)state;
  kt_expect_ok(opr_register_gradient("RegFound", fn_a, &user_a));
  opr_gradient_fn fn = NULL;
  void *user = NULL;
  assert_true(opr_find_gradient("RegFound", &fn, &user));
  assert_ptr_equal(fn, fn_a);
  assert_ptr_equal(user, &user_a);
  assert_true(opr_find_gradient("RegFound", NULL, NULL));
  assert_false(opr_find_gradient("RegNever", &fn, &user));
  assert_false(opr_find_gradient(NULL, NULL, NULL));
}

static void same_fn_and_user_again_is_a_no_op(void **state) {
  (void)state;
  kt_expect_ok(opr_register_gradient("RegTwice", fn_a, &user_a));
  kt_expect_ok(opr_register_gradient("RegTwice", fn_a, &user_a));
  void *user = NULL;
  kt_expect_ok(opr_unregister_gradient("RegTwice", &user));
  assert_false(opr_find_gradient("RegTwice", NULL, NULL));
}

static void another_fn_or_user_is_already_exists(void **state) {
  (void)state;
  kt_expect_ok(opr_register_gradient("RegTaken", fn_a, &user_a));
  kt_expect_status(opr_register_gradient("RegTaken", fn_b, &user_a),
                   OPR_ALREADY_EXISTS,
                   "a gradient is already registered for op 'RegTaken'");
  kt_expect_status(opr_register_gradient("RegTaken", fn_a, &user_b),
                   OPR_ALREADY_EXISTS,
                   "a gradient is already registered for op 'RegTaken'");
  opr_gradient_fn fn = NULL;
  assert_true(opr_find_gradient("RegTaken", &fn, NULL));
  assert_ptr_equal(fn, fn_a);
}

static void bad_arguments_are_invalid_argument(void **state) {
  (void)state;
  kt_expect_status(opr_register_gradient(NULL, fn_a, NULL),
                   OPR_INVALID_ARGUMENT,
                   "opr_register_gradient: the op name is NULL");
  kt_expect_status(opr_register_gradient("", fn_a, NULL),
                   OPR_INVALID_ARGUMENT,
                   "opr_register_gradient: the op name is empty");
  kt_expect_status(opr_register_gradient("RegNull", NULL, NULL),
                   OPR_INVALID_ARGUMENT,
                   "opr_register_gradient: the gradient function is NULL");
  kt_expect_status(opr_unregister_gradient(NULL, NULL),
                   OPR_INVALID_ARGUMENT,
                   "opr_unregister_gradient: the op name is NULL");
}

static void unregister_returns_the_user_and_frees_the_name(void **state) {
  (void)state;
  kt_expect_ok(opr_register_gradient("RegGone", fn_a, &user_b));
  void *user = NULL;
  kt_expect_ok(opr_unregister_gradient("RegGone", &user));
  assert_ptr_equal(user, &user_b);
  assert_false(opr_find_gradient("RegGone", NULL, NULL));
  /* Free again: another function may take the name. */
  kt_expect_ok(opr_register_gradient("RegGone", fn_b, NULL));
  kt_expect_ok(opr_unregister_gradient("RegGone", NULL));
}

static void unregister_of_none_is_not_found(void **state) {
  (void)state;
  void *user = &user_a;
  kt_expect_status(opr_unregister_gradient("RegNone", &user), OPR_NOT_FOUND,
                   "no gradient is registered for op 'RegNone'");
  assert_null(user);
}

static void many_registrations_are_kept(void **state) {
  (void)state;
  char name[32];
  for (int i = 0; i < 100; i++) {
    snprintf(name, sizeof name, "RegMany%d", i);
    kt_expect_ok(opr_register_gradient(name, fn_a, &user_a));
  }
  for (int i = 0; i < 100; i++) {
    snprintf(name, sizeof name, "RegMany%d", i);
    assert_true(opr_find_gradient(name, NULL, NULL));
    kt_expect_ok(opr_unregister_gradient(name, NULL));
  }
}

static void shipped_ops_have_gradients(void **state) {
  (void)state;
  kt_register();
  kt_register(); /* idempotent */
  const char *ops[] = {"ZeroOut", "ZeroOutInt32", "ZeroOutFloatInt32",
                       "ZeroOutRealNumber", "Example", "AddN", "Pad"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    assert_true(opr_find_gradient(ops[i], NULL, NULL));
  assert_false(opr_find_gradient("AddOne", NULL, NULL));
  assert_false(opr_find_gradient("StringToNumber", NULL, NULL));
}

/* A user's override of a shipped gradient survives the shipped
 * registration running again. */
static void shipped_registration_keeps_a_users_gradient(void **state) {
  (void)state;
  kt_register();
  opr_gradient_fn shipped = NULL;
  assert_true(opr_find_gradient("Example", &shipped, NULL));
  kt_expect_ok(opr_unregister_gradient("Example", NULL));
  kt_expect_ok(opr_register_gradient("Example", fn_a, &user_a));
  kt_register();
  opr_gradient_fn fn = NULL;
  assert_true(opr_find_gradient("Example", &fn, NULL));
  assert_ptr_equal(fn, fn_a);
  kt_expect_ok(opr_unregister_gradient("Example", NULL));
  kt_expect_ok(opr_register_gradient("Example", shipped, NULL));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(registered_gradient_is_found_with_its_user),
      cmocka_unit_test(same_fn_and_user_again_is_a_no_op),
      cmocka_unit_test(another_fn_or_user_is_already_exists),
      cmocka_unit_test(bad_arguments_are_invalid_argument),
      cmocka_unit_test(unregister_returns_the_user_and_frees_the_name),
      cmocka_unit_test(unregister_of_none_is_not_found),
      cmocka_unit_test(many_registrations_are_kept),
      cmocka_unit_test(shipped_ops_have_gradients),
      cmocka_unit_test(shipped_registration_keeps_a_users_gradient),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
