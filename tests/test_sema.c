/* Semantic rules: each rule has a failing spec with its exact message,
 * line and column, and the finalized model is checked for valid specs. */
#include "testutil.h"

#include "ast.h" /* og_ast_binop codes in og_sexpr.op */

#include <math.h>
#include <string.h>

#define OP(body) "op X {\n" body "}\n"

/* ---- names ---- */

static void op_name_must_be_camel_case(void **state) {
  (void)state;
  tu_expect_error("op zeroOut {}\n",
                  "1:4: error: invalid op name 'zeroOut': op names are "
                  "CamelCase ([A-Z][A-Za-z0-9]*)");
  tu_expect_error("op Zero_Out {}\n",
                  "1:4: error: invalid op name 'Zero_Out': op names are "
                  "CamelCase ([A-Z][A-Za-z0-9]*)");
}

static void op_name_with_underscore_is_reserved(void **state) {
  (void)state;
  tu_expect_error("op _Internal {}\n",
                  "1:4: error: op name '_Internal' is reserved: names "
                  "starting with '_' are for internal ops");
}

static void attr_name_with_underscore_is_reserved(void **state) {
  (void)state;
  tu_expect_error(OP("  attr _a: int;\n"),
                  "2:8: error: attr name '_a' is reserved: names starting "
                  "with '_' are for internal use");
}

static void arg_names_are_lower_case(void **state) {
  (void)state;
  tu_expect_error(OP("  input In: float;\n"),
                  "2:9: error: invalid input name 'In': input and output "
                  "names match [a-z][a-z0-9_]*");
  tu_expect_error(OP("  output _o: float;\n"),
                  "2:10: error: output name '_o' is reserved: names starting "
                  "with '_' are for internal use");
}

static void names_are_distinct_within_an_op(void **state) {
  (void)state;
  tu_expect_error(OP("  input a: int32;\n  output a: float;\n"),
                  "3:10: error: duplicate name 'a' in op 'X': names of "
                  "attrs, inputs and outputs must be distinct");
  tu_expect_error(OP("  attr a: int;\n  input a: float;\n"),
                  "3:9: error: duplicate name 'a' in op 'X': names of "
                  "attrs, inputs and outputs must be distinct");
  tu_expect_error(OP("  attr a: int;\n  attr a: float;\n"),
                  "3:8: error: duplicate name 'a' in op 'X': names of "
                  "attrs, inputs and outputs must be distinct");
}

static void duplicate_name_note_points_at_first(void **state) {
  (void)state;
  tu_diags d = {0};
  og_model *m = tu_compile("t.op", OP("  input a: int32;\n  output a: float;\n"), &d);
  assert_null(m);
  assert_int_equal(d.count, 2);
  assert_string_equal(d.lines[1], "t.op:2:9: note: 'a' is first declared "
                                  "here as an input");
  tu_diags_free(&d);
}

static void attr_may_not_be_named_like_a_dtype(void **state) {
  (void)state;
  tu_expect_error(OP("  attr int32: int;\n"),
                  "2:8: error: attr name 'int32' is the name of a data type; "
                  "attrs may not be named like data types");
  tu_expect_error(OP("  attr float: string;\n"),
                  "2:8: error: attr name 'float' is the name of a data type; "
                  "attrs may not be named like data types");
  tu_expect_error(OP("  attr half: string;\n"),
                  "2:8: error: attr name 'half' is the name of a data type; "
                  "attrs may not be named like data types");
}

static void op_defined_twice_across_files(void **state) {
  (void)state;
  og_sources sources;
  og_sources_init(&sources);
  tu_diags d = {0};
  og_diag diag;
  og_diag_init(&diag, &sources, tu_diags_sink, &d);
  uint32_t files[2];
  files[0] = og_sources_add(&sources, "a.op", "op A {}\n", 8);
  files[1] = og_sources_add(&sources, "b.op", "\nop A {}\n", 9);
  og_model *m = og_compile(&sources, files, 2, &diag);
  assert_null(m);
  assert_string_equal(tu_diags_text(&d),
                      "b.op:2:4: error: op 'A' is already defined\n"
                      "a.op:1:4: note: previous definition of 'A' is here");
  tu_diags_free(&d);
  og_sources_free(&sources);
}

/* ---- attr types ---- */

static void dtype_is_not_an_attr_type(void **state) {
  (void)state;
  tu_expect_error(OP("  attr x: int32;\n"),
                  "2:11: error: attr 'x': 'int32' is a data type, not an "
                  "attr type; write 'type' or a set such as {int32}");
}

