/* Error recovery: one run reports every error, in source order, each at
 * its line:col, and keeps parsing what follows (resynchronising at ';'
 * and '}'). */
#include "parsetest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *item_name(const og_ast_op *op, size_t i) {
  return pt_item_at(op, i)->name;
}

static size_t item_count(const og_ast_op *op) {
  size_t n = 0;
  for (og_ast_item *it = op->items; it; it = it->next) n++;
  return n;
}

static og_ast_op *op_named(const pt_parsed *p, const char *name) {
  for (og_ast_op *op = p->ast->ops; op; op = op->next)
    if (strcmp(op->name, name) == 0) return op;
  fail_msg("no op named %s", name);
  return NULL;
}

/* ---- several errors, one run -------------------------------------------- */

static void test_three_bad_items_then_bad_op_then_good_op(void **state) {
  pt_parsed *p = pt_parse(state, "op First {\n"
                           "  attr a int;\n"          /* missing ':' */
                           "  input b: T\n"           /* missing ';' */
                           "  output c: Ref(;\n"      /* missing type */
                           "  attr d: int = 1;\n"     /* fine */
                           "}\n"
                           "op Bad Bad {\n"           /* two names */
                           "  attr e: int;\n"
                           "}\n"
                           "op Good {\n"
                           "  attr f: int;\n"
                           "  input g: T;\n"
                           "}\n");
  pt_expect_diags(p, "t.op:2:10: error: expected ':' before identifier 'int'\n"
                  "t.op:3:13: error: expected ';' after 'T'\n"
                  "t.op:4:17: error: expected identifier before ';'\n"
                  "t.op:7:8: error: expected '{' before identifier 'Bad'");
  assert_int_equal(p->diag.errors, 4);
  assert_int_equal(pt_op_count(p), 2);
  og_ast_op *first = pt_op_at(p, 0);
  assert_string_equal(first->name, "First");
  assert_true(first->has_syntax_error);
  assert_int_equal(item_count(first), 1);
  assert_string_equal(item_name(first, 0), "d");
  og_ast_op *good = pt_op_at(p, 1);
  assert_string_equal(good->name, "Good");
  assert_false(good->has_syntax_error);
  assert_int_equal(item_count(good), 2);
  assert_string_equal(item_name(good, 0), "f");
  assert_string_equal(item_name(good, 1), "g");
}

static void test_errors_in_several_ops_reported_in_order(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: ; }\n"
                           "op B { input b: T }\n"
                           "op C { output c T; }\n");
  pt_expect_diags(p, "t.op:1:16: error: expected identifier or '{' before ';'\n"
                  "t.op:2:18: error: expected ';' after 'T'\n"
                  "t.op:3:17: error: expected ':' before identifier 'T'");
  assert_int_equal(pt_op_count(p), 3);
  assert_true(pt_op_at(p, 0)->has_syntax_error);
  assert_true(pt_op_at(p, 1)->has_syntax_error);
  assert_true(pt_op_at(p, 2)->has_syntax_error);
}

static void test_consecutive_short_bad_items_all_reported(void **state) {
  pt_parsed *p = pt_parse(state, "op A { stateful x; commutative y; aggregate z; "
                           "input ok: T; }");
  pt_expect_diags(p, "t.op:1:17: error: expected ';' before identifier 'x'\n"
                  "t.op:1:32: error: expected ';' before identifier 'y'\n"
                  "t.op:1:45: error: expected ';' before identifier 'z'");
  og_ast_op *op = pt_op_at(p, 0);
  assert_int_equal(item_count(op), 1);
  assert_string_equal(item_name(op, 0), "ok");
}

static void test_lexical_errors_during_recovery_are_reported(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a: int = @ # 'x\\q' 3z;\n}\n");
  pt_expect_diags(p, "t.op:2:17: error: stray '@' in spec\n"
                  "t.op:2:19: error: stray '#' in spec\n"
                  "t.op:2:23: error: invalid escape sequence '\\q' in string\n"
                  "t.op:2:27: error: invalid number '3z'");
  assert_int_equal(pt_op_count(p), 1);
}

static void test_lexical_and_syntax_errors_interleave_in_order(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n"
                           "  attr a: int $;\n"
                           "  attr b int;\n"
                           "  attr c: string = 'open\n"
                           "  attr d: int;\n"
                           "}\n");
  pt_expect_diags(p, "t.op:2:15: error: stray '$' in spec\n"
                  "t.op:3:10: error: expected ':' before identifier 'int'\n"
                  "t.op:4:20: error: missing terminating ' character");
  og_ast_op *op = pt_op_at(p, 0);
  assert_int_equal(item_count(op), 1);
  assert_string_equal(item_name(op, 0), "d");
}

/* ---- where recovery resumes --------------------------------------------- */

static void test_recovery_at_semicolon_keeps_next_item(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: int = = 1; attr b: float; }");
  pt_expect_diags(p, "t.op:1:22: error: unexpected '='");
  og_ast_op *op = pt_op_at(p, 0);
  assert_int_equal(item_count(op), 1);
  assert_string_equal(item_name(op, 0), "b");
  assert_int_equal(pt_item_at(op, 0)->kind, OG_ITEM_ATTR);
}

static void test_recovery_at_semicolon_skips_rest_of_item(void **state) {
  pt_parsed *p = pt_parse(state, "op A { input x: T T T T; output y: T; }");
  pt_expect_diags(p, "t.op:1:19: error: expected ';' before identifier 'T'");
  assert_string_equal(item_name(pt_op_at(p, 0), 0), "y");
}

