/* The scanner, seen through og_parse: tokens become AST nodes, lexical
 * problems become diagnostics with exact positions. */
#include "parsetest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const keywords[] = {
    "package",  "op",          "attr",     "input",
    "output",   "stateful",    "commutative", "aggregate",
    "allows_uninitialized_input", "deprecated", "shape",
    "require",  "shape_fn",    "in",       "distributed_communication",
};
enum { NKEYWORDS = sizeof keywords / sizeof keywords[0] };

/* ---- identifiers and contextual keywords ------------------------------ */

static void test_identifiers_with_underscores_and_digits(void **state) {
  pt_parsed *p = pt_parse(state, "op Op2x { attr _a9_B: int; input in_2: T_1; }");
  pt_expect_clean(p);
  og_ast_op *op = pt_op_at(p, 0);
  assert_string_equal(op->name, "Op2x");
  assert_string_equal(pt_item_at(op, 0)->name, "_a9_B");
  assert_string_equal(pt_item_at(op, 1)->name, "in_2");
  assert_string_equal(pt_item_at(op, 1)->io_type->type, "T_1");
}

static void test_identifier_cannot_start_with_digit(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr 2a: int; }");
  pt_expect_diags(p, "t.op:1:13: error: invalid number '2a'");
}

static void test_keyword_input_shape_named_shape(void **state) {
  pt_parsed *p = pt_parse(state, "op A { input shape: Tshape; }");
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_int_equal(it->kind, OG_ITEM_INPUT);
  assert_string_equal(it->name, "shape");
  assert_string_equal(it->io_type->type, "Tshape");
}

static void test_keyword_attr_shape_of_type_shape(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr shape: shape; }");
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_int_equal(it->kind, OG_ITEM_ATTR);
  assert_string_equal(it->name, "shape");
  assert_int_equal(it->attr_type->kind, OG_AT_NAME);
  assert_string_equal(it->attr_type->name, "shape");
}

static void test_keyword_shape_statement_for_output_named_shape(
    void **state) {
  pt_parsed *p = pt_parse(state, "op A { shape shape = [dim(x, 0)]; }");
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_int_equal(it->kind, OG_ITEM_SHAPE);
  assert_string_equal(it->name, "shape");
  assert_int_equal(it->expr->kind, OG_EX_LIST);
  assert_int_equal(it->expr->args->kind, OG_EX_CALL);
  assert_string_equal(it->expr->args->name, "dim");
}

static void test_keyword_attr_named_op(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr op: int; }");
  pt_expect_clean(p);
  assert_string_equal(pt_item_at(pt_op_at(p, 0), 0)->name, "op");
}

static void test_keyword_input_named_input(void **state) {
  pt_parsed *p = pt_parse(state, "op A { input input: int32; }");
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_int_equal(it->kind, OG_ITEM_INPUT);
  assert_string_equal(it->name, "input");
  assert_string_equal(it->io_type->type, "int32");
}

static void test_every_keyword_as_attr_input_and_output_name(void **state) {
  /* One op, three items per keyword. */
  char text[4096] = "op A {";
  for (size_t i = 0; i < NKEYWORDS; i++) {
    size_t used = strlen(text);
    snprintf(text + used, sizeof text - used,
             " attr %s: int; input %s: T; output %s: T;", keywords[i],
             keywords[i], keywords[i]);
  }
  strcat(text, " }");
  pt_parsed *p = pt_parse(state, text);
  pt_expect_clean(p);
  og_ast_op *op = pt_op_at(p, 0);
  for (size_t i = 0; i < NKEYWORDS; i++) {
    assert_int_equal(pt_item_at(op, 3 * i)->kind, OG_ITEM_ATTR);
    assert_string_equal(pt_item_at(op, 3 * i)->name, keywords[i]);
    assert_int_equal(pt_item_at(op, 3 * i + 1)->kind, OG_ITEM_INPUT);
    assert_string_equal(pt_item_at(op, 3 * i + 1)->name, keywords[i]);
    assert_int_equal(pt_item_at(op, 3 * i + 2)->kind, OG_ITEM_OUTPUT);
    assert_string_equal(pt_item_at(op, 3 * i + 2)->name, keywords[i]);
  }
}

