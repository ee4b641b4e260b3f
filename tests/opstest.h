/* The fixture of the test_ops_* programs that call the shipped ops on
 * one CPU context: `setup` registers them and makes `ctx`, `teardown`
 * frees it (pass both to cmocka_run_group_tests); `expect_status`
 * asserts a failed call's code and exact message. */
#ifndef OPGEN_OPSTEST_H
#define OPGEN_OPSTEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "opr/opr.h"
#include "shipped.h"

static opr_context *ctx;

static inline int setup(void **state) {
  (void)state;
  opr_status s = opgen_shipped_register();
  if (!s) s = opr_context_new(NULL, &ctx);
  opr_status_free(s);
  return s ? -1 : 0;
}

static inline int teardown(void **state) {
  (void)state;
  opr_context_free(ctx);
  return 0;
}

static inline void expect_status(opr_status s, opr_code code,
                                 const char *msg) {
  assert_non_null(s);
  assert_string_equal(opr_status_message(s), msg);
  assert_int_equal(opr_status_code(s), code);
  opr_status_free(s);
}

#endif
