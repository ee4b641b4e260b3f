/* The shape language's runtime keeps what a generated function reads
 * (an input's shape, its value's shape, its int values) for the rest of
 * the inference, and answers the usual attr reads, window() and concat()
 * without its general path (docs/shapes.md, "Performance of the
 * compiled functions"). These tests check that every read, first or
 * later, usual or not, gives what the general path gives: the same
 * shapes, numbers and messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "opr/opr.h"
#include "opr/shape_expr.h"
#include "shape_expect.h"

#include <string.h>

#define NO OPR_NO_ATTR
#define U OPR_UNKNOWN_DIM

static void expect_status(opr_status s, const char *msg) {
  assert_non_null(s);
  assert_string_equal(opr_status_message(s), msg);
  opr_status_free(s);
}

static void expect_num(opr_num n, int64_t v) {
  assert_true(n.known);
  assert_int_equal(n.v, v);
}

/* ---- the probe: Reads(x: float, xs: N * float, v: int32) with attrs N,
 * pad (a string), k (an int), l (an int list) and flag (a bool) ---- */

enum { IN_X, IN_XS, IN_V, NINPUTS };
enum { A_N, A_PAD, A_K, A_L, A_FLAG, NATTRS };

static const opr_arg_def reads_inputs[] = {
    {.name = "x", .type = OPR_DT_FLOAT, .type_attr = NO, .number_attr = NO,
     .type_list_attr = NO},
    {.name = "xs", .type = OPR_DT_FLOAT, .type_attr = NO,
     .number_attr = A_N, .type_list_attr = NO},
    {.name = "v", .type = OPR_DT_INT32, .type_attr = NO, .number_attr = NO,
     .type_list_attr = NO},
};
static const opr_arg_def reads_outputs[] = {
    {.name = "y", .type = OPR_DT_FLOAT, .type_attr = NO, .number_attr = NO,
     .type_list_attr = NO},
};
static const opr_attr_def reads_attrs[] = {
    [A_N] = {.name = "N", .type = {OPR_ATTR_INT, false}, .inferred = true},
    [A_PAD] = {.name = "pad", .type = {OPR_ATTR_STRING, false}},
    [A_K] = {.name = "k", .type = {OPR_ATTR_INT, false}},
    [A_L] = {.name = "l", .type = {OPR_ATTR_INT, true}},
    [A_FLAG] = {.name = "flag", .type = {OPR_ATTR_BOOL, false}},
};

static opr_status never_checked(opr_call *call) {
  (void)call;
  return opr_error(OPR_INTERNAL, "not called");
}

static void (*body)(opr_infer_ctx *c);
static opr_status reads_shape_fn(opr_infer_ctx *c) {
  body(c);
  return OPR_OK;
}

static opr_op_state reads_state;
static const opr_op_def reads_def = {
    .name = "Reads", .inputs = reads_inputs, .ninputs = NINPUTS,
    .outputs = reads_outputs, .noutputs = 1, .attrs = reads_attrs,
    .nattrs = NATTRS, .check = never_checked, .shape_fn = reads_shape_fn,
    .state = &reads_state};

/* What the probe gets: x [2, ?], xs two tensors, v without a value. */
static opr_shape xs_shapes[2];
static const opr_tensor *v_value;
static opr_named_attr attrs[NATTRS];
static size_t nattrs;

static int reset(void **state) {
  (void)state;
  static const int64_t a[] = {4, U, 3}, b[] = {4, 5, 3};
  xs_shapes[0] = (opr_shape){3, a};
  xs_shapes[1] = (opr_shape){3, b};
  v_value = NULL;
  nattrs = 0;
  return 0;
}

static void give_attr(const char *name, opr_attr_value v) {
  attrs[nattrs++] = (opr_named_attr){name, v};
}