static void test_recovery_at_closing_brace(void **state) {
  pt_parsed *p = pt_parse(state, "op A { input x: T output }\nop B { input y: T; }");
  pt_expect_diags(p, "t.op:1:18: error: expected ';' after 'T'\n"
                     "t.op:1:26: error: expected identifier before '}'");
  assert_int_equal(pt_op_count(p), 2);
  assert_int_equal(item_count(op_named(p, "A")), 0);
  assert_true(op_named(p, "A")->has_syntax_error);
  assert_string_equal(item_name(op_named(p, "B"), 0), "y");
}

static void test_recovery_at_closing_brace_of_bad_op_header(void **state) {
  pt_parsed *p = pt_parse(state, "op A(x) { }\nop B { stateful; }");
  pt_expect_diags(p, "t.op:1:5: error: expected '{' before '('");
  assert_int_equal(pt_op_count(p), 1);
  assert_string_equal(pt_op_at(p, 0)->name, "B");
}

static void test_recovery_at_top_level_semicolon(void **state) {
  pt_parsed *p = pt_parse(state, "import foo;\nop A { stateful; }");
  pt_expect_diags(p, "t.op:1:1: error: expected end of file, 'package', "
                  "'op' or 'c_prefix' before identifier 'import'");
  assert_int_equal(pt_op_count(p), 1);
  assert_string_equal(pt_op_at(p, 0)->name, "A");
}

static void test_item_after_missing_semicolon_is_parsed(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a: int = 1\n  attr b: int = 2;\n}");
  pt_expect_diags(p, "t.op:2:18: error: expected ';' after '1'");
  og_ast_op *op = pt_op_at(p, 0);
  assert_int_equal(item_count(op), 1);
  assert_string_equal(item_name(op, 0), "b");
  assert_true(pt_item_at(op, 0)->default_value->i == 2);
}

static void test_error_then_end_of_input_reports_once(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a int");
  pt_expect_diags(p, "t.op:2:10: error: expected ':' before identifier 'int'");
  assert_int_equal(pt_op_count(p), 0);
}

static void test_unterminated_comment_inside_op_reports_once(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a: int; /* no end\n}\nop B {}");
  pt_expect_diags(p, "t.op:2:16: error: unterminated comment");
}

/* A bracket left open inside an item that recovery skipped is closed by
 * the item's ';': at end of input the op's '{' is what is still open. */
static void test_bracket_left_open_in_an_item_ends_at_its_semicolon(
    void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a: list(int;\n");
  pt_expect_diags(p, "t.op:2:19: error: expected ')' before ';'\n"
                     "t.op:3:1: error: expected '}' at end of input\n"
                     "t.op:1:6: note: to match this '{'");
  pt_reset(state);
  p = pt_parse(state, "op A {\n  attr a: {int32, float;\n}\n"
                      "op B {\n  attr b: int = [1, (2;\n");
  pt_expect_diags(p, "t.op:2:24: error: expected '}' before ';'\n"
                     "t.op:5:21: error: expected ']' before '('\n"
                     "t.op:6:1: error: expected '}' at end of input\n"
                     "t.op:4:6: note: to match this '{'");
}

static void test_op_keyword_inside_unclosed_op(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a: int;\nop B {\n  stateful;\n}");
  pt_expect_diags(p, "t.op:3:1: error: unexpected 'op'");
  assert_int_equal(pt_op_count(p), 1);
  assert_true(pt_op_at(p, 0)->has_syntax_error);
}

static void test_many_errors_each_reported(void **state) {
  enum { COUNT = 200 };
  size_t cap = COUNT * 32 + 64, len = 0;
  char *text = malloc(cap);
  assert_non_null(text);
  len += (size_t)snprintf(text + len, cap - len, "op A {\n");
  for (int i = 0; i < COUNT; i++)
    len += (size_t)snprintf(text + len, cap - len, "  attr a%d int;\n", i);
  snprintf(text + len, cap - len, "  input ok: T;\n}\n");
  pt_parsed *p = pt_parse(state, text);
  free(text);
  assert_int_equal(p->diag.errors, COUNT);
  assert_int_equal(p->diags.count, COUNT);
  for (int i = 0; i < COUNT; i++) {
    char want[128];
    snprintf(want, sizeof want,
             "t.op:%d:%d: error: expected ':' before identifier 'int'", i + 2,
             i < 10 ? 11 : i < 100 ? 12 : 13);
    assert_string_equal(p->diags.lines[i], want);
  }
  assert_string_equal(item_name(pt_op_at(p, 0), 0), "ok");
}

static void test_no_errors_leaves_has_syntax_error_clear(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: int; }\nop B { stateful x; }\n"
                           "op C { }");
  assert_false(op_named(p, "A")->has_syntax_error);
  assert_true(op_named(p, "B")->has_syntax_error);
  assert_false(op_named(p, "C")->has_syntax_error);
}

#define T(fn) cmocka_unit_test_teardown(fn, pt_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(test_three_bad_items_then_bad_op_then_good_op),
      T(test_errors_in_several_ops_reported_in_order),
      T(test_consecutive_short_bad_items_all_reported),
      T(test_lexical_errors_during_recovery_are_reported),
      T(test_lexical_and_syntax_errors_interleave_in_order),
      T(test_recovery_at_semicolon_keeps_next_item),
      T(test_recovery_at_semicolon_skips_rest_of_item),
      T(test_recovery_at_closing_brace),
      T(test_recovery_at_closing_brace_of_bad_op_header),
      T(test_recovery_at_top_level_semicolon),
      T(test_item_after_missing_semicolon_is_parsed),
      T(test_error_then_end_of_input_reports_once),
      T(test_unterminated_comment_inside_op_reports_once),
      T(test_bracket_left_open_in_an_item_ends_at_its_semicolon),
      T(test_op_keyword_inside_unclosed_op),
      T(test_many_errors_each_reported),
      T(test_no_errors_leaves_has_syntax_error_clear),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