static void unknown_attr_type(void **state) {
  (void)state;
  tu_expect_error(OP("  attr x: integer;\n"),
                  "2:11: error: attr 'x': unknown attr type 'integer' "
                  "(expected string, int, float, bool, type, shape, tensor, "
                  "func, list(...), a type set or a {...} set)");
}

static void list_of_list_is_rejected(void **state) {
  (void)state;
  tu_expect_error(OP("  attr x: list(list(int));\n"),
                  "2:16: error: attr 'x': list(list(...)) is not allowed; "
                  "lists do not nest");
}

static void unknown_type_constructor(void **state) {
  (void)state;
  tu_expect_error(OP("  attr x: vector(int);\n"),
                  "2:11: error: attr 'x': unknown type constructor 'vector' "
                  "(only list(...) takes an argument)");
}

static void unknown_dtype_in_set(void **state) {
  (void)state;
  tu_expect_error(OP("  attr T: {float, complex};\n"),
                  "2:19: error: attr 'T': unknown data type 'complex' in set; "
                  "did you mean 'complex64'?");
}

static void set_mixing_strings_and_types(void **state) {
  (void)state;
  tu_expect_error(OP("  attr T: {float, 'a'};\n"),
                  "2:19: error: attr 'T': a set of types cannot also hold "
                  "string 'a'");
  tu_expect_error(OP("  attr T: {'a', float};\n"),
                  "2:17: error: attr 'T': a set of strings cannot also hold "
                  "'float'");
}

static const og_attr *attr0(const og_model *m) { return &m->ops[0]->attrs[0]; }

static void assert_allowed_types(const og_attr *a, const char *expected) {
  char buf[512] = "";
  for (size_t i = 0; i < a->allowed->u.list.count; i++) {
    if (i) strcat(buf, " ");
    strcat(buf, og_dtype_name(a->allowed->u.list.items[i].u.type));
  }
  assert_string_equal(buf, expected);
}

static void shortcuts_expand_in_enum_order(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(OP("  attr T: numbertype;\n"));
  assert_allowed_types(attr0(m),
                       "float double int32 uint8 int16 int8 complex64 int64 "
                       "qint8 quint8 qint32 bfloat16 uint16 complex128 half "
                       "uint32 uint64");
  og_model_free(m);
  m = tu_expect_ok(OP("  attr T: realnumerictype;\n"));
  assert_allowed_types(attr0(m),
                       "float double int32 uint8 int16 int8 int64 bfloat16 "
                       "uint16 half uint32 uint64");
  og_model_free(m);
  m = tu_expect_ok(OP("  attr T: list(quantizedtype);\n"));
  assert_allowed_types(attr0(m), "qint8 quint8 qint32 qint16 quint16");
  assert_true(attr0(m)->type.is_list);
  og_model_free(m);
}

static void set_keeps_first_of_duplicates(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(OP("  attr T: {bool, float16, half, realnumbertype, float,};\n"));
  assert_allowed_types(attr0(m),
                       "bool half float double int32 uint8 int16 int8 int64 "
                       "bfloat16 uint16 uint32 uint64");
  og_model_free(m);
}

static void string_set_becomes_string_attr(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(OP("  attr mode: {'CONSTANT', \"REFLECT\", 'CONSTANT'} = 'REFLECT';\n"));
  const og_attr *a = attr0(m);
  assert_int_equal(a->type.kind, OG_ATTR_STRING);
  assert_int_equal(a->allowed->u.list.count, 2);
  assert_string_equal(a->default_value->u.s.ptr, "REFLECT");
  og_model_free(m);
}

/* The model outlives the AST: set strings must be the model's own copies
 * (they once pointed into the freed AST; found by test_tf_vectors). A
 * second compile reuses the heap the first one's AST was freed into. */
static void string_set_values_are_owned_by_the_model(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(OP("  attr a: list({ 'red fish', \"blue\\n\" });\n"));
  og_model *other = tu_expect_ok(OP("  attr b: list({ 'XXXXXXXX', 'YYYYY' });\n"));
  const og_value *allowed = attr0(m)->allowed;
  assert_int_equal(allowed->u.list.count, 2);
  assert_string_equal(allowed->u.list.items[0].u.s.ptr, "red fish");
  assert_int_equal(allowed->u.list.items[1].u.s.len, 5);
  assert_string_equal(allowed->u.list.items[1].u.s.ptr, "blue\n");
  og_model_free(other);
  og_model_free(m);
}

/* ---- minimums ---- */

static void minimum_only_on_int_and_list(void **state) {
  (void)state;
  tu_expect_error(OP("  attr a: string >= 0;\n"),
                  "2:21: error: attr 'a': a minimum is only allowed on int "
                  "and list attrs, not on string");
}

