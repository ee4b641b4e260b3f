/* The grammar: every item form of the .op language, the AST it builds
 * with its source ranges, syntax error messages, and specs at scale. */
#include "parsetest.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The expression of `shape y = EXPR;` or `require EXPR;` (cleanly parsed). */
static og_ast_expr *parse_expr(void **state, const char *item) {
  og_ast_item *it = pt_parse_item(state, item);
  assert_non_null(it->expr);
  return it->expr;
}

static size_t value_count(const og_ast_value *v) {
  size_t n = 0;
  for (; v; v = v->next) n++;
  return n;
}

static og_ast_value *value_at(og_ast_value *v, size_t i) {
  while (v && i--) v = v->next;
  assert_non_null(v);
  return v;
}

static og_ast_expr *arg_at(og_ast_expr *e, size_t i) {
  while (e && i--) e = e->next;
  assert_non_null(e);
  return e;
}

static void expect_int_value(const og_ast_value *v, int64_t want) {
  assert_int_equal(v->kind, OG_AV_INT);
  assert_true(v->i == want);
}

static void expect_name_value(const og_ast_value *v, const char *want) {
  assert_int_equal(v->kind, OG_AV_NAME);
  assert_string_equal(v->name, want);
}

static void expect_name_expr(const og_ast_expr *e, const char *want) {
  assert_int_equal(e->kind, OG_EX_NAME);
  assert_string_equal(e->name, want);
}

static void expect_int_expr(const og_ast_expr *e, int64_t want) {
  assert_int_equal(e->kind, OG_EX_INT);
  assert_true(e->i == want);
}

static void expect_binary(const og_ast_expr *e, og_ast_binop op) {
  assert_int_equal(e->kind, OG_EX_BINARY);
  assert_int_equal(e->op, op);
  assert_non_null(e->lhs);
  assert_non_null(e->rhs);
}

/* The field of a message value, by position. */
static og_ast_field *field_at(const og_ast_value *msg, size_t i) {
  assert_int_equal(msg->kind, OG_AV_MESSAGE);
  og_ast_field *f = msg->fields;
  while (f && i--) f = f->next;
  assert_non_null(f);
  return f;
}

/* ---- file structure ----------------------------------------------------- */

static void test_package_is_optional(void **state) {
  pt_parsed *p = pt_parse(state, "op A { }");
  pt_expect_clean(p);
  assert_null(p->ast->package);
  assert_int_equal(pt_op_count(p), 1);
}

static void test_package_name_and_location(void **state) {
  pt_parsed *p = pt_parse(state, "// header\npackage demo;\nop A { }");
  pt_expect_clean(p);
  assert_string_equal(p->ast->package, "demo");
  assert_string_equal(pt_span(p, p->ast->package_loc), "2:9-2:13");
}

static void test_package_duplicate_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "package a;\npackage b;\nop A { }");
  pt_expect_diags(p, "t.op:2:1: error: duplicate package statement\n"
                  "t.op:1:9: note: package 'a' declared here");
  assert_string_equal(p->ast->package, "a");
  assert_int_equal(pt_op_count(p), 1);
}

static void test_package_after_an_op_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { }\npackage late;\nop B { }");
  pt_expect_diags(p, "t.op:2:1: error: package statement must come before the "
                  "first op");
  assert_int_equal(pt_op_count(p), 2);
}

static void test_package_without_name(void **state) {
  pt_parsed *p = pt_parse(state, "package;\nop A { }");
  pt_expect_diags(p, "t.op:1:8: error: expected identifier before ';'");
  assert_null(p->ast->package);
  assert_int_equal(pt_op_count(p), 1);
}

static void test_many_ops_in_source_order(void **state) {
  pt_parsed *p = pt_parse(state, "package p;\nop A { }\nop B { stateful; }\n"
                           "op C {\n}\n");
  pt_expect_clean(p);
  assert_int_equal(pt_op_count(p), 3);
  assert_string_equal(pt_op_at(p, 0)->name, "A");
  assert_null(pt_op_at(p, 0)->items);
  assert_string_equal(pt_op_at(p, 1)->name, "B");
  assert_string_equal(pt_op_at(p, 2)->name, "C");
  assert_false(pt_op_at(p, 1)->has_syntax_error);
}

static void test_op_and_item_locations(void **state) {
  pt_parsed *p = pt_parse(state, "op ZeroOut {\n"
                           "  attr T: {float, int32} = DT_INT32;\n"
                           "  input to_zero: T;\n"
                           "  output zeroed: T;\n"
                           "  shape zeroed = to_zero;\n"
                           "}\n");
  pt_expect_clean(p);
  og_ast_op *op = pt_op_at(p, 0);
  assert_string_equal(pt_span(p, op->loc), "1:1-1:3");
  assert_string_equal(pt_span(p, op->name_loc), "1:4-1:11");
  og_ast_item *attr = pt_item_at(op, 0);
  assert_string_equal(pt_span(p, attr->loc), "2:3-2:7");
  assert_string_equal(pt_span(p, attr->name_loc), "2:8-2:9");
  assert_string_equal(pt_span(p, attr->attr_type->loc), "2:11-2:25");
  assert_string_equal(pt_span(p, attr->default_value->loc), "2:28-2:36");
  og_ast_item *in = pt_item_at(op, 1);
  assert_string_equal(pt_span(p, in->name_loc), "3:9-3:16");
  assert_string_equal(pt_span(p, in->io_type->loc), "3:18-3:19");
  assert_string_equal(pt_span(p, in->io_type->type_loc), "3:18-3:19");
  og_ast_item *out = pt_item_at(op, 2);
  assert_string_equal(pt_span(p, out->loc), "4:3-4:9");
  assert_string_equal(pt_span(p, out->name_loc), "4:10-4:16");
  og_ast_item *sh = pt_item_at(op, 3);
  assert_string_equal(pt_span(p, sh->name_loc), "5:9-5:15");
  assert_string_equal(pt_span(p, sh->expr->loc), "5:18-5:25");
}

static void test_locations_carry_the_file_index(void **state) {
  pt_parsed *p = calloc(1, sizeof *p);
  assert_non_null(p);
  *state = p;
  og_sources_init(&p->sources);
  og_arena_init(&p->arena);
  og_sources_add(&p->sources, "first.op", "op A { }", 8);
  const char *text = "op B {\n  input x: T;\n  attr a int;\n}";
  uint32_t file = og_sources_add(&p->sources, "second.op", text, strlen(text));
  og_diag_init(&p->diag, &p->sources, tu_diags_sink, &p->diags);
  p->ast = og_parse(&p->arena, &p->sources, file, &p->diag);
  pt_expect_diags(p, "second.op:3:10: error: expected ':' before identifier "
                  "'int'");
  assert_int_equal(p->ast->file, 1);
  og_ast_op *op = pt_op_at(p, 0);
  assert_int_equal(op->loc.file, 1);
  assert_int_equal(op->name_loc.file, 1);
  assert_int_equal(pt_item_at(op, 0)->io_type->loc.file, 1);
  assert_string_equal(pt_span(p, pt_item_at(op, 0)->name_loc), "2:9-2:10");
}

