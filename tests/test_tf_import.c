/* import-tf: the protobuf text reader, the OpList importer, the `.op`
 * emitter, the CLI, and the round trip of TensorFlow's whole op registry
 * (ops.pbtxt -> model -> .op text -> compiler -> the same model). */
#include "testutil.h"

#include "emit_op.h"
#include "pbtxt.h"
#include "tf_import.h"
#include "tf_import_cli.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ---- */

typedef struct pb_fixture {
  og_arena arena;
  tu_diags diags;
  og_diag diag;
} pb_fixture;

static og_pb_node *pb_parse(pb_fixture *f, const char *text) {
  og_arena_init(&f->arena);
  memset(&f->diags, 0, sizeof f->diags);
  og_diag_init(&f->diag, NULL, tu_diags_sink, &f->diags);
  return og_pbtxt_parse(&f->arena, "t.pbtxt", text, strlen(text), &f->diag);
}

static void pb_done(pb_fixture *f) {
  og_arena_free(&f->arena);
  tu_diags_free(&f->diags);
}

/* Exactly one diagnostic, equal to "t.pbtxt:" + expected. */
static void expect_one_diag(const tu_diags *d, const char *file,
                            const char *expected, const char *where, int line) {
  char want[1024];
  snprintf(want, sizeof want, "%s:%s", file, expected);
  if (d->count != 1 || strcmp(d->lines[0], want) != 0) {
    print_error("%s:%d: expected\n  %s\ngot:\n%s\n", where, line, want,
                tu_diags_text(d));
    _fail(where, line);
  }
}

#define expect_pb_error(text, expected) \
  expect_pb_error_at(text, expected, __FILE__, __LINE__)
static void expect_pb_error_at(const char *text, const char *expected,
                               const char *where, int line) {
  pb_fixture f;
  og_pb_node *root = pb_parse(&f, text);
  if (root) {
    print_error("%s:%d: parse unexpectedly succeeded\n", where, line);
    pb_done(&f);
    _fail(where, line);
  }
  expect_one_diag(&f.diags, "t.pbtxt", expected, where, line);
  pb_done(&f);
}

static const og_pb_node *field_at(const og_pb_node *msg, size_t index) {
  const og_pb_node *n = msg->fields;
  while (n && index--) n = n->next;
  assert_non_null(n);
  return n;
}

static og_model *import_text(const char *text, tu_diags *d) {
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, d);
  return og_tf_import("t.pbtxt", text, strlen(text), &diag);
}

static og_model *import_ok(const char *text) {
  tu_diags d = {0};
  og_model *m = import_text(text, &d);
  if (!m || d.count) print_error("unexpected diagnostics:\n%s\n",
                                 tu_diags_text(&d));
  assert_non_null(m);
  assert_int_equal(d.count, 0);
  tu_diags_free(&d);
  return m;
}

#define expect_import_error(text, expected) \
  expect_import_error_at(text, expected, __FILE__, __LINE__)
static void expect_import_error_at(const char *text, const char *expected,
                                   const char *where, int line) {
  tu_diags d = {0};
  og_model *m = import_text(text, &d);
  if (m) {
    print_error("%s:%d: import unexpectedly succeeded\n", where, line);
    og_model_free(m);
    tu_diags_free(&d);
    _fail(where, line);
  }
  expect_one_diag(&d, "t.pbtxt", expected, where, line);
  tu_diags_free(&d);
}

static char *emit_text(const og_model *m, const char *package) {
  og_writer w;
  og_writer_init(&w);
  og_emit_op_source(m, package, &w);
  char *s = strdup(w.buf ? w.buf : "");
  og_writer_free(&w);
  return s;
}

static char *value_text(const og_value *v) {
  og_writer w;
  og_writer_init(&w);
  og_emit_op_value(v, &w);
  char *s = strdup(w.buf ? w.buf : "");
  og_writer_free(&w);
  return s;
}

static void assert_value_text(const og_value *v, const char *want) {
  assert_non_null(v);
  char *s = value_text(v);
  assert_string_equal(s, want);
  free(s);
}

/* ---- the protobuf text reader ---- */

static void pbtxt_reads_messages_and_scalars(void **state) {
  (void)state;
  pb_fixture f;
  og_pb_node *root = pb_parse(&f, "op {\n  name: \"Abs\"\n  n: -4\n"
                                  "  x: 1.5\n  t: DT_FLOAT\n}\n");
  assert_non_null(root);
  assert_int_equal(root->kind, OG_PB_MESSAGE);
  assert_int_equal(root->nfields, 1);
  const og_pb_node *op = field_at(root, 0);
  assert_string_equal(op->name, "op");
  assert_int_equal(op->kind, OG_PB_MESSAGE);
  assert_int_equal(op->nfields, 4);
  const og_pb_node *name = field_at(op, 0);
  assert_int_equal(name->kind, OG_PB_STRING);
  assert_string_equal(name->str.ptr, "Abs");
  assert_int_equal(name->pos.line, 2);
  assert_int_equal(name->pos.col, 3);
  assert_int_equal(name->value_pos.col, 9);
  assert_int_equal(field_at(op, 1)->kind, OG_PB_INT);
  assert_int_equal(field_at(op, 1)->i, -4);
  assert_int_equal(field_at(op, 2)->kind, OG_PB_FLOAT);
  assert_true(field_at(op, 2)->f == 1.5);
  assert_int_equal(field_at(op, 3)->kind, OG_PB_IDENT);
  assert_string_equal(field_at(op, 3)->str.ptr, "DT_FLOAT");
  pb_done(&f);
}

static void pbtxt_accepts_colon_before_brace_and_angle_brackets(void **state) {
  (void)state;
  pb_fixture f;
  og_pb_node *root = pb_parse(&f, "a: { b < c: 1 > } d: < >");
  assert_non_null(root);
  assert_int_equal(root->nfields, 2);
  const og_pb_node *a = field_at(root, 0);
  assert_int_equal(a->kind, OG_PB_MESSAGE);
  const og_pb_node *b = field_at(a, 0);
  assert_int_equal(b->kind, OG_PB_MESSAGE);
  assert_int_equal(field_at(b, 0)->i, 1);
  assert_int_equal(field_at(root, 1)->nfields, 0);
  pb_done(&f);
}

static void pbtxt_decodes_escapes_and_concatenates(void **state) {
  (void)state;
  pb_fixture f;
  og_pb_node *root = pb_parse(
      &f, "s: \"a\\tb\" 'c\\'d'\n  \"\\x41\\101\\n\\\\\\\"\\0\"\nt: ''");
  assert_non_null(root);
  const og_pb_node *s = field_at(root, 0);
  assert_int_equal(s->str.len, 12);
  assert_memory_equal(s->str.ptr, "a\tbc'dAA\n\\\"\0", 12);
  assert_int_equal(field_at(root, 1)->str.len, 0);
  assert_string_equal(field_at(root, 1)->name, "t");
  assert_int_equal(field_at(root, 1)->pos.line, 3);
  pb_done(&f);
}

static void pbtxt_reads_integers(void **state) {
  (void)state;
  pb_fixture f;
  og_pb_node *root = pb_parse(&f, "i: 0 i: -9223372036854775808 "
                                  "i: 9223372036854775807 i: 0x1F i: 017");
  assert_non_null(root);
  assert_int_equal(field_at(root, 0)->i, 0);
  assert_true(field_at(root, 1)->i == INT64_MIN);
  assert_true(field_at(root, 2)->i == INT64_MAX);
  assert_int_equal(field_at(root, 3)->i, 31);
  assert_int_equal(field_at(root, 4)->i, 15);
  assert_string_equal(field_at(root, 1)->str.ptr, "-9223372036854775808");
  pb_done(&f);
}

static void pbtxt_reads_floats(void **state) {
  (void)state;
  pb_fixture f;
  og_pb_node *root = pb_parse(&f, "f: inf f: -inf f: nan f: 1e-05 f: .5 "
                                  "f: 1.5f f: -2.5e3 f: 3 f: -Infinity f: 2.");
  assert_non_null(root);
  double v[10];
  for (size_t i = 0; i < 10; i++)
    assert_true(og_pb_float(field_at(root, i), &v[i]));
  assert_true(isinf(v[0]) && v[0] > 0);
  assert_int_equal(field_at(root, 0)->kind, OG_PB_IDENT);
  assert_true(isinf(v[1]) && v[1] < 0);
  assert_int_equal(field_at(root, 1)->kind, OG_PB_FLOAT);
  assert_true(isnan(v[2]));
  assert_true(v[3] == 1e-05);
  assert_true(v[4] == 0.5);
  assert_true(v[5] == 1.5);
  assert_true(v[6] == -2500.0);
  assert_true(v[7] == 3.0);
  assert_int_equal(field_at(root, 7)->kind, OG_PB_INT);
  assert_true(isinf(v[8]) && v[8] < 0);
  assert_true(v[9] == 2.0);
  pb_done(&f);
}

static void pbtxt_expands_lists_into_repeated_fields(void **state) {
  (void)state;
  pb_fixture f;
  og_pb_node *root = pb_parse(&f, "x: [1, 2, 3] y: [] z: [{a: 1}, <a: 2>,]");
  assert_null(root); /* a trailing comma is not protobuf */
  pb_done(&f);
  root = pb_parse(&f, "x: [1, 2, 3] y: [] z: [{a: 1}, <a: 2>]");
  assert_non_null(root);
  assert_int_equal(root->nfields, 5);
  for (size_t i = 0; i < 3; i++) {
    assert_string_equal(field_at(root, i)->name, "x");
    assert_int_equal(field_at(root, i)->i, (int64_t)i + 1);
  }
  assert_string_equal(field_at(root, 3)->name, "z");
  assert_int_equal(field_at(root, 4)->kind, OG_PB_MESSAGE);
  assert_int_equal(field_at(field_at(root, 4), 0)->i, 2);
  pb_done(&f);
}

static void pbtxt_skips_comments_and_separators(void **state) {
  (void)state;
  pb_fixture f;
  og_pb_node *root = pb_parse(&f, "# header\na: 1, b: 2; # trailing\n"
                                  "c { d: 'x' }  # end");
  assert_non_null(root);
  assert_int_equal(root->nfields, 3);
  assert_string_equal(field_at(root, 2)->name, "c");
  assert_int_equal(field_at(root, 2)->pos.line, 3);
  pb_done(&f);
  root = pb_parse(&f, "");
  assert_non_null(root);
  assert_int_equal(root->nfields, 0);
  pb_done(&f);
}

