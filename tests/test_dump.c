/* The JSON dump of the model, its reader, and the JSON helpers under them.
 * Models are built by hand so that these tests do not depend on the
 * semantic analysis. */
#include "testutil.h"

#include "dump.h"
#include "dump_read.h"
#include "json.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- building models by hand -------------------------------------------- */

static og_value v_str(og_arena *a, const char *s, size_t len) {
  og_value v = {.kind = OG_VAL_STRING};
  v.u.s.ptr = og_arena_strndup(a, s, len);
  v.u.s.len = len;
  return v;
}

static og_value v_int(int64_t i) {
  return (og_value){.kind = OG_VAL_INT, .u.i = i};
}

static og_value v_float(double f) {
  return (og_value){.kind = OG_VAL_FLOAT, .u.f = f};
}

static og_value v_bool(bool b) {
  return (og_value){.kind = OG_VAL_BOOL, .u.b = b};
}

static og_value v_type(og_dtype t) {
  return (og_value){.kind = OG_VAL_TYPE, .u.type = t};
}

static og_value v_func(og_arena *a, const char *name) {
  return (og_value){.kind = OG_VAL_FUNC, .u.func = og_arena_strdup(a, name)};
}

static og_shape shape_of(og_arena *a, size_t rank, const int64_t *dims) {
  og_shape s = {.rank = rank};
  s.dims = og_arena_array(a, rank, sizeof *dims);
  if (rank) memcpy(s.dims, dims, rank * sizeof *dims);
  return s;
}

static og_value v_shape(og_arena *a, size_t rank, const int64_t *dims) {
  return (og_value){.kind = OG_VAL_SHAPE, .u.shape = shape_of(a, rank, dims)};
}

static og_value v_unknown_shape(void) {
  return (og_value){.kind = OG_VAL_SHAPE, .u.shape.unknown_rank = true};
}

static og_value *copy_values(og_arena *a, size_t n, const og_value *items) {
  og_value *out = og_arena_array(a, n, sizeof *out);
  if (n) memcpy(out, items, n * sizeof *out);
  return out;
}

static og_value v_tensor(og_arena *a, og_dtype dt, size_t rank,
                         const int64_t *dims, size_t n, const og_value *vs) {
  og_value v = {.kind = OG_VAL_TENSOR};
  v.u.tensor.dtype = dt;
  v.u.tensor.shape = shape_of(a, rank, dims);
  v.u.tensor.nvalues = n;
  v.u.tensor.values = copy_values(a, n, vs);
  return v;
}

static og_value v_list(og_arena *a, size_t n, const og_value *items) {
  og_value v = {.kind = OG_VAL_LIST};
  v.u.list.count = n;
  v.u.list.items = copy_values(a, n, items);
  return v;
}

static const og_value *boxed(og_arena *a, og_value v) {
  return copy_values(a, 1, &v);
}

#define COUNT(array) (sizeof(array) / sizeof *(array))

static og_attr attr(const char *name, og_attr_kind kind, bool is_list,
                    const og_value *def) {
  return (og_attr){.name = name, .type = {kind, is_list},
                   .default_value = def, .description = ""};
}

static og_attr min_attr(og_attr a, int64_t minimum) {
  a.has_minimum = true;
  a.minimum = minimum;
  return a;
}

static og_attr allowed_types(og_arena *ar, og_attr a, size_t n,
                             const og_dtype *types) {
  og_value items[32];
  for (size_t i = 0; i < n; i++) {
    items[i] = v_type(types[i]);
    a.allowed_types |= OG_DTYPE_BIT(types[i]);
  }
  a.allowed = boxed(ar, v_list(ar, n, items));
  return a;
}

static og_arg arg(const char *name, og_dtype type, const char *type_attr,
                  const char *number_attr, const char *type_list_attr) {
  return (og_arg){.name = name, .description = "", .type = type,
                  .type_attr = type_attr, .number_attr = number_attr,
                  .type_list_attr = type_list_attr};
}

static og_op *new_op(og_model *m, const char *name, const char *file,
                     uint32_t line) {
  og_op *op = og_arena_alloc(&m->arena, sizeof *op);
  op->name = name;
  op->summary = op->description = "";
  op->package = "demo";
  op->pos = (og_srcpos){file, line, 5, 0};
  return op;
}

static void add_op(og_model *m, og_op *op) {
  m->ops = og_xrealloc(m->ops, (m->nops + 1) * sizeof *m->ops);
  m->ops[m->nops++] = op;
}

static void set_args(og_model *m, og_op *op, const og_arg *in, size_t nin,
                     const og_arg *out, size_t nout) {
  op->inputs = og_arena_array(&m->arena, nin, sizeof *in);
  if (nin) memcpy(op->inputs, in, nin * sizeof *in);
  op->ninputs = nin;
  op->outputs = og_arena_array(&m->arena, nout, sizeof *out);
  if (nout) memcpy(op->outputs, out, nout * sizeof *out);
  op->noutputs = nout;
}

static void set_attrs(og_model *m, og_op *op, const og_attr *attrs,
                      size_t n) {
  op->attrs = og_arena_array(&m->arena, n, sizeof *attrs);
  memcpy(op->attrs, attrs, n * sizeof *attrs);
  op->nattrs = n;
}

/* Every scalar attr kind, with the defaults that are easy to get wrong. */
static size_t scalar_attrs(og_arena *a, og_attr *out) {
  static const char blob[] = "nul\0byte \"q\" \\ \n\t\x01 \xff\xc3("
                             "\xed\xa0\x80 "
                             "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 end";
  static const og_dtype t_allowed[] = {OG_DT_FLOAT, OG_DT_DOUBLE, OG_DT_INT32};
  size_t n = 0;
  out[n++] = allowed_types(a, attr("T", OG_ATTR_TYPE, false,
                                   boxed(a, v_type(OG_DT_INT32))),
                           COUNT(t_allowed), t_allowed);
  out[n - 1].description = "The \"element\" type.\nSecond line: caf\xc3\xa9";
  out[n++] = min_attr(attr("preserve_index", OG_ATTR_INT, false,
                           boxed(a, v_int(0))), 0);
  out[n++] = min_attr(attr("N", OG_ATTR_INT, false, NULL), 1);
  out[n++] = min_attr(attr("neg", OG_ATTR_INT, false,
                           boxed(a, v_int(INT64_MIN))), -5);
  out[n++] = attr("big", OG_ATTR_INT, false, boxed(a, v_int(INT64_MAX)));
  og_value modes[] = {v_str(a, "a", 1), v_str(a, "b'\"", 3)};
  out[n] = attr("mode", OG_ATTR_STRING, false, boxed(a, modes[1]));
  out[n++].allowed = boxed(a, v_list(a, 2, modes));
  out[n++] = attr("blob", OG_ATTR_STRING, false,
                  boxed(a, v_str(a, blob, sizeof blob - 1)));
  static const double floats[] = {0.1, 1e-300, INFINITY, -INFINITY, NAN, -0.0,
                                  2.0, 5e-324, DBL_MAX, 1.0 / 3, 1e21, -1.5};
  static const char *const fnames[] = {"f_tenth", "f_tiny", "f_inf",
                                       "f_ninf",  "f_nan",  "f_negzero",
                                       "f_two",   "f_denorm", "f_max",
                                       "f_third", "f_1e21", "f_neg"};
  for (size_t i = 0; i < COUNT(floats); i++)
    out[n++] = attr(fnames[i], OG_ATTR_FLOAT, false,
                    boxed(a, v_float(floats[i])));
  out[n++] = attr("flag", OG_ATTR_BOOL, false, boxed(a, v_bool(true)));
  out[n++] = attr("any_type", OG_ATTR_TYPE, false, NULL);
  return n;
}