static void test_items_kept_in_source_order(void **state) {
  pt_parsed *p = pt_parse(state, "op A { output y: T; stateful; attr T: type; "
                           "input x: T; shape y = x; }");
  pt_expect_clean(p);
  og_ast_op *op = pt_op_at(p, 0);
  assert_int_equal(pt_item_at(op, 0)->kind, OG_ITEM_OUTPUT);
  assert_int_equal(pt_item_at(op, 1)->kind, OG_ITEM_STATEFUL);
  assert_int_equal(pt_item_at(op, 2)->kind, OG_ITEM_ATTR);
  assert_int_equal(pt_item_at(op, 3)->kind, OG_ITEM_INPUT);
  assert_int_equal(pt_item_at(op, 4)->kind, OG_ITEM_SHAPE);
  assert_null(pt_item_at(op, 4)->next);
}

/* ---- attr types --------------------------------------------------------- */

static void test_attr_type_plain_names(void **state) {
  static const char *const names[] = {"string", "int",   "float",
                                      "bool",   "type",  "shape",
                                      "tensor", "func",  "numbertype",
                                      "realnumbertype", "quantizedtype"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char item[64];
    snprintf(item, sizeof item, "attr a: %s;", names[i]);
    og_ast_item *it = pt_parse_item(state, item);
    assert_int_equal(it->attr_type->kind, OG_AT_NAME);
    assert_string_equal(it->attr_type->name, names[i]);
    assert_null(it->minimum);
    assert_null(it->default_value);
    pt_reset(state);
  }
}

static void test_attr_type_list(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: list(int); }");
  pt_expect_clean(p);
  og_ast_attr_type *t = pt_item_at(pt_op_at(p, 0), 0)->attr_type;
  assert_int_equal(t->kind, OG_AT_LIST);
  assert_string_equal(t->name, "list");
  assert_string_equal(pt_span(p, t->name_loc), "1:16-1:20");
  assert_string_equal(pt_span(p, t->loc), "1:16-1:25");
  assert_int_equal(t->inner->kind, OG_AT_NAME);
  assert_string_equal(t->inner->name, "int");
  assert_string_equal(pt_span(p, t->inner->loc), "1:21-1:24");
}

static void test_attr_type_list_of_each_form(void **state) {
  og_ast_item *it = pt_parse_item(state, "attr a: list(numbertype);");
  assert_string_equal(it->attr_type->inner->name, "numbertype");
  pt_reset(state);
  it = pt_parse_item(state, "attr a: list({int32, float});");
  assert_int_equal(it->attr_type->inner->kind, OG_AT_SET);
  assert_int_equal(value_count(it->attr_type->inner->elems), 2);
  pt_reset(state);
  it = pt_parse_item(state, "attr a: list({'x', 'y'});");
  assert_int_equal(it->attr_type->inner->elems->kind, OG_AV_STRING);
}

static void test_attr_type_list_of_list_parses(void **state) {
  /* The grammar accepts it; sema reports list(list(...)). */
  og_ast_item *it = pt_parse_item(state, "attr a: list(list(int));");
  assert_int_equal(it->attr_type->kind, OG_AT_LIST);
  assert_int_equal(it->attr_type->inner->kind, OG_AT_LIST);
  assert_string_equal(it->attr_type->inner->inner->name, "int");
}

static void test_attr_type_set_of_types_with_trailing_comma(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr T: {float, double, int32,}; }");
  pt_expect_clean(p);
  og_ast_attr_type *t = pt_item_at(pt_op_at(p, 0), 0)->attr_type;
  assert_int_equal(t->kind, OG_AT_SET);
  assert_string_equal(pt_span(p, t->loc), "1:16-1:39");
  assert_int_equal(value_count(t->elems), 3);
  expect_name_value(value_at(t->elems, 0), "float");
  expect_name_value(value_at(t->elems, 1), "double");
  expect_name_value(value_at(t->elems, 2), "int32");
  assert_string_equal(pt_span(p, value_at(t->elems, 1)->loc), "1:24-1:30");
}

static void test_attr_type_set_of_strings_both_quotes(void **state) {
  og_ast_item *it = pt_parse_item(state, "attr mode: {'SAME', \"VALID\",};");
  og_ast_value *e = it->attr_type->elems;
  assert_int_equal(value_count(e), 2);
  assert_int_equal(e->kind, OG_AV_STRING);
  assert_string_equal(e->s.ptr, "SAME");
  assert_int_equal(e->next->kind, OG_AV_STRING);
  assert_string_equal(e->next->s.ptr, "VALID");
}

static void test_attr_type_set_mixing_shortcuts(void **state) {
  og_ast_item *it = pt_parse_item(state, "attr T: {numbertype, bool};");
  expect_name_value(value_at(it->attr_type->elems, 0), "numbertype");
  expect_name_value(value_at(it->attr_type->elems, 1), "bool");
}

static void test_attr_type_single_element_set(void **state) {
  og_ast_item *it = pt_parse_item(state, "attr T: {DT_FLOAT};");
  assert_int_equal(value_count(it->attr_type->elems), 1);
  expect_name_value(it->attr_type->elems, "DT_FLOAT");
}

static void test_attr_type_empty_set_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr T: {}; }");
  pt_expect_diags(p, "t.op:1:17: error: expected identifier or string literal "
                  "before '}'");
}

static void test_attr_type_set_with_double_comma_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr T: {int32,, float}; }");
  pt_expect_diags(p, "t.op:1:23: error: expected '}' before ','");
}

/* ---- minimums ----------------------------------------------------------- */

static void test_minimum_on_int(void **state) {
  og_ast_item *it = pt_parse_item(state, "attr n: int >= 0;");
  expect_int_value(it->minimum, 0);
  assert_null(it->default_value);
}

static void test_minimum_negative(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr n: int >= -2; }");
  pt_expect_clean(p);
  og_ast_value *m = pt_item_at(pt_op_at(p, 0), 0)->minimum;
  expect_int_value(m, -2);
  assert_string_equal(pt_span(p, m->loc), "1:23-1:25");
}

static void test_minimum_on_list_then_default(void **state) {
  og_ast_item *it = pt_parse_item(state, "attr l: list(int) >= 2 = [1, 2];");
  expect_int_value(it->minimum, 2);
  assert_int_equal(it->default_value->kind, OG_AV_LIST);
}

static void test_minimum_must_be_an_integer(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr n: int >= x; }");
  pt_expect_diags(p, "t.op:1:23: error: expected integer or '-' before "
                  "identifier 'x'");
}

/* ---- defaults ----------------------------------------------------------- */

static void test_default_int(void **state) {
  expect_int_value(pt_parse_default(state, "int", "0"), 0);
  pt_reset(state);
  expect_int_value(pt_parse_default(state, "int", "-3"), -3);
}

static void test_default_integer_for_float(void **state) {
  expect_int_value(pt_parse_default(state, "float", "2"), 2);
}

static void test_default_float(void **state) {
  og_ast_value *v = pt_parse_default(state, "float", "1.0");
  assert_int_equal(v->kind, OG_AV_FLOAT);
  assert_true(v->f == 1.0);
}