static void pbtxt_reports_unclosed_message_with_opener(void **state) {
  (void)state;
  expect_pb_error("op {\n  attr {\n    name: 'x'\n  }\n",
                  "5:1: error: expected '}' to close 'op' opened at 1:1");
  expect_pb_error("op {\n  attr {\n    name: 'x'\n",
                  "4:1: error: expected '}' to close 'attr' opened at 2:3");
  expect_pb_error("a < b: 1 }",
                  "1:10: error: expected a field name or '>', found '}'");
}

static void pbtxt_reports_lexical_errors(void **state) {
  (void)state;
  expect_pb_error("a: \"abc\n", "1:4: error: missing terminating \" character");
  expect_pb_error("a: 'abc", "1:4: error: missing terminating ' character");
  expect_pb_error("a: \"x\\qy\"",
                  "1:6: error: invalid escape sequence '\\q' in string");
  expect_pb_error("a: \"\\x\"",
                  "1:5: error: invalid escape sequence '\\x' in string");
  expect_pb_error("a: \"\\777\"",
                  "1:5: error: invalid escape sequence '\\7' in string");
  expect_pb_error("a: 99999999999999999999",
                  "1:4: error: integer 99999999999999999999 is out of range "
                  "for a 64-bit signed integer");
  expect_pb_error("a: -9223372036854775809",
                  "1:4: error: integer -9223372036854775809 is out of range "
                  "for a 64-bit signed integer");
  expect_pb_error("a: 12abc", "1:4: error: invalid number '12abc'");
  expect_pb_error("a: 1e", "1:4: error: invalid number '1e'");
  expect_pb_error("a: 09", "1:4: error: invalid number '09'");
  expect_pb_error("a: -foo",
                  "1:4: error: '-' must be followed by a number, not 'foo'");
  expect_pb_error("a: 1\n@", "2:1: error: unexpected character '@'");
  expect_pb_error("a: 1 \x01", "1:6: error: stray control character 0x01");
  expect_pb_error("a: 1 \xc3\xa9", "1:6: error: stray byte 0xc3 outside a string");
}

static void pbtxt_reports_syntax_errors(void **state) {
  (void)state;
  expect_pb_error("a 1",
                  "1:3: error: expected ':' or '{' after field name 'a', "
                  "found number '1'");
  expect_pb_error("a: }", "1:4: error: expected a value for field 'a', found '}'");
  expect_pb_error("a:", "1:3: error: expected a value for field 'a', found end "
                        "of input");
  expect_pb_error("}", "1:1: error: unmatched '}'");
  expect_pb_error("'x'", "1:1: error: expected a field name, found string "
                         "literal");
  expect_pb_error("a { 1 }",
                  "1:5: error: expected a field name or '}', found number '1'");
  expect_pb_error("a: [1 2]",
                  "1:7: error: expected ',' or ']' in the list of 'a', found "
                  "number '2'");
  expect_pb_error("a: [1,", "1:7: error: expected a value for field 'a', found "
                            "end of input");
  expect_pb_error("a: [1",
                  "1:6: error: expected ']' to close the list of 'a' opened at "
                  "1:4");
  expect_pb_error("a: [[1]]",
                  "1:5: error: expected a value for field 'a', found '['");
}

static void pbtxt_guards_against_absurd_depth(void **state) {
  (void)state;
  size_t depth = OG_PB_MAX_DEPTH + 1;
  char *text = malloc(depth * 4 + 1);
  for (size_t i = 0; i < depth; i++) memcpy(text + 4 * i, "a { ", 4);
  text[depth * 4] = '\0';
  char want[128];
  snprintf(want, sizeof want,
           "1:%zu: error: messages nested too deeply (more than %d levels)",
           (depth - 1) * 4 + 3, OG_PB_MAX_DEPTH);
  expect_pb_error(text, want);
  /* at the limit: only the missing closers are wrong */
  text[(depth - 1) * 4] = '\0';
  pb_fixture f;
  assert_null(pb_parse(&f, text));
  assert_int_equal(f.diags.count, 1);
  assert_non_null(strstr(f.diags.lines[0], "expected '}' to close 'a'"));
  pb_done(&f);
  free(text);
}

/* ---- the importer ---- */

static const char full_op[] =
    "op {\n"
    "  name: \"Full\"\n"
    "  input_arg { name: \"x\" description: \"The input.\" type_attr: \"T\" }\n"
    "  input_arg { name: \"xs\" type_attr: \"T\" number_attr: \"N\" }\n"
    "  input_arg { name: \"mixed\" type_list_attr: \"Tlist\" }\n"
    "  input_arg { name: \"var\" type: DT_FLOAT is_ref: true }\n"
    "  output_arg { name: \"y\" type_attr: \"out_type\" }\n"
    "  output_arg { name: \"count\" type: DT_INT64 number_attr: \"N\" }\n"
    "  attr { name: \"T\" type: \"type\"\n"
    "    allowed_values { list { type: DT_HALF type: DT_HALF type: DT_FLOAT } }\n"
    "    default_value { type: DT_FLOAT } }\n"
    "  attr { name: \"N\" type: \"int\" has_minimum: true minimum: 1 }\n"
    "  attr { name: \"Tlist\" type: \"list(type)\" has_minimum: true }\n"
    "  attr { name: \"out_type\" type: \"type\" description: \"Out.\" }\n"
    "  attr { name: \"mode\" type: \"string\" default_value { s: \"b\" }\n"
    "    allowed_values { list { s: \"a\" s: \"b\" } } }\n"
    "  attr { name: \"alpha\" type: \"float\" default_value { f: 0.0001 } }\n"
    "  attr { name: \"lo\" type: \"float\" default_value { f: -inf } }\n"
    "  attr { name: \"one\" type: \"float\" default_value { f: 1 } }\n"
    "  attr { name: \"flag\" type: \"bool\" default_value { b: true } }\n"
    "  attr { name: \"shape\" type: \"shape\"\n"
    "    default_value { shape { dim { size: 2 } dim { size: -1 } } } }\n"
    "  attr { name: \"any\" type: \"shape\"\n"
    "    default_value { shape { unknown_rank: true } } }\n"
    "  attr { name: \"scalar\" type: \"shape\" default_value { shape { } } }\n"
    "  attr { name: \"color\" type: \"tensor\" default_value { tensor {\n"
    "    dtype: DT_UINT8 tensor_shape { dim { size: 2 } }\n"
    "    int_val: 255 int_val: 0 } } }\n"
    "  attr { name: \"fn\" type: \"func\" default_value { func { name: \"f\" } } }\n"
    "  attr { name: \"dims\" type: \"list(int)\" default_value { list { i: 1 i: -2 } } }\n"
    "  attr { name: \"names\" type: \"list(string)\" default_value { list { } } }\n"
    "  attr { name: \"types\" type: \"list(type)\" has_minimum: true minimum: 1\n"
    "    allowed_values { list { type: DT_INT32 type: DT_INT64 } }\n"
    "    default_value { list { type: DT_INT32 } } }\n"
    "  attr { name: \"shapes\" type: \"list(shape)\"\n"
    "    default_value { list { shape { dim { size: 3 } } shape { unknown_rank: true } } } }\n"
    "  attr { name: \"neg\" type: \"int\" has_minimum: true minimum: -3 default_value { i: -1 } }\n"
    "  summary: \"Does everything.\"\n"
    "  description: \"Line one.\\nLine two.\"\n"
    "  is_commutative: true\n"
    "  is_aggregate: true\n"
    "  is_stateful: true\n"
    "  allows_uninitialized_input: true\n"
    "  deprecation { version: 26 explanation: \"Use \\\"Other\\\".\" }\n"
    "}\n";

static void import_reads_op_fields(void **state) {
  (void)state;
  og_model *m = import_ok(full_op);
  assert_int_equal(m->nops, 1);
  const og_op *op = m->ops[0];
  assert_string_equal(op->name, "Full");
  assert_string_equal(op->package, "t");
  assert_string_equal(op->summary, "Does everything.");
  assert_string_equal(op->description, "Line one.\nLine two.");
  assert_true(op->is_commutative && op->is_aggregate && op->is_stateful);
  assert_true(op->allows_uninitialized_input);
  assert_true(op->deprecated);
  assert_int_equal(op->deprecation_version, 26);
  assert_string_equal(op->deprecation_explanation, "Use \"Other\".");
  assert_string_equal(op->pos.file, "t.pbtxt");
  assert_int_equal(op->pos.line, 2);
  assert_int_equal(op->pos.col, 9);
  og_model_free(m);
}

static void import_reads_args(void **state) {
  (void)state;
  og_model *m = import_ok(full_op);
  const og_op *op = m->ops[0];
  assert_int_equal(op->ninputs, 4);
  assert_int_equal(op->noutputs, 2);
  const og_arg *x = &op->inputs[0];
  assert_string_equal(x->name, "x");
  assert_string_equal(x->description, "The input.");
  assert_string_equal(x->type_attr, "T");
  assert_string_equal(x->number_attr, "");
  assert_int_equal(x->type, OG_DT_INVALID);
  assert_string_equal(op->inputs[1].number_attr, "N");
  assert_string_equal(op->inputs[2].type_list_attr, "Tlist");
  assert_int_equal(op->inputs[3].type, OG_DT_FLOAT);
  assert_true(op->inputs[3].is_ref);
  assert_false(x->is_ref);
  assert_int_equal(op->outputs[1].type, OG_DT_INT64);
  assert_string_equal(op->outputs[1].number_attr, "N");
  assert_int_equal(x->pos.line, 3);
  og_model_free(m);
}

static void import_reads_attrs(void **state) {
  (void)state;
  og_model *m = import_ok(full_op);
  const og_op *op = m->ops[0];
  assert_int_equal(op->nattrs, 19);
  const og_attr *t = og_op_find_attr(op, "T");
  assert_int_equal(t->type.kind, OG_ATTR_TYPE);
  assert_false(t->type.is_list);
  assert_value_text(t->allowed, "[half, half, float]"); /* duplicates kept */
  assert_true(t->allowed_types ==
              (OG_DTYPE_BIT(OG_DT_HALF) | OG_DTYPE_BIT(OG_DT_FLOAT)));
  assert_value_text(t->default_value, "float");
  assert_true(t->inferred);
  const og_attr *n = og_op_find_attr(op, "N");
  assert_true(n->has_minimum);
  assert_int_equal(n->minimum, 1);
  assert_true(n->inferred);
  assert_null(n->default_value);
  const og_attr *tl = og_op_find_attr(op, "Tlist");
  assert_true(tl->type.is_list);
  assert_true(tl->has_minimum);
  assert_int_equal(tl->minimum, 0);
  assert_true(tl->inferred);
  const og_attr *out = og_op_find_attr(op, "out_type");
  assert_false(out->inferred); /* used by an output only */
  assert_string_equal(out->description, "Out.");
  assert_null(out->allowed);
  assert_true(out->allowed_types == 0);
  assert_string_equal(og_op_find_attr(op, "mode")->description, "");
  assert_int_equal(og_op_find_attr(op, "neg")->minimum, -3);
  og_model_free(m);
}