static void list_minimum_is_not_negative(void **state) {
  (void)state;
  tu_expect_error(OP("  attr a: list(string) >= -5;\n"),
                  "2:27: error: attr 'a': the minimum length of a list must "
                  "be >= 0, found -5");
}

static void int_minimum_may_be_negative(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(OP("  attr a: int >= -3 = -3;\n"));
  assert_true(attr0(m)->has_minimum);
  assert_int_equal(attr0(m)->minimum, -3);
  og_model_free(m);
}

/* ---- defaults ---- */

static void default_of_wrong_kind(void **state) {
  (void)state;
  tu_expect_error(OP("  attr a: int = 'x';\n"),
                  "2:17: error: attr 'a': the default must be an int, found "
                  "string 'x'");
  tu_expect_error(OP("  attr a: int = 0.5;\n"),
                  "2:17: error: attr 'a': the default must be an int, found "
                  "number 0.5");
  tu_expect_error(OP("  attr a: list(int) = 5;\n"),
                  "2:23: error: attr 'a': the default must be a list(int) "
                  "literal such as [...], found integer 5");
  tu_expect_error(OP("  attr a: list(int) = [5, 0.5];\n"),
                  "2:27: error: attr 'a': element 1 of the default must be "
                  "an int, found number 0.5");
  /* The number found is shown whole (%g would say 1.23457e+08), with a
   * '.' whatever the locale. */
  tu_comma_locale();
  tu_diags d = {0};
  og_model *m = tu_compile("t.op", OP("  attr a: int = 123456789.5;\n"), &d);
  tu_c_locale();
  assert_null(m);
  assert_string_equal(tu_diags_text(&d),
                      "t.op:2:17: error: attr 'a': the default must be an "
                      "int, found number 123456789.5");
  tu_diags_free(&d);
  tu_expect_error(OP("  attr a: bool = 1;\n"),
                  "2:18: error: attr 'a': the default must be a bool, found "
                  "integer 1");
}

static void default_not_in_allowed_values(void **state) {
  (void)state;
  tu_expect_error(OP("  attr T: {float, int32} = int64;\n"),
                  "2:28: error: attr 'T': default int64 is not one of "
                  "{float, int32}");
  tu_expect_error(OP("  attr x: numbertype = DT_STRING;\n"),
                  "2:24: error: attr 'x': default string is not one of "
                  "{float, double, int32, uint8, int16, int8, complex64, "
                  "int64, qint8, quint8, qint32, bfloat16, uint16, "
                  "complex128, half, uint32, uint64}");
  tu_expect_error(OP("  attr x: list({'foo', 'bar'}) = ['baz'];\n"),
                  "2:34: error: attr 'x': default 'baz' is not one of "
                  "{'foo', 'bar'}");
}

static void default_below_minimum(void **state) {
  (void)state;
  tu_expect_error(OP("  attr a: int >= 7 = 2;\n"),
                  "2:22: error: attr 'a': default 2 is less than the minimum "
                  "7");
  tu_expect_error(OP("  attr a: list(bool) >= 2 = [];\n"),
                  "2:29: error: attr 'a': default has 0 elements, fewer than "
                  "the minimum length 2");
  tu_expect_error(OP("  attr a: list(type) >= 2 = [DT_STRING];\n"),
                  "2:29: error: attr 'a': default has 1 element, fewer than "
                  "the minimum length 2");
}

static void default_below_implied_minimum(void **state) {
  (void)state;
  tu_expect_error(OP("  attr N: int = 0;\n  input x: N * float;\n"),
                  "2:17: error: attr 'N': default 0 is less than the minimum "
                  "1 (implied by its use as a list length)");
}

static void reference_type_default_is_rejected(void **state) {
  (void)state;
  tu_expect_error(OP("  attr T: type = DT_INT32_REF;\n"),
                  "2:18: error: attr 'T': the default may not be a reference "
                  "type, found 'DT_INT32_REF'");
}