static size_t shaped_attrs(og_arena *a, og_attr *out) {
  static const int64_t dims[] = {2, -1};
  size_t n = 0;
  out[n++] =
      attr("shape_a", OG_ATTR_SHAPE, false, boxed(a, v_shape(a, 2, dims)));
  out[n++] = attr("shape_u", OG_ATTR_SHAPE, false, boxed(a, v_unknown_shape()));
  out[n++] =
      attr("shape_s", OG_ATTR_SHAPE, false, boxed(a, v_shape(a, 0, NULL)));
  og_value ints[] = {v_int(1), v_int(-2)};
  static const int64_t two[] = {2};
  out[n++] = attr("t_int", OG_ATTR_TENSOR, false,
                  boxed(a, v_tensor(a, OG_DT_INT32, 1, two, 2, ints)));
  og_value fl[] = {v_float(0.5), v_float(INFINITY), v_float(NAN), v_float(2)};
  static const int64_t sq[] = {2, 2};
  out[n++] = attr("t_float", OG_ATTR_TENSOR, false,
                  boxed(a, v_tensor(a, OG_DT_FLOAT, 2, sq, 4, fl)));
  og_value strs[] = {v_str(a, "nan", 3), v_str(a, "x\0y", 3)};
  out[n++] = attr("t_str", OG_ATTR_TENSOR, false,
                  boxed(a, v_tensor(a, OG_DT_STRING, 1, two, 2, strs)));
  og_value bools[] = {v_bool(false)};
  out[n++] = attr("t_bool", OG_ATTR_TENSOR, false,
                  boxed(a, v_tensor(a, OG_DT_BOOL, 0, NULL, 1, bools)));
  out[n++] = attr("fn", OG_ATTR_FUNC, false, boxed(a, v_func(a, "my_fn")));
  return n;
}

static size_t list_attrs(og_arena *a, og_attr *out) {
  size_t n = 0;
  og_value ints[] = {v_int(1), v_int(2), v_int(3)};
  out[n++] = min_attr(attr("l_int", OG_ATTR_INT, true,
                           boxed(a, v_list(a, 3, ints))), 2);
  og_value fl[] = {v_float(1), v_float(2.5), v_float(-INFINITY)};
  out[n++] = attr("l_float", OG_ATTR_FLOAT, true, boxed(a, v_list(a, 3, fl)));
  out[n++] = attr("l_str", OG_ATTR_STRING, true, boxed(a, v_list(a, 0, NULL)));
  og_value bools[] = {v_bool(true), v_bool(false)};
  out[n++] = attr("l_bool", OG_ATTR_BOOL, true, boxed(a, v_list(a, 2, bools)));
  static const og_dtype lt_allowed[] = {OG_DT_FLOAT, OG_DT_INT64};
  og_value types[] = {v_type(OG_DT_FLOAT)};
  out[n++] = allowed_types(a, attr("l_type", OG_ATTR_TYPE, true,
                                   boxed(a, v_list(a, 1, types))),
                           COUNT(lt_allowed), lt_allowed);
  out[n++] = min_attr(attr("Tlist", OG_ATTR_TYPE, true, NULL), 1);
  static const int64_t dims[] = {2, 3};
  og_value shapes[] = {v_shape(a, 2, dims), v_unknown_shape(),
                       v_shape(a, 0, NULL)};
  out[n++] =
      attr("l_shape", OG_ATTR_SHAPE, true, boxed(a, v_list(a, 3, shapes)));
  og_value one[] = {v_int(7)};
  og_value tensors[] = {v_tensor(a, OG_DT_INT64, 0, NULL, 1, one)};
  out[n++] = attr("l_tensor", OG_ATTR_TENSOR, true,
                  boxed(a, v_list(a, 1, tensors)));
  og_value fns[] = {v_func(a, "f"), v_func(a, "g")};
  out[n++] = attr("l_func", OG_ATTR_FUNC, true, boxed(a, v_list(a, 2, fns)));
  return n;
}

/* ZeroOut with every attr kind, refs, number_attr, type_list_attr, flags,
 * deprecation and docs that need escaping. */
static og_op *full_op(og_model *m) {
  og_arena *a = &m->arena;
  og_op *op = new_op(m, "ZeroOut", "specs/zero_out.op", 4);
  op->summary = "Zeroes all elements of a tensor but one: \"\xe2\x9c\x93\".";
  op->description = "The preserved element is chosen by `preserve_index`.\n"
                    "\tTabs, backslashes \\ and control \x1f characters.";
  og_attr attrs[64];
  size_t n = scalar_attrs(a, attrs);
  n += shaped_attrs(a, attrs + n);
  n += list_attrs(a, attrs + n);
  og_arg in[] = {arg("to_zero", OG_DT_INVALID, "T", "", ""),
                 arg("many", OG_DT_INT32, "", "N", ""),
                 arg("refs", OG_DT_INVALID, "T", "N", ""),
                 arg("mixed", OG_DT_INVALID, "", "", "Tlist"),
                 arg("plain", OG_DT_FLOAT, "", "", "")};
  in[0].description = "The tensor to zero out.";
  in[2].is_ref = true;
  og_arg out[] = {arg("zeroed", OG_DT_INVALID, "T", "", ""),
                  arg("handle", OG_DT_RESOURCE, "", "", "")};
  out[1].is_ref = true;
  for (size_t i = 0; i < n; i++)
    attrs[i].inferred = strcmp(attrs[i].name, "T") == 0 ||
                        strcmp(attrs[i].name, "N") == 0 ||
                        strcmp(attrs[i].name, "Tlist") == 0;
  set_attrs(m, op, attrs, n);
  set_args(m, op, in, COUNT(in), out, COUNT(out));
  op->is_stateful = op->is_commutative = op->is_aggregate = true;
  op->allows_uninitialized_input = true;
  op->deprecated = true;
  op->deprecation_version = 3;
  op->deprecation_explanation = "Use \"ZeroOut2\".";
  return op;
}

static og_model *full_model(void) {
  og_model *m = og_model_new();
  og_op *bare = new_op(m, "Abs", "specs/math.op", 1);
  set_args(m, bare, NULL, 0, NULL, 0);
  add_op(m, bare);
  add_op(m, full_op(m));
  return m;
}