static void import_reads_default_values(void **state) {
  (void)state;
  static const struct {
    const char *attr, *text;
  } cases[] = {
      {"mode", "'b'"},
      {"alpha", "0.0001"},
      {"lo", "-inf"},
      {"one", "1.0"},
      {"flag", "true"},
      {"shape", "[2, ?]"},
      {"any", "?"},
      {"scalar", "[]"},
      {"color", "{ dtype: DT_UINT8 tensor_shape { dim { size: 2 } } "
                "int_val: 255 int_val: 0 }"},
      {"fn", "{ name: 'f' }"},
      {"dims", "[1, -2]"},
      {"names", "[]"},
      {"types", "[int32]"},
      {"shapes", "[[3], ?]"},
      {"neg", "-1"},
  };
  og_model *m = import_ok(full_op);
  const og_op *op = m->ops[0];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const og_attr *a = og_op_find_attr(op, cases[i].attr);
    assert_non_null(a);
    assert_value_text(a->default_value, cases[i].text);
  }
  const og_value *one = og_op_find_attr(op, "one")->default_value;
  assert_int_equal(one->kind, OG_VAL_FLOAT);
  const og_value *names = og_op_find_attr(op, "names")->default_value;
  assert_int_equal(names->kind, OG_VAL_LIST);
  assert_int_equal(names->u.list.count, 0);
  assert_value_text(og_op_find_attr(op, "mode")->allowed, "['a', 'b']");
  assert_value_text(og_op_find_attr(op, "types")->allowed, "[int32, int64]");
  og_model_free(m);
}

static void import_sorts_ops_and_reads_minimal_ops(void **state) {
  (void)state;
  og_model *m = import_ok("op { name: 'B' }\nop { name: 'A' is_stateful: false }");
  assert_int_equal(m->nops, 2);
  assert_string_equal(m->ops[0]->name, "A");
  assert_string_equal(m->ops[1]->name, "B");
  assert_string_equal(m->ops[0]->summary, "");
  assert_string_equal(m->ops[0]->deprecation_explanation, "");
  assert_false(m->ops[0]->deprecated);
  assert_int_equal(m->ops[0]->nattrs, 0);
  og_model_free(m);
  m = import_ok("# nothing\n");
  assert_int_equal(m->nops, 0);
  og_model_free(m);
}

/* Fields of a newer TensorFlow are skipped: one warning names them all
 * (each once), at the first. */
static void import_skips_unknown_fields_with_one_warning(void **state) {
  (void)state;
  tu_diags d = {0};
  og_model *m = import_text(
      "op { name: 'A' colour: 1 input_arg { name: 'x' type: DT_FLOAT "
      "kind { a: 1 } } }\nop { name: 'B' colour: 2 attr { name: 'y' "
      "type: 'int' max: 1 } }\nops { }\n", &d);
  assert_non_null(m);
  assert_int_equal(m->nops, 2);
  assert_int_equal(d.count, 1);
  assert_string_equal(d.lines[0],
                      "t.pbtxt:1:16: warning: skipped 5 unknown fields (from a "
                      "newer TensorFlow?): 'OpDef.colour', 'ArgDef.kind', "
                      "'AttrDef.max', 'OpList.ops'");
  og_model_free(m);
  tu_diags_free(&d);
}

/* Unknown fields inside values (AttrValue, shapes) are skipped too. */
static void import_skips_unknown_fields_in_values(void **state) {
  (void)state;
  tu_diags d = {0};
  og_model *m = import_text(
      "op { name: 'A' attr { name: 'x' type: 'shape'\n"
      "  default_value { shape { dim { size: 2 sz: 1 } } j: 1 } } }", &d);
  assert_non_null(m);
  assert_int_equal(d.count, 1);
  assert_string_equal(d.lines[0],
                      "t.pbtxt:2:51: warning: skipped 2 unknown fields (from a "
                      "newer TensorFlow?): 'AttrValue.j', "
                      "'TensorShapeProto.Dim.sz'");
  assert_value_text(og_op_find_attr(m->ops[0], "x")->default_value, "[2]");
  og_model_free(m);
  tu_diags_free(&d);
}

static void import_reports_unsupported_fields(void **state) {
  (void)state;
  expect_import_error("op { name: 'A' control_output: 'c' }",
                      "1:16: error: field 'control_output' of OpDef is not "
                      "supported (the op model has no place for it)");
}

/* experimental_full_type (nested messages) is dropped: one warning counts
 * them, at the first. */
static void import_drops_full_types_with_one_warning(void **state) {
  (void)state;
  tu_diags d = {0};
  og_model *m = import_text(
      "op { name: 'A' input_arg { name: 'x' type: DT_FLOAT\n"
      "  experimental_full_type { type_id: TFT_TENSOR args { type_id: TFT_VAR "
      "s: 'T' } } }\n output_arg { name: 'y' type: DT_FLOAT "
      "experimental_full_type { } } }", &d);
  assert_non_null(m);
  assert_int_equal(m->ops[0]->ninputs, 1);
  assert_int_equal(d.count, 1);
  assert_string_equal(d.lines[0],
                      "t.pbtxt:2:3: warning: dropped 2 experimental_full_type "
                      "fields (the op model has no place for full types)");
  og_model_free(m);
  tu_diags_free(&d);
}

/* is_distributed_communication is an op flag: read, and false unless
 * set. */
static void import_reads_distributed_communication(void **state) {
  (void)state;
  og_model *m = import_ok("op { name: 'A' is_distributed_communication: true }\n"
                          "op { name: 'B' }");
  assert_true(m->ops[0]->is_distributed_communication);
  assert_false(m->ops[1]->is_distributed_communication);
  og_model_free(m);
}

static void import_reports_bad_values(void **state) {
  (void)state;
  expect_import_error("op { name: 'A' input_arg { name: 'x' type: DT_FOO } }",
                      "1:44: error: unknown data type 'DT_FOO' in field 'type' "
                      "of ArgDef");
  expect_import_error("op { name: 'A' input_arg { name: 'x' type: DT_FLOAT_REF } }",
                      "1:44: error: reference dtype 'DT_FLOAT_REF' in field "
                      "'type' of ArgDef (write the base type and is_ref: true)");
  expect_import_error("op { name: 'A' input_arg { name: 'x' type: 99 } }",
                      "1:44: error: unknown data type integer 99 in field "
                      "'type' of ArgDef");
  expect_import_error("op { name: 3 }",
                      "1:12: error: field 'name' of OpDef must be a string, "
                      "found integer 3");
  expect_import_error("op { name: 'A' is_stateful: maybe }",
                      "1:29: error: field 'is_stateful' of OpDef must be true "
                      "or false, found 'maybe'");
  expect_import_error("op { name: 'A' deprecation: 3 }",
                      "1:29: error: field 'deprecation' of OpDef must be a "
                      "message, found integer 3");
  expect_import_error("op { name { } }",
                      "1:11: error: field 'name' of OpDef must be a string, "
                      "found a message");
  expect_import_error("op { name: 'A\\0B' }",
                      "1:12: error: field 'name' must not contain a NUL byte");
}

static void import_reports_duplicates(void **state) {
  (void)state;
  expect_import_error("op { name: 'A'\n name: 'B' }",
                      "2:2: error: field 'name' of OpDef given twice (first at "
                      "1:6)");
  expect_import_error("op { name: 'A' }\nop { name: 'A' }",
                      "2:12: error: op 'A' is defined twice (first at 1:12)");
}

static void import_reports_bad_attrs(void **state) {
  (void)state;
  expect_import_error("op { name: 'A' attr { type: 'int' } }",
                      "1:16: error: attr has no name");
  expect_import_error("op { name: 'A' attr { name: 'x' } }",
                      "1:16: error: attr 'x' has no type");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'integer' } }",
                      "1:39: error: attr 'x' has unknown type 'integer'");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'int'\n"
                      "  default_value { s: 'a' } } }",
                      "2:19: error: default_value of attr 'x' must set 'i' for "
                      "type int, not 's'");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'list(int)'\n"
                      "  default_value { i: 1 } } }",
                      "2:19: error: default_value of attr 'x' must set 'list' "
                      "for type list(int), not 'i'");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'list(int)'\n"
                      "  default_value { list { s: 'a' } } } }",
                      "2:26: error: default_value of attr 'x' holds 's' values, "
                      "but its type is list(int)");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'int'\n"
                      "  default_value { } } }",
                      "2:17: error: default_value of attr 'x' is empty");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'int'\n"
                      "  default_value { i: 1 s: 'a' } } }",
                      "2:24: error: default_value of attr 'x' sets both 'i' "
                      "and 's'");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'int'\n"
                      "  allowed_values { list { i: 1 } } } }",
                      "2:3: error: attr 'x' of type int cannot have "
                      "allowed_values (only string and type attrs can)");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'int'\n"
                      "  default_value { i: 1.5 } } }",
                      "2:22: error: field 'i' of AttrValue must be an integer, "
                      "found number 1.5");
}

static void import_reports_bad_shapes_and_tensors(void **state) {
  (void)state;
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'shape'\n"
                      "  default_value { shape { dim { size: -2 } } } } }",
                      "2:39: error: dim size -2 is invalid (a size is >= 0, "
                      "or -1 for unknown)");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'shape'\n"
                      "  default_value { shape { unknown_rank: true dim { } } } } }",
                      "2:25: error: a shape of unknown rank cannot have dims");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'tensor'\n"
                      "  default_value { tensor { int_val: 1 } } } }",
                      "2:26: error: a tensor needs a dtype");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'tensor'\n"
                      "  default_value { tensor { dtype: DT_INT32 float_val: 1 } } } }",
                      "2:44: error: a tensor of dtype int32 cannot hold "
                      "'float_val' values; use int_val");
  expect_import_error("op { name: 'A' attr { name: 'x' type: 'tensor'\n"
                      "  default_value { tensor { dtype: DT_FLOAT tensor_content: 'x' } } } }",
                      "2:44: error: field 'tensor_content' of TensorProto is "
                      "not supported (the op model has no place for it)");
}