static void test_every_keyword_as_type_value_and_expression_name(
    void **state) {
  for (size_t i = 0; i < NKEYWORDS; i++) {
    char text[512];
    const char *k = keywords[i];
    snprintf(text, sizeof text,
             "op A { attr a: %s = %s; attr b: {%s, %s} = {%s: %s}; "
             "input c: %s * %s; shape %s = %s(%s); shape_fn %s; }",
             k, k, k, k, k, k, k, k, k, k, k, k);
    pt_parsed *p = pt_parse(state, text);
    pt_expect_clean(p);
    og_ast_op *op = pt_op_at(p, 0);
    assert_string_equal(pt_item_at(op, 0)->attr_type->name, k);
    assert_string_equal(pt_item_at(op, 0)->default_value->name, k);
    assert_string_equal(pt_item_at(op, 1)->attr_type->elems->name, k);
    assert_string_equal(pt_item_at(op, 1)->default_value->fields->name, k);
    assert_string_equal(pt_item_at(op, 2)->io_type->number, k);
    assert_string_equal(pt_item_at(op, 2)->io_type->type, k);
    assert_string_equal(pt_item_at(op, 3)->name, k);
    assert_string_equal(pt_item_at(op, 3)->expr->name, k);
    assert_string_equal(pt_item_at(op, 3)->expr->args->name, k);
    assert_int_equal(pt_item_at(op, 4)->kind, OG_ITEM_SHAPE_FN);
    assert_string_equal(pt_item_at(op, 4)->name, k);
    pt_reset(state);
  }
}

static void test_keyword_as_package_and_op_name(void **state) {
  /* Syntactically fine; sema rejects a non-CamelCase op name. */
  pt_parsed *p = pt_parse(state, "package op; op shape { }");
  pt_expect_clean(p);
  assert_string_equal(p->ast->package, "op");
  assert_string_equal(pt_op_at(p, 0)->name, "shape");
}

/* ---- integers ----------------------------------------------------------- */

static void test_integer_decimal(void **state) {
  og_ast_value *v = pt_parse_default(state, "int", "42");
  assert_int_equal(v->kind, OG_AV_INT);
  assert_int_equal(v->i, 42);
}

static void test_integer_zero_and_leading_zeros(void **state) {
  og_ast_value *v = pt_parse_default(state, "int", "007");
  assert_int_equal(v->kind, OG_AV_INT);
  assert_int_equal(v->i, 7);
}

static void test_integer_negative(void **state) {
  og_ast_value *v = pt_parse_default(state, "int", "-3");
  assert_int_equal(v->kind, OG_AV_INT);
  assert_true(v->i == -3);
}

static void test_integer_int64_max(void **state) {
  og_ast_value *v = pt_parse_default(state, "int", "9223372036854775807");
  assert_true(v->i == INT64_MAX);
}

static void test_integer_int64_min(void **state) {
  og_ast_value *v = pt_parse_default(state, "int", "-9223372036854775808");
  assert_int_equal(v->kind, OG_AV_INT);
  assert_true(v->i == INT64_MIN);
}

static void test_integer_overflow_is_reported_at_the_digits(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: int = 9223372036854775808; }");
  pt_expect_diags(p, "t.op:1:22: error: integer literal 9223372036854775808 "
                  "does not fit in a 64-bit signed integer");
}

static void test_integer_negative_overflow(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a: int = -9223372036854775809;\n}");
  pt_expect_diags(p, "t.op:2:18: error: integer literal -9223372036854775809 "
                  "does not fit in a 64-bit signed integer");
}

static void test_integer_huge_overflow(void **state) {
  pt_parsed *p =
      pt_parse(state, "op A { attr a: int >= 123456789012345678901234567890; }");
  pt_expect_diags(p, "t.op:1:23: error: integer literal "
                  "123456789012345678901234567890 does not fit in a 64-bit "
                  "signed integer");
}

static void test_integer_overflow_in_shape_expression(void **state) {
  pt_parsed *p = pt_parse(state, "op A { shape y = [99999999999999999999]; }");
  pt_expect_diags(p, "t.op:1:19: error: integer literal 99999999999999999999 "
                  "does not fit in a 64-bit signed integer");
}