static void test_default_string_both_quotes(void **state) {
  og_ast_value *v = pt_parse_default(state, "string", "'foo'");
  assert_int_equal(v->kind, OG_AV_STRING);
  assert_string_equal(v->s.ptr, "foo");
  pt_reset(state);
  v = pt_parse_default(state, "string", "\"foo\"");
  assert_string_equal(v->s.ptr, "foo");
}

static void test_default_bool(void **state) {
  expect_name_value(pt_parse_default(state, "bool", "true"), "true");
  pt_reset(state);
  expect_name_value(pt_parse_default(state, "bool", "false"), "false");
}

static void test_default_type_both_spellings(void **state) {
  expect_name_value(pt_parse_default(state, "type", "DT_INT32"), "DT_INT32");
  pt_reset(state);
  expect_name_value(pt_parse_default(state, "type", "int32"), "int32");
}

static void test_default_shape_list(void **state) {
  og_ast_value *v = pt_parse_default(state, "shape", "[2, 3]");
  assert_int_equal(v->kind, OG_AV_LIST);
  assert_int_equal(value_count(v->items), 2);
  expect_int_value(value_at(v->items, 0), 2);
  expect_int_value(value_at(v->items, 1), 3);
}

static void test_default_shape_scalar_empty_list(void **state) {
  og_ast_value *v = pt_parse_default(state, "shape", "[]");
  assert_int_equal(v->kind, OG_AV_LIST);
  assert_null(v->items);
}

static void test_default_shape_unknown_dim(void **state) {
  og_ast_value *v = pt_parse_default(state, "shape", "[?, 3]");
  assert_int_equal(value_at(v->items, 0)->kind, OG_AV_UNKNOWN);
  expect_int_value(value_at(v->items, 1), 3);
  pt_reset(state);
  v = pt_parse_default(state, "shape", "[-1, 3]");
  expect_int_value(value_at(v->items, 0), -1);
}

static void test_default_shape_unknown_rank(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr s: shape = ?; }");
  pt_expect_clean(p);
  og_ast_value *v = pt_first_default(p);
  assert_int_equal(v->kind, OG_AV_UNKNOWN);
  assert_string_equal(pt_span(p, v->loc), "1:24-1:25");
}

static void test_default_shape_tf_text(void **state) {
  og_ast_value *v =
      pt_parse_default(state, "shape", "{ dim { size: 2 } dim { size: 3 } }");
  assert_int_equal(v->kind, OG_AV_MESSAGE);
  og_ast_field *d0 = field_at(v, 0), *d1 = field_at(v, 1);
  assert_null(d1->next);
  assert_string_equal(d0->name, "dim");
  assert_string_equal(d1->name, "dim");
  assert_string_equal(field_at(d0->value, 0)->name, "size");
  expect_int_value(field_at(d0->value, 0)->value, 2);
  expect_int_value(field_at(d1->value, 0)->value, 3);
}

static void test_default_shape_tf_text_unknown_rank(void **state) {
  og_ast_value *v = pt_parse_default(state, "shape", "{ unknown_rank: true }");
  og_ast_field *f = field_at(v, 0);
  assert_string_equal(f->name, "unknown_rank");
  expect_name_value(f->value, "true");
  assert_null(f->next);
}

static void test_default_tensor_tf_text(void **state) {
  og_ast_value *v = pt_parse_default(state, "tensor", "{ dtype: DT_INT32 int_val: 5 }");
  assert_string_equal(field_at(v, 0)->name, "dtype");
  expect_name_value(field_at(v, 0)->value, "DT_INT32");
  assert_string_equal(field_at(v, 1)->name, "int_val");
  expect_int_value(field_at(v, 1)->value, 5);
}

static void test_default_tensor_with_shape_and_values(void **state) {
  og_ast_value *v = pt_parse_default(
      state, "tensor",
      "{ dtype: DT_FLOAT tensor_shape { dim { size: 2 } } "
      "float_val: 1.5, float_val: -2.0 }");
  assert_string_equal(field_at(v, 1)->name, "tensor_shape");
  og_ast_value *shape = field_at(v, 1)->value;
  expect_int_value(field_at(field_at(shape, 0)->value, 0)->value, 2);
  assert_true(field_at(v, 2)->value->f == 1.5);
  assert_true(field_at(v, 3)->value->f == -2.0);
}

static void test_default_func(void **state) {
  og_ast_value *v = pt_parse_default(state, "func", "{ name: 'f' }");
  assert_string_equal(field_at(v, 0)->name, "name");
  assert_string_equal(field_at(v, 0)->value->s.ptr, "f");
}

static void test_default_empty_message(void **state) {
  og_ast_value *v = pt_parse_default(state, "func", "{}");
  assert_int_equal(v->kind, OG_AV_MESSAGE);
  assert_null(v->fields);
}

static void test_default_message_locations(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr s: shape = { dim { size: 2 } }; }");
  pt_expect_clean(p);
  og_ast_value *v = pt_first_default(p);
  assert_string_equal(pt_span(p, v->loc), "1:24-1:43");
  og_ast_field *dim = field_at(v, 0);
  assert_string_equal(pt_span(p, dim->name_loc), "1:26-1:29");
  assert_string_equal(pt_span(p, dim->value->loc), "1:30-1:41");
  og_ast_field *size = field_at(dim->value, 0);
  assert_string_equal(pt_span(p, size->name_loc), "1:32-1:36");
  assert_string_equal(pt_span(p, size->value->loc), "1:38-1:39");
}

static void test_default_lists(void **state) {
  og_ast_value *v = pt_parse_default(state, "list(int)", "[2, 3, 5]");
  assert_int_equal(value_count(v->items), 3);
  expect_int_value(value_at(v->items, 2), 5);
  pt_reset(state);
  v = pt_parse_default(state, "list(string)", "['a', \"b\"]");
  assert_string_equal(value_at(v->items, 1)->s.ptr, "b");
  pt_reset(state);
  v = pt_parse_default(state, "list(type)", "[int32, float]");
  expect_name_value(value_at(v->items, 0), "int32");
  expect_name_value(value_at(v->items, 1), "float");
  pt_reset(state);
  v = pt_parse_default(state, "list(int)", "[]");
  assert_int_equal(v->kind, OG_AV_LIST);
  assert_null(v->items);
}

static void test_default_nested_lists(void **state) {
  og_ast_value *v = pt_parse_default(state, "list(shape)", "[[2, 3], []]");
  assert_int_equal(value_count(v->items), 2);
  og_ast_value *first = value_at(v->items, 0), *second = value_at(v->items, 1);
  assert_int_equal(first->kind, OG_AV_LIST);
  assert_int_equal(value_count(first->items), 2);
  expect_int_value(value_at(first->items, 1), 3);
  assert_int_equal(second->kind, OG_AV_LIST);
  assert_null(second->items);
}

static void test_default_list_with_trailing_comma(void **state) {
  og_ast_value *v = pt_parse_default(state, "list(int)", "[1, 2,]");
  assert_int_equal(value_count(v->items), 2);
}

static void test_default_list_locations(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr l: list(int) = [1, -2]; }");
  pt_expect_clean(p);
  og_ast_value *v = pt_first_default(p);
  assert_string_equal(pt_span(p, v->loc), "1:28-1:35");
  assert_string_equal(pt_span(p, value_at(v->items, 1)->loc), "1:32-1:34");
}