static void import_reports_bad_args(void **state) {
  (void)state;
  expect_import_error("op { name: 'A' input_arg { type: DT_FLOAT } }",
                      "1:16: error: input has no name");
  expect_import_error("op { name: 'A' output_arg { name: 'y' } }",
                      "1:16: error: output 'y' must set exactly one of type, "
                      "type_attr and type_list_attr");
  expect_import_error("op { name: 'A' input_arg { name: 'x' type: DT_FLOAT "
                      "type_attr: 'T' } attr { name: 'T' type: 'type' } }",
                      "1:16: error: input 'x' must set exactly one of type, "
                      "type_attr and type_list_attr");
  expect_import_error("op { name: 'A' input_arg { name: 'x' type_list_attr: 'T' "
                      "number_attr: 'N' } }",
                      "1:16: error: input 'x' cannot have both number_attr and "
                      "type_list_attr");
  expect_import_error("op { name: 'A' input_arg { name: 'x' type_attr: 'T' } }",
                      "1:16: error: input 'x' of op 'A': type_attr 'T' is not "
                      "an attr of the op");
  expect_import_error("op { name: 'A' output_arg { name: 'y' type: DT_INT32 "
                      "number_attr: 'N' }\n  attr { name: 'N' type: 'type' } }",
                      "1:16: error: output 'y' of op 'A': number_attr 'N' has "
                      "type type, expected int");
}

static void import_reports_every_bad_op(void **state) {
  (void)state;
  tu_diags d = {0};
  og_model *m = import_text("op { name: 'A' control_output: 'c' }\n"
                            "op { name: 'B' }\n"
                            "op { name: 'C' is_stateful: 3 }\n", &d);
  assert_null(m);
  assert_int_equal(d.count, 2);
  assert_string_equal(d.lines[0], "t.pbtxt:1:16: error: field 'control_output' "
                      "of OpDef is not supported (the op model has no place "
                      "for it)");
  assert_string_equal(d.lines[1], "t.pbtxt:3:29: error: field 'is_stateful' of "
                      "OpDef must be true or false, found integer 3");
  tu_diags_free(&d);
}

/* Every field of an op is read after an error, and duplicates are
 * reported beside other errors: one pass gives them all. */
static void import_reports_every_error_of_an_op(void **state) {
  (void)state;
  tu_diags d = {0};
  og_model *m = import_text("op { name: 'A' is_stateful: 3 control_output: "
                            "'c' }\nop { name: 'B' }\nop { name: 'B' }\n"
                            "op { name: 'C' }\nop { name: 'C' }\n", &d);
  assert_null(m);
  assert_int_equal(d.count, 4);
  assert_string_equal(d.lines[0], "t.pbtxt:1:29: error: field 'is_stateful' of "
                      "OpDef must be true or false, found integer 3");
  assert_string_equal(d.lines[1], "t.pbtxt:1:31: error: field 'control_output' "
                      "of OpDef is not supported (the op model has no place "
                      "for it)");
  assert_string_equal(d.lines[2], "t.pbtxt:3:12: error: op 'B' is defined "
                      "twice (first at 2:12)");
  assert_string_equal(d.lines[3], "t.pbtxt:5:12: error: op 'C' is defined "
                      "twice (first at 4:12)");
  tu_diags_free(&d);
}

/* ---- names that would inject spec text ---- */

static void names_op_name_with_spec_text_is_an_error(void **state) {
  (void)state;
  expect_import_error("op { name: 'Foo { stateful; } op Bar' }",
                      "1:12: error: invalid op name 'Foo { stateful; } op "
                      "Bar': op names match [A-Z][A-Za-z0-9]*");
}

static void names_attr_name_with_semicolon_is_an_error(void **state) {
  (void)state;
  expect_import_error("op { name: 'Foo' attr { name: 'x: int; stateful' "
                      "type: 'int' } }",
                      "1:18: error: op 'Foo': invalid attr name 'x: int; "
                      "stateful': attr names match [A-Za-z][A-Za-z0-9_]*");
}

static void names_attr_name_closing_a_comment_is_an_error(void **state) {
  (void)state;
  expect_import_error("op { name: 'Foo' attr { name: 'a*/' type: 'int' } }",
                      "1:18: error: op 'Foo': invalid attr name 'a*/': attr "
                      "names match [A-Za-z][A-Za-z0-9_]*");
}

static void names_input_name_with_newline_is_an_error(void **state) {
  (void)state;
  expect_import_error("op { name: 'Foo' input_arg { name: 'x: int32;\\n"
                      "stateful;\\ninput y' type: DT_INT32 } }",
                      "1:18: error: op 'Foo': invalid input name 'x: int32;"
                      "\\nstateful;\\ninput y': input and output names match "
                      "[a-z][a-z0-9_]*");
}

static void names_output_name_with_quote_is_an_error(void **state) {
  (void)state;
  expect_import_error("op { name: 'Foo' output_arg { name: \"y'\" "
                      "type: DT_INT32 } }",
                      "1:18: error: op 'Foo': invalid output name 'y\\'': "
                      "input and output names match [a-z][a-z0-9_]*");
}

/* An attr reference is written as the arg's type: checked like a name
 * even when an attr of that name exists (whose own name is reported). */
static void names_type_attr_reference_is_checked(void **state) {
  (void)state;
  expect_import_error("op { name: 'Foo' input_arg { name: 'x' "
                      "type_attr: 'T; stateful' } }",
                      "1:18: error: op 'Foo': input 'x': invalid type_attr "
                      "'T; stateful': attr names match [A-Za-z][A-Za-z0-9_]*");
}

static void names_number_attr_reference_is_checked(void **state) {
  (void)state;
  expect_import_error("op { name: 'Foo' output_arg { name: 'y' "
                      "type: DT_INT32 number_attr: 'N*/' } }",
                      "1:18: error: op 'Foo': output 'y': invalid "
                      "number_attr 'N*/': attr names match "
                      "[A-Za-z][A-Za-z0-9_]*");
}

static void names_type_list_attr_reference_is_checked(void **state) {
  (void)state;
  expect_import_error("op { name: 'Foo' input_arg { name: 'x' "
                      "type_list_attr: 'L) ;' } }",
                      "1:18: error: op 'Foo': input 'x': invalid "
                      "type_list_attr 'L) ;': attr names match "
                      "[A-Za-z][A-Za-z0-9_]*");
}

/* Control bytes are escaped and a long name is cut: a message cannot
 * forge lines or flood the terminal. */
static void names_hostile_name_is_shown_escaped_and_cut(void **state) {
  (void)state;
  char text[400];
  snprintf(text, sizeof text, "op { name: 'A\\033[2J\\r\\x01%0100d' }", 0);
  char want[400];
  snprintf(want, sizeof want,
           "1:12: error: invalid op name 'A\\x1b[2J\\r\\x01%050d...': op "
           "names match [A-Z][A-Za-z0-9]*", 0);
  expect_import_error(text, want);
}

/* An internal op ('_' name) is left out; one warning counts them all. */
static void names_internal_ops_are_skipped_with_one_warning(void **state) {
  (void)state;
  tu_diags d = {0};
  og_model *m = import_text("op { name: '_Send' attr { name: 'x;' "
                            "type: 'int' } }\nop { name: 'Keep' }\n"
                            "op { name: '_Recv' }\n", &d);
  assert_non_null(m);
  assert_int_equal(m->nops, 1);
  assert_string_equal(m->ops[0]->name, "Keep");
  assert_int_equal(d.count, 1);
  assert_string_equal(d.lines[0],
                      "t.pbtxt:1:12: warning: skipped 2 internal ops (names "
                      "starting with '_' are reserved in .op files), the "
                      "first '_Send' (-v names them all)");
  og_model_free(m);
  tu_diags_free(&d);
}

/* Every bad name of an op is reported, not only the first. */
static void names_every_bad_name_of_an_op_is_reported(void **state) {
  (void)state;
  tu_diags d = {0};
  og_model *m = import_text("op { name: 'Foo'\n"
                            "  attr { name: 'a b' type: 'int' }\n"
                            "  attr { name: '1' type: 'int' }\n"
                            "  input_arg { name: 'X' type: DT_INT32 } }\n",
                            &d);
  assert_null(m);
  assert_int_equal(d.count, 3);
  assert_string_equal(d.lines[0],
                      "t.pbtxt:2:3: error: op 'Foo': invalid attr name 'a b': "
                      "attr names match [A-Za-z][A-Za-z0-9_]*");
  assert_string_equal(d.lines[1],
                      "t.pbtxt:3:3: error: op 'Foo': invalid attr name '1': "
                      "attr names match [A-Za-z][A-Za-z0-9_]*");
  assert_string_equal(d.lines[2],
                      "t.pbtxt:4:3: error: op 'Foo': invalid input name 'X': "
                      "input and output names match [a-z][a-z0-9_]*");
  tu_diags_free(&d);
}

/* ---- names ---- */

static void snake_case_follows_tensorflow(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"Abs", "abs"},
      {"MatMul", "mat_mul"},
      {"Conv2D", "conv2d"},
      {"Conv3DBackpropInputV2", "conv3d_backprop_input_v2"},
      {"LRNGrad", "lrn_grad"},
      {"AccumulateNV2", "accumulate_nv2"},
      {"BatchMatMulV2", "batch_mat_mul_v2"},
      {"FFT", "fft"},
      {"TPUReplicateMetadata", "tpu_replicate_metadata"},
  };
  og_arena a;
  og_arena_init(&a);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    assert_string_equal(og_tf_snake_case(&a, cases[i][0]), cases[i][1]);
  og_arena_free(&a);
}

static void package_name_is_the_sanitized_base_name(void **state) {
  (void)state;
  og_arena a;
  og_arena_init(&a);
  assert_string_equal(og_tf_package_name(&a, "../x/tf-ops.pbtxt"), "tf_ops");
  assert_string_equal(og_tf_package_name(&a, "Math Ops.pbtxt"), "math_ops");
  assert_string_equal(og_tf_package_name(&a, "2ops.txt"), "op_2ops");
  assert_string_equal(og_tf_package_name(&a, "dir/.hidden"), "op_");
  og_arena_free(&a);
}

/* ---- the emitter ---- */