static void typed_defaults_in_every_form(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(OP(
      "  attr s: string = 'a\\x00b';\n"
      "  attr i: int = -9223372036854775808;\n"
      "  attr f: float = 2;\n"
      "  attr g: float = -inf;\n"
      "  attr b: bool = true;\n"
      "  attr t: type = float32;\n"
      "  attr sh: shape = [?, 3];\n"
      "  attr sh2: shape = { dim { size: 2 } dim { size: -1 } };\n"
      "  attr sh3: shape = ?;\n"
      "  attr te: tensor = { dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: [1, 2] };\n"
      "  attr fn: func = { name: 'f' };\n"
      "  attr ls: list(shape) = [[2, 3], []];\n"
      "  attr lf: list(float) = [1, 2.5, nan];\n"));
  const og_op *op = m->ops[0];
  assert_int_equal(op->attrs[0].default_value->u.s.len, 3);
  assert_int_equal(op->attrs[1].default_value->u.i, INT64_MIN);
  assert_int_equal(op->attrs[2].default_value->kind, OG_VAL_FLOAT);
  assert_true(op->attrs[2].default_value->u.f == 2.0);
  assert_true(isinf(op->attrs[3].default_value->u.f) &&
              op->attrs[3].default_value->u.f < 0);
  assert_true(op->attrs[4].default_value->u.b);
  assert_int_equal(op->attrs[5].default_value->u.type, OG_DT_FLOAT);
  const og_shape *sh = &op->attrs[6].default_value->u.shape;
  assert_int_equal(sh->rank, 2);
  assert_int_equal(sh->dims[0], -1);
  assert_int_equal(sh->dims[1], 3);
  assert_true(og_value_equal(op->attrs[6].default_value,
                             op->attrs[7].default_value) == false);
  assert_int_equal(op->attrs[7].default_value->u.shape.dims[0], 2);
  assert_true(op->attrs[8].default_value->u.shape.unknown_rank);
  const og_tensor *te = &op->attrs[9].default_value->u.tensor;
  assert_int_equal(te->dtype, OG_DT_INT32);
  assert_int_equal(te->shape.rank, 1);
  assert_int_equal(te->nvalues, 2);
  assert_int_equal(te->values[1].u.i, 2);
  assert_string_equal(op->attrs[10].default_value->u.func, "f");
  assert_int_equal(op->attrs[11].default_value->u.list.count, 2);
  assert_int_equal(op->attrs[11].default_value->u.list.items[1].u.shape.rank, 0);
  assert_true(isnan(op->attrs[12].default_value->u.list.items[2].u.f));
  og_model_free(m);
}

static void bad_shape_and_tensor_defaults(void **state) {
  (void)state;
  tu_expect_error(OP("  attr s: shape = [2, -2];\n"),
                  "2:23: error: attr 's': a dimension must be a size >= 0, or "
                  "-1 or ? for unknown, found integer -2");
  tu_expect_error(OP("  attr s: shape = { dims { size: 2 } };\n"),
                  "2:21: error: attr 's': unexpected field 'dims' in shape "
                  "(expected dim or unknown_rank)");
  tu_expect_error(OP("  attr t: tensor = { int_val: 1 };\n"),
                  "2:20: error: attr 't': a tensor literal needs a dtype");
  tu_expect_error(OP("  attr t: tensor = { dtype: DT_FLOAT int_val: 1 };\n"),
                  "2:38: error: attr 't': field 'int_val' does not hold float "
                  "values");
  tu_expect_error(OP("  attr f: func = 'f';\n"),
                  "2:18: error: attr 'f': the default must be a function such "
                  "as { name: 'f' }, found string 'f'");
}

/* ---- inputs and outputs ---- */

static void io_type_references_unknown_attr(void **state) {
  (void)state;
  tu_expect_error(OP("  input a: T;\n"),
                  "2:12: error: input 'a': 'T' is neither a data type nor an "
                  "attr of op 'X'");
}

static void io_type_attr_of_wrong_kind(void **state) {
  (void)state;
  tu_expect_error(OP("  attr x: int;\n  input a: x;\n"),
                  "3:12: error: input 'a': attr 'x' has type int; the type of "
                  "an input must be a data type, a type attr or a list(type) "
                  "attr");
}

static void number_attr_must_be_int(void **state) {
  (void)state;
  tu_expect_error(OP("  attr n: string;\n  input a: n * int32;\n"),
                  "3:12: error: input 'a': the list length 'n' must be an int "
                  "attr, but it has type string");
  tu_expect_error(OP("  input a: n * int32;\n"),
                  "2:12: error: input 'a': unknown attr 'n' used as the list "
                  "length");
}

static void number_times_list_type_is_rejected(void **state) {
  (void)state;
  tu_expect_error(OP("  attr N: int;\n  attr L: list(type);\n  output a: N * L;\n"),
                  "4:17: error: output 'a': in N * L, 'L' must be a type "
                  "attr, not list(type)");
}

static void ref_dtype_spelling_is_rejected(void **state) {
  (void)state;
  tu_expect_error(OP("  input i: float_ref;\n"),
                  "2:12: error: input 'i': 'float_ref' is a reference type; "
                  "write Ref(float) instead");
}

static void negative_minimum_on_length_attr(void **state) {
  (void)state;
  tu_expect_error(OP("  attr N: int >= -1;\n  input a: N * float;\n"),
                  "3:12: error: attr 'N' is used as a list length, so its "
                  "minimum must be >= 0, found -1");
}