static void test_default_list_with_leading_comma_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr l: list(int) = [, 1]; }");
  pt_expect_diags(p, "t.op:1:29: error: expected ']' before ','");
}

static void test_default_missing_value_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: int = ; }");
  pt_expect_diags(p, "t.op:1:22: error: unexpected ';'");
}

/* ---- inputs and outputs ------------------------------------------------- */

static void test_io_type_attr_name(void **state) {
  og_ast_io_type *t = pt_parse_item(state, "input x: T;")->io_type;
  assert_false(t->is_ref);
  assert_null(t->number);
  assert_string_equal(t->type, "T");
}

static void test_io_type_dtype(void **state) {
  og_ast_item *it = pt_parse_item(state, "output y: int32;");
  assert_int_equal(it->kind, OG_ITEM_OUTPUT);
  assert_string_equal(it->io_type->type, "int32");
  assert_null(it->io_type->number);
}

static void test_io_type_number_times_attr(void **state) {
  pt_parsed *p = pt_parse(state, "op A { input x: N * T; }");
  pt_expect_clean(p);
  og_ast_io_type *t = pt_item_at(pt_op_at(p, 0), 0)->io_type;
  assert_string_equal(t->number, "N");
  assert_string_equal(t->type, "T");
  assert_false(t->is_ref);
  assert_string_equal(pt_span(p, t->loc), "1:17-1:22");
  assert_string_equal(pt_span(p, t->number_loc), "1:17-1:18");
  assert_string_equal(pt_span(p, t->type_loc), "1:21-1:22");
}

static void test_io_type_number_times_dtype(void **state) {
  og_ast_io_type *t = pt_parse_item(state, "input x: N * int32;")->io_type;
  assert_string_equal(t->number, "N");
  assert_string_equal(t->type, "int32");
}

static void test_io_type_ref(void **state) {
  pt_parsed *p = pt_parse(state, "op A { input x: Ref(T); }");
  pt_expect_clean(p);
  og_ast_io_type *t = pt_item_at(pt_op_at(p, 0), 0)->io_type;
  assert_true(t->is_ref);
  assert_null(t->number);
  assert_string_equal(t->type, "T");
  assert_string_equal(pt_span(p, t->loc), "1:17-1:23");
  assert_string_equal(pt_span(p, t->type_loc), "1:21-1:22");
}

static void test_io_type_ref_of_list(void **state) {
  og_ast_io_type *t = pt_parse_item(state, "output y: Ref(N * T);")->io_type;
  assert_true(t->is_ref);
  assert_string_equal(t->number, "N");
  assert_string_equal(t->type, "T");
}

static void test_io_type_unknown_constructor(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  input x: Foo(T);\n}");
  pt_expect_diags(p, "t.op:2:12: error: unknown type constructor 'Foo' (only "
                  "Ref(...) wraps an input or output type)");
  assert_int_equal(pt_op_count(p), 1);
}

static void test_io_type_ref_is_case_sensitive(void **state) {
  pt_parsed *p = pt_parse(state, "op A { output y: ref(T); }");
  pt_expect_diags(p, "t.op:1:18: error: unknown type constructor 'ref' (only "
                  "Ref(...) wraps an input or output type)");
}

static void test_io_type_ref_of_ref_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { input x: Ref(Ref(T)); }");
  pt_expect_diags(p, "t.op:1:24: error: expected ')' before '('");
}

static void test_io_type_missing_after_star(void **state) {
  pt_parsed *p = pt_parse(state, "op A { input x: N * ; }");
  pt_expect_diags(p, "t.op:1:21: error: expected identifier before ';'");
}

/* ---- flags and deprecation ---------------------------------------------- */

static void test_flags(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  stateful;\n  commutative;\n"
                           "  aggregate;\n  allows_uninitialized_input;\n}");
  pt_expect_clean(p);
  og_ast_op *op = pt_op_at(p, 0);
  assert_int_equal(pt_item_at(op, 0)->kind, OG_ITEM_STATEFUL);
  assert_int_equal(pt_item_at(op, 1)->kind, OG_ITEM_COMMUTATIVE);
  assert_int_equal(pt_item_at(op, 2)->kind, OG_ITEM_AGGREGATE);
  assert_int_equal(pt_item_at(op, 3)->kind, OG_ITEM_ALLOWS_UNINITIALIZED_INPUT);
  assert_string_equal(pt_span(p, pt_item_at(op, 3)->loc), "5:3-5:29");
  assert_null(pt_item_at(op, 0)->name);
}

static void test_flag_with_argument_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { stateful true; }");
  pt_expect_diags(p, "t.op:1:17: error: expected ';' before identifier 'true'");
}

static void test_deprecated(void **state) {
  pt_parsed *p = pt_parse(state, "op A { deprecated 3 \"why\"; }");
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_int_equal(it->kind, OG_ITEM_DEPRECATED);
  expect_int_value(it->version, 3);
  assert_string_equal(pt_span(p, it->version->loc), "1:19-1:20");
  assert_int_equal(it->explanation->kind, OG_AV_STRING);
  assert_string_equal(it->explanation->s.ptr, "why");
  assert_string_equal(pt_span(p, it->explanation->loc), "1:21-1:26");
}

static void test_deprecated_without_version_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { deprecated 'why'; }");
  pt_expect_diags(p, "t.op:1:19: error: expected integer or '-' before string "
                  "literal");
}

static void test_deprecated_without_explanation_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { deprecated 3; }");
  pt_expect_diags(p, "t.op:1:20: error: expected string literal before ';'");
}

/* ---- shape statements --------------------------------------------------- */

static void test_shape_same_as_input(void **state) {
  og_ast_item *it = pt_parse_item(state, "shape out = to_zero;");
  assert_int_equal(it->kind, OG_ITEM_SHAPE);
  assert_string_equal(it->name, "out");
  expect_name_expr(it->expr, "to_zero");
}

static void test_shape_list_of_dims(void **state) {
  pt_parsed *p = pt_parse(state, "op A { shape out = [dim(x, 0), 3]; }");
  pt_expect_clean(p);
  og_ast_expr *e = pt_item_at(pt_op_at(p, 0), 0)->expr;
  assert_int_equal(e->kind, OG_EX_LIST);
  assert_string_equal(pt_span(p, e->loc), "1:20-1:34");
  og_ast_expr *dim = arg_at(e->args, 0);
  assert_int_equal(dim->kind, OG_EX_CALL);
  assert_string_equal(dim->name, "dim");
  assert_string_equal(pt_span(p, dim->name_loc), "1:21-1:24");
  assert_string_equal(pt_span(p, dim->loc), "1:21-1:30");
  expect_name_expr(arg_at(dim->args, 0), "x");
  expect_int_expr(arg_at(dim->args, 1), 0);
  assert_null(arg_at(dim->args, 1)->next);
  expect_int_expr(arg_at(e->args, 1), 3);
  assert_null(arg_at(e->args, 1)->next);
}