static void format_float_round_trips(void **state) {
  (void)state;
  static const struct {
    double f;
    const char *text;
  } cases[] = {
      {0.0, "0.0"},     {1.0, "1.0"},       {-6.0, "-6.0"},
      {0.1, "0.1"},     {1e-05, "1e-05"},   {0.0001, "0.0001"},
      {1.33, "1.33"},   {1e20, "1e+20"},    {4000.0, "4000.0"},
      {1.0 / 3, "0.3333333333333333"},      {(double)0.1f, "0.10000000149011612"},
      {-0.5, "-0.5"},
  };
  char buf[32];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    assert_string_equal(og_format_float(cases[i].f, buf), cases[i].text);
    assert_true(strtod(buf, NULL) == cases[i].f);
  }
  assert_string_equal(og_format_float(INFINITY, buf), "inf");
  assert_string_equal(og_format_float(-INFINITY, buf), "-inf");
  assert_string_equal(og_format_float(NAN, buf), "nan");
}

/* The .op text and the pbtxt reader stay in the C locale whatever the
 * host program set: "1.5" (not "1,5"), "INF" in a Turkish locale, and
 * ASCII-only names and packages in a Latin-1 one. */
static void import_ignores_the_locale(void **state) {
  (void)state;
  char buf[32];
  pb_fixture f;
  og_arena a;
  og_arena_init(&a);
  tu_comma_locale();
  og_format_float(1.5, buf);
  og_pb_node *root = pb_parse(&f, "f: 1.5 f: -2.5e-3");
  tu_c_locale();
  assert_string_equal(buf, "1.5");
  assert_non_null(root);
  assert_true(field_at(root, 0)->f == 1.5);
  assert_true(field_at(root, 1)->f == -2.5e-3);
  pb_done(&f);
  tu_turkish_locale();
  root = pb_parse(&f, "f: INF f: -INFINITY f: NAN");
  const char *snake = og_tf_snake_case(&a, "IdentityN");
  tu_c_locale();
  assert_non_null(root);
  double v[3];
  for (size_t i = 0; i < 3; i++) assert_true(og_pb_float(field_at(root, i), &v[i]));
  assert_true(isinf(v[0]) && v[0] > 0);
  assert_true(isinf(v[1]) && v[1] < 0);
  assert_true(isnan(v[2]));
  assert_string_equal(snake, "identity_n");
  pb_done(&f);
  tu_latin1_locale();
  const char *package = og_tf_package_name(&a, "Caf\xe9\xc9.pbtxt");
  tu_c_locale();
  assert_string_equal(package, "caf__");
  og_arena_free(&a);
}

static og_arg hand_arg(const char *name, const char *type_attr, og_dtype dt) {
  og_arg a = {.name = name, .description = "", .type = dt,
              .type_attr = type_attr, .number_attr = "", .type_list_attr = ""};
  return a;
}

/* A model built field by field, not through any reader. */
static og_model *hand_model(void) {
  og_model *m = og_model_new();
  og_arena *a = &m->arena;
  og_op *zero = og_arena_alloc(a, sizeof *zero);
  zero->name = "ZeroOut";
  zero->summary = "Zeroes all elements of a tensor but one.";
  zero->description = "The preserved element is chosen by `preserve_index`.\n"
                      "\n  Indented.";
  zero->attrs = og_arena_array(a, 3, sizeof *zero->attrs);
  zero->nattrs = 3;
  og_value *types = og_arena_array(a, 4, sizeof *types);
  og_dtype dts[] = {OG_DT_FLOAT, OG_DT_DOUBLE, OG_DT_INT32};
  for (int i = 0; i < 3; i++) types[i] = (og_value){.kind = OG_VAL_TYPE, .u.type = dts[i]};
  types[3] = (og_value){.kind = OG_VAL_LIST, .u.list = {3, types}};
  og_value *def = og_arena_array(a, 2, sizeof *def);
  def[0] = (og_value){.kind = OG_VAL_TYPE, .u.type = OG_DT_INT32};
  def[1] = (og_value){.kind = OG_VAL_INT, .u.i = 0};
  zero->attrs[0] = (og_attr){.name = "T", .type = {OG_ATTR_TYPE, false},
                             .allowed = &types[3], .default_value = &def[0],
                             .description = ""};
  zero->attrs[1] = (og_attr){.name = "preserve_index", .type = {OG_ATTR_INT, false},
                             .has_minimum = true, .default_value = &def[1],
                             .description = "Which element to keep."};
  zero->attrs[2] = (og_attr){.name = "N", .type = {OG_ATTR_INT, false},
                             .has_minimum = true, .minimum = 1, .description = ""};
  zero->inputs = og_arena_array(a, 2, sizeof *zero->inputs);
  zero->ninputs = 2;
  zero->inputs[0] = hand_arg("to_zero", "T", OG_DT_INVALID);
  zero->inputs[0].description = "The tensor to zero out.";
  zero->inputs[1] = hand_arg("refs", "T", OG_DT_INVALID);
  zero->inputs[1].number_attr = "N";
  zero->inputs[1].is_ref = true;
  zero->outputs = og_arena_array(a, 1, sizeof *zero->outputs);
  zero->noutputs = 1;
  zero->outputs[0] = hand_arg("zeroed", "T", OG_DT_INVALID);
  zero->deprecation_explanation = "";
  og_op *old = og_arena_alloc(a, sizeof *old);
  *old = (og_op){.name = "Old", .summary = "", .description = "",
                 .is_stateful = true, .is_commutative = true,
                 .deprecated = true, .deprecation_version = 7,
                 .deprecation_explanation = "Use \"New\"\tinstead\\"};
  old->outputs = og_arena_array(a, 1, sizeof *old->outputs);
  old->noutputs = 1;
  old->outputs[0] = hand_arg("handle", "", OG_DT_RESOURCE);
  m->ops = malloc(2 * sizeof *m->ops);
  m->ops[0] = old;
  m->ops[1] = zero;
  m->nops = 2;
  return m;
}

static const char hand_model_text[] =
    "package demo;\n"
    "\n"
    "op Old {\n"
    "  output handle: resource;\n"
    "  stateful;\n"
    "  commutative;\n"
    "  deprecated 7 \"Use \\\"New\\\"\\tinstead\\\\\";\n"
    "}\n"
    "\n"
    "/// Zeroes all elements of a tensor but one.\n"
    "///\n"
    "/// The preserved element is chosen by `preserve_index`.\n"
    "///\n"
    "///   Indented.\n"
    "op ZeroOut {\n"
    "  attr T: {float, double, int32} = int32;\n"
    "  /// Which element to keep.\n"
    "  attr preserve_index: int >= 0 = 0;\n"
    "  attr N: int >= 1;\n"
    "  /// The tensor to zero out.\n"
    "  input to_zero: T;\n"
    "  input refs: Ref(N * T);\n"
    "  output zeroed: T;\n"
    "}\n";

static void emit_writes_hand_built_model(void **state) {
  (void)state;
  og_model *m = hand_model();
  char *text = emit_text(m, "demo");
  assert_string_equal(text, hand_model_text);
  free(text);
  text = emit_text(m, NULL);
  assert_string_equal(text, hand_model_text + strlen("package demo;\n\n"));
  free(text);
  og_model_free(m);
}

static const char full_op_text[] =
    "/// Does everything.\n"
    "///\n"
    "/// Line one.\n"
    "/// Line two.\n"
    "op Full {\n"
    "  attr T: {half, half, float} = float;\n"
    "  attr N: int >= 1;\n"
    "  attr Tlist: list(type) >= 0;\n"
    "  /// Out.\n"
    "  attr out_type: type;\n"
    "  attr mode: {'a', 'b'} = 'b';\n"
    "  attr alpha: float = 0.0001;\n"
    "  attr lo: float = -inf;\n"
    "  attr one: float = 1.0;\n"
    "  attr flag: bool = true;\n"
    "  attr shape: shape = [2, ?];\n"
    "  attr any: shape = ?;\n"
    "  attr scalar: shape = [];\n"
    "  attr color: tensor = { dtype: DT_UINT8 tensor_shape { dim { size: 2 } } "
    "int_val: 255 int_val: 0 };\n"
    "  attr fn: func = { name: 'f' };\n"
    "  attr dims: list(int) = [1, -2];\n"
    "  attr names: list(string) = [];\n"
    "  attr types: list({int32, int64}) >= 1 = [int32];\n"
    "  attr shapes: list(shape) = [[3], ?];\n"
    "  attr neg: int >= -3 = -1;\n"
    "  /// The input.\n"
    "  input x: T;\n"
    "  input xs: N * T;\n"
    "  input mixed: Tlist;\n"
    "  input var: Ref(float);\n"
    "  output y: out_type;\n"
    "  output count: N * int64;\n"
    "  stateful;\n"
    "  commutative;\n"
    "  aggregate;\n"
    "  allows_uninitialized_input;\n"
    "  deprecated 26 \"Use \\\"Other\\\".\";\n"
    "}\n";

static void emit_writes_every_construct(void **state) {
  (void)state;
  og_model *m = import_ok(full_op);
  char *text = emit_text(m, NULL);
  assert_string_equal(text, full_op_text);
  char *again = emit_text(m, NULL); /* byte-identical across runs */
  assert_string_equal(text, again);
  free(again);
  free(text);
  og_model_free(m);
}

static void emit_escapes_strings(void **state) {
  (void)state;
  og_value v = {.kind = OG_VAL_STRING,
                .u.s = {"a'b\"c\\\n\t\r\x01\x7f\xc3\xa9\xff\0z", 16}};
  assert_value_text(&v, "'a\\'b\"c\\\\\\n\\t\\r\\x01\\x7f\xc3\xa9\\xff\\x00z'");
  og_value f = {.kind = OG_VAL_FUNC, .u.func = "it's"};
  assert_value_text(&f, "{ name: 'it\\'s' }");
}

/* ---- round trips through the compiler ---- */

/* The .op language keeps one copy of a type listed twice in a set;
 * TensorFlow's registry sometimes lists one twice. */
