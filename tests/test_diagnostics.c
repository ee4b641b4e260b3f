/* Diagnostics that point at the fix: a missing ';' reported after the
 * token it should follow (each one, recovery resuming at the next item),
 * and "did you mean" suggestions for misspelt names. */
#include "testutil.h"

#include <string.h>

/* Compiles text as "t.op"; every diagnostic, one per line, must be want. */
#define expect_diags(text, want) expect_diags_at(__FILE__, __LINE__, text, want)
static void expect_diags_at(const char *file, int line, const char *text,
                            const char *want) {
  tu_diags d = {0};
  og_model *m = tu_compile("t.op", text, &d);
  const char *got = tu_diags_text(&d);
  if (strcmp(got, want) != 0) {
    print_error("%s:%d: expected\n%s\ngot:\n%s\n", file, line, want, got);
    og_model_free(m);
    tu_diags_free(&d);
    _fail(file, line);
  }
  og_model_free(m);
  tu_diags_free(&d);
}

/* ---- a missing ';' ------------------------------------------------------ */

static void missing_semicolon_is_reported_after_the_token(void **state) {
  (void)state;
  expect_diags("op A {\n  attr T: type;\n  input x: T\n  output y: T;\n}\n",
               "t.op:3:13: error: expected ';' after 'T'");
  expect_diags("op A {\n  attr n: int = 1\n\n  // gap\n  output y: float;\n}\n",
               "t.op:2:18: error: expected ';' after '1'");
}

static void missing_semicolon_before_closing_brace(void **state) {
  (void)state;
  expect_diags("op A { attr a: int }\n",
               "t.op:1:19: error: expected ';' after 'int'");
}

static void missing_semicolon_before_an_item_on_the_same_line(void **state) {
  (void)state;
  expect_diags("op A { attr a: int = 1 attr b: int; }\n",
               "t.op:1:23: error: expected ';' after '1'");
}

static void two_missing_semicolons_in_one_op_are_two_errors(void **state) {
  (void)state;
  expect_diags("op A {\n  attr T: type\n  input x: T\n  output y: T;\n}\n",
               "t.op:2:15: error: expected ';' after 'type'\n"
               "t.op:3:13: error: expected ';' after 'T'");
  /* Short items too: bison alone would stay silent for three tokens. */
  expect_diags("op A {\n  stateful\n  commutative\n  aggregate\n}\n",
               "t.op:2:11: error: expected ';' after 'stateful'\n"
               "t.op:3:14: error: expected ';' after 'commutative'\n"
               "t.op:4:12: error: expected ';' after 'aggregate'");
}

static void every_statement_kind_reports_its_missing_semicolon(void **state) {
  (void)state;
  expect_diags("package p\n"
               "op A {\n"
               "  attr N: int >= 1\n"
               "  attr T: {float, double} = float\n"
               "  input x: N * T\n"
               "  output y: T\n"
               "  allows_uninitialized_input\n"
               "  deprecated 3 \"use B\"\n"
               "  shape y = dim(x, 0) + 1\n"
               "  require rank(x) == 2\n"
               "  shape_fn my_fn\n"
               "}\n",
               "t.op:1:10: error: expected ';' after 'p'\n"
               "t.op:3:19: error: expected ';' after '1'\n"
               "t.op:4:34: error: expected ';' after 'float'\n"
               "t.op:5:17: error: expected ';' after 'T'\n"
               "t.op:6:14: error: expected ';' after 'T'\n"
               "t.op:7:29: error: expected ';' after "
               "'allows_uninitialized_input'\n"
               "t.op:8:23: error: expected ';' after string literal\n"
               "t.op:9:26: error: expected ';' after '1'\n"
               "t.op:10:23: error: expected ';' after '2'\n"
               "t.op:11:17: error: expected ';' after 'my_fn'");
}

static void missing_semicolon_after_package_keeps_the_next_op(void **state) {
  (void)state;
  expect_diags("package p\nop A { input b: T }\n",
               "t.op:1:10: error: expected ';' after 'p'\n"
               "t.op:2:18: error: expected ';' after 'T'");
}

static void garbage_on_the_same_line_is_still_reported_before(void **state) {
  (void)state;
  expect_diags("op A { input x: T T; }\n",
               "t.op:1:19: error: expected ';' before identifier 'T'");
}

static void missing_semicolon_at_end_of_input_names_the_open_brace(
    void **state) {
  (void)state;
  expect_diags("op A {\n  attr a: int",
               "t.op:2:14: error: expected ';' at end of input\n"
               "t.op:1:6: note: to match this '{'");
}

#define T(fn) cmocka_unit_test(fn)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(missing_semicolon_is_reported_after_the_token),
      T(missing_semicolon_before_closing_brace),
      T(missing_semicolon_before_an_item_on_the_same_line),
      T(two_missing_semicolons_in_one_op_are_two_errors),
      T(every_statement_kind_reports_its_missing_semicolon),
      T(missing_semicolon_after_package_keeps_the_next_op),
      T(garbage_on_the_same_line_is_still_reported_before),
      T(missing_semicolon_at_end_of_input_names_the_open_brace),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