static void test_integer_followed_by_letters_is_invalid(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: int = 12abc; }");
  pt_expect_diags(p, "t.op:1:22: error: invalid number '12abc'");
}

/* ---- floats ------------------------------------------------------------- */

static void expect_float(void **state, const char *text, double want) {
  og_ast_value *v = pt_parse_default(state, "float", text);
  assert_int_equal(v->kind, OG_AV_FLOAT);
  assert_true(v->f == want);
  pt_reset(state);
}

static void test_float_forms(void **state) {
  expect_float(state, "1.0", 1.0);
  expect_float(state, "-2.5e-3", -2.5e-3);
  expect_float(state, ".5", 0.5);
  expect_float(state, "1e10", 1e10);
  expect_float(state, "3.", 3.0);
  expect_float(state, "2E+2", 200.0);
  expect_float(state, "0.25e1", 2.5);
}

/* A host program's setlocale() must not make "1.5" read as 1. */
static void test_float_ignores_the_locale(void **state) {
  tu_comma_locale();
  pt_parsed *p = pt_parse(state, "op A { attr a: float = 1.5; "
                                 "attr b: float = -2.5e-3; }");
  tu_c_locale();
  pt_expect_clean(p);
  assert_true(pt_item_at(pt_op_at(p, 0), 0)->default_value->f == 1.5);
  assert_true(pt_item_at(pt_op_at(p, 0), 1)->default_value->f == -2.5e-3);
}

static void test_float_value_range(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: float = -2.5e-3; }");
  pt_expect_clean(p);
  assert_string_equal(pt_span(p, pt_first_default(p)->loc), "1:24-1:31");
}

static void test_float_inf_is_a_name(void **state) {
  og_ast_value *v = pt_parse_default(state, "float", "inf");
  assert_int_equal(v->kind, OG_AV_NAME);
  assert_string_equal(v->name, "inf");
  assert_false(v->negated);
}

static void test_float_negative_inf_is_a_negated_name(void **state) {
  og_ast_value *v = pt_parse_default(state, "float", "-inf");
  assert_int_equal(v->kind, OG_AV_NAME);
  assert_string_equal(v->name, "inf");
  assert_true(v->negated);
}

static void test_float_nan_is_a_name(void **state) {
  og_ast_value *v = pt_parse_default(state, "float", "nan");
  assert_int_equal(v->kind, OG_AV_NAME);
  assert_string_equal(v->name, "nan");
}

static void test_float_with_bad_exponent_is_invalid(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: float = 1e; }");
  pt_expect_diags(p, "t.op:1:24: error: invalid number '1e'");
}

/* ---- strings ------------------------------------------------------------ */

static void test_string_single_quoted(void **state) {
  og_ast_value *v = pt_parse_default(state, "string", "'it \"is\"'");
  assert_int_equal(v->kind, OG_AV_STRING);
  assert_string_equal(v->s.ptr, "it \"is\"");
  assert_int_equal(v->s.len, 7);
}

static void test_string_double_quoted(void **state) {
  og_ast_value *v = pt_parse_default(state, "string", "\"it's\"");
  assert_int_equal(v->kind, OG_AV_STRING);
  assert_string_equal(v->s.ptr, "it's");
  assert_int_equal(v->s.len, 4);
}

static void test_string_empty(void **state) {
  og_ast_value *v = pt_parse_default(state, "string", "''");
  assert_int_equal(v->kind, OG_AV_STRING);
  assert_string_equal(v->s.ptr, "");
  assert_int_equal(v->s.len, 0);
}

static void test_string_every_escape(void **state) {
  og_ast_value *v = pt_parse_default(
      state, "string",
      "\"\\n\\t\\\\\\'\\\"\\x41\\x7a\\101\\0\\a\\b\\f\\r\\v\\?\"");
  static const char want[] = "\n\t\\'\"AzA\0\a\b\f\r\v?";
  assert_int_equal(v->s.len, sizeof want - 1);
  assert_memory_equal(v->s.ptr, want, sizeof want);
}

static void test_string_escapes_in_single_quotes(void **state) {
  og_ast_value *v = pt_parse_default(state, "string", "'a\\'b\\\"c\\x20d'");
  assert_string_equal(v->s.ptr, "a'b\"c d");
}