static void drop_duplicate_allowed(og_model *m) {
  for (size_t i = 0; i < m->nops; i++)
    for (size_t j = 0; j < m->ops[i]->nattrs; j++) {
      og_attr *attr = &m->ops[i]->attrs[j];
      if (!attr->allowed) continue;
      size_t n = attr->allowed->u.list.count, kept = 0;
      og_value *items = og_arena_array(&m->arena, n, sizeof *items);
      for (size_t k = 0; k < n; k++) {
        const og_value *v = &attr->allowed->u.list.items[k];
        bool dup = false;
        for (size_t l = 0; l < kept && !dup; l++)
          dup = og_value_equal(&items[l], v);
        if (!dup) items[kept++] = *v;
      }
      og_value *list = og_arena_alloc(&m->arena, sizeof *list);
      list->kind = OG_VAL_LIST;
      list->u.list.count = kept;
      list->u.list.items = items;
      attr->allowed = list;
    }
}

static bool str_same(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "") == 0;
}

static void say_arg_diff(const char *op, const char *kind, const og_arg *a,
                         const og_arg *b) {
  const char *what = !str_same(a->name, b->name)                 ? "name"
                     : !str_same(a->description, b->description) ? "description"
                     : a->type != b->type                        ? "type"
                     : !str_same(a->type_attr, b->type_attr)     ? "type_attr"
                     : !str_same(a->number_attr, b->number_attr) ? "number_attr"
                     : !str_same(a->type_list_attr, b->type_list_attr)
                         ? "type_list_attr"
                     : a->is_ref != b->is_ref ? "is_ref"
                                              : NULL;
  if (what)
    print_error("op %s: %s '%s' differs in %s\n", op, kind, a->name, what);
}

static void say_value_diff(const char *op, const og_attr *a, const char *field,
                           const og_value *x, const og_value *y) {
  if (og_value_equal(x, y)) return;
  char *tx = x ? value_text(x) : strdup("(none)");
  char *ty = y ? value_text(y) : strdup("(none)");
  print_error("op %s: attr '%s' differs in %s: imported %s, compiled %s\n", op,
              a->name, field, tx, ty);
  free(tx);
  free(ty);
}

static void say_attr_diff(const char *op, const og_attr *a, const og_attr *b) {
  if (!str_same(a->name, b->name))
    print_error("op %s: attr %s vs %s\n", op, a->name, b->name);
  else if (a->type.kind != b->type.kind || a->type.is_list != b->type.is_list)
    print_error("op %s: attr '%s' type %s vs %s\n", op, a->name,
                og_attr_type_name(a->type), og_attr_type_name(b->type));
  else if (a->has_minimum != b->has_minimum || a->minimum != b->minimum)
    print_error("op %s: attr '%s' minimum %d/%lld vs %d/%lld\n", op, a->name,
                a->has_minimum, (long long)a->minimum, b->has_minimum,
                (long long)b->minimum);
  else if (!str_same(a->description, b->description))
    print_error("op %s: attr '%s' description differs\n", op, a->name);
  say_value_diff(op, a, "allowed_values", a->allowed, b->allowed);
  say_value_diff(op, a, "default_value", a->default_value, b->default_value);
}

/* Which field of two unequal ops differs, for the test log. */
static void say_op_diff(const og_op *a, const og_op *b) {
  if (a->ninputs != b->ninputs || a->noutputs != b->noutputs ||
      a->nattrs != b->nattrs)
    print_error("op %s: counts %zu/%zu/%zu vs %zu/%zu/%zu\n", a->name,
                a->nattrs, a->ninputs, a->noutputs, b->nattrs, b->ninputs,
                b->noutputs);
  if (!str_same(a->summary, b->summary) ||
      !str_same(a->description, b->description))
    print_error("op %s: summary or description differs\n", a->name);
  if (a->is_stateful != b->is_stateful || a->is_commutative != b->is_commutative ||
      a->is_aggregate != b->is_aggregate ||
      a->allows_uninitialized_input != b->allows_uninitialized_input)
    print_error("op %s: flags differ (stateful %d vs %d)\n", a->name,
                a->is_stateful, b->is_stateful);
  if (a->deprecated != b->deprecated ||
      a->deprecation_version != b->deprecation_version ||
      !str_same(a->deprecation_explanation, b->deprecation_explanation))
    print_error("op %s: deprecation differs\n", a->name);
  for (size_t i = 0; i < a->ninputs && i < b->ninputs; i++)
    say_arg_diff(a->name, "input", &a->inputs[i], &b->inputs[i]);
  for (size_t i = 0; i < a->noutputs && i < b->noutputs; i++)
    say_arg_diff(a->name, "output", &a->outputs[i], &b->outputs[i]);
  for (size_t i = 0; i < a->nattrs && i < b->nattrs; i++)
    say_attr_diff(a->name, &a->attrs[i], &b->attrs[i]);
}

/* Prints each compiler diagnostic with the emitted line it points at. */
static void show_compile_errors(const tu_diags *d, const char *text) {
  for (size_t i = 0; i < d->count && i < 40; i++) {
    print_error("%s\n", d->lines[i]);
    unsigned line = 0;
    const char *colon = strchr(d->lines[i], ':');
    if (!colon || sscanf(colon + 1, "%u", &line) != 1) continue;
    const char *p = text;
    for (unsigned l = 1; l < line && p; l++) {
      p = strchr(p, '\n');
      if (p) p++;
    }
    if (p) print_error("    | %.*s\n", (int)strcspn(p, "\n"), p);
  }
}

/* Emits `m`, compiles the text, and counts ops that differ. */
static size_t round_trip(og_model *m, const char *package) {
  char *text = emit_text(m, package);
  tu_diags d = {0};
  og_model *back = tu_compile("roundtrip.op", text, &d);
  if (!back || d.count) show_compile_errors(&d, text);
  assert_non_null(back);
  assert_int_equal(d.count, 0);
  assert_int_equal(back->nops, m->nops);
  drop_duplicate_allowed(m);
  size_t bad = 0;
  for (size_t i = 0; i < m->nops; i++) {
    const og_op *b = og_model_find(back, m->ops[i]->name);
    if (!b) {
      print_error("op %s: missing after the round trip\n", m->ops[i]->name);
      bad++;
    } else if (!og_op_equal(m->ops[i], b)) {
      say_op_diff(m->ops[i], b);
      bad++;
    }
  }
  og_model_free(back);
  tu_diags_free(&d);
  free(text);
  return bad;
}

static void round_trip_full_op(void **state) {
  (void)state;
  og_model *m = import_ok(full_op);
  assert_int_equal(round_trip(m, "full"), 0);
  og_model_free(m);
}

static void round_trip_hand_built_model(void **state) {
  (void)state;
  og_model *m = hand_model();
  assert_int_equal(round_trip(m, "demo"), 0);
  og_model_free(m);
}

/* ---- the CLI ---- */

static void rm_rf(const char *path) {
  DIR *dir = opendir(path);
  if (dir) {
    struct dirent *e;
    while ((e = readdir(dir))) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      char sub[4096];
      snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
      rm_rf(sub);
    }
    closedir(dir);
    rmdir(path);
  } else {
    unlink(path);
  }
}

static char tmp_root[64];

static int cli_setup(void **state) {
  (void)state;
  snprintf(tmp_root, sizeof tmp_root, "/tmp/opgen-tf-XXXXXX");
  return mkdtemp(tmp_root) ? 0 : -1;
}

static int cli_teardown(void **state) {
  (void)state;
  rm_rf(tmp_root);
  return 0;
}

