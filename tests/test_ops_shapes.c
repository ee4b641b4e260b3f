/* Shape inference from the specs, in the spirit of TensorFlow's INFER_OK
 * and INFER_ERROR: every shipped op and every statement form
 * (tests/shape/forms.op) on known, partial and unknown input shapes,
 * through the generated shape functions and opr_infer_shapes; then the
 * same functions inside calls, where they validate the inputs and
 * allocate the outputs before the kernel runs.
 *
 * The notation: inputs separated by ';', the tensors of a list input by
 * ','; a shape is `?` (unknown rank) or `[2,?,3]` (`?`: an unknown dim),
 * optionally followed by its int32 values `{1,1,2,2}`; "" is no tensors
 * (no inputs, or one empty list). Expected outputs: one shape per output
 * tensor, separated by ';'. */
#include "testutil.h"

#include "demo_kernels.h"
#include "forms_kernels.h"
#include "guide_attrs_ops.h"
#include "guide_io_ops.h"
#include "guide_shapes_kernels.h"
#include "shipped.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define expect_ok(status)                                             \
  do {                                                                \
    opr_status st_ = (status);                                        \
    if (st_) fail_msg("unexpected: %s", opr_status_message(st_));     \
  } while (0)

#define expect_status(status, code, message)                          \
  do {                                                                \
    opr_status st_ = (status);                                        \
    assert_non_null(st_);                                             \
    assert_string_equal(opr_status_message(st_), message);            \
    assert_string_equal(opr_code_name(opr_status_code(st_)),          \
                        opr_code_name(code));                         \
    opr_status_free(st_);                                             \
  } while (0)

/* ---- the notation ---- */

enum { MAX_ARGS = 6, MAX_TENSORS = 8, MAX_DIMS = 8 };

typedef struct parsed {
  opr_shape shapes[MAX_ARGS][MAX_TENSORS];
  int64_t dims[MAX_ARGS][MAX_TENSORS][MAX_DIMS];
  const opr_tensor *values[MAX_ARGS][MAX_TENSORS];
  opr_tensor *owned[MAX_ARGS * MAX_TENSORS];
  size_t nowned;
  opr_shape_input inputs[MAX_ARGS];
  size_t nargs;
} parsed;

static void skip_spaces(const char **p) {
  while (isspace((unsigned char)**p)) (*p)++;
}

/* "{1,2,...}": int32 values of the fully known shape s. */
static opr_tensor *parse_values(const char **p, opr_shape s) {
  int32_t v[64];
  size_t n = 0;
  (*p)++; /* '{' */
  while (**p != '}') {
    char *end;
    v[n++] = (int32_t)strtol(*p, &end, 10);
    *p = end;
    skip_spaces(p);
    if (**p == ',') (*p)++;
  }
  (*p)++;
  opr_tensor *t = NULL;
  expect_ok(opr_tensor_from_data(OPR_DT_INT32, s.rank, s.dims, v,
                                 n * sizeof *v, &t));
  return t;
}

/* One shape: "?" or "[d,...]", with optional values. */
static void parse_shape(const char **p, parsed *r, size_t arg, size_t i) {
  skip_spaces(p);
  int64_t *dims = r->dims[arg][i];
  opr_shape s = {0, dims};
  if (**p == '?') {
    (*p)++;
    s = opr_shape_unknown();
  } else {
    assert_int_equal(**p, '[');
    (*p)++;
    for (skip_spaces(p); **p != ']'; skip_spaces(p)) {
      if (**p == ',') (*p)++;
      skip_spaces(p);
      if (**p == '?') {
        dims[s.rank++] = OPR_UNKNOWN_DIM;
        (*p)++;
      } else {
        char *end;
        dims[s.rank++] = strtoll(*p, &end, 10);
        *p = end;
      }
    }
    (*p)++;
  }
  r->shapes[arg][i] = s;
  skip_spaces(p);
  if (**p == '{')
    r->values[arg][i] = r->owned[r->nowned++] = parse_values(p, s);
}

static void parse_inputs(const char *text, parsed *r) {
  memset(r, 0, sizeof *r);
  const char *p = text;
  skip_spaces(&p);
  if (!*p) return; /* no inputs */
  for (;;) {
    size_t arg = r->nargs++, n = 0;
    skip_spaces(&p);
    while (*p && *p != ';') {
      parse_shape(&p, r, arg, n++);
      skip_spaces(&p);
      if (*p == ',') p++;
    }
    bool values = false;
    for (size_t i = 0; i < n; i++) values |= r->values[arg][i] != NULL;
    r->inputs[arg] = (opr_shape_input){r->shapes[arg],
                                       values ? r->values[arg] : NULL, n};
    if (!*p) break;
    p++; /* ';' */
  }
}

static void parsed_free(parsed *r) {
  for (size_t i = 0; i < r->nowned; i++) opr_tensor_unref(r->owned[i]);
}