static void test_string_hex_escape_takes_at_most_two_digits(void **state) {
  og_ast_value *v = pt_parse_default(state, "string", "'\\x414'");
  assert_string_equal(v->s.ptr, "A4");
}

static void test_string_octal_escape_takes_at_most_three_digits(
    void **state) {
  og_ast_value *v = pt_parse_default(state, "string", "'\\1011\\7'");
  assert_int_equal(v->s.len, 3);
  assert_memory_equal(v->s.ptr, "A1\a", 4);
}

static void test_string_nul_escape_keeps_length(void **state) {
  og_ast_value *v = pt_parse_default(state, "string", "'a\\x00b\\x00'");
  assert_int_equal(v->kind, OG_AV_STRING);
  assert_int_equal(v->s.len, 4);
  assert_memory_equal(v->s.ptr, "a\0b\0", 5);
}

static void test_string_keeps_utf8(void **state) {
  og_ast_value *v = pt_parse_default(state, "string", "'caf\xc3\xa9'");
  assert_string_equal(v->s.ptr, "caf\xc3\xa9");
  assert_int_equal(v->s.len, 5);
}

static void test_string_value_range_includes_quotes(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: string = 'a\\nb'; }");
  pt_expect_clean(p);
  assert_string_equal(pt_span(p, pt_first_default(p)->loc), "1:25-1:31");
}

static void test_string_bad_escape_reported_at_the_escape(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a: string = 'ok\\q';\n}");
  pt_expect_diags(p, "t.op:2:23: error: invalid escape sequence '\\q' in "
                  "string");
}

static void test_string_hex_escape_without_digits(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: string = \"\\xg\"; }");
  pt_expect_diags(p, "t.op:1:26: error: invalid escape sequence '\\x' in "
                  "string");
}

static void test_string_octal_escape_over_255(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: string = 'x\\400'; }");
  pt_expect_diags(p, "t.op:1:27: error: invalid escape sequence '\\400' in "
                  "string");
}

static void test_string_unterminated_single_quote(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a: string = 'abc;\n}");
  pt_expect_diags(p, "t.op:2:20: error: missing terminating ' character");
}

static void test_string_unterminated_double_quote_at_eof(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: string = \"abc");
  pt_expect_diags(p, "t.op:1:25: error: missing terminating \" character");
}

static void test_string_unterminated_after_trailing_backslash(
    void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: string = 'abc\\\n'; }");
  pt_expect_diags(p, "t.op:1:25: error: missing terminating ' character\n"
                  "t.op:2:1: error: missing terminating ' character");
}

/* ---- comments ----------------------------------------------------------- */

static void test_line_comments_are_skipped(void **state) {
  pt_parsed *p = pt_parse(state, "// head\nop A { // tail\n  attr a: int; //\n}//");
  pt_expect_clean(p);
  assert_string_equal(pt_item_at(pt_op_at(p, 0), 0)->name, "a");
}

static void test_block_comments_are_skipped(void **state) {
  pt_parsed *p = pt_parse(state,
                    "/**/op/* a */A/*\n * b **/{ attr/***/a: /* // */int; }");
  pt_expect_clean(p);
  og_ast_op *op = pt_op_at(p, 0);
  assert_string_equal(op->name, "A");
  assert_string_equal(pt_at(p, op->name_loc), "1:14");
  assert_string_equal(pt_item_at(op, 0)->attr_type->name, "int");
  assert_null(op->doc);
}

static void test_block_comments_do_not_nest(void **state) {
  pt_parsed *p = pt_parse(state, "/* /* */ op A { } */");
  pt_expect_diags(p, "t.op:1:19: error: expected end of file, 'package', "
                  "'op' or 'c_prefix' before '*'");
}