/* The language reference's ZeroOut plus a deprecated op without args. */
static og_model *small_model(void) {
  og_model *m = og_model_new();
  og_arena *a = &m->arena;
  og_op *old = new_op(m, "OldOp", "specs/zero_out.op", 14);
  old->deprecated = true;
  old->deprecation_version = 2;
  old->deprecation_explanation = "Use ZeroOut.";
  add_op(m, old);
  og_op *op = new_op(m, "ZeroOut", "specs/zero_out.op", 4);
  op->summary = "Zeroes all elements of a tensor but one.";
  op->description = "The preserved element is chosen by `preserve_index`.";
  static const og_dtype types[] = {OG_DT_FLOAT, OG_DT_DOUBLE, OG_DT_INT32};
  og_attr attrs[] = {
      allowed_types(a, attr("T", OG_ATTR_TYPE, false,
                            boxed(a, v_type(OG_DT_INT32))), 3, types),
      min_attr(attr("preserve_index", OG_ATTR_INT, false, boxed(a, v_int(0))),
               0)};
  attrs[0].inferred = true;
  set_attrs(m, op, attrs, 2);
  og_arg in[] = {arg("to_zero", OG_DT_INVALID, "T", "", "")};
  in[0].description = "The tensor to zero out.";
  og_arg out[] = {arg("zeroed", OG_DT_INVALID, "T", "", "")};
  set_args(m, op, in, 1, out, 1);
  add_op(m, op);
  return m;
}

/* ---- helpers ------------------------------------------------------------ */

static char *dump(const og_model *m, size_t *len) {
  og_writer w;
  og_writer_init(&w);
  og_dump_json(m, &w);
  *len = w.len;
  return w.buf; /* the caller frees */
}

static og_model *read_back(const char *text, size_t len, tu_diags *d) {
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, d);
  return og_dump_read("base.json", text, len, &diag);
}

static void assert_models_equal(const og_model *a, const og_model *b) {
  assert_int_equal(a->nops, b->nops);
  for (size_t i = 0; i < a->nops; i++)
    assert_true(og_op_equal(a->ops[i], b->ops[i]));
}

/* Reading `json` fails with exactly these diagnostics. */
static void expect_read_error(const char *json, const char *expected) {
  tu_diags d = {0};
  og_model *m = read_back(json, strlen(json), &d);
  if (m || strcmp(tu_diags_text(&d), expected) != 0)
    print_error("expected:\n%s\ngot:\n%s\n", expected, tu_diags_text(&d));
  assert_null(m);
  assert_string_equal(tu_diags_text(&d), expected);
  tu_diags_free(&d);
}

/* An op whose attr list and input list are `attrs` and `inputs`, on lines
 * 3 and 4 (each starting at column 1 after the key). */
static char *op_json(const char *attrs, const char *inputs) {
  static char buf[4096];
  snprintf(buf, sizeof buf,
           "{\"ops\": [{\"name\": \"Op\", \"file\": \"a.op\", \"line\": 1,\n"
           "\"summary\": \"\", \"description\": \"\", \"output_arg\": [],\n"
           "\"attr\": [%s],\n"
           "\"input_arg\": [%s],\n"
           "\"is_stateful\": false, \"is_commutative\": false,\n"
           "\"is_aggregate\": false, \"allows_uninitialized_input\": false,\n"
           "\"deprecation\": null}]}\n",
           attrs, inputs);
  return buf;
}

#define ATTR(name, type, allowed, def)                                      \
  "{\"name\": \"" name "\", \"type\": \"" type "\", \"has_minimum\": false, " \
  "\"minimum\": 0, \"allowed_values\": " allowed ", \"default_value\": " def \
  ", \"description\": \"\"}"

#define INPUT(type, type_attr, number_attr, type_list_attr)                \
  "{\"name\": \"x\", \"type\": \"" type "\", \"type_attr\": \"" type_attr   \
  "\", \"number_attr\": \"" number_attr "\", \"type_list_attr\": \""        \
  type_list_attr "\", \"is_ref\": false, \"description\": \"\"}"

/* ---- the dump and its round trip ---------------------------------------- */

static void dump_then_read_gives_equal_model(void **state) {
  (void)state;
  og_model *m = full_model();
  size_t len, len2;
  char *text = dump(m, &len);
  tu_diags d = {0};
  og_model *back = read_back(text, len, &d);
  if (!back) print_error("%s\n", tu_diags_text(&d));
  assert_non_null(back);
  assert_models_equal(m, back);
  char *again = dump(back, &len2);
  assert_int_equal(len, len2);
  assert_memory_equal(text, again, len);
  free(again);
  free(text);
  og_model_free(back);
  og_model_free(m);
  tu_diags_free(&d);
}

static void dump_is_byte_identical_across_runs(void **state) {
  (void)state;
  og_model *m1 = full_model(), *m2 = full_model();
  size_t len1, len2;
  char *a = dump(m1, &len1), *b = dump(m2, &len2);
  assert_int_equal(len1, len2);
  assert_memory_equal(a, b, len1);
  assert_int_equal(a[len1 - 1], '\n');
  free(a);
  free(b);
  og_model_free(m1);
  og_model_free(m2);
}

static void dump_matches_golden_file(void **state) {
  (void)state;
  og_model *m = small_model();
  size_t len, golden_len;
  char *text = dump(m, &len);
  char *golden = tu_read_file("tests/golden/dump_small.json", &golden_len);
  assert_non_null(golden);
  if (len != golden_len || memcmp(text, golden, len) != 0)
    print_error("dump differs from tests/golden/dump_small.json:\n%s", text);
  assert_int_equal(len, golden_len);
  assert_memory_equal(text, golden, len);
  free(golden);
  free(text);
  og_model_free(m);
}

static void empty_model_dumps_empty_ops(void **state) {
  (void)state;
  og_model *m = og_model_new();
  size_t len;
  char *text = dump(m, &len);
  assert_string_equal(text, "{\n  \"format_version\": 1,\n  \"ops\": []\n}\n");
  tu_diags d = {0};
  og_model *back = read_back(text, len, &d);
  assert_non_null(back);
  assert_int_equal(back->nops, 0);
  og_model_free(back);
  free(text);
  og_model_free(m);
}