/* "[2,?];?": the notation, for comparing. */
static void format_shapes(const opr_inferred_shapes *out, char *buf,
                          size_t n) {
  size_t pos = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < out->count; i++) {
    char text[256], *w = text;
    opr_shape s = out->shapes[i];
    opr_shape_text(s.rank, s.dims, text, sizeof text);
    pos += (size_t)snprintf(buf + pos, n - pos, "%s", i ? ";" : "");
    for (const char *c = text; *c; c++)
      if (*c != ' ') *w++ = *c;
    *w = '\0';
    pos += (size_t)snprintf(buf + pos, n - pos, "%s", text);
  }
}

static char *without_spaces(const char *s) {
  char *r = strdup(s), *w = r;
  for (; *s; s++)
    if (*s != ' ') *w++ = *s;
  *w = '\0';
  return r;
}

static opr_status infer(const char *op, const opr_named_attr *attrs,
                        size_t nattrs, const char *in,
                        opr_inferred_shapes *out) {
  parsed r;
  parse_inputs(in, &r);
  const opr_op_def *def = opr_find_op(op);
  if (r.nargs == 0 && def && def->ninputs == 1) r.nargs = 1; /* empty list */
  opr_status s = opr_infer_shapes_by_name(op, r.inputs, r.nargs, attrs,
                                          nattrs, out);
  parsed_free(&r);
  return s;
}

static void infer_ok_at(const char *file, int line, const char *op,
                        const opr_named_attr *attrs, size_t nattrs,
                        const char *in, const char *want) {
  opr_inferred_shapes out;
  opr_status s = infer(op, attrs, nattrs, in, &out);
  if (s) {
    print_error("%s(%s): %s\n", op, in, opr_status_message(s));
    opr_status_free(s);
    _fail(file, line);
  }
  char got[1024];
  format_shapes(&out, got, sizeof got);
  opr_inferred_shapes_free(&out);
  char *expected = without_spaces(want);
  if (strcmp(got, expected) != 0)
    print_error("%s(%s): got %s, want %s\n", op, in, got, expected);
  _assert_string_equal(got, expected, file, line);
  free(expected);
}

static void infer_error_at(const char *file, int line, const char *op,
                           const opr_named_attr *attrs, size_t nattrs,
                           const char *in, const char *message) {
  opr_inferred_shapes out;
  opr_status s = infer(op, attrs, nattrs, in, &out);
  if (!s) {
    char got[1024];
    format_shapes(&out, got, sizeof got);
    opr_inferred_shapes_free(&out);
    print_error("%s(%s): no error, shapes %s\n", op, in, got);
    _fail(file, line);
  }
  _assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT, file, line);
  _assert_string_equal(opr_status_message(s), message, file, line);
  opr_status_free(s);
}

#define INFER_OK(op, in, want) \
  infer_ok_at(__FILE__, __LINE__, op, NULL, 0, in, want)
#define INFER_OK_ATTRS(op, attrs, in, want)                            \
  infer_ok_at(__FILE__, __LINE__, op, attrs,                           \
              sizeof(attrs) / sizeof((attrs)[0]), in, want)
#define INFER_ERROR(op, in, message) \
  infer_error_at(__FILE__, __LINE__, op, NULL, 0, in, message)
#define INFER_ERROR_ATTRS(op, attrs, in, message)                      \
  infer_error_at(__FILE__, __LINE__, op, attrs,                        \
                 sizeof(attrs) / sizeof((attrs)[0]), in, message)

/* ---- the shipped ops ---- */

/* ZeroOut and its variants, Example, AddOne, MyGeneralUnaryOp and
 * StringToNumber: the output has the input's shape. */
static void same_shape_ops_pass_their_input_shape_on(void **state) {
  (void)state;
  static const char *const ops[] = {
      "ZeroOut", "ZeroOutInt32", "ZeroOutFloatInt32", "ZeroOutRealNumber",
      "Example", "AddOne", "MyGeneralUnaryOp", "StringToNumber"};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
    INFER_OK(ops[i], "[2,3]", "[2,3]");
    INFER_OK(ops[i], "[2,?]", "[2,?]");
    INFER_OK(ops[i], "[?,?,?]", "[?,?,?]");
    INFER_OK(ops[i], "[]", "[]");
    INFER_OK(ops[i], "[0]", "[0]");
    INFER_OK(ops[i], "?", "?");
  }
}