static void implied_minimums_and_inferred_attrs(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(OP(
      "  attr N: int;\n"
      "  attr M: int >= 0;\n"
      "  attr T: type;\n"
      "  attr L: list(type);\n"
      "  attr O: list(type);\n"
      "  attr out_type: type;\n"
      "  input a: N * T;\n"
      "  input b: Ref(M * int32);\n"
      "  input c: L;\n"
      "  output d: O;\n"
      "  output e: out_type;\n"));
  const og_op *op = m->ops[0];
  assert_true(op->attrs[0].has_minimum);
  assert_int_equal(op->attrs[0].minimum, 1);
  assert_int_equal(op->attrs[1].minimum, 0);
  assert_false(op->attrs[2].has_minimum);
  assert_int_equal(op->attrs[3].minimum, 1);
  assert_int_equal(op->attrs[4].minimum, 1); /* outputs imply it too */
  assert_true(op->attrs[0].inferred && op->attrs[1].inferred &&
              op->attrs[2].inferred && op->attrs[3].inferred);
  assert_false(op->attrs[4].inferred);
  assert_false(op->attrs[5].inferred);
  assert_string_equal(op->inputs[0].number_attr, "N");
  assert_string_equal(op->inputs[0].type_attr, "T");
  assert_true(op->inputs[1].is_ref);
  assert_int_equal(op->inputs[1].type, OG_DT_INT32);
  assert_string_equal(op->inputs[2].type_list_attr, "L");
  og_model_free(m);
}

static void resource_arg_makes_op_stateful(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(OP("  input r: resource;\n"));
  assert_true(m->ops[0]->is_stateful);
  og_model_free(m);
  m = tu_expect_ok(OP("  attr T: type;\n  input r: T;\n"));
  assert_false(m->ops[0]->is_stateful);
  og_model_free(m);
}

static void keywords_are_names(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(OP(
      "  attr Tshape: {int32, int64};\n"
      "  attr shape: shape;\n"
      "  attr dtype: type;\n"
      "  input input: float;\n"
      "  input tensor: Tshape;\n"
      "  output type: dtype;\n"
      "  output op: float;\n"
      "  shape op = [dim(input, 0)];\n"));
  assert_string_equal(m->ops[0]->inputs[1].type_attr, "Tshape");
  og_model_free(m);
}

/* ---- op items ---- */

/* `distributed_communication;` sets TensorFlow's
 * is_distributed_communication; given twice, it is reported like any flag. */
static void distributed_communication_flag(void **state) {
  (void)state;
  og_model *m = tu_expect_ok("op A {\n  distributed_communication;\n}\n"
                             "op B {\n}\n");
  assert_true(m->ops[0]->is_distributed_communication);
  assert_false(m->ops[1]->is_distributed_communication);
  og_model_free(m);
  tu_diags d = {0};
  m = tu_compile("t.op", "op A { distributed_communication; "
                 "distributed_communication; }\n", &d);
  assert_non_null(m);
  assert_int_equal(d.count, 1);
  assert_string_equal(d.lines[0], "t.op:1:35: warning: duplicate "
                      "'distributed_communication' flag");
  og_model_free(m);
  tu_diags_free(&d);
}

static void docs_flags_and_deprecation(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(
      "package demo;\n"
      "/// Adds all inputs\n/// together.\n///\n/// Line one.\n/// Line two.\n"
      "op AddN {\n"
      "  /// How many.\n  attr N: int;\n"
      "  /// The tensors.\n  input inputs: N * float;\n"
      "  output sum: float;\n"
      "  commutative; aggregate; stateful; allows_uninitialized_input;\n"
      "  deprecated 7 \"use AddV2\";\n"
      "}\n");
  const og_op *op = m->ops[0];
  assert_string_equal(op->summary, "Adds all inputs together.");
  assert_string_equal(op->description, "Line one.\nLine two.");
  assert_string_equal(op->attrs[0].description, "How many.");
  assert_string_equal(op->inputs[0].description, "The tensors.");
  assert_string_equal(op->outputs[0].description, "");
  assert_true(op->is_commutative && op->is_aggregate && op->is_stateful &&
              op->allows_uninitialized_input);
  assert_true(op->deprecated);
  assert_int_equal(op->deprecation_version, 7);
  assert_string_equal(op->deprecation_explanation, "use AddV2");
  assert_string_equal(op->package, "demo");
  assert_int_equal(op->pos.line, 7);
  assert_int_equal(op->pos.col, 4);
  og_model_free(m);
}

static void prefix_defaults_to_file_name(void **state) {
  (void)state;
  tu_diags d = {0};
  og_model *m = tu_compile("dir/My-Ops.v2.op", "op A {}\n", &d);
  assert_non_null(m);
  assert_string_equal(m->ops[0]->package, "my_ops");
  og_model_free(m);
  tu_diags_free(&d);
}