static void dump_writes_values_in_documented_forms(void **state) {
  (void)state;
  og_model *m = full_model();
  size_t len;
  char *text = dump(m, &len);
  static const char *const expected[] = {
      "\"allowed_values\": [\"float\", \"double\", \"int32\"],",
      "\"default_value\": \"int32\",",
      "\"default_value\": 0.1,",
      "\"default_value\": 1e-300,",
      "\"default_value\": \"inf\",",
      "\"default_value\": \"-inf\",",
      "\"default_value\": \"nan\",",
      "\"default_value\": -0.0,",
      "\"default_value\": 2.0,",
      "\"default_value\": 5e-324,",
      "\"default_value\": 1.7976931348623157e+308,",
      "\"default_value\": 1e+21,",
      "\"default_value\": -9223372036854775808,",
      "\"default_value\": [1.0, 2.5, \"-inf\"],",
      "\"default_value\": [],",
      "\"default_value\": {\n            \"unknown_rank\": true\n          },",
      "\"default_value\": {\n            \"dims\": [2, -1]\n          },",
      "\"dims\": []",
      ("\"shape\": [2, 2],\n"
       "            \"values\": [0.5, \"inf\", \"nan\", 2.0]"),
      "\"values\": [\"nan\", \"x\\u0000y\"]",
      "\"default_value\": {\n            \"name\": \"my_fn\"\n          },",
      ("\"deprecation\": {\n        \"version\": 3,\n"
       "        \"explanation\": \"Use \\\"ZeroOut2\\\".\"\n      }\n"),
      "\"type\": \"list(shape)\",",
  };
  for (size_t i = 0; i < COUNT(expected); i++) {
    if (!strstr(text, expected[i])) print_error("missing: %s\n", expected[i]);
    assert_non_null(strstr(text, expected[i]));
  }
  free(text);
  og_model_free(m);
}

/* The same through the real front end. */
static void compiled_spec_round_trips(void **state) {
  (void)state;
  static const char spec[] =
      "/// Zeroes all elements of a tensor but one.\n"
      "///\n"
      "/// The preserved element is chosen by `preserve_index`.\n"
      "op ZeroOut {\n"
      "  attr T: {float, double, int32} = DT_INT32;\n"
      "  attr preserve_index: int >= 0 = 0;\n"
      "  attr N: int;\n"
      "  attr Tl: list(type);\n"
      "  attr f: float = 2;\n"
      "  attr g: float = -inf;\n"
      "  attr s: string = \"q\\\"\\x00\\xff\";\n"
      "  attr mode: {'a', \"b\\x00c\"} = 'a';\n"
      "  attr sh: shape = [2, ?];\n"
      "  attr lsh: list(shape) = [[2, 3], []];\n"
      "  attr t: tensor = { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: 1 float_val: 2.5 };\n"
      "  attr fn: func = { name: 'f' };\n"
      "  attr lf: list(float) = [1, 2];\n"
      "  attr lt: list(numbertype) = [int32, float];\n"
      "  /// The tensor to zero out.\n"
      "  input to_zero: T;\n"
      "  input many: N * int32;\n"
      "  input r: Ref(Tl);\n"
      "  output zeroed: T;\n"
      "  output h: resource;\n"
      "  deprecated 3 \"gone\";\n"
      "}\n"
      "op Abs { input x: float; output y: float; }\n";
  og_model *m = tu_expect_ok(spec);
  size_t len;
  char *text = dump(m, &len);
  tu_diags d = {0};
  og_model *back = read_back(text, len, &d);
  if (!back) print_error("%s\n", tu_diags_text(&d));
  assert_non_null(back);
  assert_models_equal(m, back);
  free(text);
  og_model_free(back);
  og_model_free(m);
  tu_diags_free(&d);
}

/* ---- what the reader recomputes ----------------------------------------- */

static const og_op *read_full_op(og_model **back) {
  og_model *m = full_model();
  size_t len;
  char *text = dump(m, &len);
  tu_diags d = {0};
  *back = read_back(text, len, &d);
  free(text);
  og_model_free(m);
  tu_diags_free(&d);
  assert_non_null(*back);
  const og_op *op = og_model_find(*back, "ZeroOut");
  assert_non_null(op);
  return op;
}

static void read_marks_attrs_used_by_inputs_inferred(void **state) {
  (void)state;
  og_model *back;
  const og_op *op = read_full_op(&back);
  for (size_t i = 0; i < op->nattrs; i++) {
    const char *name = op->attrs[i].name;
    bool want = strcmp(name, "T") == 0 || strcmp(name, "N") == 0 ||
                strcmp(name, "Tlist") == 0;
    if (op->attrs[i].inferred != want) print_error("attr %s\n", name);
    assert_int_equal(op->attrs[i].inferred, want);
  }
  og_model_free(back);
}

static void read_sets_allowed_types_mask(void **state) {
  (void)state;
  og_model *back;
  const og_op *op = read_full_op(&back);
  assert_int_equal(og_op_find_attr(op, "T")->allowed_types,
                   OG_DTYPE_BIT(OG_DT_FLOAT) | OG_DTYPE_BIT(OG_DT_DOUBLE) |
                       OG_DTYPE_BIT(OG_DT_INT32));
  assert_int_equal(og_op_find_attr(op, "l_type")->allowed_types,
                   OG_DTYPE_BIT(OG_DT_FLOAT) | OG_DTYPE_BIT(OG_DT_INT64));
  assert_int_equal(og_op_find_attr(op, "any_type")->allowed_types, 0);
  og_model_free(back);
}

static void read_gives_positions_from_file_and_line(void **state) {
  (void)state;
  og_model *back;
  const og_op *op = read_full_op(&back);
  assert_string_equal(op->pos.file, "specs/zero_out.op");
  assert_int_equal(op->pos.line, 4);
  assert_int_equal(op->pos.col, 0);
  assert_string_equal(op->attrs[0].pos.file, "specs/zero_out.op");
  assert_int_equal(op->inputs[0].pos.line, 4);
  assert_int_equal(op->outputs[1].pos.line, 4);
  assert_string_equal(op->package, "");
  og_model_free(back);
}

static void read_keeps_float_kinds(void **state) {
  (void)state;
  og_model *back;
  const og_op *op = read_full_op(&back);
  const og_value *lf = og_op_find_attr(op, "l_float")->default_value;
  assert_int_equal(lf->u.list.items[0].kind, OG_VAL_FLOAT);
  const og_value *two = og_op_find_attr(op, "f_two")->default_value;
  assert_int_equal(two->kind, OG_VAL_FLOAT);
  const og_value *neg0 = og_op_find_attr(op, "f_negzero")->default_value;
  assert_true(signbit(neg0->u.f));
  const og_tensor *t = &og_op_find_attr(op, "t_str")->default_value->u.tensor;
  assert_int_equal(t->values[0].kind, OG_VAL_STRING);
  assert_int_equal(t->values[1].u.s.len, 3);
  og_model_free(back);
}

static void read_accepts_integers_for_float_attrs(void **state) {
  (void)state;
  tu_diags d = {0};
  const char *json = op_json(ATTR("f", "float", "null", "3") ", "
                             ATTR("l", "list(float)", "null", "[1, 2]"),
                             "");
  og_model *m = read_back(json, strlen(json), &d);
  assert_non_null(m);
  const og_op *op = m->ops[0];
  assert_int_equal(op->attrs[0].default_value->kind, OG_VAL_FLOAT);
  assert_true(op->attrs[0].default_value->u.f == 3.0);
  assert_int_equal(op->attrs[1].default_value->u.list.items[1].kind,
                   OG_VAL_FLOAT);
  og_model_free(m);
}