static void run(void (*fn)(opr_infer_ctx *)) {
  static const int64_t x_dims[] = {2, U}, v_dims[] = {U};
  const opr_shape x = {2, x_dims};
  opr_shape v = {1, v_dims};
  if (v_value) v = (opr_shape){v_value->rank, v_value->dims};
  const opr_tensor *values[1] = {v_value};
  const opr_shape_input inputs[NINPUTS] = {
      {&x, NULL, 1}, {xs_shapes, NULL, 2}, {&v, v_value ? values : NULL, 1}};
  opr_inferred_shapes out;
  body = fn;
  expect_ok(opr_infer_shapes(&reads_def, inputs, NINPUTS, attrs, nattrs,
                             &out));
  opr_inferred_shapes_free(&out);
}

#define TEST(name) static void name##_body(opr_infer_ctx *c)
#define RUN(name)                                                            \
  static void name(void **state) {                                           \
    (void)state;                                                             \
    run(name##_body);                                                        \
  }

/* ---- inputs ---- */

TEST(an_input_read_again_is_the_same_shape) {
  opr_shape first, again;
  expect_ok(opr_sx_input(c, IN_XS, &first));
  expect_ok(opr_sx_input(c, IN_XS, &again));
  expect_shape(first, "[4, 5, 3]");
  assert_int_equal(again.rank, first.rank);
  assert_ptr_equal(again.dims, first.dims);
  expect_ok(opr_sx_input(c, IN_X, &first));
  expect_ok(opr_sx_input(c, IN_X, &again));
  expect_shape(again, "[2, ?]");
}
RUN(an_input_read_again_is_the_same_shape)

TEST(an_input_that_fails_fails_on_every_read) {
  opr_shape s;
  for (int read = 0; read < 2; read++)
    expect_status(opr_sx_input(c, IN_XS, &s),
                  "Reads: the tensors of 'xs' must have compatible shapes, "
                  "but element 0 is [4, 5, 3] and element 1 is [4, 6, 3]");
}
static void an_input_that_fails_fails_on_every_read(void **state) {
  (void)state;
  static const int64_t a[] = {4, 5, 3}, b[] = {4, 6, 3};
  xs_shapes[0] = (opr_shape){3, a};
  xs_shapes[1] = (opr_shape){3, b};
  run(an_input_that_fails_fails_on_every_read_body);
}

TEST(an_input_read_with_its_value_is_merged_on_every_read) {
  opr_shape s;
  for (int read = 0; read < 2; read++) {
    expect_ok(opr_sx_input(c, IN_V, &s));
    expect_shape(s, "[3]");
    expect_ok(opr_sx_value_shape(c, IN_V, 0, "value(v)", &s));
    expect_shape(s, "[7, ?, 0]");
  }
}
static void an_input_read_with_its_value_is_merged_on_every_read(
    void **state) {
  (void)state;
  static const int64_t dims[] = {3};
  static const int32_t data[] = {7, -1, 0};
  opr_tensor *t;
  expect_ok(opr_tensor_from_data(OPR_DT_INT32, 1, dims, data, sizeof data,
                                 &t));
  v_value = t;
  run(an_input_read_with_its_value_is_merged_on_every_read_body);
  opr_tensor_unref(t);
}

/* ---- values ---- */

TEST(value_elements_read_again_are_the_same) {
  opr_num n;
  for (int read = 0; read < 2; read++) {
    expect_ok(opr_sx_value_at(c, IN_V, 0, opr_sx_int(0), "value(v)[0]", &n));
    expect_num(n, 7);
    assert_true(n.direct);
    expect_ok(opr_sx_value_at(c, IN_V, 0, opr_sx_int(2), "value(v)[2]", &n));
    expect_num(n, -2);
    expect_status(opr_sx_value_at(c, IN_V, 0, opr_sx_int(3), "value(v)[3]",
                                  &n),
                  "Reads: value(v)[3]: index 3 is out of range for the 3 "
                  "values of 'v'");
    expect_status(opr_sx_value_at(c, IN_V, 0, opr_sx_int(-1),
                                  "value(v)[-1]", &n),
                  "Reads: value(v)[-1]: index -1 is out of range for the 3 "
                  "values of 'v'");
  }
  opr_shape s;
  expect_status(opr_sx_value_shape(c, IN_V, 0, "value(v)", &s),
                "Reads: element 2 of value(v) is -2, a negative dim");
}
static void value_elements_read_again_are_the_same(void **state) {
  (void)state;
  static const int64_t dims[] = {3};
  static const int32_t data[] = {7, 1, -2};
  opr_tensor *t;
  expect_ok(opr_tensor_from_data(OPR_DT_INT32, 1, dims, data, sizeof data,
                                 &t));
  v_value = t;
  run(value_elements_read_again_are_the_same_body);
  opr_tensor_unref(t);
}

/* More values than the context's inline room: read from the tensor. */
enum { MANY = 1000 };
TEST(many_values_are_read_from_the_tensor) {
  opr_num n;
  for (int64_t i = 0; i < MANY; i += 333) {
    expect_ok(opr_sx_value_at(c, IN_V, 0, opr_sx_int(i), "value(v)[i]", &n));
    expect_num(n, 3 * i);
  }
  opr_sx_ints ints;
  expect_ok(opr_sx_value_ints(c, IN_V, 0, "value(v)", &ints));
  assert_int_equal(ints.n, MANY);
  assert_int_equal(ints.v[MANY - 1], 3 * (MANY - 1));
}
static void many_values_are_read_from_the_tensor(void **state) {
  (void)state;
  static const int64_t dims[] = {MANY};
  static int32_t data[MANY];
  for (int i = 0; i < MANY; i++) data[i] = 3 * i;
  opr_tensor *t;
  expect_ok(opr_tensor_from_data(OPR_DT_INT32, 1, dims, data, sizeof data,
                                 &t));
  v_value = t;
  run(many_values_are_read_from_the_tensor_body);
  opr_tensor_unref(t);
}

/* ---- attrs and window() ---- */

/* window(d, size, stride, 1, attr(pad)) with pad as given. */
static opr_status window_of(opr_infer_ctx *c, int64_t d, int64_t size,
                            int64_t stride, opr_num *out) {
  const char *pad;
  opr_status s = opr_sx_attr_string(c, A_PAD, "attr(pad)", &pad);
  if (s) return s;
  return opr_sx_window(c, opr_sx_dim_num(d), opr_sx_dim_num(size),
                       opr_sx_int(stride), opr_sx_int(1), pad,
                       "window(d, size, stride, 1, attr(pad))", out);
}

TEST(window_with_a_valid_padding_attr) {
  opr_num n;
  expect_ok(window_of(c, 10, 3, 2, &n));
  expect_num(n, 4); /* (10 - 3) / 2 + 1 */
  expect_ok(window_of(c, 3, 3, 1, &n));
  expect_num(n, 1); /* the window just fits */
  expect_ok(window_of(c, 5, 0, 2, &n));
  expect_num(n, 3); /* size 0: a window of 0 */
  expect_status(window_of(c, 2, 3, 1, &n),
                "Reads: window(d, size, stride, 1, attr(pad)): the input "
                "size 2 is smaller than the window 3 (VALID padding)");
  expect_status(window_of(c, 5, 3, 0, &n),
                "Reads: window(d, size, stride, 1, attr(pad)): the stride "
                "is 0; it must be at least 1");
}
static void window_with_a_valid_padding_attr(void **state) {
  (void)state;
  give_attr("pad", opr_attr_cstring(OPR_ATTR_STRING, "VALID"));
  run(window_with_a_valid_padding_attr_body);
}

TEST(window_with_a_same_padding_attr) {
  opr_num n;
  expect_ok(window_of(c, 10, 3, 3, &n));
  expect_num(n, 4); /* ceil(10 / 3) */
  expect_ok(window_of(c, 9, 3, 3, &n));
  expect_num(n, 3);
  expect_ok(window_of(c, 0, 3, 2, &n));
  expect_num(n, 0);
}
static void window_with_a_same_padding_attr(void **state) {
  (void)state;
  give_attr("pad", opr_attr_cstring(OPR_ATTR_STRING, "SAME"));
  run(window_with_a_same_padding_attr_body);
}

TEST(window_with_another_padding_attr_is_an_error) {
  opr_num n;
  expect_status(window_of(c, 10, 3, 1, &n),
                "Reads: window(d, size, stride, 1, attr(pad)): padding "
                "'SAMEX' is neither 'VALID' nor 'SAME'");
}
static void window_with_another_padding_attr_is_an_error(void **state) {
  (void)state;
  give_attr("pad", opr_attr_cstring(OPR_ATTR_STRING, "SAMEX"));
  run(window_with_another_padding_attr_is_an_error_body);
}

TEST(attr_reads_of_set_and_unset_attrs) {
  opr_num n;
  opr_cond b;
  expect_ok(opr_sx_attr_num(c, A_K, "attr(k)", &n));
  expect_num(n, -3);
  assert_true(n.direct);
  expect_ok(opr_sx_attr_at(c, A_L, opr_sx_int(1), "attr(l)[1]", &n));
  expect_num(n, 8);
  expect_status(opr_sx_attr_at(c, A_L, opr_sx_int(2), "attr(l)[2]", &n),
                "Reads: attr(l)[2]: index 2 is out of range for the 2 "
                "elements of attr 'l'");
  expect_ok(opr_sx_attr_length(c, A_L, "length(attr(l))", &n));
  expect_num(n, 2);
  expect_ok(opr_sx_attr_is_string(c, A_PAD, "SAM", "attr(pad) == 'SAM'", &b));
  assert_int_equal(b, OPR_COND_FALSE);
  expect_ok(opr_sx_attr_is_string(c, A_PAD, "SAME", "attr(pad) == 'SAME'",
                                  &b));
  assert_int_equal(b, OPR_COND_TRUE);
  expect_status(opr_sx_attr_cond(c, A_FLAG, "attr(flag)", &b),
                "Reads: attr(flag): attr 'flag' has no value");
  expect_status(opr_sx_attr_length(c, A_K, "length(attr(k))", &n),
                "Reads: length(attr(k)): attr 'k' is an int, not a list");
}
static void attr_reads_of_set_and_unset_attrs(void **state) {
  (void)state;
  static const int64_t l[] = {5, 8};
  give_attr("pad", opr_attr_cstring(OPR_ATTR_STRING, "SAME"));
  give_attr("k", (opr_attr_value){.kind = OPR_ATTR_INT, .u.i = -3});
  give_attr("l", opr_attr_list(OPR_ATTR_INT, l, 2));
  run(attr_reads_of_set_and_unset_attrs_body);
}

/* ---- concat() of shapes as given and of shapes with values ---- */

TEST(concat_of_a_list_input_as_given) {
  opr_shape s;
  expect_ok(opr_sx_concat(c, IN_XS, opr_sx_int(-1), "concat(xs, -1)", &s));
  expect_shape(s, "[4, 5, 6]");
  expect_ok(opr_sx_concat(c, IN_XS, opr_sx_int(1), "concat(xs, 1)", &s));
  expect_shape(s, "[4, ?, 3]");
}
RUN(concat_of_a_list_input_as_given)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(an_input_read_again_is_the_same_shape, reset),
      cmocka_unit_test_setup(an_input_that_fails_fails_on_every_read, reset),
      cmocka_unit_test_setup(
          an_input_read_with_its_value_is_merged_on_every_read, reset),
      cmocka_unit_test_setup(value_elements_read_again_are_the_same, reset),
      cmocka_unit_test_setup(many_values_are_read_from_the_tensor, reset),
      cmocka_unit_test_setup(window_with_a_valid_padding_attr, reset),
      cmocka_unit_test_setup(window_with_a_same_padding_attr, reset),
      cmocka_unit_test_setup(window_with_another_padding_attr_is_an_error,
                             reset),
      cmocka_unit_test_setup(attr_reads_of_set_and_unset_attrs, reset),
      cmocka_unit_test_setup(concat_of_a_list_input_as_given, reset),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