static void test_unterminated_block_comment(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a: int; /* never\n closed }");
  pt_expect_diags(p, "t.op:2:16: error: unterminated comment");
}

static void test_unterminated_block_comment_ending_in_stars(void **state) {
  pt_parsed *p = pt_parse(state, "/* x **");
  pt_expect_diags(p, "t.op:1:1: error: unterminated comment");
}

/* ---- doc comments ------------------------------------------------------- */

static void test_doc_comment_on_op(void **state) {
  pt_parsed *p = pt_parse(state, "/// Zeroes a tensor.\nop A { }");
  pt_expect_clean(p);
  og_ast_op *op = pt_op_at(p, 0);
  assert_non_null(op->doc);
  assert_string_equal(op->doc->text, "Zeroes a tensor.");
  assert_string_equal(pt_span(p, op->doc->loc), "1:1-1:21");
}

static void test_doc_comment_multi_line_joined(void **state) {
  pt_parsed *p = pt_parse(state, "/// Summary.\n///\n/// More text\n///   indented\n"
                           "op A { }");
  pt_expect_clean(p);
  og_ast_op *op = pt_op_at(p, 0);
  assert_string_equal(op->doc->text,
                      "Summary.\n\nMore text\n  indented");
  assert_string_equal(pt_span(p, op->doc->loc), "1:1-4:15");
}

static void test_doc_comment_without_space(void **state) {
  pt_parsed *p = pt_parse(state, "///tight\nop A { }");
  pt_expect_clean(p);
  assert_string_equal(pt_op_at(p, 0)->doc->text, "tight");
}

static void test_doc_comment_on_attr_input_output(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n"
                           "  /// The attr.\n"
                           "  attr T: type;\n"
                           "  /// The input.\n"
                           "  /// Second line.\n"
                           "  input x: T;\n"
                           "  /// The output.\n"
                           "  output y: T;\n"
                           "  input z: T;\n"
                           "}");
  pt_expect_clean(p);
  og_ast_op *op = pt_op_at(p, 0);
  assert_null(op->doc);
  assert_string_equal(pt_item_at(op, 0)->doc->text, "The attr.");
  assert_string_equal(pt_at(p, pt_item_at(op, 0)->doc->loc), "2:3");
  assert_string_equal(pt_item_at(op, 1)->doc->text, "The input.\nSecond line.");
  assert_string_equal(pt_item_at(op, 2)->doc->text, "The output.");
  assert_null(pt_item_at(op, 3)->doc);
}

static void test_four_slashes_is_not_a_doc_comment(void **state) {
  pt_parsed *p = pt_parse(state, "//// banner\nop A { }");
  pt_expect_clean(p);
  assert_null(pt_op_at(p, 0)->doc);
}

static void test_four_slashes_inside_doc_run_is_skipped(void **state) {
  pt_parsed *p = pt_parse(state, "/// one\n//// not me\n/// two\nop A { }");
  pt_expect_clean(p);
  assert_string_equal(pt_op_at(p, 0)->doc->text, "one\ntwo");
}

static void test_ordinary_comment_does_not_document(void **state) {
  pt_parsed *p = pt_parse(state, "// plain\n/* block */\nop A { }");
  pt_expect_clean(p);
  assert_null(pt_op_at(p, 0)->doc);
}

static void test_doc_comment_belongs_to_next_op_only(void **state) {
  pt_parsed *p = pt_parse(state, "/// first\nop A { }\nop B { }\n/// third\nop C {}");
  pt_expect_clean(p);
  assert_string_equal(pt_op_at(p, 0)->doc->text, "first");
  assert_null(pt_op_at(p, 1)->doc);
  assert_string_equal(pt_op_at(p, 2)->doc->text, "third");
}

static const char stray_doc[] =
    "warning: doc comment documents nothing (it must precede an op, attr, "
    "input or output); ignored";

static void test_stray_doc_comment_before_flag_warns(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  /// Nothing.\n  stateful;\n}");
  char want[256];
  snprintf(want, sizeof want, "t.op:2:3: %s", stray_doc);
  pt_expect_diags(p, want);
  assert_int_equal(p->diag.warnings, 1);
  assert_int_equal(p->diag.errors, 0);
  assert_int_equal(pt_item_at(pt_op_at(p, 0), 0)->kind, OG_ITEM_STATEFUL);
}

static void test_stray_doc_comment_before_closing_brace_warns_once(
    void **state) {
  pt_parsed *p = pt_parse(state, "op A { /// dangling\n}");
  char want[256];
  snprintf(want, sizeof want, "t.op:1:8: %s", stray_doc);
  pt_expect_diags(p, want);
}

static void test_stray_doc_comment_at_end_of_file_warns(void **state) {
  pt_parsed *p = pt_parse(state, "op A { }\n/// trailing\n/// lines\n");
  char want[256];
  snprintf(want, sizeof want, "t.op:2:1: %s", stray_doc);
  pt_expect_diags(p, want);
}