static void add_n_merges_its_inputs(void **state) {
  (void)state;
  INFER_OK("AddN", "[2,3]", "[2,3]");
  INFER_OK("AddN", "[2,?],[?,3]", "[2,3]");
  INFER_OK("AddN", "?,[?,3],?", "[?,3]");
  INFER_OK("AddN", "?,?", "?");
  INFER_OK("AddN", "[2,?],[?,3],?", "[2,3]");
  INFER_OK("AddN", "[],[],[]", "[]");
  INFER_ERROR("AddN", "[2],[3]",
              "AddN: the tensors of 'inputs' must have compatible shapes, but "
              "element 0 is [2] and element 1 is [3]");
  INFER_ERROR("AddN", "[2,?],[?,3],[3,3]",
              "AddN: the tensors of 'inputs' must have compatible shapes, but "
              "element 0 is [2, ?] and element 2 is [3, 3]");
  INFER_ERROR("AddN", "[?,2],?,[2]",
              "AddN: the tensors of 'inputs' must have compatible shapes, but "
              "element 0 is [?, 2] and element 2 is [2]");
}

static void pad_uses_the_paddings_when_they_are_known(void **state) {
  (void)state;
  INFER_OK("Pad", "[2,3]; [2,2]{1,1,2,2}", "[4,7]");
  INFER_OK("Pad", "[2,3]; [2,2]{0,0,0,0}", "[2,3]");
  INFER_OK("Pad", "[?,3]; [2,2]{1,1,2,2}", "[?,7]");
  INFER_OK("Pad", "?; [2,2]{1,1,2,2}", "[?,?]");
  INFER_OK("Pad", "[]; [0,2]{}", "[]");
  /* Values unknown: the rank is known, the dims are not. */
  INFER_OK("Pad", "[2,3]; [2,2]", "[?,?]");
  INFER_OK("Pad", "[2,3]; ?", "[?,?]");
  INFER_OK("Pad", "?; [3,2]", "[?,?,?]");
  INFER_OK("Pad", "?; [?,2]", "?");
  INFER_OK("Pad", "?; ?", "?");
  INFER_ERROR("Pad", "[2,3]; [3,2]",
              "Pad: rank(input) == dim(paddings, 0) does not hold (2 vs 3)");
  INFER_ERROR("Pad", "[2,3]; [2]",
              "Pad: rank(paddings) == 2 does not hold (1 vs 2)");
  INFER_ERROR("Pad", "?; [2]",
              "Pad: rank(paddings) == 2 does not hold (1 vs 2)");
  INFER_ERROR("Pad", "?; [2,3]", "Pad: dim(paddings, 1) == 2 does not hold (3 "
                                 "vs 2)");
  INFER_ERROR("Pad", "[2,3]; [2,2]{0,0,1,-1}",
              "Pad: all(value(paddings)[j] >= 0 for j < product(paddings)) "
              "does not hold");
  INFER_OK("Pad", "?; [3,2]{0,0,1,1,2,2}", "[?,?,?]");
}

static void pad_reads_int64_paddings(void **state) {
  (void)state;
  const int64_t pads[4] = {0, 1, 2, 3}, pdims[2] = {2, 2};
  opr_tensor *t;
  expect_ok(opr_tensor_from_data(OPR_DT_INT64, 2, pdims, pads, sizeof pads, &t));
  const opr_shape in[1] = {{2, (const int64_t[]){5, 6}}};
  const opr_shape ps[1] = {{2, pdims}};
  const opr_tensor *const values[1] = {t};
  const opr_shape_input inputs[2] = {{in, NULL, 1}, {ps, values, 1}};
  opr_inferred_shapes out;
  expect_ok(opr_infer_shapes(&demo_pad_def, inputs, 2, NULL, 0, &out));
  assert_int_equal(out.count, 1);
  assert_int_equal(out.shapes[0].rank, 2);
  assert_int_equal(out.shapes[0].dims[0], 6);
  assert_int_equal(out.shapes[0].dims[1], 11);
  opr_inferred_shapes_free(&out);
  /* A value of a wrong type is not read: the dims stay unknown. */
  opr_tensor *f;
  expect_ok(opr_tensor_new(OPR_DT_FLOAT, 2, pdims, &f));
  const opr_tensor *const floats[1] = {f};
  const opr_shape_input bad[2] = {{in, NULL, 1}, {ps, floats, 1}};
  expect_ok(opr_infer_shapes(&demo_pad_def, bad, 2, NULL, 0, &out));
  assert_int_equal(out.count, 1);
  assert_int_equal(out.shapes[0].rank, 2);
  assert_int_equal(out.shapes[0].dims[0], OPR_UNKNOWN_DIM);
  assert_int_equal(out.shapes[0].dims[1], OPR_UNKNOWN_DIM);
  opr_inferred_shapes_free(&out);
  opr_tensor_unref(f);
  opr_tensor_unref(t);
}

static void matrix_example_is_the_guides_shape_function(void **state) {
  (void)state;
  INFER_OK("MatrixExample", "[5,2]", "[5,3]");
  INFER_OK("MatrixExample", "[?,7]", "[?,3]");
  INFER_OK("MatrixExample", "?", "[?,3]");
  INFER_ERROR("MatrixExample", "[5]",
              "MatrixExample: rank(input) == 2 does not hold (1 vs 2)");
  INFER_ERROR("MatrixExample", "[1,2,3]",
              "MatrixExample: rank(input) == 2 does not hold (3 vs 2)");
}