static void test_shape_arithmetic_precedence(void **state) {
  pt_parsed *p = pt_parse(state,
                    "op A { shape out = [dim(x,0) * dim(x,1) + 1]; }");
  pt_expect_clean(p);
  og_ast_expr *sum = pt_item_at(pt_op_at(p, 0), 0)->expr->args;
  expect_binary(sum, OG_OP_ADD);
  assert_string_equal(pt_span(p, sum->loc), "1:21-1:44");
  expect_binary(sum->lhs, OG_OP_MUL);
  assert_string_equal(sum->lhs->lhs->name, "dim");
  assert_string_equal(sum->lhs->rhs->name, "dim");
  expect_int_expr(sum->rhs, 1);
}

static void test_shape_multiplication_binds_tighter_on_the_right(
    void **state) {
  og_ast_expr *e = parse_expr(state, "shape y = [1 + 2 * 3 / 4];")->args;
  expect_binary(e, OG_OP_ADD);
  expect_int_expr(e->lhs, 1);
  expect_binary(e->rhs, OG_OP_DIV);
  expect_binary(e->rhs->lhs, OG_OP_MUL);
}

static void test_shape_subtraction_is_left_associative(void **state) {
  og_ast_expr *e = parse_expr(state, "shape y = [a - b - c];")->args;
  expect_binary(e, OG_OP_SUB);
  expect_binary(e->lhs, OG_OP_SUB);
  expect_name_expr(e->lhs->lhs, "a");
  expect_name_expr(e->rhs, "c");
}

static void test_shape_parentheses_override_precedence(void **state) {
  og_ast_expr *e = parse_expr(state, "shape y = [(a + b) * c];")->args;
  expect_binary(e, OG_OP_MUL);
  expect_binary(e->lhs, OG_OP_ADD);
}

static void test_shape_unary_minus(void **state) {
  og_ast_expr *e = parse_expr(state, "shape y = [-a * b, -1];")->args;
  expect_binary(e, OG_OP_MUL);
  assert_int_equal(e->lhs->kind, OG_EX_NEG);
  expect_name_expr(e->lhs->lhs, "a");
  og_ast_expr *neg = e->next;
  assert_int_equal(neg->kind, OG_EX_NEG);
  expect_int_expr(neg->lhs, 1);
}

static void test_shape_merge(void **state) {
  og_ast_expr *e = parse_expr(state, "shape out = merge(in);");
  assert_int_equal(e->kind, OG_EX_CALL);
  assert_string_equal(e->name, "merge");
  expect_name_expr(e->args, "in");
  assert_null(e->args->next);
}

static void test_shape_broadcast(void **state) {
  og_ast_expr *e = parse_expr(state, "shape z = broadcast(x, y);");
  assert_string_equal(e->name, "broadcast");
  expect_name_expr(arg_at(e->args, 0), "x");
  expect_name_expr(arg_at(e->args, 1), "y");
}

static void test_shape_scalar(void **state) {
  og_ast_expr *e = parse_expr(state, "shape out = [];");
  assert_int_equal(e->kind, OG_EX_LIST);
  assert_null(e->args);
}

static void test_shape_unknown(void **state) {
  og_ast_expr *e = parse_expr(state, "shape out = ?;");
  assert_int_equal(e->kind, OG_EX_UNKNOWN);
}

static void test_shape_unknown_dim_in_list(void **state) {
  og_ast_expr *e = parse_expr(state, "shape out = [?, 2];");
  assert_int_equal(e->args->kind, OG_EX_UNKNOWN);
  expect_int_expr(e->args->next, 2);
}

static void test_shape_from_attr(void **state) {
  og_ast_expr *e = parse_expr(state, "shape out = attr(s);");
  assert_int_equal(e->kind, OG_EX_CALL);
  assert_string_equal(e->name, "attr");
  expect_name_expr(e->args, "s");
}

static void test_shape_call_without_arguments(void **state) {
  og_ast_expr *e = parse_expr(state, "shape out = f();");
  assert_int_equal(e->kind, OG_EX_CALL);
  assert_null(e->args);
}

static void test_shape_without_equals_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { shape out x; }");
  pt_expect_diags(p, "t.op:1:18: error: expected '[' or '=' before identifier 'x'");
}

static void test_shape_without_expression_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { shape out = ; }");
  pt_expect_diags(p, "t.op:1:20: error: unexpected ';'");
}

/* ---- requirements ------------------------------------------------------- */

static void test_require_rank_equals(void **state) {
  pt_parsed *p = pt_parse(state, "op A { require rank(x) == 1; }");
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_int_equal(it->kind, OG_ITEM_REQUIRE);
  assert_null(it->name);
  expect_binary(it->expr, OG_OP_EQ);
  assert_string_equal(pt_span(p, it->expr->loc), "1:16-1:28");
  assert_string_equal(it->expr->lhs->name, "rank");
  expect_int_expr(it->expr->rhs, 1);
}

static void test_require_comparisons(void **state) {
  static const struct {
    const char *text;
    og_ast_binop op;
  } cases[] = {
      {"require rank(x) >= 2;", OG_OP_GE}, {"require rank(x) <= 2;", OG_OP_LE},
      {"require rank(x) != 2;", OG_OP_NE}, {"require rank(x) < 2;", OG_OP_LT},
      {"require rank(x) > 2;", OG_OP_GT},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    og_ast_expr *e = parse_expr(state, cases[i].text);
    expect_binary(e, cases[i].op);
    expect_int_expr(e->rhs, 2);
    pt_reset(state);
  }
}

static void test_require_in_range(void **state) {
  pt_parsed *p = pt_parse(state, "op A { require rank(x) in [1, 3]; }");
  pt_expect_clean(p);
  og_ast_expr *e = pt_item_at(pt_op_at(p, 0), 0)->expr;
  assert_int_equal(e->kind, OG_EX_IN);
  assert_string_equal(pt_span(p, e->loc), "1:16-1:33");
  assert_string_equal(e->lhs->name, "rank");
  expect_int_expr(e->rhs, 1);
  expect_int_expr(e->rhs->next, 3);
  assert_null(e->rhs->next->next);
}

static void test_require_same(void **state) {
  og_ast_expr *e = parse_expr(state, "require same(a, b);");
  assert_int_equal(e->kind, OG_EX_CALL);
  assert_string_equal(e->name, "same");
  expect_name_expr(arg_at(e->args, 0), "a");
  expect_name_expr(arg_at(e->args, 1), "b");
}

static void test_require_dims_equal(void **state) {
  og_ast_expr *e = parse_expr(state, "require dim(a, 1) == dim(b, 0);");
  expect_binary(e, OG_OP_EQ);
  assert_string_equal(e->lhs->name, "dim");
  assert_string_equal(e->rhs->name, "dim");
}

static void test_require_arithmetic_binds_tighter_than_comparison(
    void **state) {
  og_ast_expr *e = parse_expr(state, "require dim(a, 0) + 1 >= 2 * 3;");
  expect_binary(e, OG_OP_GE);
  expect_binary(e->lhs, OG_OP_ADD);
  expect_binary(e->rhs, OG_OP_MUL);
}

static void test_require_in_needs_two_bounds(void **state) {
  pt_parsed *p = pt_parse(state, "op A { require rank(x) in [1]; }");
  pt_expect_diags(p, "t.op:1:29: error: unexpected ']'");
}