/* The flag is written only when set; a dump without it (any older dump)
 * reads as false. */
static void distributed_communication_round_trips(void **state) {
  (void)state;
  og_model *m = og_model_new();
  og_op *op = new_op(m, "Collective", "c.op", 1);
  set_args(m, op, NULL, 0, NULL, 0);
  op->is_distributed_communication = true;
  add_op(m, op);
  og_op *plain = new_op(m, "Plain", "c.op", 2);
  set_args(m, plain, NULL, 0, NULL, 0);
  add_op(m, plain);
  size_t len;
  char *text = dump(m, &len);
  const char *flag = "\"is_distributed_communication\": true";
  const char *at = strstr(text, flag);
  assert_non_null(at);
  assert_null(strstr(at + strlen(flag), "is_distributed_communication"));
  tu_diags d = {0};
  og_model *back = read_back(text, len, &d);
  assert_non_null(back);
  assert_true(back->ops[0]->is_distributed_communication);
  assert_false(back->ops[1]->is_distributed_communication);
  assert_models_equal(m, back);
  free(text);
  og_model_free(back);
  og_model_free(m);
  tu_diags_free(&d);
}

static void read_sorts_ops_by_name(void **state) {
  (void)state;
  static const char json[] =
      "{\"ops\": [{\"name\": \"B\", \"file\": \"\", \"line\": 0, \"summary\": "
      "\"\", \"description\": \"\", \"input_arg\": [], \"output_arg\": [], "
      "\"attr\": [], \"is_stateful\": false, \"is_commutative\": false, "
      "\"is_aggregate\": false, \"allows_uninitialized_input\": false, "
      "\"deprecation\": null},\n"
      "{\"name\": \"A\", \"file\": \"\", \"line\": 0, \"summary\": "
      "\"\", \"description\": \"\", \"input_arg\": [], \"output_arg\": [], "
      "\"attr\": [], \"is_stateful\": false, \"is_commutative\": false, "
      "\"is_aggregate\": false, \"allows_uninitialized_input\": false, "
      "\"deprecation\": null}], \"format_version\": 1}";
  tu_diags d = {0};
  og_model *m = read_back(json, strlen(json), &d);
  assert_non_null(m);
  assert_int_equal(m->nops, 2);
  assert_string_equal(m->ops[0]->name, "A");
  assert_string_equal(m->ops[1]->name, "B");
  og_model_free(m);
}

/* ---- reader errors ------------------------------------------------------ */

static void read_reports_malformed_json_position(void **state) {
  (void)state;
  expect_read_error("{\"ops\": [\n  {\"name\" \"x\"}]}",
                    "base.json:2:11: error: expected ':' after object key, "
                    "found '\"'");
  expect_read_error("{\"ops\": [1,\n 2,]}",
                    "base.json:2:3: error: trailing comma in array");
  expect_read_error("{\"ops\": [\n",
                    "base.json:2:1: error: expected a JSON value, found end "
                    "of input");
  expect_read_error("{\"ops\": [1\n",
                    "base.json:2:1: error: expected ',' or ']' after array "
                    "element, found end of input\n"
                    "base.json:1:9: note: '[' opened here");
  expect_read_error("{\"ops\": []} x",
                    "base.json:1:13: error: unexpected 'x' after the JSON "
                    "value");
  expect_read_error("", "base.json:1:1: error: expected a JSON value, found "
                        "end of input");
}

static void read_reports_bad_strings(void **state) {
  (void)state;
  expect_read_error("{\"ops\": \"ab", "base.json:1:9: error: unterminated "
                                      "string");
  expect_read_error("{\"ops\": \"a\nb\"}",
                    "base.json:1:11: error: unescaped control character 0x0A "
                    "in string");
  expect_read_error("{\"ops\": \"a\\qb\"}",
                    "base.json:1:11: error: invalid escape in string: '\\' "
                    "followed by 'q'");
  expect_read_error("{\"ops\": \"\\u12G4\"}",
                    "base.json:1:10: error: invalid \\u escape: expected 4 "
                    "hex digits");
  expect_read_error("{\"ops\": \"x\\ud800y\"}",
                    "base.json:1:11: error: unpaired surrogate \\uD800 in "
                    "string");
  expect_read_error("{\"ops\": \"\\udc10\"}",
                    "base.json:1:10: error: unpaired surrogate \\uDC10 in "
                    "string");
  expect_read_error("{\"ops\": \"\xc3\x28\"}",
                    "base.json:1:10: error: invalid UTF-8 in string");
}

static void read_reports_bad_numbers_and_literals(void **state) {
  (void)state;
  expect_read_error("[01]", "base.json:1:2: error: invalid number: leading "
                            "zeros are not allowed");
  expect_read_error("[-]", "base.json:1:2: error: invalid number: expected a "
                           "digit after '-'");
  expect_read_error("[1.]", "base.json:1:2: error: invalid number: expected "
                            "a digit after '.'");
  expect_read_error("[1e+]", "base.json:1:2: error: invalid number: expected "
                             "a digit in the exponent");
  expect_read_error("[1e999]", "base.json:1:2: error: number out of range: "
                               "1e999");
  expect_read_error("[True]", "base.json:1:2: error: invalid literal 'True' "
                              "(expected true, false or null)");
  expect_read_error("[NaN]", "base.json:1:2: error: invalid literal 'NaN' "
                             "(expected true, false or null)");
}

static void read_reports_duplicate_keys(void **state) {
  (void)state;
  expect_read_error("{\"ops\": [],\n \"ops\": []}",
                    "base.json:2:2: error: duplicate key \"ops\" in object");
}

static void read_rejects_too_deep_nesting(void **state) {
  (void)state;
  size_t n = OG_JSON_MAX_DEPTH + 1;
  char *text = malloc(n * 2 + 1);
  memset(text, '[', n);
  memset(text + n, ']', n);
  text[2 * n] = '\0';
  char want[128];
  snprintf(want, sizeof want,
           "base.json:1:%zu: error: nesting deeper than %d levels", n,
           OG_JSON_MAX_DEPTH);
  expect_read_error(text, want);
  /* One level less parses (and then is not a model). */
  text[n - 1] = ' ';
  text[n] = ' ';
  expect_read_error(text, "base.json:1:1: error: expected an object for the "
                          "top level, found array");
  free(text);
}

static void read_reports_wrong_field_type(void **state) {
  (void)state;
  expect_read_error(op_json("", "{\"name\": \"x\", \"type\": \"float\", "
                                "\"type_attr\": 3, \"number_attr\": \"\", "
                                "\"type_list_attr\": \"\", \"is_ref\": false, "
                                "\"description\": \"\"}"),
                    "base.json:4:59: error: expected a string for "
                    "\"type_attr\", found number");
  expect_read_error("{\"ops\": {}}", "base.json:1:9: error: expected an "
                                     "array for \"ops\", found object");
  expect_read_error("{\"ops\": [[]]}", "base.json:1:10: error: expected an "
                                       "object for \"ops\"[0], found array");
}