static void mat_mul_like_checks_the_inner_dims(void **state) {
  (void)state;
  INFER_OK("MatMulLike", "[2,3];[3,4]", "[2,4]");
  INFER_OK("MatMulLike", "[2,?];[?,4]", "[2,4]");
  INFER_OK("MatMulLike", "[2,?];[5,4]", "[2,4]");
  INFER_OK("MatMulLike", "?;[3,4]", "[?,4]");
  INFER_OK("MatMulLike", "?;?", "[?,?]");
  INFER_OK("MatMulLike", "[2,?];?", "[2,?]");
  INFER_ERROR("MatMulLike", "[2,3];[4,5]",
              "MatMulLike: dim(a, 1) == dim(b, 0) does not hold (3 vs 4)");
  INFER_ERROR("MatMulLike", "[2];[2,2]",
              "MatMulLike: rank(a) == 2 does not hold (1 vs 2)");
  INFER_ERROR("MatMulLike", "?;[2,2,2]",
              "MatMulLike: rank(b) == 2 does not hold (3 vs 2)");
}

/* The signature-only examples have no shape statements. */
static void ops_without_statements_have_unknown_outputs(void **state) {
  (void)state;
  INFER_OK("PolymorphicListExample", "[2],[3],[]", "?;?;?");
  INFER_OK("IntListInputExample", "[2],[2]", "?");
  INFER_OK("MultipleInsAndOuts", "[1];[2]", "?;?");
  INFER_OK("BuiltInTypesExample", "[1];[2]", "");
  INFER_OK("EnumExample", "", "");
  assert_non_null(demo_pad_def.shape_fn);
  assert_null(guide_io_multiple_ins_and_outs_def.shape_fn);
}

/* ---- every statement form ---- */

static void input_literal_and_input_dims(void **state) {
  (void)state;
  INFER_OK("Identity", "[2,?]", "[2,?]");
  INFER_OK("Identity", "?", "?");
  INFER_OK("Literal", "[5,6]", "[5,3]");
  INFER_OK("Literal", "[?]", "[?,3]");
  INFER_OK("Literal", "?", "[?,3]");
  INFER_ERROR("Literal", "[]", "Literal: axis 0 is out of range for rank 0 in "
                               "dim(x, 0); it must be in [0, 0)");
  INFER_OK("LastDims", "[1,2,3]", "[3,2]");
  INFER_OK("LastDims", "?", "[?,?]");
  INFER_ERROR("LastDims", "[4]",
              "LastDims: axis -2 is out of range for rank 1 in dim(x, -2); it "
              "must be in [-1, 1)");
  INFER_OK("RankAsDim", "[4,4,4]", "[3]");
  INFER_OK("RankAsDim", "[]", "[0]");
  INFER_OK("RankAsDim", "?", "[?]");
}

static void dim_arithmetic(void **state) {
  (void)state;
  INFER_OK("Arith", "[6,4]", "[7,4,24,2]");
  INFER_OK("Arith", "[?,4]", "[?,?,?,2]");
  INFER_OK("Arith", "[6,?]", "[7,4,?,?]");
  INFER_OK("Arith", "[2,?]", "[3,0,?,?]");
}

static void dim_arithmetic_errors_name_the_expression(void **state) {
  (void)state;
  INFER_ERROR("Arith", "[1,4]", "Arith: dim(x, 0) - 2 is -1, a negative dim");
  INFER_ERROR("Arith", "[6,5]",
              "Arith: dim(x, 1) / 2 is not a whole number (5 / 2)");
  INFER_OK("Parens", "[3,4]", "[8,0,11]");
  INFER_OK("Parens", "[?,4]", "[?,?,?]");
  INFER_ERROR("Parens", "[2,4]",
              "Parens: dim(x, 0) - (dim(x, 1) - 1) is -1, a negative dim");
  INFER_OK("Negation", "[0]", "[?,0]");
  INFER_OK("Negation", "[?]", "[?,?]");
  INFER_ERROR("Negation", "[2]", "Negation: -dim(x, 0) is -2, a negative dim");
}

static void merge_of_one_list_and_of_several_inputs(void **state) {
  (void)state;
  INFER_OK("MergeList", "[1,?],[?,2]", "[1,2]");
  INFER_ERROR("MergeList", "[1],[2]",
              "MergeList: the tensors of 'xs' must have compatible shapes, "
              "but element 0 is [1] and element 1 is [2]");
  INFER_OK("MergeMany", "[2,?];?;", "[2,?]");
  INFER_OK("MergeMany", "[2,?];[?,3];[?,?],?", "[2,3]");
  INFER_ERROR("MergeMany", "[2,?];[?,3];[4,3]",
              "MergeMany: merge(a, b, xs): [2, 3] and [4, 3] do not merge");
  INFER_ERROR("MergeMany", "[2];[3];",
              "MergeMany: merge(a, b, xs): [2] and [3] do not merge");
  INFER_OK("ListAsShape", "[?,5],[4,?]", "[4,5]");
  INFER_OK("ListAsShape", "", "?"); /* an empty list says nothing */
}