/* Under a Latin-1 locale <ctype.h> calls 0xE9 and 0xC9 letters; a C
 * prefix must stay ASCII. */
static void prefix_from_file_name_is_ascii_in_any_locale(void **state) {
  (void)state;
  tu_diags d = {0};
  tu_latin1_locale();
  og_model *m = tu_compile("Caf\xe9\xc9.op", "op A {}\n", &d);
  tu_c_locale();
  assert_non_null(m);
  assert_string_equal(m->ops[0]->package, "caf__");
  og_model_free(m);
  tu_diags_free(&d);
}

static void deprecated_twice(void **state) {
  (void)state;
  tu_expect_error(OP("  deprecated 1 \"a\";\n  deprecated 2 \"b\";\n"),
                  "3:3: error: op 'X' is deprecated twice");
}

/* No op at all (entries NULL): qsort used to be handed a null pointer,
 * undefined behaviour that -fsanitize=undefined reports. */
static void spec_without_ops_gives_empty_model(void **state) {
  (void)state;
  og_model *m = tu_expect_ok("");
  assert_int_equal(m->nops, 0);
  og_model_free(m);
  m = tu_expect_ok("package p; // and nothing else\n");
  assert_int_equal(m->nops, 0);
  og_model_free(m);
}

static void ops_are_sorted_by_name(void **state) {
  (void)state;
  og_model *m = tu_expect_ok("op B {}\nop A {}\nop C {}\n");
  assert_string_equal(m->ops[0]->name, "A");
  assert_string_equal(m->ops[2]->name, "C");
  og_model_free(m);
}

/* ---- shape statements ---- */

static void shape_names_unknown_output(void **state) {
  (void)state;
  tu_expect_error(OP("  input x: float;\n  shape y = x;\n"),
                  "3:9: error: 'y' is not an output of op 'X'");
}

static void shape_names_unknown_input(void **state) {
  (void)state;
  tu_expect_error(OP("  output y: float;\n  shape y = [dim(x, 0)];\n"),
                  "3:18: error: 'x' is not an input of op 'X'");
  tu_expect_error(OP("  input x: float;\n  require rank(z) == 1;\n"),
                  "3:16: error: 'z' is not an input of op 'X'");
}

static void shape_given_twice(void **state) {
  (void)state;
  tu_expect_error(OP("  input x: float;\n  output y: float;\n"
                     "  shape y = x;\n  shape y = ?;\n"),
                  "5:9: error: output 'y' already has a shape");
}

static void shape_fn_excludes_statements(void **state) {
  (void)state;
  tu_expect_error(OP("  input x: float;\n  output y: float;\n"
                     "  shape_fn my_fn;\n  shape y = x;\n"),
                  "5:3: error: op 'X' has both shape_fn and shape statements; "
                  "shape_fn replaces them, so keep one or the other");
}

static void shape_expression_kinds(void **state) {
  (void)state;
  tu_expect_error(OP("  input x: float;\n  output y: float;\n"
                     "  shape y = [x];\n"),
                  "4:14: error: 'x' is a shape, but a number is needed here");
  tu_expect_error(OP("  input x: float;\n  require dim(x, 0);\n"),
                  "3:11: error: 'dim(x, 0)' is a number, but a condition is "
                  "needed here");
  tu_expect_error(OP("  input x: float;\n  output y: float;\n"
                     "  shape y = 3;\n"),
                  "4:13: error: '3' is a number, but a shape is needed here");
  tu_expect_error(OP("  input x: float;\n  output y: float;\n"
                     "  shape y = [rank(x) == 1];\n"),
                  "4:14: error: 'rank(x) == 1' is a condition, but a number "
                  "is needed here");
  tu_expect_error(OP("  input x: float;\n  output y: float;\n"
                     "  shape y = [rank(3)];\n"),
                  "4:19: error: '3' is a number, but a shape is needed here");
  tu_expect_error(OP("  attr n: int;\n  input x: float;\n  output y: float;\n"
                     "  shape y = attr(n);\n"),
                  "5:13: error: 'attr(n)' is a number, but a shape is needed "
                  "here");
}

/* An attr whose declaration was already reported stays quiet in shape
 * statements: no claim about the type it never got. */