static void read_reports_missing_field(void **state) {
  (void)state;
  expect_read_error("{}", "base.json:1:1: error: missing field \"ops\" in "
                          "the top-level object");
  expect_read_error(op_json("", "{\"name\": \"x\", \"type\": \"float\", "
                                "\"number_attr\": \"\", "
                                "\"type_list_attr\": \"\", \"is_ref\": false, "
                                "\"description\": \"\"}"),
                    "base.json:4:15: error: missing field \"type_attr\" in "
                    "input_arg");
}

static void read_reports_integer_problems(void **state) {
  (void)state;
  expect_read_error(op_json("{\"name\": \"N\", \"type\": \"int\", "
                            "\"has_minimum\": true, \"minimum\": 1.5, "
                            "\"allowed_values\": null, \"default_value\": "
                            "null, \"description\": \"\"}",
                            ""),
                    "base.json:3:71: error: expected an integer for "
                    "\"minimum\", found 1.5");
  expect_read_error(op_json(ATTR("N", "int", "null", "9223372036854775808"),
                            ""),
                    "base.json:3:116: error: integer 9223372036854775808 out "
                    "of range for \"default_value\"");
}

static void read_reports_unknown_dtype(void **state) {
  (void)state;
  expect_read_error(op_json("", INPUT("flaot", "", "", "")),
                    "base.json:4:37: error: unknown data type \"flaot\" for "
                    "\"type\"");
  expect_read_error(op_json(ATTR("T", "type", "[\"float\", \"int33\"]", "null"),
                            ""),
                    "base.json:3:104: error: unknown data type \"int33\" for "
                    "\"allowed_values\"[1]");
}

static void read_reports_unknown_attr_type(void **state) {
  (void)state;
  expect_read_error(op_json(ATTR("T", "lst(int)", "null", "null"), ""),
                    "base.json:3:32: error: unknown attr type \"lst(int)\"");
}

static void read_reports_default_not_matching_type(void **state) {
  (void)state;
  expect_read_error(op_json(ATTR("b", "bool", "null", "\"yes\""), ""),
                    "base.json:3:117: error: expected a boolean for "
                    "\"default_value\", found string");
  expect_read_error(op_json(ATTR("l", "list(int)", "null", "[1, \"2\"]"), ""),
                    "base.json:3:126: error: expected an integer for "
                    "\"default_value\"[1], found string");
  expect_read_error(op_json(ATTR("f", "float", "null", "\"infinity\""), ""),
                    "base.json:3:118: error: expected a number or \"inf\", "
                    "\"-inf\", \"nan\" for \"default_value\", found string");
  expect_read_error(op_json(ATTR("s", "shape", "null", "{\"dims\": [-2]}"), ""),
                    "base.json:3:128: error: integer -2 out of range for "
                    "\"dims\"[0]");
  expect_read_error(op_json(ATTR("i", "int", "[\"a\"]", "null"), ""),
                    "base.json:3:93: error: \"allowed_values\" must be null "
                    "for an attr of type \"int\"");
}

static void read_reports_bad_attr_references(void **state) {
  (void)state;
  expect_read_error(op_json("", INPUT("", "T", "", "")),
                    "base.json:4:54: error: \"type_attr\" names unknown attr "
                    "\"T\"");
  expect_read_error(op_json(ATTR("N", "type", "null", "null"),
                            INPUT("float", "", "N", "")),
                    "base.json:4:78: error: \"number_attr\" names attr \"N\" "
                    "of type \"type\", expected \"int\"");
  expect_read_error(op_json("", INPUT("", "", "", "")),
                    "base.json:4:15: error: arg \"x\" needs exactly one of "
                    "\"type\", \"type_attr\" and \"type_list_attr\"");
}

static void read_reports_duplicate_op(void **state) {
  (void)state;
  static const char op[] =
      "{\"name\": \"A\", \"file\": \"\", \"line\": 0, \"summary\": "
      "\"\", \"description\": \"\", \"input_arg\": [], \"output_arg\": [], "
      "\"attr\": [], \"is_stateful\": false, \"is_commutative\": false, "
      "\"is_aggregate\": false, \"allows_uninitialized_input\": false, "
      "\"deprecation\": null}";
  char json[2048];
  snprintf(json, sizeof json, "{\"ops\": [%s,\n%s]}", op, op);
  expect_read_error(json, "base.json:2:1: error: duplicate op \"A\"");
}

static void read_rejects_nul_in_names(void **state) {
  (void)state;
  expect_read_error(op_json(ATTR("a\\u0000b", "int", "null", "null"), ""),
                    "base.json:3:19: error: unexpected NUL character in "
                    "\"name\"");
}

/* ---- format version, unknown fields, names ------------------------------ */

/* One op named `name` (a JSON string body) with `extra` spliced in before
 * its closing brace, after `top` top-level members. */
static char *named_op_json(const char *top, const char *name,
                           const char *extra) {
  static char buf[4096];
  snprintf(buf, sizeof buf,
           "{%s\"ops\": [{\"name\": \"%s\", \"file\": \"\", \"line\": 0,\n"
           "\"summary\": \"\", \"description\": \"\", \"input_arg\": [],\n"
           "\"output_arg\": [], \"attr\": [], \"is_stateful\": false,\n"
           "\"is_commutative\": false, \"is_aggregate\": false,\n"
           "\"allows_uninitialized_input\": false,\n"
           "\"deprecation\": null%s}]}\n",
           top, name, extra);
  return buf;
}

static void read_ok(const char *json) {
  tu_diags d = {0};
  og_model *m = read_back(json, strlen(json), &d);
  if (!m) print_error("%s\n", tu_diags_text(&d));
  assert_non_null(m);
  assert_int_equal(d.count, 0);
  assert_int_equal(m->nops, 1);
  og_model_free(m);
  tu_diags_free(&d);
}

/* Dumps written before "format_version" existed have version 1's
 * layout; 0 is read the same way. */
static void read_accepts_versions_0_and_1_and_none(void **state) {
  (void)state;
  read_ok(named_op_json("", "A", ""));
  read_ok(named_op_json("\"format_version\": 0, ", "A", ""));
  read_ok(named_op_json("\"format_version\": 1, ", "A", ""));
}

/* A newer version is refused alone: its other fields are not judged. */
static void read_refuses_a_newer_format_version(void **state) {
  (void)state;
  expect_read_error(named_op_json("\"format_version\": 2, ", "A",
                                  ", \"new_field\": 1"),
                    "base.json:1:20: error: dump format version 2 is newer "
                    "than this opgen reads (1): read it with the opgen that "
                    "wrote it, or a newer one");
}