static void broadcast_of_inputs_literals_and_attrs(void **state) {
  (void)state;
  INFER_OK("Broadcast", "[2,3];[3]", "[2,3]");
  INFER_OK("Broadcast", "[2,1];[1,3]", "[2,3]");
  INFER_OK("Broadcast", "[?,1];[5]", "[?,5]");
  INFER_OK("Broadcast", "?;[5]", "?");
  INFER_ERROR("Broadcast", "[2,3];[4]",
              "Broadcast: broadcast(x, y): [2, 3] and [4] do not broadcast");
  INFER_OK("BroadcastMixed", "[3]", "[2,1,3]"); /* s defaults to [1, 3] */
  INFER_OK("BroadcastMixed", "[]", "[2,1,3]");
  INFER_OK("BroadcastMixed", "?", "?");
}

static void broadcast_mixed_uses_the_shape_attr(void **state) {
  (void)state;
  const opr_named_attr s4[1] = {
      {"s", {.kind = OPR_ATTR_SHAPE,
             .u.shape = {2, (const int64_t[]){4, 1}}}}};
  INFER_OK_ATTRS("BroadcastMixed", s4, "[1]", "[2,4,1]");
  INFER_OK_ATTRS("BroadcastMixed", s4, "[3]", "[2,4,3]");
  INFER_ERROR_ATTRS("BroadcastMixed", s4, "[5,1]",
                    "BroadcastMixed: broadcast(x, [2, 1, 1], attr(s)): [2, 5, "
                    "1] and [4, 1] do not broadcast");
  INFER_OK("BroadcastLiterals", "[3]", "?");
}

static void scalar_unknown_and_attrs(void **state) {
  (void)state;
  INFER_OK("Scalar", "[4,4]", "[]");
  INFER_OK("Scalar", "?", "[]");
  INFER_OK("Unknown", "[4]", "?");
  const opr_named_attr s[1] = {
      {"s", {.kind = OPR_ATTR_SHAPE,
             .u.shape = {2, (const int64_t[]){-1, 7}}}}};
  INFER_OK_ATTRS("AttrShape", s, "[1]", "[?,7]");
  /* The attr not given (and without a default): reading it is an error. */
  INFER_ERROR("AttrShape", "[1]", "AttrShape: attr(s): attr 's' has no value");
  const opr_named_attr k[1] = {{"k", {.kind = OPR_ATTR_INT, .u.i = 9}}};
  INFER_OK_ATTRS("AttrDim", k, "[2]", "[9,2]");
  INFER_OK("AttrDim", "[2]", "[?,2]"); /* default -1: unknown */
  const opr_named_attr bad[1] = {{"k", {.kind = OPR_ATTR_INT, .u.i = -4}}};
  INFER_ERROR_ATTRS("AttrDim", bad, "[2]",
                    "AttrDim: attr(k) is -4, a negative dim");
}

static void the_six_comparisons(void **state) {
  (void)state;
  INFER_OK("Compare", "[2,3];[2,4]", "[2,3]");
  INFER_OK("Compare", "?;?", "?");
  INFER_OK("Compare", "[?,3];[2,?]", "[?,3]");
  INFER_ERROR("Compare", "[2,3];[1,4]",
              "Compare: dim(a, 0) == dim(b, 0) does not hold (2 vs 1)");
  INFER_ERROR("Compare", "[2,3];[2,3]",
              "Compare: dim(a, 1) != dim(b, 1) does not hold (3 vs 3)");
  INFER_ERROR("Compare", "[2,3,1,1];?",
              "Compare: rank(a) < 4 does not hold (4 vs 4)");
  INFER_ERROR("Compare", "?;[2]",
              "Compare: rank(b) > 1 does not hold (1 vs 1)");
}

static void ranges_and_same(void **state) {
  (void)state;
  INFER_OK("InRange", "[3];[2]", "[3]");
  INFER_OK("InRange", "[4];[2]", "[4]");
  INFER_OK("InRange", "?;?", "?");
  INFER_OK("InRange", "[9];?", "[9]");
  INFER_ERROR("InRange", "[];[2]",
              "InRange: rank(x) in [1, 3] does not hold (0 is not in [1, 3])");
  INFER_ERROR("InRange", "[1,1,1,1];?",
              "InRange: rank(x) in [1, 3] does not hold (4 is not in [1, 3])");
  INFER_ERROR("InRange", "[5];[2]",
              "InRange: dim(x, 0) in [dim(lo, 0), dim(lo, 0) * 2] does not "
              "hold (5 is not in [2, 4])");
  INFER_ERROR("InRange", "[1];[2]",
              "InRange: dim(x, 0) in [dim(lo, 0), dim(lo, 0) * 2] does not "
              "hold (1 is not in [2, 4])");
  INFER_OK("Same", "[2,?];[?,3];?", "[?,2]");
  INFER_ERROR("Same", "[2];[2];[3]",
              "Same: same(a, b, c) does not hold");
}