static void test_shape_fn(void **state) {
  pt_parsed *p = pt_parse(state, "op A { shape_fn my_fn; }");
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_int_equal(it->kind, OG_ITEM_SHAPE_FN);
  assert_string_equal(it->name, "my_fn");
  assert_string_equal(pt_span(p, it->name_loc), "1:17-1:22");
  assert_null(it->expr);
}

/* ---- shape language version 2 ---- */

static void test_let_without_parameters(void **state) {
  pt_parsed *p = pt_parse(state, "op A { let m = value(x); }");
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_int_equal(it->kind, OG_ITEM_LET);
  assert_string_equal(it->name, "m");
  assert_null(it->params);
  assert_int_equal(it->expr->kind, OG_EX_CALL);
}

static void test_let_with_parameters(void **state) {
  pt_parsed *p = pt_parse(state, "op A { let f(k, j) = k + j; }");
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_string_equal(it->params->name, "k");
  assert_string_equal(it->params->next->name, "j");
  assert_string_equal(pt_span(p, it->params->next->loc), "1:17-1:18");
  assert_null(it->params->next->next);
  pt_reset(state);
  p = pt_parse(state, "op A { let f() = 1; }");
  pt_expect_diags(p, "t.op:1:14: error: expected identifier before ')'");
}

static void test_shape_of_one_tensor_of_a_list_output(void **state) {
  pt_parsed *p = pt_parse(state, "op A { shape out[i] = x[i]; }");
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_string_equal(it->name, "out");
  assert_string_equal(it->index_name, "i");
  assert_string_equal(pt_span(p, it->index_loc), "1:18-1:19");
  assert_int_equal(it->expr->kind, OG_EX_INDEX);
}

static void test_slices_with_missing_bounds(void **state) {
  static const char *const items[] = {"shape y = x[1:2];", "shape y = x[1:];",
                                      "shape y = x[:2];", "shape y = x[:];"};
  for (int i = 0; i < 4; i++) {
    og_ast_expr *e = parse_expr(state, items[i]);
    assert_int_equal(e->kind, OG_EX_SLICE);
    expect_name_expr(e->lhs, "x");
    assert_true((e->rhs != NULL) == (i < 2));
    assert_true((e->third != NULL) == (i % 2 == 0));
    pt_reset(state);
  }
}

static void test_comprehension_and_fold(void **state) {
  og_ast_expr *e = parse_expr(state, "shape y = [dim(x, k) for k < rank(x) if k != 0];");
  assert_int_equal(e->kind, OG_EX_COMPREHENSION);
  assert_null(e->name);
  assert_string_equal(e->bound, "k");
  assert_int_equal(e->lhs->kind, OG_EX_CALL);
  assert_int_equal(e->rhs->kind, OG_EX_CALL);
  expect_binary(e->third, OG_OP_NE);
  pt_reset(state);
  e = parse_expr(state, "require all(k >= 0 for k < 3);");
  assert_int_equal(e->kind, OG_EX_COMPREHENSION);
  assert_string_equal(e->name, "all");
  assert_null(e->third);
}

static void test_conditional_and_unknown_operand(void **state) {
  og_ast_expr *e = parse_expr(state, "shape y = [c ? ? : 1];");
  og_ast_expr *c = e->args;
  assert_int_equal(c->kind, OG_EX_COND);
  expect_name_expr(c->lhs, "c");
  assert_int_equal(c->rhs->kind, OG_EX_UNKNOWN);
  expect_int_expr(c->third, 1);
}

static void test_logic_string_and_concat(void **state) {
  og_ast_expr *e = parse_expr(state, "require !a || attr(s) == 'NCHW' && b;");
  expect_binary(e, OG_OP_OR);
  assert_int_equal(e->lhs->kind, OG_EX_NOT);
  expect_binary(e->rhs, OG_OP_AND);
  assert_int_equal(e->rhs->lhs->rhs->kind, OG_EX_STRING);
  assert_string_equal(e->rhs->lhs->rhs->name, "NCHW");
  pt_reset(state);
  e = parse_expr(state, "shape y = a ++ b[1:] ++ [2 % 3];");
  expect_binary(e, OG_OP_CONCAT);
  expect_binary(e->lhs, OG_OP_CONCAT);
}

static void test_new_keywords_are_names(void **state) {
  pt_parsed *p = pt_parse(state, "op A { input let: float; input for: float; "
                                 "input if: float; shape let = for ++ if; }");
  pt_expect_clean(p);
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 3);
  assert_string_equal(it->name, "let");
  expect_name_expr(it->expr->lhs, "for");
  expect_name_expr(it->expr->rhs, "if");
}

static void test_comparison_chain_is_an_error(void **state) {
  pt_parsed *p = pt_parse(state, "op A { require a < b == c; }");
  pt_expect_diags(p, "t.op:1:22: error: comparisons do not chain: "
                     "parenthesize the comparison on the left ('a < b')");
  pt_reset(state);
  p = pt_parse(state, "op A { require (a < b) == c; }");
  pt_expect_clean(p);
}

/* ---- syntax errors ------------------------------------------------------ */

static void test_error_missing_semicolon_before_brace(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: int }");
  pt_expect_diags(p, "t.op:1:19: error: expected ';' after 'int'");
}

static void test_error_missing_semicolon_before_next_item(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  input x: T\n  output y: T;\n}");
  pt_expect_diags(p, "t.op:2:13: error: expected ';' after 'T'");
  /* Recovery does not swallow the next item. */
  og_ast_item *it = pt_item_at(pt_op_at(p, 0), 0);
  assert_int_equal(it->kind, OG_ITEM_OUTPUT);
  assert_true(pt_op_at(p, 0)->has_syntax_error);
}

static void test_error_missing_colon(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a int;\n}");
  pt_expect_diags(p, "t.op:2:10: error: expected ':' before identifier 'int'");
}

static void test_error_op_without_name(void **state) {
  pt_parsed *p = pt_parse(state, "op { attr a: int; }");
  pt_expect_diags(p, "t.op:1:4: error: expected identifier before '{'");
  assert_int_equal(pt_op_count(p), 0);
}

static void test_error_op_without_brace(void **state) {
  pt_parsed *p = pt_parse(state, "op A attr a: int; }");
  pt_expect_diags(p, "t.op:1:6: error: expected '{' before 'attr'");
}

static void test_error_end_of_input_inside_op(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  attr a: int;\n");
  pt_expect_diags(p, "t.op:3:1: error: expected '}' at end of input\n"
                  "t.op:1:6: note: to match this '{'");
  assert_int_equal(pt_op_count(p), 0);
}

static void test_error_end_of_input_inside_item(void **state) {
  pt_parsed *p = pt_parse(state, "op A {\n  input x: T");
  pt_expect_diags(p, "t.op:2:13: error: expected ';' at end of input\n"
                  "t.op:1:6: note: to match this '{'");
}