static void shape_attr_with_bad_declaration_draws_no_follow_on(void **state) {
  (void)state;
  tu_expect_error(OP("  attr s: integer;\n  output y: float;\n"
                     "  shape y = attr(s);\n"),
                  "2:11: error: attr 's': unknown attr type 'integer' "
                  "(expected string, int, float, bool, type, shape, tensor, "
                  "func, list(...), a type set or a {...} set)");
  tu_expect_error(OP("  attr n: list(list(int));\n  output y: float;\n"
                     "  shape y = [attr(n)];\n"),
                  "2:16: error: attr 'n': list(list(...)) is not allowed; "
                  "lists do not nest");
  tu_expect_error(OP("  attr s: string;\n  output y: float;\n"
                     "  shape y = [attr(s)];\n"),
                  "4:19: error: attr 's' has type string: compare it with a "
                  "literal, attr(s) == 'text'");
}

static void shape_function_arity_names_what_was_found(void **state) {
  (void)state;
  tu_expect_error(OP("  input x: float;\n  output y: float;\n"
                     "  shape y = [dim(x, 0, 1)];\n"),
                  "4:14: error: dim() takes an input and a dimension index, "
                  "found 3 arguments");
  tu_expect_error(OP("  input x: float;\n  require same(x);\n"),
                  "3:11: error: same() takes two or more shapes, found 1 "
                  "argument");
  tu_expect_error(OP("  attr s: shape;\n  output y: float;\n"
                     "  shape y = attr();\n"),
                  "4:13: error: attr() takes one attr name, found 0 "
                  "arguments");
  tu_expect_error(OP("  attr s: shape;\n  output y: float;\n"
                     "  shape y = attr(1);\n"),
                  "4:18: error: attr() takes the name of an attr, found '1'");
}

static void every_shape_form_resolves(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(OP(
      "  attr N: int;\n  attr s: shape;\n  attr k: int;\n"
      "  input a: float;\n  input b: float;\n  input l: N * float;\n"
      "  output o1: float;\n  output o2: float;\n  output o3: float;\n"
      "  output o4: float;\n  output o5: float;\n  output o6: float;\n"
      "  output o7: float;\n"
      "  shape o1 = a;\n"
      "  shape o2 = [dim(a, 0) * dim(a, -1) + 1, 3, ?, attr(k)];\n"
      "  shape o3 = merge(l);\n"
      "  shape o4 = broadcast(a, b);\n"
      "  shape o5 = [];\n"
      "  shape o6 = ?;\n"
      "  shape o7 = attr(s);\n"
      "  require rank(a) == 2;\n"
      "  require rank(b) in [1, 3];\n"
      "  require dim(a, 1) >= dim(b, 0) - 1;\n"
      "  require same(a, b);\n"));
  const og_op *op = m->ops[0];
  assert_int_equal(op->nshape_rules, 11);
  assert_int_equal(op->shape_rules[1].expr.kind, OG_SX_LIST);
  assert_int_equal(op->shape_rules[1].expr.nargs, 4);
  assert_int_equal(op->shape_rules[1].expr.args[0].kind, OG_SX_BINARY);
  assert_int_equal(op->shape_rules[1].expr.args[0].op, OG_OP_ADD);
  assert_int_equal(op->shape_rules[2].expr.kind, OG_SX_FOLD);
  assert_int_equal(op->shape_rules[2].expr.fold, OG_FOLD_MERGE);
  assert_int_equal(op->shape_rules[2].expr.args[0].kind, OG_SX_INPUT);
  assert_int_equal(op->shape_rules[2].expr.args[0].index, 2);
  assert_true(op->shape_rules[7].is_require);
  assert_int_equal(op->shape_rules[8].expr.kind, OG_SX_IN);
  assert_int_equal(op->shape_rules[10].expr.kind, OG_SX_SAME);
  og_model_free(m);
}

/* ---- whole-file behaviour ---- */

static void errors_come_in_source_order(void **state) {
  (void)state;
  tu_diags d = {0};
  og_model *m = tu_compile("t.op", OP("  attr T: {float} = int32;\n"
                                      "  input a: Q;\n"
                                      "  attr _b: int;\n"), &d);
  assert_null(m);
  assert_int_equal(d.count, 3);
  assert_non_null(strstr(d.lines[0], "t.op:2:"));
  assert_non_null(strstr(d.lines[1], "t.op:3:"));
  assert_non_null(strstr(d.lines[2], "t.op:4:"));
  tu_diags_free(&d);
}

static void out_of_range_literals_are_errors(void **state) {
  (void)state;
  tu_expect_error(OP("  attr f: float = 1e309;\n"),
                  "2:19: error: number '1e309' is out of range for a double");
  /* The placeholder value draws no follow-on error (the minimum). */
  tu_expect_error(OP("  attr i: int >= 5 = 99999999999999999999;\n"),
                  "2:22: error: integer literal 99999999999999999999 does not "
                  "fit in a 64-bit signed integer");
}

