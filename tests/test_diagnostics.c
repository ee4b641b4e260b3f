/* Diagnostics that point at the fix: a missing ';' reported after the
 * token it should follow (each one, recovery resuming at the next item),
 * and "did you mean" suggestions for misspelt names. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
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

/* ---- did you mean ------------------------------------------------------- */

static void unknown_io_type_suggests_a_data_type(void **state) {
  (void)state;
  expect_diags("op A {\n  input x: doubel;\n}\n",
               "t.op:2:12: error: input 'x': 'doubel' is neither a data type "
               "nor an attr of op 'A'; did you mean 'double'?");
  /* Case first: 'Float' is not a dtype, 'float' is. */
  expect_diags("op A {\n  output y: Float;\n}\n",
               "t.op:2:13: error: output 'y': 'Float' is neither a data type "
               "nor an attr of op 'A'; did you mean 'float'?");
}

static void unknown_io_type_suggests_a_type_attr(void **state) {
  (void)state;
  expect_diags("op A {\n  attr T: type;\n  input x: Tt;\n}\n",
               "t.op:3:12: error: input 'x': 'Tt' is neither a data type nor "
               "an attr of op 'A'; did you mean 'T'?");
}

static void unknown_list_length_suggests_an_int_attr(void **state) {
  (void)state;
  expect_diags("op A {\n  attr N: int;\n  input x: n * float;\n}\n",
               "t.op:3:12: error: input 'x': unknown attr 'n' used as the "
               "list length; did you mean 'N'?");
}

static void unknown_type_in_set_suggests_a_data_type(void **state) {
  (void)state;
  expect_diags("op A {\n  attr T: {float, doubel};\n}\n",
               "t.op:2:19: error: attr 'T': unknown data type 'doubel' in "
               "set; did you mean 'double'?");
}

static void unknown_attr_type_suggests_a_type_or_type_set(void **state) {
  (void)state;
  expect_diags("op A {\n  attr T: numbertyp;\n}\n",
               "t.op:2:11: error: attr 'T': unknown attr type 'numbertyp' "
               "(expected string, int, float, bool, type, shape, tensor, "
               "func, list(...), a type set or a {...} set); did you mean "
               "'numbertype'?");
  expect_diags("op A {\n  attr T: {realnumbertyp};\n}\n",
               "t.op:2:12: error: attr 'T': unknown data type "
               "'realnumbertyp' in set; did you mean 'realnumbertype'?");
}

static void shape_rules_suggest_inputs_outputs_and_attrs(void **state) {
  (void)state;
  expect_diags("op A {\n"
               "  attr n: int;\n"
               "  input xs: float;\n"
               "  output out: float;\n"
               "  shape outt = xs;\n"
               "  require rank(xss) == 1;\n"
               "  require attr(nn) > 0;\n"
               "}\n",
               "t.op:5:9: error: 'outt' is not an output of op 'A'; did you "
               "mean 'out'?\n"
               "t.op:6:16: error: 'xss' is not an input of op 'A'; did you "
               "mean 'xs'?\n"
               "t.op:7:16: error: 'nn' is not an attr of op 'A'; did you mean "
               "'n'?");
}

static void misspelt_keywords_suggest_the_keyword(void **state) {
  (void)state;
  expect_diags("opp A {}\n"
               "op B {\n  atr T: type;\n  ouput y: T;\n  statefull;\n}\n",
               "t.op:1:1: error: expected end of file, 'package', 'op' or "
               "'c_prefix' before identifier 'opp'; did you mean 'op'?\n"
               "t.op:3:3: error: unexpected identifier 'atr'; did you mean "
               "'attr'?\n"
               "t.op:4:3: error: unexpected identifier 'ouput'; did you mean "
               "'output'?\n"
               "t.op:5:3: error: unexpected identifier 'statefull'; did you "
               "mean 'stateful'?");
}

static void far_names_get_no_suggestion(void **state) {
  (void)state;
  /* One letter apart from a one-letter name is no evidence. */
  expect_diags("op A {\n  input x: float;\n  output y: float;\n"
               "  shape z = x;\n}\n",
               "t.op:4:9: error: 'z' is not an output of op 'A'");
  expect_diags("op A {\n  input x: matrix;\n}\n",
               "t.op:2:12: error: input 'x': 'matrix' is neither a data type "
               "nor an attr of op 'A'");
  expect_diags("op A { frobnicate; }\n",
               "t.op:1:8: error: unexpected identifier 'frobnicate'");
}

static void shape_functions_suggest_the_function(void **state) {
  (void)state;
  expect_diags("op A {\n  input x: float;\n  output y: float;\n"
               "  shape y = brodcast(x, x);\n  require dims(x, 0) == 1;\n}\n",
               "t.op:4:13: error: 'brodcast' is not a form of the shape "
               "language nor a let with parameters; did you mean "
               "'broadcast'?\n"
               "t.op:5:11: error: 'dims' is not a form of the shape language "
               "nor a let with parameters; did you mean 'dim'?");
}

/* An op's own names are candidates only up to OG_SUGGEST_MAX_NAMES of a
 * kind: a huge op is not searched on every error. */
static void huge_ops_skip_their_own_names(void **state) {
  (void)state;
  for (int count = 3; count <= 300; count += 297) {
    char *text = malloc(32 * 300 + 128);
    assert_non_null(text);
    size_t len = (size_t)sprintf(text, "op A {\n  input x: m1 * float;\n");
    for (int i = 0; i < count; i++)
      len += (size_t)sprintf(text + len, "  attr n%d: int;\n", i);
    sprintf(text + len, "}\n");
    expect_diags(text, count == 3
                           ? "t.op:2:12: error: input 'x': unknown attr 'm1' "
                             "used as the list length; did you mean 'n1'?"
                           : "t.op:2:12: error: input 'x': unknown attr 'm1' "
                             "used as the list length");
    free(text);
  }
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
      T(unknown_io_type_suggests_a_data_type),
      T(unknown_io_type_suggests_a_type_attr),
      T(unknown_list_length_suggests_an_int_attr),
      T(unknown_type_in_set_suggests_a_data_type),
      T(unknown_attr_type_suggests_a_type_or_type_set),
      T(shape_rules_suggest_inputs_outputs_and_attrs),
      T(misspelt_keywords_suggest_the_keyword),
      T(shape_functions_suggest_the_function),
      T(far_names_get_no_suggestion),
      T(huge_ops_skip_their_own_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