static void test_stray_doc_comment_in_empty_file_warns(void **state) {
  pt_parsed *p = pt_parse(state, "/// alone");
  char want[256];
  snprintf(want, sizeof want, "t.op:1:1: %s", stray_doc);
  pt_expect_diags(p, want);
}

static void test_stray_doc_comment_before_package_warns(void **state) {
  pt_parsed *p = pt_parse(state, "/// pkg\npackage demo;\nop A { }");
  char want[256];
  snprintf(want, sizeof want, "t.op:1:1: %s", stray_doc);
  pt_expect_diags(p, want);
  assert_null(pt_op_at(p, 0)->doc);
}

/* ---- stray characters --------------------------------------------------- */

static void test_stray_at_sign(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a: int @;\n}");
  pt_expect_diags(p, "t.op:2:15: error: stray '@' in spec");
}

static void test_stray_utf8_letter_outside_string(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr caf\xc3\xa9: int; }");
  pt_expect_diags(p, "t.op:1:16: error: stray '\xc3\xa9' in spec");
}

static void test_stray_three_byte_utf8_character(void **state) {
  pt_parsed *p = pt_parse(state, "op A { \xe2\x82\xac }");
  pt_expect_diags(p, "t.op:1:8: error: stray '\xe2\x82\xac' in spec");
}

static void test_stray_truncated_utf8_sequence(void **state) {
  /* A lead byte without its continuation: one byte, shown in hex. */
  pt_parsed *p = pt_parse(state, "op A { \xc3 }");
  pt_expect_diags(p, "t.op:1:8: error: stray byte 0xc3 (not UTF-8) in spec");
}

static void test_stray_control_character(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\x01}");
  pt_expect_diags(p, "t.op:1:7: error: stray control character 0x01 in spec");
}

static void test_stray_nul_byte(void **state) {
  pt_parsed *p = pt_parse_n(state, "op A { \0 }", 10);
  pt_expect_diags(p, "t.op:1:8: error: stray control character 0x00 in spec");
}

static void test_stray_invalid_utf8_byte(void **state) {
  pt_parsed *p = pt_parse(state, "op A { \xff }");
  pt_expect_diags(p, "t.op:1:8: error: stray byte 0xff (not UTF-8) in spec");
}

static void test_stray_dot(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a.b: int; }");
  pt_expect_diags(p, "t.op:1:14: error: stray '.' in spec");
}

/* ---- whitespace and line endings ---------------------------------------- */

static void test_crlf_line_endings(void **state) {
  pt_parsed *p = pt_parse(state, "/// Doc.\r\n/// More.\r\nop A {\r\n"
                           "  attr a: string = 'x'; // c\r\n"
                           "  input b: T;\r\n}\r\n");
  pt_expect_clean(p);
  og_ast_op *op = pt_op_at(p, 0);
  assert_string_equal(op->doc->text, "Doc.\nMore.");
  assert_string_equal(pt_at(p, op->loc), "3:1");
  assert_string_equal(pt_at(p, pt_item_at(op, 0)->name_loc), "4:8");
  assert_string_equal(pt_item_at(op, 0)->default_value->s.ptr, "x");
  assert_string_equal(pt_at(p, pt_item_at(op, 1)->loc), "5:3");
}

static void test_crlf_error_position(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\r\n  attr a int;\r\n}\r\n");
  pt_expect_diags(p, "t.op:2:10: error: expected ':' before identifier 'int'");
}

static void test_tabs_and_form_feeds_are_whitespace(void **state) {
  pt_parsed *p = pt_parse(state, "op\tA\f{\vattr\ta:\tint;\n}");
  pt_expect_clean(p);
  assert_string_equal(pt_item_at(pt_op_at(p, 0), 0)->name, "a");
}

static void test_tokens_need_no_spaces(void **state) {
  pt_parsed *p = pt_parse(state, "op A{attr a:int>=-1=-1;input x:N*T;}");
  pt_expect_clean(p);
  og_ast_item *a = pt_item_at(pt_op_at(p, 0), 0);
  assert_true(a->minimum->i == -1);
  assert_true(a->default_value->i == -1);
  assert_string_equal(pt_item_at(pt_op_at(p, 0), 1)->io_type->number, "N");
}