static void test_error_end_of_input_inside_list(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr l: list(int) = [1, [2");
  pt_expect_diags(p, "t.op:1:34: error: expected ']' at end of input\n"
                  "t.op:1:32: note: to match this '['");
}

static void test_error_end_of_input_after_op_keyword(void **state) {
  pt_parsed *p = pt_parse(state, "op");
  pt_expect_diags(p, "t.op:1:3: error: expected identifier at end of input");
}

static void test_error_stray_closing_brace(void **state) {
  pt_parsed *p = pt_parse(state, "op A { }\n}");
  pt_expect_diags(p, "t.op:2:1: error: expected end of file, 'package', "
                  "'op' or 'c_prefix' before '}'");
  assert_int_equal(pt_op_count(p), 1);
}

static void test_error_unknown_item(void **state) {
  pt_parsed *p = pt_parse(state, "op A { frobnicate x; }");
  pt_expect_diags(p, "t.op:1:8: error: unexpected identifier 'frobnicate'");
}

static void test_error_top_level_identifier(void **state) {
  pt_parsed *p = pt_parse(state, "Op A { }");
  pt_expect_diags(p, "t.op:1:1: error: expected end of file, 'package', "
                  "'op' or 'c_prefix' before identifier 'Op'; did you mean "
                  "'op'?");
}

static void test_error_missing_attr_type(void **state) {
  pt_parsed *p = pt_parse(state, "op A { attr a: ; }");
  pt_expect_diags(p, "t.op:1:16: error: expected identifier or '{' before ';'");
}

static void test_error_missing_io_type(void **state) {
  pt_parsed *p = pt_parse(state, "op A { output y:; }");
  pt_expect_diags(p, "t.op:1:17: error: expected identifier before ';'");
}

static void test_error_message_names_a_number(void **state) {
  pt_parsed *p = pt_parse(state, "op A { input 3: T; }");
  pt_expect_diags(p, "t.op:1:14: error: expected identifier before number '3'");
}

/* ---- scale -------------------------------------------------------------- */

/* A growable buffer for generated specs. */
typedef struct gen {
  char *buf;
  size_t len, cap;
} gen;

static void gen_add(gen *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[256];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  assert_true(n >= 0 && (size_t)n < sizeof small);
  g->buf = og_xgrow(g->buf, &g->cap, g->len + (size_t)n + 1, 1);
  memcpy(g->buf + g->len, small, (size_t)n + 1);
  g->len += (size_t)n;
}

static void gen_repeat(gen *g, char c, size_t count) {
  g->buf = og_xgrow(g->buf, &g->cap, g->len + count + 1, 1);
  memset(g->buf + g->len, c, count);
  g->len += count;
  g->buf[g->len] = '\0';
}

/* Parses the generated text and frees it. */
static pt_parsed *parse_gen(void **state, gen *g) {
  pt_parsed *p = pt_parse_n(state, g->buf, g->len);
  free(g->buf);
  memset(g, 0, sizeof *g);
  return p;
}

static void test_scale_ten_thousand_ops(void **state) {
  gen g = {0};
  for (int i = 0; i < 10000; i++)
    gen_add(&g, "/// Op %d.\nop Op%d {\n  attr n: int >= 0 = %d;\n"
                "  input x: T;\n  output y: T;\n  shape y = x;\n}\n",
            i, i, i);
  pt_parsed *p = parse_gen(state, &g);
  pt_expect_clean(p);
  assert_int_equal(pt_op_count(p), 10000);
  og_ast_op *last = pt_op_at(p, 9999);
  assert_string_equal(last->name, "Op9999");
  assert_string_equal(last->doc->text, "Op 9999.");
  assert_string_equal(pt_at(p, last->loc), "69995:1");
  expect_int_value(pt_item_at(last, 0)->default_value, 9999);
}

static void test_scale_one_megabyte_string(void **state) {
  enum { SIZE = 1 << 20 };
  gen g = {0};
  gen_add(&g, "op A { attr s: string = '");
  gen_repeat(&g, 'x', SIZE);
  gen_add(&g, "\\n'; attr t: int; }");
  pt_parsed *p = parse_gen(state, &g);
  pt_expect_clean(p);
  og_ast_value *v = pt_first_default(p);
  assert_int_equal(v->s.len, SIZE + 1);
  assert_int_equal(v->s.ptr[SIZE - 1], 'x');
  assert_int_equal(v->s.ptr[SIZE], '\n');
  assert_string_equal(pt_at(p, pt_item_at(pt_op_at(p, 0), 1)->name_loc), "1:1048612");
}

static void test_scale_one_megabyte_comment(void **state) {
  gen g = {0};
  gen_add(&g, "/*");
  gen_repeat(&g, '*', 1 << 20);
  gen_add(&g, "/ op A { }");
  pt_parsed *p = parse_gen(state, &g);
  pt_expect_clean(p);
  assert_int_equal(pt_op_count(p), 1);
}

static void test_scale_list_default_nested_1000_deep(void **state) {
  enum { DEPTH = 1000 };
  gen g = {0};
  gen_add(&g, "op A { attr a: list(int) = ");
  gen_repeat(&g, '[', DEPTH);
  gen_add(&g, "7");
  gen_repeat(&g, ']', DEPTH);
  gen_add(&g, "; }");
  pt_parsed *p = parse_gen(state, &g);
  pt_expect_clean(p);
  og_ast_value *v = pt_first_default(p);
  for (int i = 0; i < DEPTH; i++) {
    assert_int_equal(v->kind, OG_AV_LIST);
    assert_null(v->next);
    v = v->items;
  }
  expect_int_value(v, 7);
}

static void test_scale_message_default_nested_1000_deep(void **state) {
  enum { DEPTH = 1000 };
  gen g = {0};
  gen_add(&g, "op A { attr a: tensor = {");
  for (int i = 0; i < DEPTH; i++) gen_add(&g, " f {");
  gen_add(&g, " v: 1 ");
  gen_repeat(&g, '}', DEPTH + 1);
  gen_add(&g, "; }");
  pt_parsed *p = parse_gen(state, &g);
  pt_expect_clean(p);
  og_ast_value *v = pt_first_default(p);
  for (int i = 0; i < DEPTH; i++) v = field_at(v, 0)->value;
  expect_int_value(field_at(v, 0)->value, 1);
}

static void test_scale_expression_nested_1000_deep(void **state) {
  enum { DEPTH = 1000 };
  gen g = {0};
  gen_add(&g, "op A { shape y = ");
  for (int i = 0; i < DEPTH; i++) gen_add(&g, "[(-");
  gen_add(&g, "x");
  for (int i = 0; i < DEPTH; i++) gen_add(&g, ") + 1]");
  gen_add(&g, "; }");
  pt_parsed *p = parse_gen(state, &g);
  pt_expect_clean(p);
  og_ast_expr *e = pt_item_at(pt_op_at(p, 0), 0)->expr;
  for (int i = 0; i < DEPTH; i++) {
    assert_int_equal(e->kind, OG_EX_LIST);
    expect_binary(e->args, OG_OP_ADD);
    assert_int_equal(e->args->lhs->kind, OG_EX_NEG);
    e = e->args->lhs->lhs;
  }
  expect_name_expr(e, "x");
}

static void test_scale_hundred_thousand_element_list(void **state) {
  enum { COUNT = 100000 };
  gen g = {0};
  gen_add(&g, "op A { attr a: list(int) = [");
  for (int i = 0; i < COUNT; i++) gen_add(&g, "%d, ", i - COUNT / 2);
  gen_add(&g, "]; }");
  pt_parsed *p = parse_gen(state, &g);
  pt_expect_clean(p);
  og_ast_value *v = pt_first_default(p)->items;
  for (int i = 0; i < COUNT; i++, v = v->next) expect_int_value(v, i - COUNT / 2);
  assert_null(v);
}

static void test_scale_hundred_thousand_element_shape(void **state) {
  enum { COUNT = 100000 };
  gen g = {0};
  gen_add(&g, "op A { shape y = [");
  for (int i = 0; i < COUNT; i++) gen_add(&g, "%sdim(x, %d)", i ? ", " : "", i);
  gen_add(&g, "]; }");
  pt_parsed *p = parse_gen(state, &g);
  pt_expect_clean(p);
  og_ast_expr *e = pt_item_at(pt_op_at(p, 0), 0)->expr->args;
  size_t n = 0;
  for (; e; e = e->next) n++;
  assert_int_equal(n, COUNT);
}

static void test_scale_hundred_thousand_items(void **state) {
  enum { COUNT = 100000 };
  gen g = {0};
  gen_add(&g, "op A {\n");
  for (int i = 0; i < COUNT; i++) gen_add(&g, "  attr a%d: int = %d;\n", i, i);
  gen_add(&g, "}\n");
  pt_parsed *p = parse_gen(state, &g);
  pt_expect_clean(p);
  og_ast_item *it = pt_op_at(p, 0)->items;
  size_t n = 0;
  for (; it; it = it->next) n++;
  assert_int_equal(n, COUNT);
}

static void test_scale_too_deep_nesting_is_a_clean_error(void **state) {
  enum { DEPTH = 20000 };
  gen g = {0};
  gen_add(&g, "op A { attr a: list(int) = ");
  gen_repeat(&g, '[', DEPTH);
  gen_repeat(&g, ']', DEPTH);
  gen_add(&g, "; }\nop B { }\n");
  pt_parsed *p = parse_gen(state, &g);
  assert_int_equal(p->diags.count, 1);
  assert_int_equal(p->diag.errors, 1);
  assert_non_null(strstr(p->diags.lines[0], "t.op:1:"));
  assert_non_null(strstr(p->diags.lines[0],
                         ": error: nested too deeply (parser stack limit of "));
}

#define T(fn) cmocka_unit_test_teardown(fn, pt_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(test_package_is_optional),
      T(test_package_name_and_location),
      T(test_package_duplicate_is_an_error),
      T(test_package_after_an_op_is_an_error),
      T(test_package_without_name),
      T(test_many_ops_in_source_order),
      T(test_op_and_item_locations),
      T(test_locations_carry_the_file_index),
      T(test_items_kept_in_source_order),
      T(test_attr_type_plain_names),
      T(test_attr_type_list),
      T(test_attr_type_list_of_each_form),
      T(test_attr_type_list_of_list_parses),
      T(test_attr_type_set_of_types_with_trailing_comma),
      T(test_attr_type_set_of_strings_both_quotes),
      T(test_attr_type_set_mixing_shortcuts),
      T(test_attr_type_single_element_set),
      T(test_attr_type_empty_set_is_an_error),
      T(test_attr_type_set_with_double_comma_is_an_error),
      T(test_minimum_on_int),
      T(test_minimum_negative),
      T(test_minimum_on_list_then_default),
      T(test_minimum_must_be_an_integer),
      T(test_default_int),
      T(test_default_integer_for_float),
      T(test_default_float),
      T(test_default_string_both_quotes),
      T(test_default_bool),
      T(test_default_type_both_spellings),
      T(test_default_shape_list),
      T(test_default_shape_scalar_empty_list),
      T(test_default_shape_unknown_dim),
      T(test_default_shape_unknown_rank),
      T(test_default_shape_tf_text),
      T(test_default_shape_tf_text_unknown_rank),
      T(test_default_tensor_tf_text),
      T(test_default_tensor_with_shape_and_values),
      T(test_default_func),
      T(test_default_empty_message),
      T(test_default_message_locations),
      T(test_default_lists),
      T(test_default_nested_lists),
      T(test_default_list_with_trailing_comma),
      T(test_default_list_locations),
      T(test_default_list_with_leading_comma_is_an_error),
      T(test_default_missing_value_is_an_error),
      T(test_io_type_attr_name),
      T(test_io_type_dtype),
      T(test_io_type_number_times_attr),
      T(test_io_type_number_times_dtype),
      T(test_io_type_ref),
      T(test_io_type_ref_of_list),
      T(test_io_type_unknown_constructor),
      T(test_io_type_ref_is_case_sensitive),
      T(test_io_type_ref_of_ref_is_an_error),
      T(test_io_type_missing_after_star),
      T(test_flags),
      T(test_flag_with_argument_is_an_error),
      T(test_deprecated),
      T(test_deprecated_without_version_is_an_error),
      T(test_deprecated_without_explanation_is_an_error),
      T(test_shape_same_as_input),
      T(test_shape_list_of_dims),
      T(test_shape_arithmetic_precedence),
      T(test_shape_multiplication_binds_tighter_on_the_right),
      T(test_shape_subtraction_is_left_associative),
      T(test_shape_parentheses_override_precedence),
      T(test_shape_unary_minus),
      T(test_shape_merge),
      T(test_shape_broadcast),
      T(test_shape_scalar),
      T(test_shape_unknown),
      T(test_shape_unknown_dim_in_list),
      T(test_shape_from_attr),
      T(test_shape_call_without_arguments),
      T(test_shape_without_equals_is_an_error),
      T(test_shape_without_expression_is_an_error),
      T(test_require_rank_equals),
      T(test_require_comparisons),
      T(test_require_in_range),
      T(test_require_same),
      T(test_require_dims_equal),
      T(test_require_arithmetic_binds_tighter_than_comparison),
      T(test_require_in_needs_two_bounds),
      T(test_shape_fn),
      T(test_let_without_parameters),
      T(test_let_with_parameters),
      T(test_shape_of_one_tensor_of_a_list_output),
      T(test_slices_with_missing_bounds),
      T(test_comprehension_and_fold),
      T(test_conditional_and_unknown_operand),
      T(test_logic_string_and_concat),
      T(test_new_keywords_are_names),
      T(test_comparison_chain_is_an_error),
      T(test_error_missing_semicolon_before_brace),
      T(test_error_missing_semicolon_before_next_item),
      T(test_error_missing_colon),
      T(test_error_op_without_name),
      T(test_error_op_without_brace),
      T(test_error_end_of_input_inside_op),
      T(test_error_end_of_input_inside_item),
      T(test_error_end_of_input_inside_list),
      T(test_error_end_of_input_after_op_keyword),
      T(test_error_stray_closing_brace),
      T(test_error_unknown_item),
      T(test_error_top_level_identifier),
      T(test_error_missing_attr_type),
      T(test_error_missing_io_type),
      T(test_error_message_names_a_number),
      T(test_scale_ten_thousand_ops),
      T(test_scale_one_megabyte_string),
      T(test_scale_one_megabyte_comment),
      T(test_scale_list_default_nested_1000_deep),
      T(test_scale_message_default_nested_1000_deep),
      T(test_scale_expression_nested_1000_deep),
      T(test_scale_hundred_thousand_element_list),
      T(test_scale_hundred_thousand_element_shape),
      T(test_scale_hundred_thousand_items),
      T(test_scale_too_deep_nesting_is_a_clean_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