static void list_outputs_and_outputs_without_statements(void **state) {
  (void)state;
  const opr_named_attr n3[1] = {{"N", {.kind = OPR_ATTR_INT, .u.i = 3}}};
  INFER_OK_ATTRS("ListOutput", n3, "[7]", "[7,2];[7,2];[7,2]");
  INFER_OK("ListOutput", "[7]", ""); /* N unknown: no tensors */
  INFER_OK("SomeOutputs", "[4,5]", "[4,5];?;[4]");
  INFER_OK("RequireOnly", "[4]", "?");
  INFER_ERROR("RequireOnly", "[4,4]", "RequireOnly: rank(x) == 1 does not hold "
                                      "(2 vs 1)");
  INFER_OK("NoShape", "[4]", "?");
  assert_null(shape_forms_no_shape_def.shape_fn);
}

static void a_hand_written_shape_function(void **state) {
  (void)state;
  const opr_named_attr n2[1] = {{"N", {.kind = OPR_ATTR_INT, .u.i = 2}}};
  INFER_OK_ATTRS("Custom", n2, "[4,5]", "[5];[10]");
  INFER_OK_ATTRS("Custom", n2, "?", "[?];[?]");
  INFER_ERROR_ATTRS("Custom", n2, "[]",
                    "Custom: 'x' must have rank at least 1, but has shape []");
  INFER_ERROR_ATTRS("Custom", n2, "[1,1,1,1]",
                    "Custom: 'x' must have rank at most 3, but has shape "
                    "[1, 1, 1, 1]");
  assert_ptr_equal(shape_forms_custom_def.shape_fn, shape_forms_custom_shape);
}

static void names_that_are_c_keywords(void **state) {
  (void)state;
  INFER_OK("Keywords", "[2];[2];[2]", "[4,1];[2]");
  INFER_OK("Keywords", "?;?;?", "[?,?];?");
  INFER_ERROR("Keywords", "[2];[3];[3]",
              "Keywords: dim(int, 0) == dim(c, 0) does not hold (2 vs 3)");
  INFER_ERROR("Keywords", "[2];[2];[3]",
              "Keywords: merge(c, s): [2] and [3] do not merge");
}

/* ---- inside calls ---- */

static opr_context *ctx;

/* What the last test kernel saw. */
static struct {
  int calls;
  bool preallocated;  /* output 0 element 0 held a tensor as it started */
  opr_tensor *given;  /* what opr_kernel_alloc_output returned */
  int ask_rank;       /* >= 0: the shape it asks for instead of [m, n] */
  const int64_t *ask_dims;
} seen;

static opr_tensor *tensor(int rank, const int64_t *dims) {
  opr_tensor *t = NULL;
  expect_ok(opr_tensor_new(OPR_DT_FLOAT, rank, dims, &t));
  return t;
}

static opr_status mat_mul_kernel(opr_kernel_ctx *k) {
  seen.calls++;
  seen.preallocated = k->call->outputs[0].tensors[0] != NULL;
  const opr_tensor *a = guide_shapes_mat_mul_like_input_a(k);
  const opr_tensor *b = guide_shapes_mat_mul_like_input_b(k);
  const int64_t dims[2] = {a->dims[0], b->dims[1]};
  if (seen.ask_rank >= 0)
    return guide_shapes_mat_mul_like_alloc_product(k, seen.ask_rank,
                                                   seen.ask_dims, &seen.given);
  return guide_shapes_mat_mul_like_alloc_product(k, 2, dims, &seen.given);
}

static void calls_are_checked_before_the_kernel_runs(void **state) {
  (void)state;
  const int64_t d23[2] = {2, 3}, d45[2] = {4, 5};
  opr_tensor *a = tensor(2, d23), *b = tensor(2, d45), *out = NULL;
  seen.calls = 0;
  expect_status(guide_shapes_mat_mul_like(ctx, a, b, &out),
                OPR_INVALID_ARGUMENT,
                "MatMulLike: dim(a, 1) == dim(b, 0) does not hold (3 vs 4)");
  assert_int_equal(seen.calls, 0);
  assert_null(out);
  /* The generic entry runs the same inference. */
  const opr_tensor *ta[1] = {a}, *tb[1] = {b};
  const opr_input inputs[2] = {{ta, 1}, {tb, 1}};
  size_t n = 0;
  expect_status(opr_execute(ctx, "MatMulLike", inputs, 2, NULL, 0, &out, 1,
                            &n),
                OPR_INVALID_ARGUMENT,
                "MatMulLike: dim(a, 1) == dim(b, 0) does not hold (3 vs 4)");
  assert_int_equal(seen.calls, 0);
  opr_tensor_unref(a);
  opr_tensor_unref(b);
}