static void test_empty_file(void **state) {
  pt_parsed *p = pt_parse(state, "");
  pt_expect_clean(p);
  assert_int_equal(pt_op_count(p), 0);
  assert_null(p->ast->package);
}

static void test_only_comments_and_whitespace(void **state) {
  pt_parsed *p = pt_parse(state, "  // x\n\n/* y */\r\n\t");
  pt_expect_clean(p);
  assert_int_equal(pt_op_count(p), 0);
}

#define T(fn) cmocka_unit_test_teardown(fn, pt_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(test_identifiers_with_underscores_and_digits),
      T(test_identifier_cannot_start_with_digit),
      T(test_keyword_input_shape_named_shape),
      T(test_keyword_attr_shape_of_type_shape),
      T(test_keyword_shape_statement_for_output_named_shape),
      T(test_keyword_attr_named_op),
      T(test_keyword_input_named_input),
      T(test_every_keyword_as_attr_input_and_output_name),
      T(test_every_keyword_as_type_value_and_expression_name),
      T(test_keyword_as_package_and_op_name),
      T(test_integer_decimal),
      T(test_integer_zero_and_leading_zeros),
      T(test_integer_negative),
      T(test_integer_int64_max),
      T(test_integer_int64_min),
      T(test_integer_overflow_is_reported_at_the_digits),
      T(test_integer_negative_overflow),
      T(test_integer_huge_overflow),
      T(test_integer_overflow_in_shape_expression),
      T(test_integer_followed_by_letters_is_invalid),
      T(test_float_forms),
      T(test_float_ignores_the_locale),
      T(test_float_value_range),
      T(test_float_inf_is_a_name),
      T(test_float_negative_inf_is_a_negated_name),
      T(test_float_nan_is_a_name),
      T(test_float_with_bad_exponent_is_invalid),
      T(test_string_single_quoted),
      T(test_string_double_quoted),
      T(test_string_empty),
      T(test_string_every_escape),
      T(test_string_escapes_in_single_quotes),
      T(test_string_hex_escape_takes_at_most_two_digits),
      T(test_string_octal_escape_takes_at_most_three_digits),
      T(test_string_nul_escape_keeps_length),
      T(test_string_keeps_utf8),
      T(test_string_value_range_includes_quotes),
      T(test_string_bad_escape_reported_at_the_escape),
      T(test_string_hex_escape_without_digits),
      T(test_string_octal_escape_over_255),
      T(test_string_unterminated_single_quote),
      T(test_string_unterminated_double_quote_at_eof),
      T(test_string_unterminated_after_trailing_backslash),
      T(test_line_comments_are_skipped),
      T(test_block_comments_are_skipped),
      T(test_block_comments_do_not_nest),
      T(test_unterminated_block_comment),
      T(test_unterminated_block_comment_ending_in_stars),
      T(test_doc_comment_on_op),
      T(test_doc_comment_multi_line_joined),
      T(test_doc_comment_without_space),
      T(test_doc_comment_on_attr_input_output),
      T(test_four_slashes_is_not_a_doc_comment),
      T(test_four_slashes_inside_doc_run_is_skipped),
      T(test_ordinary_comment_does_not_document),
      T(test_doc_comment_belongs_to_next_op_only),
      T(test_stray_doc_comment_before_flag_warns),
      T(test_stray_doc_comment_before_closing_brace_warns_once),
      T(test_stray_doc_comment_at_end_of_file_warns),
      T(test_stray_doc_comment_in_empty_file_warns),
      T(test_stray_doc_comment_before_package_warns),
      T(test_stray_at_sign),
      T(test_stray_utf8_letter_outside_string),
      T(test_stray_three_byte_utf8_character),
      T(test_stray_truncated_utf8_sequence),
      T(test_stray_control_character),
      T(test_stray_nul_byte),
      T(test_stray_invalid_utf8_byte),
      T(test_stray_dot),
      T(test_crlf_line_endings),
      T(test_crlf_error_position),
      T(test_tabs_and_form_feeds_are_whitespace),
      T(test_tokens_need_no_spaces),
      T(test_empty_file),
      T(test_only_comments_and_whitespace),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