static void read_reports_a_bad_format_version(void **state) {
  (void)state;
  expect_read_error("{\"format_version\": \"1\", \"ops\": []}",
                    "base.json:1:20: error: expected an integer for "
                    "\"format_version\", found string");
  expect_read_error("{\"format_version\": 1.5, \"ops\": []}",
                    "base.json:1:20: error: expected an integer for "
                    "\"format_version\", found 1.5");
  expect_read_error("{\"format_version\": -1, \"ops\": []}",
                    "base.json:1:20: error: integer -1 out of range for "
                    "\"format_version\"");
}

static void read_reports_unknown_top_level_field(void **state) {
  (void)state;
  expect_read_error("{\"ops\": [], \"version\": 1}",
                    "base.json:1:13: error: unknown field \"version\" in the "
                    "top-level object");
}

static void read_reports_unknown_op_field(void **state) {
  (void)state;
  expect_read_error(named_op_json("", "Foo", ", \"is_staeful\": true"),
                    "base.json:6:22: error: unknown field \"is_staeful\" in op "
                    "\"Foo\"");
}

static void read_reports_unknown_attr_field(void **state) {
  (void)state;
  expect_read_error(op_json("{\"name\": \"a\", \"type\": \"int\", "
                            "\"has_minimum\": false, \"minimum\": 0, "
                            "\"allowed_values\": null, \"default_value\": "
                            "null, \"description\": \"\", \"extra\": []}", ""),
                    "base.json:3:141: error: unknown field \"extra\" in attr "
                    "\"a\" of op \"Op\"");
}

static void read_reports_unknown_arg_field(void **state) {
  (void)state;
  expect_read_error(op_json("", "{\"name\": \"x\", \"type\": \"float\", "
                                "\"type_attr\": \"\", \"number_attr\": \"\", "
                                "\"type_list_attr\": \"\", \"is_ref\": false, "
                                "\"description\": \"\", \"is_reff\": true}"),
                    "base.json:4:140: error: unknown field \"is_reff\" in "
                    "input_arg \"x\" of op \"Op\"");
}

/* Fields of values inside an attr, and of the deprecation. */
static void read_reports_unknown_value_fields(void **state) {
  (void)state;
  expect_read_error(op_json(ATTR("s", "shape", "null",
                                 "{\"dims\": [], \"rank\": 0}"), ""),
                    "base.json:3:131: error: unknown field \"rank\" in "
                    "\"default_value\" of attr \"s\" of op \"Op\"");
  expect_read_error(op_json(ATTR("t", "list(tensor)", "null",
                                 "[{\"dtype\": \"int32\", \"shape\": [], "
                                 "\"values\": [], \"x\": 1}]"), ""),
                    "base.json:3:172: error: unknown field \"x\" in "
                    "\"default_value\"[0] of attr \"t\" of op \"Op\"");
  expect_read_error(op_json(ATTR("f", "func", "null",
                                 "{\"name\": \"g\", \"attr\": {}}"), ""),
                    "base.json:3:131: error: unknown field \"attr\" in "
                    "\"default_value\" of attr \"f\" of op \"Op\"");
  char json[4096];
  snprintf(json, sizeof json, "%s",
           named_op_json("", "Foo", ""));
  char *dep = strstr(json, "\"deprecation\": null");
  assert_non_null(dep);
  char tail[256];
  snprintf(tail, sizeof tail, "%s", dep + strlen("\"deprecation\": null"));
  snprintf(dep, sizeof json - (size_t)(dep - json),
           "\"deprecation\": {\"version\": 2, \"explanation\": \"\", "
           "\"since\": 3}%s", tail);
  expect_read_error(json, "base.json:6:50: error: unknown field \"since\" in "
                          "\"deprecation\" of op \"Foo\"");
}

static void read_reports_invalid_op_names(void **state) {
  (void)state;
  expect_read_error(named_op_json("", "Foo { stateful; } op Bar", ""),
                    "base.json:1:19: error: invalid op name \"Foo { stateful; "
                    "} op Bar\": op names match [A-Z][A-Za-z0-9]*");
  expect_read_error(named_op_json("", "lower", ""),
                    "base.json:1:19: error: invalid op name \"lower\": op "
                    "names match [A-Z][A-Za-z0-9]*");
  expect_read_error(named_op_json("", "", ""),
                    "base.json:1:19: error: invalid op name \"\": op names "
                    "match [A-Z][A-Za-z0-9]*");
  expect_read_error(named_op_json("", "A\\nsrc.op:1:1: error: forged", ""),
                    "base.json:1:19: error: invalid op name \"A\\nsrc.op:1:1: "
                    "error: forged\": op names match [A-Z][A-Za-z0-9]*");
}

static void read_reports_invalid_attr_and_arg_names(void **state) {
  (void)state;
  expect_read_error(op_json(ATTR("a;b", "int", "null", "null"), ""),
                    "base.json:3:19: error: invalid attr name \"a;b\" in op "
                    "\"Op\": attr names match [A-Za-z][A-Za-z0-9_]*");
  expect_read_error(op_json("", "{\"name\": \"X\", \"type\": \"float\", "
                                "\"type_attr\": \"\", \"number_attr\": \"\", "
                                "\"type_list_attr\": \"\", \"is_ref\": false, "
                                "\"description\": \"\"}"),
                    "base.json:4:24: error: invalid input_arg name \"X\" in "
                    "op \"Op\": input and output names match [a-z][a-z0-9_]*");
}

/* ---- JSON helpers ------------------------------------------------------- */

static const og_json *parse(og_arena *a, const char *text) {
  tu_diags d = {0};
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, &d);
  const og_json *j = og_json_parse(a, "t.json", text, strlen(text), &diag);
  if (!j) print_error("%s\n", tu_diags_text(&d));
  tu_diags_free(&d);
  assert_non_null(j);
  return j;
}

static void json_keeps_int64_exact(void **state) {
  (void)state;
  og_arena a;
  og_arena_init(&a);
  const og_json *j = parse(&a, " [9223372036854775807, -9223372036854775808, "
                               "9223372036854775808, -0, 1.5e3, 1E-2]");
  const og_json *it = j->u.arr.items;
  assert_int_equal(j->u.arr.count, 6);
  assert_true(it[0].u.num.fits_int64 && it[0].u.num.i == INT64_MAX);
  assert_true(it[1].u.num.fits_int64 && it[1].u.num.i == INT64_MIN);
  assert_true(it[2].u.num.is_integer && !it[2].u.num.fits_int64);
  assert_true(it[2].u.num.d == 9223372036854775808.0);
  assert_true(it[3].u.num.fits_int64 && it[3].u.num.i == 0);
  assert_false(it[4].u.num.is_integer);
  assert_true(it[4].u.num.d == 1500.0 && it[5].u.num.d == 0.01);
  assert_int_equal(it[5].line, 1);
  assert_int_equal(it[5].col, 78);
  og_arena_free(&a);
}