static const char *tmp_path(const char *name) {
  static char buf[8][4096];
  static int next;
  char *p = buf[next++ % 8];
  snprintf(p, 4096, "%s/%s", tmp_root, name);
  return p;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static int run_cli(int argc, const char **args) {
  char *argv[16];
  for (int i = 0; i < argc; i++) argv[i] = (char *)args[i];
  fflush(stderr);
  return og_cmd_import_tf(argc, argv);
}

static char *slurp(const char *path) { return tu_read_file(path, NULL); }

static const char two_ops[] =
    "op { name: 'MatMul' input_arg { name: 'a' type: DT_FLOAT }\n"
    "  output_arg { name: 'product' type: DT_FLOAT } }\n"
    "op { name: 'Abs' input_arg { name: 'x' type: DT_INT32 } }\n";

static void cli_writes_one_file_with_package(void **state) {
  (void)state;
  const char *in = tmp_path("my-ops.pbtxt");
  write_text(in, two_ops);
  const char *out = tmp_path("out/nested");
  const char *args[] = {"import-tf", in, "-o", out};
  assert_int_equal(run_cli(4, args), 0);
  char *text = slurp(tmp_path("out/nested/my_ops.op"));
  assert_non_null(text);
  assert_string_equal(text,
                      "package my_ops;\n\nop Abs {\n  input x: int32;\n}\n\n"
                      "op MatMul {\n  input a: float;\n  output product: float;\n}\n");
  free(text);
  /* again, over the existing file: the same bytes */
  assert_int_equal(run_cli(4, args), 0);
  text = slurp(tmp_path("out/nested/my_ops.op"));
  assert_non_null(strstr(text, "package my_ops;"));
  free(text);
}

static void cli_split_writes_one_file_per_op(void **state) {
  (void)state;
  const char *in = tmp_path("ops.pbtxt");
  write_text(in, two_ops);
  const char *args[] = {"import-tf", "--split", in, "--output", tmp_path("split")};
  assert_int_equal(run_cli(5, args), 0);
  char *abs = slurp(tmp_path("split/abs.op"));
  char *mm = slurp(tmp_path("split/mat_mul.op"));
  assert_non_null(abs);
  assert_non_null(mm);
  assert_string_equal(abs, "op Abs {\n  input x: int32;\n}\n");
  assert_string_equal(mm, "op MatMul {\n  input a: float;\n  output product: float;\n}\n");
  free(abs);
  free(mm);
  assert_null(slurp(tmp_path("split/ops.op")));
}

static void cli_writes_nothing_for_invalid_input(void **state) {
  (void)state;
  const char *in = tmp_path("bad.pbtxt");
  write_text(in, "op { name: 'A' }\nop { name: 'B' is_stateful: 2 }\n");
  const char *args[] = {"import-tf", in, "-o", tmp_path("bad_out")};
  assert_int_equal(run_cli(4, args), 1);
  struct stat st;
  assert_int_equal(stat(tmp_path("bad_out"), &st), -1);
  write_text(in, "op { name: 'Aa' }\nop { name: 'AA' }\n");
  const char *split[] = {"import-tf", in, "-o", tmp_path("bad_out"), "--split"};
  assert_int_equal(run_cli(5, split), 1); /* both would be aa.op */
  assert_int_equal(stat(tmp_path("bad_out"), &st), -1);
}

/* A file that cannot be written (its name is too long for the file
 * system) must not leave the others written: it used to, one by one. */
static void cli_split_writes_nothing_when_one_file_fails(void **state) {
  (void)state;
  char name[300] = "Z";
  memset(name + 1, 'z', 279);
  name[280] = '\0';
  char text[512];
  snprintf(text, sizeof text, "op { name: 'Abs' }\nop { name: '%s' }\n", name);
  const char *in = tmp_path("long.pbtxt");
  write_text(in, text);
  const char *args[] = {"import-tf", "--split", in, "-o", tmp_path("long_out")};
  assert_int_equal(run_cli(5, args), 2);
  struct stat st;
  assert_int_equal(stat(tmp_path("long_out/abs.op"), &st), -1);
}

static void cli_rejects_ops_the_language_rejects(void **state) {
  (void)state;
  const char *in = tmp_path("lower.pbtxt");
  write_text(in, "op { name: 'Good' }\nop { name: 'lower_case' }\n");
  const char *args[] = {"import-tf", in, "-o", tmp_path("lower_out")};
  assert_int_equal(run_cli(4, args), 1);
  struct stat st;
  assert_int_equal(stat(tmp_path("lower_out"), &st), -1);
}

static void cli_warns_where_the_op_form_loses_detail(void **state) {
  (void)state;
  const char *in = tmp_path("doc.pbtxt");
  write_text(in, "op { name: 'Doc' summary: 'two\\nlines' }\n");
  const char *args[] = {"import-tf", in, "-o", tmp_path("doc_out")};
  assert_int_equal(run_cli(4, args), 0); /* a warning only */
  char *text = slurp(tmp_path("doc_out/doc.op"));
  assert_non_null(text);
  assert_string_equal(text, "package doc;\n\n/// two\n/// lines\nop Doc {\n}\n");
  free(text);
}

static void cli_reports_usage_and_io_errors(void **state) {
  (void)state;
  const char *none[] = {"import-tf"};
  assert_int_equal(run_cli(1, none), 2);
  const char *no_out[] = {"import-tf", "x.pbtxt"};
  assert_int_equal(run_cli(2, no_out), 2);
  const char *two_in[] = {"import-tf", "a", "b", "-o", "d"};
  assert_int_equal(run_cli(5, two_in), 2);
  const char *bad_opt[] = {"import-tf", "a", "-o", "d", "--frobnicate"};
  assert_int_equal(run_cli(5, bad_opt), 2);
  const char *dangling[] = {"import-tf", "a", "-o"};
  assert_int_equal(run_cli(3, dangling), 2);
  const char *missing[] = {"import-tf", tmp_path("nope.pbtxt"), "-o",
                           tmp_path("o")};
  assert_int_equal(run_cli(4, missing), 2);
  const char *help[] = {"import-tf", "--help"};
  assert_int_equal(run_cli(2, help), 0);
  /* the output "directory" is a file */
  const char *in = tmp_path("ok.pbtxt");
  write_text(in, two_ops);
  write_text(tmp_path("afile"), "x");
  const char *blocked[] = {"import-tf", in, "-o", tmp_path("afile")};
  assert_int_equal(run_cli(4, blocked), 2);
}

/* ---- the CLI: nothing an OpList holds can inject spec text ---- */

/* Runs the CLI with stderr captured; *err is the text (caller frees). */
static int run_cli_err(int argc, const char **args, char **err) {
  const char *path = tmp_path("stderr.txt");
  fflush(stderr);
  int saved = dup(2);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  dup2(fileno(f), 2);
  int rc = run_cli(argc, args);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  fclose(f);
  *err = slurp(path);
  return rc;
}

/* The first line of `text`, in a static buffer. */
static const char *first_line(const char *text) {
  static char line[1024];
  snprintf(line, sizeof line, "%.*s", (int)strcspn(text, "\n"), text);
  return line;
}

/* Imports `pbtxt` (as NAME.pbtxt into NAME_out/NAME.op) and asserts exit
 * 0 and that the file compiles to exactly the ops the OpList holds, equal
 * field for field (docs included): no op added, no flag changed. */
static void expect_exact_output(const char *name, const char *pbtxt) {
  char in[64], out[64], file[96];
  snprintf(in, sizeof in, "%s.pbtxt", name);
  snprintf(out, sizeof out, "%s_out", name);
  snprintf(file, sizeof file, "%s_out/%s.op", name, name);
  write_text(tmp_path(in), pbtxt);
  const char *args[] = {"import-tf", tmp_path(in), "-o", tmp_path(out)};
  char *err = NULL;
  int rc = run_cli_err(4, args, &err);
  if (rc != 0 || *err) print_error("stderr:\n%s\n", err);
  assert_int_equal(rc, 0);
  assert_string_equal(err, "");
  char *text = slurp(tmp_path(file));
  assert_non_null(text);
  tu_diags d = {0};
  og_model *back = tu_compile(file, text, &d);
  if (!back) show_compile_errors(&d, text);
  assert_non_null(back);
  og_model *want = import_ok(pbtxt);
  assert_int_equal(back->nops, want->nops);
  for (size_t i = 0; i < want->nops; i++) {
    if (!og_op_equal(want->ops[i], back->ops[i]))
      say_op_diff(want->ops[i], back->ops[i]);
    assert_true(og_op_equal(want->ops[i], back->ops[i]));
  }
  og_model_free(want);
  og_model_free(back);
  tu_diags_free(&d);
  free(text);
  free(err);
}

/* Imports `pbtxt` and asserts exit 1, `message` as the first line of
 * stderr, and that no output directory was created. */
static void expect_cli_error(const char *name, const char *pbtxt,
                             bool split, const char *message) {
  char in[64], out[64];
  snprintf(in, sizeof in, "%s.pbtxt", name);
  snprintf(out, sizeof out, "%s_out", name);
  write_text(tmp_path(in), pbtxt);
  const char *args[] = {"import-tf", tmp_path(in), "-o", tmp_path(out),
                        "--split"};
  char *err = NULL;
  assert_int_equal(run_cli_err(split ? 5 : 4, args, &err), 1);
  char want[1024];
  snprintf(want, sizeof want, "%s:%s", tmp_path(in), message);
  assert_string_equal(first_line(err), want);
  struct stat st;
  assert_int_equal(stat(tmp_path(out), &st), -1);
  free(err);
}

static void cli_injected_op_name_writes_nothing(void **state) {
  (void)state;
  expect_cli_error("inject_op",
                   "op { name: 'Good' }\n"
                   "op { name: 'Foo { stateful; } op Bar' }\n", false,
                   "2:12: error: invalid op name 'Foo { stateful; } op Bar': "
                   "op names match [A-Z][A-Za-z0-9]*");
}

/* Doc text with line breaks, comment markers and code: every line stays
 * a `///` line (a lone CR too), so it reads back as the same docs. */
static void cli_doc_text_cannot_become_code(void **state) {
  (void)state;
  expect_exact_output(
      "docs",
      "op { name: 'Docs'\n"
      "  summary: 'One */ line /* here.'\n"
      "  description: 'a\\n} op Evil { stateful; }\\n*/ op Evil2 {}\\n"
      "/// x\\n\\\\'\n"
      "  attr { name: 'a' type: 'int' description: 'b\\n}\\nop E3 {}' }\n"
      "  input_arg { name: 'x' type: DT_INT32 description: 'c\\n  "
      "stateful;' }\n"
      "  output_arg { name: 'y' type: DT_INT32 description: '*/ d\\n"
      "commutative;' } }\n");
  char *text = slurp(tmp_path("docs_out/docs.op"));
  assert_non_null(strstr(text, "/// a\n/// } op Evil { stateful; }\n"));
  free(text);
}

/* A lone CR in a doc starts a new `///` line (it would look like a line
 * break to a reader); the doc reads back with LF, a warning. */
static void cli_doc_carriage_return_starts_a_doc_line(void **state) {
  (void)state;
  write_text(tmp_path("cr.pbtxt"),
             "op { name: 'Cr' attr { name: 'a' type: 'int' "
             "description: 'x\\r  stateful;' } }\n");
  const char *args[] = {"import-tf", tmp_path("cr.pbtxt"), "-o",
                        tmp_path("cr_out")};
  char *err = NULL;
  assert_int_equal(run_cli_err(4, args, &err), 0);
  char want[512];
  snprintf(want, sizeof want,
           "%s:1:12: warning: op 'Cr' reads back differently from its .op "
           "form: the .op language cannot express attr 'a' exactly",
           tmp_path("cr.pbtxt"));
  assert_string_equal(first_line(err), want);
  char *text = slurp(tmp_path("cr_out/cr.op"));
  assert_string_equal(text, "package cr;\n\nop Cr {\n  /// x\n  ///   "
                            "stateful;\n  attr a: int;\n}\n");
  free(text);
  free(err);
}

/* Quotes, backslashes, newlines and comment markers in every string the
 * .op text holds: defaults, allowed values, tensor and func text, the
 * deprecation explanation. */
static void cli_string_values_cannot_end_early(void **state) {
  (void)state;
  expect_exact_output(
      "strings",
      "op { name: 'Strings'\n"
      "  attr { name: 's' type: 'string'\n"
      "    default_value { s: \"a'b\\\"c\\n}; stateful; //\" }\n"
      "    allowed_values { list { s: [\"a'b\\\"c\\n}; stateful; //\", "
      "'*/', '\\\\', '\\x01\\xff'] } } }\n"
      "  attr { name: 't' type: 'tensor' default_value { tensor {\n"
      "    dtype: DT_STRING string_val: \"q' } stateful; '\" } } }\n"
      "  attr { name: 'f' type: 'func' default_value { func {\n"
      "    name: \"g' } stateful; /*\" } } }\n"
      "  attr { name: 'l' type: 'list(string)' default_value { list {\n"
      "    s: [\"'] ; stateful;\", '\\\\'] } } }\n"
      "  deprecation { version: 3 explanation: 'e\" ; stateful; \"\\n' } }\n");
}

/* Names a file system could read as a path never become one: an op name
 * with '/' or ".." is an error before anything is written. */
static void cli_split_file_names_stay_in_the_directory(void **state) {
  (void)state;
  expect_cli_error("dotdot", "op { name: '../../Evil' }\n", true,
                   "1:12: error: invalid op name '../../Evil': op names match "
                   "[A-Z][A-Za-z0-9]*");
  expect_cli_error("slash", "op { name: 'A/B' }\n", true,
                   "1:12: error: invalid op name 'A/B': op names match "
                   "[A-Z][A-Za-z0-9]*");
  expect_cli_error("absolute", "op { name: '/tmp/Evil' }\n", true,
                   "1:12: error: invalid op name '/tmp/Evil': op names match "
                   "[A-Z][A-Za-z0-9]*");
  struct stat st;
  assert_int_equal(stat("/tmp/evil.op", &st) == 0 &&
                       st.st_mtime >= time(NULL) - 5, 0);
}

/* Two ops whose file names differ only in case would share a file on a
 * file system that ignores case (and snake_case maps both to one). */
static void cli_split_file_names_that_clash_are_an_error(void **state) {
  (void)state;
  expect_cli_error("clash", "op { name: 'Aa' }\nop { name: 'AA' }\n", true,
                   "1:12: error: op 'Aa' would be written to 'aa.op', as op "
                   "'AA' is");
}

static void cli_skips_internal_ops_with_a_warning(void **state) {
  (void)state;
  write_text(tmp_path("internal.pbtxt"),
             "op { name: '_Send' }\nop { name: 'Keep' }\n");
  const char *args[] = {"import-tf", tmp_path("internal.pbtxt"), "-o",
                        tmp_path("internal_out"), "--split"};
  char *err = NULL;
  assert_int_equal(run_cli_err(5, args, &err), 0);
  char want[512];
  snprintf(want, sizeof want,
           "%s:1:12: warning: skipped 1 internal op (names starting with '_' "
           "are reserved in .op files), the first '_Send'",
           tmp_path("internal.pbtxt"));
  assert_string_equal(first_line(err), want);
  char *keep = slurp(tmp_path("internal_out/keep.op"));
  assert_string_equal(keep, "op Keep {\n}\n");
  assert_null(slurp(tmp_path("internal_out/_send.op")));
  free(keep);
  free(err);
}

/* The hand-written OpList with today's fields (tests/tf/): imports with
 * one warning per kind of thing left out, and under -v a note per op. */
static void cli_imports_todays_fields_fixture(void **state) {
  (void)state;
  const char *fixture = "tests/tf/oplist_2_21_fields.pbtxt";
  const char *args[] = {"import-tf", "-v", fixture, "-o",
                        tmp_path("fixture_out")};
  char *err = NULL;
  assert_int_equal(run_cli_err(5, args, &err), 0);
  char got[2048] = "";
  for (const char *l = err; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
    if (strncmp(l, fixture, strlen(fixture)) == 0)
      snprintf(got + strlen(got), sizeof got - strlen(got), "%.*s\n",
               (int)(strcspn(l, "\n") - strlen(fixture)), l + strlen(fixture));
  assert_string_equal(got,
      ":57:5: warning: skipped 3 unknown fields (from a newer TensorFlow?): "
      "'AttrDef.future_attr_flag', 'OpDef.future_op_field', "
      "'OpDef.future_op_number'\n"
      ":16:5: warning: dropped 2 experimental_full_type fields (the op model "
      "has no place for full types)\n"
      ":66:9: warning: skipped 2 internal ops (names starting with '_' are "
      "reserved in .op files), the first '_Send'\n"
      ":66:9: note: skipped internal op '_Send'\n"
      ":78:9: note: skipped internal op '_Recv'\n"
      ":90:9: warning: skipped 1 namespaced op ('Ns>Name' is not an op name "
      "of .op files), the first 'Addons>Resampler'\n"
      ":90:9: note: skipped namespaced op 'Addons>Resampler'\n");
  char *text = slurp(tmp_path("fixture_out/oplist_2_21_fields.op"));
  assert_non_null(text);
  assert_non_null(strstr(text, "op CollectiveReduceV2 {\n"));
  assert_non_null(strstr(text, "  stateful;\n  distributed_communication;\n}"));
  assert_null(strstr(text, "Resampler"));
  free(text);
  free(err);
}

/* Text that reads back with a flag the OpList does not set (a resource
 * input makes an op stateful) is an error, not a warning. */
static void cli_text_reading_back_with_another_flag_is_an_error(void **state) {
  (void)state;
  expect_cli_error("flag",
                   "op { name: 'Res' input_arg { name: 'h' "
                   "type: DT_RESOURCE } }\n", false,
                   "1:12: error: op 'Res' cannot be written as .op: its flags "
                   "or deprecation reads back differently");
}

/* ---- TensorFlow's registry ---- */

static void corpus_round_trips(void **state) {
  (void)state;
  const char *path = tu_corpus("tf-ops.pbtxt");
  size_t len = 0;
  char *text = tu_read_file(path, &len);
  assert_non_null(text);
  tu_diags d = {0};
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, &d);
  og_model *m = og_tf_import(path, text, len, &diag);
  if (d.count) print_error("%s\n", tu_diags_text(&d));
  assert_non_null(m);
  assert_int_equal(d.count, 0);
  assert_int_equal(m->nops, 1256);
  /* --split must not map two ops to one file */
  og_arena a;
  og_arena_init(&a);
  for (size_t i = 1; i < m->nops; i++)
    for (size_t j = 0; j < i; j++)
      assert_string_not_equal(og_tf_snake_case(&a, m->ops[i]->name),
                              og_tf_snake_case(&a, m->ops[j]->name));
  og_arena_free(&a);
  size_t bad = round_trip(m, "tf_ops");
  if (bad) print_error("%zu of %zu ops differ after the round trip\n", bad,
                       m->nops);
  assert_int_equal(bad, 0);
  og_model_free(m);
  tu_diags_free(&d);
  free(text);
}

int main(void) {
  const struct CMUnitTest unit[] = {
      cmocka_unit_test(pbtxt_reads_messages_and_scalars),
      cmocka_unit_test(pbtxt_accepts_colon_before_brace_and_angle_brackets),
      cmocka_unit_test(pbtxt_decodes_escapes_and_concatenates),
      cmocka_unit_test(pbtxt_reads_integers),
      cmocka_unit_test(pbtxt_reads_floats),
      cmocka_unit_test(pbtxt_expands_lists_into_repeated_fields),
      cmocka_unit_test(pbtxt_skips_comments_and_separators),
      cmocka_unit_test(pbtxt_reports_unclosed_message_with_opener),
      cmocka_unit_test(pbtxt_reports_lexical_errors),
      cmocka_unit_test(pbtxt_reports_syntax_errors),
      cmocka_unit_test(pbtxt_guards_against_absurd_depth),
      cmocka_unit_test(import_reads_op_fields),
      cmocka_unit_test(import_reads_args),
      cmocka_unit_test(import_reads_attrs),
      cmocka_unit_test(import_reads_default_values),
      cmocka_unit_test(import_sorts_ops_and_reads_minimal_ops),
      cmocka_unit_test(import_skips_unknown_fields_with_one_warning),
      cmocka_unit_test(import_skips_unknown_fields_in_values),
      cmocka_unit_test(import_reports_unsupported_fields),
      cmocka_unit_test(import_drops_full_types_with_one_warning),
      cmocka_unit_test(import_reads_distributed_communication),
      cmocka_unit_test(import_reports_bad_values),
      cmocka_unit_test(import_reports_duplicates),
      cmocka_unit_test(import_reports_bad_attrs),
      cmocka_unit_test(import_reports_bad_shapes_and_tensors),
      cmocka_unit_test(import_reports_bad_args),
      cmocka_unit_test(import_reports_every_bad_op),
      cmocka_unit_test(import_reports_every_error_of_an_op),
      cmocka_unit_test(names_op_name_with_spec_text_is_an_error),
      cmocka_unit_test(names_attr_name_with_semicolon_is_an_error),
      cmocka_unit_test(names_attr_name_closing_a_comment_is_an_error),
      cmocka_unit_test(names_input_name_with_newline_is_an_error),
      cmocka_unit_test(names_output_name_with_quote_is_an_error),
      cmocka_unit_test(names_type_attr_reference_is_checked),
      cmocka_unit_test(names_number_attr_reference_is_checked),
      cmocka_unit_test(names_type_list_attr_reference_is_checked),
      cmocka_unit_test(names_hostile_name_is_shown_escaped_and_cut),
      cmocka_unit_test(names_internal_ops_are_skipped_with_one_warning),
      cmocka_unit_test(names_every_bad_name_of_an_op_is_reported),
      cmocka_unit_test(snake_case_follows_tensorflow),
      cmocka_unit_test(package_name_is_the_sanitized_base_name),
      cmocka_unit_test(format_float_round_trips),
      cmocka_unit_test(import_ignores_the_locale),
      cmocka_unit_test(emit_writes_hand_built_model),
      cmocka_unit_test(emit_writes_every_construct),
      cmocka_unit_test(emit_escapes_strings),
      cmocka_unit_test(round_trip_full_op),
      cmocka_unit_test(round_trip_hand_built_model),
      cmocka_unit_test(cli_writes_one_file_with_package),
      cmocka_unit_test(cli_split_writes_one_file_per_op),
      cmocka_unit_test(cli_writes_nothing_for_invalid_input),
      cmocka_unit_test(cli_split_writes_nothing_when_one_file_fails),
      cmocka_unit_test(cli_rejects_ops_the_language_rejects),
      cmocka_unit_test(cli_warns_where_the_op_form_loses_detail),
      cmocka_unit_test(cli_reports_usage_and_io_errors),
      cmocka_unit_test(cli_injected_op_name_writes_nothing),
      cmocka_unit_test(cli_doc_text_cannot_become_code),
      cmocka_unit_test(cli_doc_carriage_return_starts_a_doc_line),
      cmocka_unit_test(cli_string_values_cannot_end_early),
      cmocka_unit_test(cli_split_file_names_stay_in_the_directory),
      cmocka_unit_test(cli_split_file_names_that_clash_are_an_error),
      cmocka_unit_test(cli_skips_internal_ops_with_a_warning),
      cmocka_unit_test(cli_imports_todays_fields_fixture),
      cmocka_unit_test(cli_text_reading_back_with_another_flag_is_an_error),
  };
  int failed = cmocka_run_group_tests_name("tf_import", unit, cli_setup,
                                           cli_teardown);
  if (failed) return failed;
  /* The corpus lives outside the repository; without it, report a skip
   * (after the unit tests, so that their failures are never hidden). */
  if (!tu_corpus("tf-ops.pbtxt")) {
    fprintf(stderr, "tf-ops.pbtxt not found: corpus round trip skipped\n");
    return 77;
  }
  const struct CMUnitTest corpus[] = {
      cmocka_unit_test(corpus_round_trips),
  };
  return cmocka_run_group_tests_name("tf_import_corpus", corpus, NULL, NULL);
}