static void merge_takes_any_shapes(void **state) {
  (void)state;
  og_model *m = tu_expect_ok(OP("  input x: float;\n  output y: float;\n"
                                "  shape y = merge(x, [1]);\n"));
  const og_sexpr *e = &m->ops[0]->shape_rules[0].expr;
  assert_int_equal(e->kind, OG_SX_FOLD);
  assert_int_equal(e->fold, OG_FOLD_MERGE);
  assert_int_equal(e->type, OG_SXT_SHAPE);
  assert_int_equal(e->args[1].kind, OG_SX_LIST);
  og_model_free(m);
}

static void tensor_default_with_too_many_values(void **state) {
  (void)state;
  tu_expect_error(OP("  attr t: tensor = { dtype: DT_INT32 int_val: [1, 2] };\n"),
                  "2:20: error: attr 't': the tensor has 2 values, more than "
                  "the 1 elements of its shape");
}

static void invalid_utf8_is_rejected(void **state) {
  (void)state;
  tu_expect_error("// caf\xe9\nop A {}\n",
                  "1:7: error: invalid UTF-8 byte 0xe9; spec files are UTF-8 "
                  "text");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(op_name_must_be_camel_case),
      cmocka_unit_test(op_name_with_underscore_is_reserved),
      cmocka_unit_test(attr_name_with_underscore_is_reserved),
      cmocka_unit_test(arg_names_are_lower_case),
      cmocka_unit_test(names_are_distinct_within_an_op),
      cmocka_unit_test(duplicate_name_note_points_at_first),
      cmocka_unit_test(attr_may_not_be_named_like_a_dtype),
      cmocka_unit_test(op_defined_twice_across_files),
      cmocka_unit_test(dtype_is_not_an_attr_type),
      cmocka_unit_test(unknown_attr_type),
      cmocka_unit_test(list_of_list_is_rejected),
      cmocka_unit_test(unknown_type_constructor),
      cmocka_unit_test(unknown_dtype_in_set),
      cmocka_unit_test(set_mixing_strings_and_types),
      cmocka_unit_test(shortcuts_expand_in_enum_order),
      cmocka_unit_test(set_keeps_first_of_duplicates),
      cmocka_unit_test(string_set_becomes_string_attr),
      cmocka_unit_test(string_set_values_are_owned_by_the_model),
      cmocka_unit_test(minimum_only_on_int_and_list),
      cmocka_unit_test(list_minimum_is_not_negative),
      cmocka_unit_test(int_minimum_may_be_negative),
      cmocka_unit_test(default_of_wrong_kind),
      cmocka_unit_test(default_not_in_allowed_values),
      cmocka_unit_test(default_below_minimum),
      cmocka_unit_test(default_below_implied_minimum),
      cmocka_unit_test(reference_type_default_is_rejected),
      cmocka_unit_test(typed_defaults_in_every_form),
      cmocka_unit_test(bad_shape_and_tensor_defaults),
      cmocka_unit_test(io_type_references_unknown_attr),
      cmocka_unit_test(io_type_attr_of_wrong_kind),
      cmocka_unit_test(number_attr_must_be_int),
      cmocka_unit_test(number_times_list_type_is_rejected),
      cmocka_unit_test(ref_dtype_spelling_is_rejected),
      cmocka_unit_test(negative_minimum_on_length_attr),
      cmocka_unit_test(implied_minimums_and_inferred_attrs),
      cmocka_unit_test(resource_arg_makes_op_stateful),
      cmocka_unit_test(keywords_are_names),
      cmocka_unit_test(docs_flags_and_deprecation),
      cmocka_unit_test(distributed_communication_flag),
      cmocka_unit_test(prefix_defaults_to_file_name),
      cmocka_unit_test(prefix_from_file_name_is_ascii_in_any_locale),
      cmocka_unit_test(deprecated_twice),
      cmocka_unit_test(spec_without_ops_gives_empty_model),
      cmocka_unit_test(ops_are_sorted_by_name),
      cmocka_unit_test(shape_names_unknown_output),
      cmocka_unit_test(shape_names_unknown_input),
      cmocka_unit_test(shape_given_twice),
      cmocka_unit_test(shape_fn_excludes_statements),
      cmocka_unit_test(shape_expression_kinds),
      cmocka_unit_test(shape_attr_with_bad_declaration_draws_no_follow_on),
      cmocka_unit_test(shape_function_arity_names_what_was_found),
      cmocka_unit_test(every_shape_form_resolves),
      cmocka_unit_test(errors_come_in_source_order),
      cmocka_unit_test(out_of_range_literals_are_errors),
      cmocka_unit_test(merge_takes_any_shapes),
      cmocka_unit_test(tensor_default_with_too_many_values),
      cmocka_unit_test(invalid_utf8_is_rejected),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