static void json_decodes_escapes_to_utf8(void **state) {
  (void)state;
  og_arena a;
  og_arena_init(&a);
  const og_json *j = parse(&a, "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u20AC"
                               "\\ud83d\\ude00\\u0000\\udcff"
                               "\xf0\x9f\x98\x80\"");
  static const char want[] = "\"\\/\b\f\n\r\t\xc3\xa9\xe2\x82\xac"
                             "\xf0\x9f\x98\x80\0\xff\xf0\x9f\x98\x80";
  assert_int_equal(j->u.str.len, sizeof want - 1);
  assert_memory_equal(j->u.str.ptr, want, sizeof want - 1);
  og_arena_free(&a);
}

static void json_finds_members_and_positions(void **state) {
  (void)state;
  og_arena a;
  og_arena_init(&a);
  const og_json *j = parse(&a, "\xef\xbb\xbf{\"a\": true,\r\n\t\"b\": "
                               "{\"c\": null}}");
  const og_json *b = og_json_get(j, "b");
  assert_non_null(b);
  assert_int_equal(b->line, 2);
  assert_int_equal(b->col, 7);
  assert_int_equal(og_json_get(b, "c")->kind, OG_JSON_NULL);
  assert_true(og_json_get(j, "a")->u.b);
  assert_null(og_json_get(j, "c"));
  og_arena_free(&a);
}

static char *write_bytes(const char *s, size_t len) {
  og_writer w;
  og_writer_init(&w);
  og_bytes b = {s, len};
  og_json_write_string(&w, b);
  return w.buf;
}

static void json_writes_escaped_strings(void **state) {
  (void)state;
  static const char in[] = "q\" b\\ \n\t\r\b\f\x01\x1f\x7f\0 \xc3\xa9 \xff "
                           "\xed\xa0\x80";
  char *out = write_bytes(in, sizeof in - 1);
  assert_string_equal(out, "\"q\\\" b\\\\ \\n\\t\\r\\b\\f\\u0001\\u001f\x7f"
                           "\\u0000 \xc3\xa9 \\udcff \\udced\\udca0\\udc80\"");
  og_arena a;
  og_arena_init(&a);
  const og_json *j = parse(&a, out);
  assert_int_equal(j->u.str.len, sizeof in - 1);
  assert_memory_equal(j->u.str.ptr, in, sizeof in - 1);
  og_arena_free(&a);
  free(out);
}

static void json_formats_shortest_round_trip_doubles(void **state) {
  (void)state;
  static const struct {
    double d;
    const char *text;
  } cases[] = {{0.1, "0.1"},         {2.0, "2.0"},       {-0.0, "-0.0"},
               {0.0, "0.0"},         {1e-300, "1e-300"}, {1e21, "1e+21"},
               {123456789.0, "123456789.0"}, {1.0 / 3, "0.3333333333333333"},
               {DBL_MAX, "1.7976931348623157e+308"}, {5e-324, "5e-324"},
               {-2.5, "-2.5"},       {100.0, "100.0"},
               {1.5e10, "15000000000.0"},    {1e15, "1000000000000000.0"},
               {1e16, "1e+16"},      {0.0001, "0.0001"}, {1e-5, "1e-05"},
               {123.456, "123.456"}, {-1e300, "-1e+300"}};
  for (size_t i = 0; i < COUNT(cases); i++) {
    char buf[OG_JSON_DOUBLE_MAX];
    og_json_format_double(cases[i].d, buf);
    assert_string_equal(buf, cases[i].text);
    assert_true(strtod(buf, NULL) == cases[i].d);
  }
}

/* A host program's setlocale() must not turn 2.5 into "2,5" on the way
 * out, nor "2.5" into 2 on the way in. */
static void json_numbers_ignore_the_locale(void **state) {
  (void)state;
  tu_comma_locale();
  char buf[OG_JSON_DOUBLE_MAX];
  og_json_format_double(2.5, buf);
  og_arena a;
  og_arena_init(&a);
  const og_json *j = parse(&a, "[2.5, -1.25e-3]");
  tu_c_locale();
  assert_string_equal(buf, "2.5");
  assert_non_null(j);
  assert_true(j->u.arr.items[0].u.num.d == 2.5);
  assert_true(j->u.arr.items[1].u.num.d == -1.25e-3);
  og_arena_free(&a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(dump_then_read_gives_equal_model),
      cmocka_unit_test(dump_is_byte_identical_across_runs),
      cmocka_unit_test(dump_matches_golden_file),
      cmocka_unit_test(empty_model_dumps_empty_ops),
      cmocka_unit_test(dump_writes_values_in_documented_forms),
      cmocka_unit_test(compiled_spec_round_trips),
      cmocka_unit_test(read_marks_attrs_used_by_inputs_inferred),
      cmocka_unit_test(read_sets_allowed_types_mask),
      cmocka_unit_test(read_gives_positions_from_file_and_line),
      cmocka_unit_test(read_keeps_float_kinds),
      cmocka_unit_test(read_accepts_integers_for_float_attrs),
      cmocka_unit_test(read_sorts_ops_by_name),
      cmocka_unit_test(distributed_communication_round_trips),
      cmocka_unit_test(read_reports_malformed_json_position),
      cmocka_unit_test(read_reports_bad_strings),
      cmocka_unit_test(read_reports_bad_numbers_and_literals),
      cmocka_unit_test(read_reports_duplicate_keys),
      cmocka_unit_test(read_rejects_too_deep_nesting),
      cmocka_unit_test(read_reports_wrong_field_type),
      cmocka_unit_test(read_reports_missing_field),
      cmocka_unit_test(read_reports_integer_problems),
      cmocka_unit_test(read_reports_unknown_dtype),
      cmocka_unit_test(read_reports_unknown_attr_type),
      cmocka_unit_test(read_reports_default_not_matching_type),
      cmocka_unit_test(read_reports_bad_attr_references),
      cmocka_unit_test(read_reports_duplicate_op),
      cmocka_unit_test(read_rejects_nul_in_names),
      cmocka_unit_test(read_accepts_versions_0_and_1_and_none),
      cmocka_unit_test(read_refuses_a_newer_format_version),
      cmocka_unit_test(read_reports_a_bad_format_version),
      cmocka_unit_test(read_reports_unknown_top_level_field),
      cmocka_unit_test(read_reports_unknown_op_field),
      cmocka_unit_test(read_reports_unknown_attr_field),
      cmocka_unit_test(read_reports_unknown_arg_field),
      cmocka_unit_test(read_reports_unknown_value_fields),
      cmocka_unit_test(read_reports_invalid_op_names),
      cmocka_unit_test(read_reports_invalid_attr_and_arg_names),
      cmocka_unit_test(json_keeps_int64_exact),
      cmocka_unit_test(json_decodes_escapes_to_utf8),
      cmocka_unit_test(json_finds_members_and_positions),
      cmocka_unit_test(json_writes_escaped_strings),
      cmocka_unit_test(json_formats_shortest_round_trip_doubles),
      cmocka_unit_test(json_numbers_ignore_the_locale),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