static void known_output_shapes_are_allocated_before_the_kernel(void **state) {
  (void)state;
  const int64_t d23[2] = {2, 3}, d34[2] = {3, 4};
  opr_tensor *a = tensor(2, d23), *b = tensor(2, d34), *out = NULL;
  seen.calls = 0;
  seen.ask_rank = -1;
  expect_ok(guide_shapes_mat_mul_like(ctx, a, b, &out));
  assert_int_equal(seen.calls, 1);
  assert_true(seen.preallocated);
  assert_ptr_equal(out, seen.given); /* the kernel got the same tensor */
  assert_int_equal(out->rank, 2);
  assert_int_equal(out->dims[0], 2);
  assert_int_equal(out->dims[1], 4);
  opr_tensor_unref(out);
  opr_tensor_unref(a);
  opr_tensor_unref(b);
}

static void a_kernel_asking_for_another_shape_is_an_internal_error(void **state) {
  (void)state;
  const int64_t d23[2] = {2, 3}, d34[2] = {3, 4}, d33[2] = {3, 3};
  opr_tensor *a = tensor(2, d23), *b = tensor(2, d34), *out = NULL;
  seen.ask_rank = 2;
  seen.ask_dims = d33;
  expect_status(guide_shapes_mat_mul_like(ctx, a, b, &out), OPR_INTERNAL,
                "MatMulLike: the kernel allocates output 'product' with shape "
                "[3, 3], but its inferred shape is [2, 4]");
  assert_null(out); /* the pre-allocated tensor was released */
  seen.ask_rank = 0;
  seen.ask_dims = NULL;
  expect_status(guide_shapes_mat_mul_like(ctx, a, b, &out), OPR_INTERNAL,
                "MatMulLike: the kernel allocates output 'product' with shape "
                "[], but its inferred shape is [2, 4]");
  seen.ask_rank = -1;
  opr_tensor_unref(a);
  opr_tensor_unref(b);
}

static opr_status some_outputs_kernel(opr_kernel_ctx *k) {
  seen.calls++;
  seen.preallocated = k->call->outputs[0].tensors[0] != NULL;
  const opr_tensor *x = shape_forms_some_outputs_input_x(k);
  const int64_t seven = 7;
  opr_tensor *t;
  opr_status s = shape_forms_some_outputs_alloc_a(k, x->rank, x->dims, &t);
  if (!s) s = shape_forms_some_outputs_alloc_b(k, 1, &seven, &t);
  if (!s) s = shape_forms_some_outputs_alloc_c(k, 1, x->dims, &t);
  return s;
}

static void partial_output_shapes_leave_allocation_to_the_kernel(void **state) {
  (void)state;
  const int64_t d45[2] = {4, 5};
  opr_tensor *x = tensor(2, d45), *a = NULL, *b = NULL, *c = NULL;
  seen.calls = 0;
  expect_ok(shape_forms_some_outputs(ctx, x, &a, &b, &c));
  assert_int_equal(seen.calls, 1);
  assert_false(seen.preallocated); /* b's shape is unknown */
  assert_int_equal(b->dims[0], 7);
  opr_tensor_unref(a);
  opr_tensor_unref(b);
  opr_tensor_unref(c);
  opr_tensor_unref(x);
}

/* Fills its outputs without asking: they are there already. */
static opr_status list_output_kernel(opr_kernel_ctx *k) {
  seen.calls++;
  seen.preallocated = k->call->outputs[0].tensors[0] != NULL;
  if (seen.ask_rank < 0) return OPR_OK;
  opr_tensor *t;
  const int64_t dims[2] = {3, 2}, other[2] = {3, 3};
  opr_status s = shape_forms_list_output_alloc_ys(k, 0, 2, dims, &t);
  if (!s) s = shape_forms_list_output_alloc_ys(k, 1, 2, other, &t);
  return s;
}

static void preallocated_list_outputs(void **state) {
  (void)state;
  const int64_t d3[1] = {3};
  opr_tensor *x = tensor(1, d3), *ys[3] = {NULL, NULL, NULL};
  seen.ask_rank = -1;
  expect_ok(shape_forms_list_output(ctx, x, 3, ys, 3));
  assert_true(seen.preallocated);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(ys[i]->rank, 2);
    assert_int_equal(ys[i]->dims[0], 3);
    assert_int_equal(ys[i]->dims[1], 2);
    opr_tensor_unref(ys[i]);
    ys[i] = NULL;
  }
  seen.ask_rank = 2;
  expect_status(shape_forms_list_output(ctx, x, 3, ys, 3), OPR_INTERNAL,
                "ListOutput: the kernel allocates output 'ys' element 1 with "
                "shape [3, 3], but its inferred shape is [3, 2]");
  for (int i = 0; i < 3; i++) assert_null(ys[i]);
  seen.ask_rank = -1;
  opr_tensor_unref(x);
}

static opr_status no_shape_kernel(opr_kernel_ctx *k) {
  seen.calls++;
  seen.preallocated = k->call->outputs[0].tensors[0] != NULL;
  const int64_t five = 5;
  opr_tensor *t;
  return shape_forms_no_shape_alloc_y(k, 1, &five, &t);
}

static void ops_without_a_shape_function_run_as_before(void **state) {
  (void)state;
  opr_tensor *x = tensor(0, NULL), *y = NULL;
  expect_ok(shape_forms_no_shape(ctx, x, &y));
  assert_false(seen.preallocated);
  assert_int_equal(y->dims[0], 5);
  opr_tensor_unref(y);
  opr_tensor_unref(x);
}

static void shipped_ops_validate_their_calls(void **state) {
  (void)state;
  const int64_t d2[1] = {2}, d3[1] = {3}, d23[2] = {2, 3}, d32[2] = {3, 2};
  opr_tensor *a = tensor(1, d2), *b = tensor(1, d3), *out = NULL;
  const opr_tensor *ab[2] = {a, b};
  expect_status(demo_add_n(ctx, ab, 2, &out), OPR_INVALID_ARGUMENT,
                "AddN: the tensors of 'inputs' must have compatible shapes, "
                "but element 0 is [2] and element 1 is [3]");
  opr_tensor *in = tensor(2, d23), *pads = NULL;
  expect_ok(opr_tensor_new(OPR_DT_INT32, 2, d32, &pads));
  expect_status(demo_pad(ctx, in, pads, NULL, &out), OPR_INVALID_ARGUMENT,
                "Pad: rank(input) == dim(paddings, 0) does not hold (2 vs 3)");
  assert_null(out);
  opr_tensor_unref(pads);
  opr_tensor_unref(in);
  opr_tensor_unref(a);
  opr_tensor_unref(b);
}

static int setup(void **state) {
  (void)state;
  seen.ask_rank = -1;
  opr_status s = opgen_shipped_register();
  if (!s) s = guide_shapes_register_ops();
  if (!s) s = shape_forms_register_ops();
  if (!s)
    s = guide_shapes_mat_mul_like_register_kernel(
        &(guide_shapes_mat_mul_like_kernel_def){.fn = mat_mul_kernel});
  if (!s)
    s = shape_forms_some_outputs_register_kernel(
        &(shape_forms_some_outputs_kernel_def){.fn = some_outputs_kernel});
  if (!s)
    s = shape_forms_list_output_register_kernel(
        &(shape_forms_list_output_kernel_def){.fn = list_output_kernel});
  if (!s)
    s = shape_forms_no_shape_register_kernel(
        &(shape_forms_no_shape_kernel_def){.fn = no_shape_kernel});
  if (!s) s = opr_context_new(NULL, &ctx);
  opr_status_free(s);
  return s ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  opr_context_free(ctx);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_shape_ops_pass_their_input_shape_on),
      cmocka_unit_test(add_n_merges_its_inputs),
      cmocka_unit_test(pad_uses_the_paddings_when_they_are_known),
      cmocka_unit_test(pad_reads_int64_paddings),
      cmocka_unit_test(matrix_example_is_the_guides_shape_function),
      cmocka_unit_test(mat_mul_like_checks_the_inner_dims),
      cmocka_unit_test(ops_without_statements_have_unknown_outputs),
      cmocka_unit_test(input_literal_and_input_dims),
      cmocka_unit_test(dim_arithmetic),
      cmocka_unit_test(dim_arithmetic_errors_name_the_expression),
      cmocka_unit_test(merge_of_one_list_and_of_several_inputs),
      cmocka_unit_test(broadcast_of_inputs_literals_and_attrs),
      cmocka_unit_test(broadcast_mixed_uses_the_shape_attr),
      cmocka_unit_test(scalar_unknown_and_attrs),
      cmocka_unit_test(the_six_comparisons),
      cmocka_unit_test(ranges_and_same),
      cmocka_unit_test(list_outputs_and_outputs_without_statements),
      cmocka_unit_test(a_hand_written_shape_function),
      cmocka_unit_test(names_that_are_c_keywords),
      cmocka_unit_test(calls_are_checked_before_the_kernel_runs),
      cmocka_unit_test(known_output_shapes_are_allocated_before_the_kernel),
      cmocka_unit_test(a_kernel_asking_for_another_shape_is_an_internal_error),
      cmocka_unit_test(partial_output_shapes_leave_allocation_to_the_kernel),
      cmocka_unit_test(preallocated_list_outputs),
      cmocka_unit_test(ops_without_a_shape_function_run_as_before),
      cmocka_unit_test(shipped_ops_validate_their_calls),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
