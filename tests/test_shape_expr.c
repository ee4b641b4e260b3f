/* The runtime of the shape language, version 2 (opr/shape_expr.h): each
 * form on known, partial and unknown inputs, the edge cases the contract
 * names (op-language.md, "The full expression language"), and the exact
 * error messages. Each test's body runs as the shape function of a probe
 * op, through opr_infer_shapes, as generated functions run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "opr/opr.h"
#include "opr/shape_expr.h"
#include "shape_expect.h"
/* The context's layout, to see that typical inference allocates nothing
 * (test-only: a shape function never looks inside). */
#include "../runtime/src/shape_internal.h"

#include <string.h>

#define NO OPR_NO_ATTR
#define U OPR_UNKNOWN_DIM
static const opr_shape scalar = {0, NULL};
static const opr_shape unknown = {OPR_UNKNOWN_RANK, NULL};

/* ---- expectations ---- */

static void expect_status(opr_status s, const char *msg) {
  assert_non_null(s);
  assert_string_equal(opr_status_message(s), msg);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  opr_status_free(s);
}

/* A number: known with value v (and direct or not), or unknown. */
static void expect_num(opr_num n, int64_t v, bool direct) {
  assert_true(n.known);
  assert_int_equal(n.v, v);
  assert_int_equal(n.direct, direct);
}
static void expect_unknown(opr_num n) { assert_false(n.known); }

static opr_num num(int64_t v) { return opr_sx_int(v); }          /* direct */
static opr_num dimn(int64_t v) { return opr_sx_dim_num(v); }    /* computed */
static const opr_num unk = {0, false, false};

/* ---- the probe op ----
 * Probe(x: t, y: float, xs: N * int32, v: int32, w: int64, zs: Tz)
 * attrs N, k = 4, l = [0, -1, 3], s = [2, ?], b = true, pad = "VALID",
 * t (inferred), u = int64, ls = [[1], [2, ?]], tens (a [3, 2] tensor),
 * req (no default), Tz (inferred), str = "NHWC". */

enum { IN_X, IN_Y, IN_XS, IN_V, IN_W, IN_ZS, NINPUTS };
enum { A_N, A_K, A_L, A_S, A_B, A_PAD, A_T, A_U, A_LS, A_TENS, A_REQ, A_TZ,
       A_STR, NATTRS };

static const opr_arg_def probe_inputs[] = {
    {.name = "x", .type_attr = A_T, .number_attr = NO, .type_list_attr = NO},
    {.name = "y", .type = OPR_DT_FLOAT, .type_attr = NO, .number_attr = NO,
     .type_list_attr = NO},
    {.name = "xs", .type = OPR_DT_INT32, .type_attr = NO, .number_attr = A_N,
     .type_list_attr = NO},
    {.name = "v", .type = OPR_DT_INT32, .type_attr = NO, .number_attr = NO,
     .type_list_attr = NO},
    {.name = "w", .type = OPR_DT_INT64, .type_attr = NO, .number_attr = NO,
     .type_list_attr = NO},
    {.name = "zs", .type_attr = NO, .number_attr = NO, .type_list_attr = A_TZ},
};
static const opr_arg_def probe_outputs[] = {
    {.name = "a", .type = OPR_DT_FLOAT, .type_attr = NO, .number_attr = NO,
     .type_list_attr = NO},
};

static const int64_t l_items[] = {0, -1, 3};
static const opr_shape ls_items[] = {{1, (const int64_t[]){1}},
                                     {2, (const int64_t[]){2, U}}};
static const opr_tensor tens_value = {
    .dtype = OPR_DT_INT32, .rank = 2, .dims = (const int64_t[]){3, 2}};
static const opr_attr_value k_default = {.kind = OPR_ATTR_INT, .u.i = 4};
static const opr_attr_value l_default = {
    .kind = OPR_ATTR_INT, .is_list = true, .u.list = {3, l_items}};
static const opr_attr_value s_default = {
    .kind = OPR_ATTR_SHAPE, .u.shape = {2, (const int64_t[]){2, U}}};
static const opr_attr_value b_default = {.kind = OPR_ATTR_BOOL, .u.b = true};
static const opr_attr_value pad_default = {.kind = OPR_ATTR_STRING,
                                           .u.s = {"VALIDX", 5}};
static const opr_attr_value u_default = {.kind = OPR_ATTR_TYPE,
                                         .u.type = OPR_DT_INT64};
static const opr_attr_value ls_default = {
    .kind = OPR_ATTR_SHAPE, .is_list = true, .u.list = {2, ls_items}};
static const opr_attr_value tens_default = {.kind = OPR_ATTR_TENSOR,
                                            .u.tensor = &tens_value};
static const opr_attr_value str_default = {.kind = OPR_ATTR_STRING,
                                           .u.s = {"NHWC", 4}};

static const opr_attr_def probe_attrs[] = {
    [A_N] = {.name = "N", .type = {OPR_ATTR_INT, false}, .inferred = true},
    [A_K] = {.name = "k", .type = {OPR_ATTR_INT, false},
             .default_value = &k_default},
    [A_L] = {.name = "l", .type = {OPR_ATTR_INT, true},
             .default_value = &l_default},
    [A_S] = {.name = "s", .type = {OPR_ATTR_SHAPE, false},
             .default_value = &s_default},
    [A_B] = {.name = "b", .type = {OPR_ATTR_BOOL, false},
             .default_value = &b_default},
    [A_PAD] = {.name = "pad", .type = {OPR_ATTR_STRING, false},
               .default_value = &pad_default},
    [A_T] = {.name = "t", .type = {OPR_ATTR_TYPE, false}, .inferred = true},
    [A_U] = {.name = "u", .type = {OPR_ATTR_TYPE, false},
             .default_value = &u_default},
    [A_LS] = {.name = "ls", .type = {OPR_ATTR_SHAPE, true},
              .default_value = &ls_default},
    [A_TENS] = {.name = "tens", .type = {OPR_ATTR_TENSOR, false},
                .default_value = &tens_default},
    [A_REQ] = {.name = "req", .type = {OPR_ATTR_INT, false}},
    [A_TZ] = {.name = "Tz", .type = {OPR_ATTR_TYPE, true}, .inferred = true},
    [A_STR] = {.name = "str", .type = {OPR_ATTR_STRING, false},
               .default_value = &str_default},
};

static opr_status never_checked(opr_call *call) {
  (void)call;
  return opr_error(OPR_INTERNAL, "not called");
}

/* The body of the running test. */
static void (*body)(opr_infer_ctx *c);
static opr_status probe_shape_fn(opr_infer_ctx *c) {
  body(c);
  return OPR_OK;
}

static opr_op_state probe_state;
static const opr_op_def probe_def = {
    .name = "Probe", .inputs = probe_inputs, .ninputs = NINPUTS,
    .outputs = probe_outputs, .noutputs = 1, .attrs = probe_attrs,
    .nattrs = NATTRS, .check = never_checked, .shape_fn = probe_shape_fn,
    .state = &probe_state};

/* What a test gives the probe: shapes, values and attrs. Reset before
 * each test: x [2, 3], y ?, v ? and w ? unknown, no xs, no zs. */
enum { MAX_LIST = 4 };
static struct {
  opr_shape shapes[NINPUTS][MAX_LIST];
  const opr_tensor *values[NINPUTS][MAX_LIST];
  size_t count[NINPUTS];
  opr_named_attr attrs[4];
  size_t nattrs;
  opr_tensor *owned[8];
  size_t nowned;
} in;

static int reset(void **state) {
  (void)state;
  memset(&in, 0, sizeof in);
  for (int i = 0; i < NINPUTS; i++) {
    in.shapes[i][0] = unknown;
    in.count[i] = i == IN_XS || i == IN_ZS ? 0 : 1;
  }
  static const int64_t x_dims[] = {2, 3};
  in.shapes[IN_X][0] = (opr_shape){2, x_dims};
  return 0;
}

static int release(void **state) {
  (void)state;
  for (size_t i = 0; i < in.nowned; i++) opr_tensor_unref(in.owned[i]);
  return 0;
}

/* A known value for tensor `index` of input `arg` (its shape too). */
static const opr_tensor *give_value(int arg, size_t index, opr_dtype dt,
                                    int rank, const int64_t *dims,
                                    const void *data, size_t nbytes) {
  opr_tensor *t;
  expect_ok(opr_tensor_from_data(dt, rank, dims, data, nbytes, &t));
  in.owned[in.nowned++] = t;
  in.values[arg][index] = t;
  return t;
}
#define VALUE32(arg, rank, dims, ...)                                        \
  give_value(arg, 0, OPR_DT_INT32, rank, (const int64_t[])dims,             \
             (const int32_t[]){__VA_ARGS__},                                 \
             sizeof((const int32_t[]){__VA_ARGS__}))
#define VALUE64(arg, rank, dims, ...)                                        \
  give_value(arg, 0, OPR_DT_INT64, rank, (const int64_t[])dims,             \
             (const int64_t[]){__VA_ARGS__},                                 \
             sizeof((const int64_t[]){__VA_ARGS__}))
#define DIMS(...) {__VA_ARGS__}

static void give_attr(const char *name, opr_attr_value v) {
  in.attrs[in.nattrs++] = (opr_named_attr){name, v};
}

/* Runs `fn` as Probe's shape function on what `in` holds. */
static void run(void (*fn)(opr_infer_ctx *)) {
  opr_shape_input inputs[NINPUTS];
  for (int i = 0; i < NINPUTS; i++) {
    bool any = false;
    for (size_t j = 0; j < in.count[i]; j++) any = any || in.values[i][j];
    inputs[i] = (opr_shape_input){in.shapes[i], any ? in.values[i] : NULL,
                                  in.count[i]};
  }
  opr_inferred_shapes out;
  body = fn;
  expect_ok(opr_infer_shapes(&probe_def, inputs, NINPUTS, in.attrs,
                             in.nattrs, &out));
  opr_inferred_shapes_free(&out);
}

#define TEST(name) static void name##_body(opr_infer_ctx *c)
#define RUN(name)                                                            \
  static void name(void **state) {                                           \
    (void)state;                                                             \
    run(name##_body);                                                        \
  }

/* ---- numbers ---- */

TEST(a_direct_minus_one_is_the_unknown_dim) {
  int64_t d;
  expect_ok(opr_sx_as_dim(c, num(-1), "-1", &d));
  assert_int_equal(d, U);
  expect_ok(opr_sx_as_dim(c, unk, "?", &d));
  assert_int_equal(d, U);
  expect_ok(opr_sx_as_dim(c, dimn(5), "dim(x, 0)", &d));
  assert_int_equal(d, 5);
  expect_status(opr_sx_as_dim(c, num(-2), "attr(k)", &d),
                "Probe: attr(k) is -2, a negative dim");
  /* computed: a let's parameter, or dim(x, 0) - 6 */
  expect_status(opr_sx_as_dim(c, opr_sx_computed(num(-1)), "before(k)", &d),
                "Probe: before(k) is -1, a negative dim");
  opr_num n;
  expect_ok(opr_sx_sub(c, dimn(5), num(6), "dim(x, 0) - 6", &n));
  expect_num(n, -1, false);
  expect_status(opr_sx_as_dim(c, n, "dim(x, 0) - 6", &d),
                "Probe: dim(x, 0) - 6 is -1, a negative dim");
}
RUN(a_direct_minus_one_is_the_unknown_dim)

TEST(add_and_sub_are_exact_and_unknown_in_unknown_out) {
  opr_num n;
  expect_ok(opr_sx_add(c, num(-1), dimn(3), "attr(axis) + rank(x)", &n));
  expect_num(n, 2, false);
  expect_ok(opr_sx_add(c, unk, num(3), "d", &n));
  expect_unknown(n);
  expect_ok(opr_sx_sub(c, num(2), dimn(5), "k - rank(x)", &n));
  expect_num(n, -3, false); /* a negative intermediate is just a number */
  expect_ok(opr_sx_sub(c, num(2), unk, "d", &n));
  expect_unknown(n);
  expect_status(opr_sx_add(c, num(INT64_MAX), num(1), "attr(k) + 1", &n),
                "Probe: attr(k) + 1 overflows (9223372036854775807 + 1)");
  expect_status(opr_sx_sub(c, num(INT64_MIN), num(1), "attr(k) - 1", &n),
                "Probe: attr(k) - 1 overflows (-9223372036854775808 - 1)");
  expect_status(opr_sx_neg(c, num(INT64_MIN), "-attr(k)", &n),
                "Probe: -attr(k) overflows (-(-9223372036854775808))");
  expect_ok(opr_sx_neg(c, num(1), "-attr(k)", &n));
  expect_num(n, -1, false); /* -attr(n) is computed */
  expect_ok(opr_sx_neg(c, unk, "-d", &n));
  expect_unknown(n);
}
RUN(add_and_sub_are_exact_and_unknown_in_unknown_out)

TEST(mul_of_zero_is_zero_and_one_keeps_the_other) {
  opr_num n;
  expect_ok(opr_sx_mul(c, dimn(0), unk, "0 * ?", &n));
  expect_num(n, 0, false);
  expect_ok(opr_sx_mul(c, unk, num(0), "? * 0", &n));
  expect_num(n, 0, false);
  expect_ok(opr_sx_mul(c, num(1), unk, "1 * ?", &n));
  expect_unknown(n);
  expect_ok(opr_sx_mul(c, unk, num(1), "? * 1", &n));
  expect_unknown(n);
  expect_ok(opr_sx_mul(c, num(1), num(-1), "1 * -1", &n));
  expect_num(n, -1, false); /* the result is computed */
  expect_ok(opr_sx_mul(c, num(2), unk, "2 * ?", &n));
  expect_unknown(n);
  expect_ok(opr_sx_mul(c, num(-3), dimn(4), "-3 * 4", &n));
  expect_num(n, -12, false);
  expect_status(opr_sx_mul(c, dimn(INT64_MAX / 2 + 1), num(2), "d * 2", &n),
                "Probe: d * 2 overflows (4611686018427387904 * 2)");
}
RUN(mul_of_zero_is_zero_and_one_keeps_the_other)

TEST(div_is_exact_and_a_divisor_must_be_positive) {
  opr_num n;
  expect_ok(opr_sx_div(c, dimn(6), num(3), "d / 3", &n));
  expect_num(n, 2, false);
  expect_ok(opr_sx_div(c, num(-6), num(3), "d / 3", &n));
  expect_num(n, -2, false);
  expect_ok(opr_sx_div(c, unk, num(3), "d / 3", &n));
  expect_unknown(n);
  expect_ok(opr_sx_div(c, dimn(6), unk, "6 / d", &n));
  expect_unknown(n);
  expect_status(opr_sx_div(c, dimn(3), num(2), "dim(x, 1) / 2", &n),
                "Probe: dim(x, 1) / 2 is not a whole number (3 / 2)");
  expect_status(opr_sx_div(c, unk, num(0), "dim(y, 0) / 0", &n),
                "Probe: dim(y, 0) / 0 has a divisor that is not positive "
                "(? / 0)");
  expect_status(opr_sx_div(c, dimn(4), num(-2), "d / -2", &n),
                "Probe: d / -2 has a divisor that is not positive (4 / -2)");
}
RUN(div_is_exact_and_a_divisor_must_be_positive)

TEST(mod_is_from_zero_to_the_divisor) {
  opr_num n;
  expect_ok(opr_sx_mod(c, num(-1), num(4), "-1 % 4", &n));
  expect_num(n, 3, false);
  expect_ok(opr_sx_mod(c, num(7), num(4), "7 % 4", &n));
  expect_num(n, 3, false);
  expect_ok(opr_sx_mod(c, num(INT64_MIN), num(3), "m % 3", &n));
  expect_num(n, 1, false);
  expect_ok(opr_sx_mod(c, unk, num(4), "? % 4", &n));
  expect_unknown(n);
  expect_status(opr_sx_mod(c, num(7), num(0), "7 % 0", &n),
                "Probe: 7 % 0 has a divisor that is not positive (7 % 0)");
}
RUN(mod_is_from_zero_to_the_divisor)

TEST(ceil_div_rounds_toward_plus_infinity) {
  opr_num n;
  expect_ok(opr_sx_ceil_div(c, num(7), num(2), "ceil_div(7, 2)", &n));
  expect_num(n, 4, false);
  expect_ok(opr_sx_ceil_div(c, num(-7), num(2), "ceil_div(-7, 2)", &n));
  expect_num(n, -3, false);
  expect_ok(opr_sx_ceil_div(c, num(6), num(2), "ceil_div(6, 2)", &n));
  expect_num(n, 3, false);
  expect_ok(opr_sx_ceil_div(c, num(INT64_MAX), num(2), "ceil_div(m, 2)", &n));
  expect_num(n, INT64_MAX / 2 + 1, false);
  expect_ok(opr_sx_ceil_div(c, unk, num(2), "ceil_div(?, 2)", &n));
  expect_unknown(n);
  expect_status(opr_sx_ceil_div(c, unk, num(0), "ceil_div(d, 0)", &n),
                "Probe: ceil_div(d, 0) has a divisor that is not positive "
                "(ceil_div(?, 0))");
}
RUN(ceil_div_rounds_toward_plus_infinity)

TEST(window_gives_valid_and_same_output_sizes) {
  opr_num n;
  const char *w = "window(dim(input, 1), 3, s, d, attr(padding))";
  expect_ok(opr_sx_window(c, dimn(10), dimn(3), num(1), num(1), "VALID", w,
                          &n));
  expect_num(n, 8, false);
  expect_ok(opr_sx_window(c, dimn(10), dimn(3), num(2), num(2), "VALID", w,
                          &n)); /* window 5: (10 - 5) / 2 + 1 */
  expect_num(n, 3, false);
  expect_ok(opr_sx_window(c, dimn(10), dimn(3), num(3), num(1), "SAME", w,
                          &n));
  expect_num(n, 4, false);
  expect_ok(opr_sx_window(c, unk, dimn(3), num(1), num(1), "VALID", w, &n));
  expect_unknown(n);
  expect_ok(opr_sx_window(c, dimn(4), unk, num(1), num(1), "VALID", w, &n));
  expect_unknown(n);
  expect_ok(opr_sx_window(c, dimn(5), dimn(3), unk, num(2), "VALID", w, &n));
  expect_unknown(n);
  expect_ok(opr_sx_window(c, unk, unk, num(2), num(1), "SAME", w, &n));
  expect_unknown(n);
  expect_status(opr_sx_window(c, dimn(4), dimn(3), unk, num(2), "VALID", w,
                              &n),
                "Probe: window(dim(input, 1), 3, s, d, attr(padding)): the "
                "input size 4 is smaller than the window 5 (VALID padding)");
  expect_status(opr_sx_window(c, dimn(4), dimn(3), num(1), num(2), "VALID", w,
                              &n),
                "Probe: window(dim(input, 1), 3, s, d, attr(padding)): the "
                "input size 4 is smaller than the window 5 (VALID padding)");
  expect_status(opr_sx_window(c, dimn(4), dimn(3), num(0), num(1), "SAME", w,
                              &n),
                "Probe: window(dim(input, 1), 3, s, d, attr(padding)): the "
                "stride is 0; it must be at least 1");
  expect_status(opr_sx_window(c, unk, dimn(3), num(1), num(0), "SAME", w, &n),
                "Probe: window(dim(input, 1), 3, s, d, attr(padding)): the "
                "dilation is 0; it must be at least 1");
  expect_status(opr_sx_window(c, dimn(4), dimn(3), num(1), num(1), "EXPLICIT",
                              w, &n),
                "Probe: window(dim(input, 1), 3, s, d, attr(padding)): "
                "padding 'EXPLICIT' is neither 'VALID' nor 'SAME'");
}
RUN(window_gives_valid_and_same_output_sizes)

/* ---- conditions ---- */

TEST(comparisons_are_undecided_on_unknowns) {
  assert_int_equal(opr_sx_compare(num(-1), OPR_DIM_LT, dimn(0)),
                   OPR_COND_TRUE);
  assert_int_equal(opr_sx_compare(dimn(3), OPR_DIM_NE, dimn(3)),
                   OPR_COND_FALSE);
  assert_int_equal(opr_sx_compare(unk, OPR_DIM_EQ, dimn(3)),
                   OPR_COND_UNDECIDED);
  assert_int_equal(opr_sx_in(dimn(2), num(1), num(3)), OPR_COND_TRUE);
  assert_int_equal(opr_sx_in(dimn(4), num(1), num(3)), OPR_COND_FALSE);
  assert_int_equal(opr_sx_in(unk, num(1), num(3)), OPR_COND_UNDECIDED);
  assert_int_equal(opr_sx_in(dimn(5), unk, num(3)), OPR_COND_UNDECIDED);
  assert_int_equal(opr_sx_in(dimn(2), num(1), unk), OPR_COND_UNDECIDED);
  assert_int_equal(opr_sx_not(OPR_COND_TRUE), OPR_COND_FALSE);
  assert_int_equal(opr_sx_not(OPR_COND_UNDECIDED), OPR_COND_UNDECIDED);
  assert_int_equal(opr_sx_known_num(unk), OPR_COND_FALSE);
  assert_int_equal(opr_sx_known_num(num(-1)), OPR_COND_TRUE);
  assert_int_equal(opr_sx_known_shape(SHAPE(2, 2, U)), OPR_COND_FALSE);
  assert_int_equal(opr_sx_known_shape(scalar), OPR_COND_TRUE);
  assert_int_equal(opr_sx_known_shape(unknown), OPR_COND_FALSE);
  (void)c;
}
RUN(comparisons_are_undecided_on_unknowns)

TEST(bit_reads_twos_complement_and_checks_the_index) {
  opr_cond b;
  expect_ok(opr_sx_bit(c, num(-1), num(63), "bit(m, 63)", &b));
  assert_int_equal(b, OPR_COND_TRUE);
  expect_ok(opr_sx_bit(c, num(4), num(2), "bit(m, 2)", &b));
  assert_int_equal(b, OPR_COND_TRUE);
  expect_ok(opr_sx_bit(c, num(4), num(1), "bit(m, 1)", &b));
  assert_int_equal(b, OPR_COND_FALSE);
  expect_ok(opr_sx_bit(c, unk, num(1), "bit(m, 1)", &b));
  assert_int_equal(b, OPR_COND_UNDECIDED);
  expect_status(opr_sx_bit(c, unk, num(64), "bit(attr(mask), k)", &b),
                "Probe: bit(attr(mask), k): bit 64 is outside [0, 64)");
  expect_status(opr_sx_bit(c, num(1), num(-1), "bit(m, -1)", &b),
                "Probe: bit(m, -1): bit -1 is outside [0, 64)");
}
RUN(bit_reads_twos_complement_and_checks_the_index)

TEST(same_decides_on_what_is_known_now) {
  opr_shape ok[] = {SHAPE(2, 2, U), SHAPE(2, U, 3), unknown, SHAPE(2, 2, 3)};
  assert_int_equal(opr_sx_same(c, ok, 4), OPR_COND_TRUE);
  opr_shape bad[] = {SHAPE(2, 2, U), SHAPE(2, U, 3), SHAPE(2, 3, 3)};
  assert_int_equal(opr_sx_same(c, bad, 3), OPR_COND_FALSE);
  opr_shape ranks[] = {SHAPE(1, U), SHAPE(2, U, U)};
  assert_int_equal(opr_sx_same(c, ranks, 2), OPR_COND_FALSE);
  assert_int_equal(opr_sx_same(c, NULL, 0), OPR_COND_TRUE);
}
RUN(same_decides_on_what_is_known_now)

TEST(require_fails_only_when_decided_false) {
  expect_ok(opr_sx_require(c, OPR_COND_UNDECIDED, "rank(y) == 2", NULL));
  expect_ok(opr_sx_require(c, OPR_COND_TRUE, "rank(x) == 2", NULL));
  expect_status(opr_sx_require(c, OPR_COND_FALSE, "same(a, b)", NULL),
                "Probe: same(a, b) does not hold");
  expect_status(opr_sx_require(c, OPR_COND_FALSE, "all(...)", "k = 2"),
                "Probe: all(...) does not hold (k = 2)");
  expect_ok(opr_sx_require_compare(c, unk, OPR_DIM_EQ, num(2),
                                   "rank(y) == 2"));
  expect_ok(opr_sx_require_compare(c, dimn(2), OPR_DIM_EQ, num(2),
                                   "rank(x) == 2"));
  expect_status(opr_sx_require_compare(c, dimn(2), OPR_DIM_EQ, dimn(3),
                                       "rank(input) == dim(paddings, 0)"),
                "Probe: rank(input) == dim(paddings, 0) does not hold "
                "(2 vs 3)");
  expect_status(opr_sx_require_compare(c, num(-3), OPR_DIM_GE, num(-2),
                                       "attr(axis) >= -rank(x)"),
                "Probe: attr(axis) >= -rank(x) does not hold (-3 vs -2)");
}
RUN(require_fails_only_when_decided_false)

/* ---- inputs ---- */

TEST(input_shapes_merge_list_tensors_and_values) {
  opr_shape s;
  expect_ok(opr_sx_input(c, IN_X, &s));
  expect_shape(s, "[2, 3]");
  expect_ok(opr_sx_input(c, IN_XS, &s));
  expect_shape(s, "[2, 3]"); /* [2, ?] and [?, 3] */
  expect_ok(opr_sx_input(c, IN_V, &s));
  expect_shape(s, "[3, 2]"); /* ? with a 3 x 2 value */
  assert_int_equal(opr_sx_rank(s).v, 2);
  opr_num d;
  expect_ok(opr_sx_dim(c, s, num(0), "dim(v, 0)", &d));
  expect_num(d, 3, false);
  expect_ok(opr_sx_input(c, IN_ZS, &s));
  expect_shape(s, "?"); /* no tensors */
  expect_num(opr_sx_length(c, IN_XS), 2, false);
  expect_num(opr_sx_length(c, IN_ZS), 0, false);
}
static void input_shapes_merge_list_tensors_and_values(void **state) {
  (void)state;
  in.count[IN_XS] = 2;
  in.shapes[IN_XS][0] = SHAPE(2, 2, U);
  in.shapes[IN_XS][1] = SHAPE(2, U, 3);
  VALUE32(IN_V, 2, DIMS(3, 2), 1, 2, 3, 4, 5, 6);
  run(input_shapes_merge_list_tensors_and_values_body);
}

TEST(list_tensors_that_disagree_are_an_error) {
  opr_shape s;
  expect_status(opr_sx_input(c, IN_XS, &s),
                "Probe: the tensors of 'xs' must have compatible shapes, but "
                "element 0 is [2] and element 1 is [3]");
}
static void list_tensors_that_disagree_are_an_error(void **state) {
  (void)state;
  in.count[IN_XS] = 2;
  in.shapes[IN_XS][0] = SHAPE(1, 2);
  in.shapes[IN_XS][1] = SHAPE(1, 3);
  run(list_tensors_that_disagree_are_an_error_body);
}

TEST(a_list_tensor_by_index) {
  opr_shape s;
  expect_ok(opr_sx_input_at(c, IN_XS, num(1), "xs[1]", &s));
  expect_shape(s, "[?, 3]");
  expect_ok(opr_sx_input_at(c, IN_XS, unk, "xs[i]", &s));
  expect_shape(s, "?");
  expect_status(opr_sx_input_at(c, IN_XS, num(2), "xs[2]", &s),
                "Probe: xs[2]: index 2 is out of range for the 2 tensors of "
                "'xs'");
  expect_status(opr_sx_input_at(c, IN_XS, num(-1), "xs[-1]", &s),
                "Probe: xs[-1]: index -1 is out of range for the 2 tensors "
                "of 'xs'");
}
TEST(list_tensors_with_values_merge_each_value_first) {
  opr_shape s;
  expect_status(opr_sx_input(c, IN_XS, &s),
                "Probe: the tensors of 'xs' must have compatible shapes, but "
                "element 1 is [3] and the ones before it are [2]");
  expect_ok(opr_sx_input_at(c, IN_XS, num(0), "xs[0]", &s));
  expect_shape(s, "[2]"); /* ? with a value of 2 elements */
}
static void list_tensors_with_values_merge_each_value_first(void **state) {
  (void)state;
  in.count[IN_XS] = 2;
  in.shapes[IN_XS][1] = SHAPE(1, 3);
  give_value(IN_XS, 0, OPR_DT_INT32, 1, (const int64_t[]){2},
             (const int32_t[]){7, 8}, 8);
  run(list_tensors_with_values_merge_each_value_first_body);
}

static void a_list_tensor_by_index(void **state) {
  (void)state;
  in.count[IN_XS] = 2;
  in.shapes[IN_XS][0] = SHAPE(2, 2, U);
  in.shapes[IN_XS][1] = SHAPE(2, U, 3);
  run(a_list_tensor_by_index_body);
}

/* ---- input values ---- */

TEST(a_value_as_a_shape) {
  opr_shape s;
  expect_ok(opr_sx_value_shape(c, IN_V, 0, "value(v)", &s));
  expect_shape(s, "[2, ?, 0]");
  expect_ok(opr_sx_value_shape(c, IN_W, 0, "value(w)", &s));
  expect_shape(s, "[4, 5]");
  /* int64 values are the dims: nothing copied */
  assert_ptr_equal(s.dims, in.values[IN_W][0]->data);
  expect_ok(opr_sx_value_shape(c, IN_Y, 0, "value(y)", &s));
  expect_shape(s, "?");
}
static void a_value_as_a_shape(void **state) {
  (void)state;
  VALUE32(IN_V, 1, DIMS(3), 2, -1, 0);
  VALUE64(IN_W, 1, DIMS(2), 4, 5);
  run(a_value_as_a_shape_body);
}

TEST(an_unknown_value_as_a_shape_has_the_inputs_length) {
  opr_shape s;
  expect_ok(opr_sx_value_shape(c, IN_V, 0, "value(v)", &s));
  expect_shape(s, "[?, ?, ?]");
  expect_ok(opr_sx_value_shape(c, IN_W, 0, "value(w)", &s));
  expect_shape(s, "?");
  expect_status(opr_sx_value_shape(c, IN_X, 0, "value(x)", &s),
                "Probe: value(x): 'x' must be 1-D, but has shape [2, 3]");
}
static void an_unknown_value_as_a_shape_has_the_inputs_length(void **state) {
  (void)state;
  in.shapes[IN_V][0] = SHAPE(1, 3);
  in.shapes[IN_W][0] = SHAPE(1, U);
  run(an_unknown_value_as_a_shape_has_the_inputs_length_body);
}

TEST(a_value_below_minus_one_is_no_dim) {
  opr_shape s;
  expect_status(opr_sx_value_shape(c, IN_V, 0, "value(shape)", &s),
                "Probe: element 1 of value(shape) is -2, a negative dim");
  expect_status(opr_sx_value_shape(c, IN_W, 0, "value(w)", &s),
                "Probe: value(w): 'w' must be 1-D, but has shape []");
}
static void a_value_below_minus_one_is_no_dim(void **state) {
  (void)state;
  VALUE32(IN_V, 1, DIMS(2), 3, -2);
  give_value(IN_W, 0, OPR_DT_INT64, 0, NULL, (const int64_t[]){3}, 8);
  run(a_value_below_minus_one_is_no_dim_body);
}

TEST(value_elements_are_read_row_major_and_direct) {
  opr_num n;
  expect_ok(opr_sx_value_at(c, IN_V, 0, num(3), "value(p)[2 * k + 1]", &n));
  expect_num(n, -1, true);
  expect_ok(opr_sx_value_at(c, IN_V, 0, num(4), "value(p)[4]", &n));
  expect_num(n, 5, true);
  expect_ok(opr_sx_value_at(c, IN_V, 0, unk, "value(p)[k]", &n));
  expect_unknown(n);
  expect_status(opr_sx_value_at(c, IN_V, 0, num(6), "value(p)[6]", &n),
                "Probe: value(p)[6]: index 6 is out of range for the 6 values "
                "of 'v'");
  expect_status(opr_sx_value_at(c, IN_V, 0, num(-1), "value(p)[-1]", &n),
                "Probe: value(p)[-1]: index -1 is out of range for the 6 "
                "values of 'v'");
  /* unknown values: unknown elements, a negative index still an error */
  expect_ok(opr_sx_value_at(c, IN_Y, 0, num(7), "value(y)[7]", &n));
  expect_unknown(n);
  expect_status(opr_sx_value_at(c, IN_Y, 0, num(-1), "value(y)[-1]", &n),
                "Probe: value(y)[-1]: index -1 is negative");
  assert_int_equal(opr_sx_value_known(c, IN_V, 0), OPR_COND_TRUE);
  assert_int_equal(opr_sx_value_known(c, IN_Y, 0), OPR_COND_FALSE);
  assert_int_equal(opr_sx_value_known(c, IN_W, 0), OPR_COND_TRUE);
}
static void value_elements_are_read_row_major_and_direct(void **state) {
  (void)state;
  VALUE32(IN_V, 2, DIMS(3, 2), 1, 2, 3, -1, 5, 6);
  VALUE64(IN_W, 1, DIMS(1), -1); /* known, whatever it holds */
  run(value_elements_are_read_row_major_and_direct_body);
}

TEST(a_value_as_a_number_needs_one_value) {
  opr_num n;
  expect_ok(opr_sx_value_num(c, IN_W, 0, "value(axis)", &n));
  expect_num(n, -1, true);
  expect_ok(opr_sx_value_num(c, IN_Y, 0, "value(y)", &n));
  expect_unknown(n);
  expect_status(opr_sx_value_num(c, IN_V, 0, "value(v)", &n),
                "Probe: value(v): 'v' has 2 values; a number needs exactly "
                "one");
}
static void a_value_as_a_number_needs_one_value(void **state) {
  (void)state;
  VALUE32(IN_V, 1, DIMS(2), 1, 2);
  give_value(IN_W, 0, OPR_DT_INT64, 0, NULL, (const int64_t[]){-1}, 8);
  run(a_value_as_a_number_needs_one_value_body);
}

TEST(values_as_integer_lists) {
  opr_sx_ints ints;
  expect_ok(opr_sx_value_ints(c, IN_V, 0, "value(v)", &ints));
  assert_true(ints.known);
  assert_int_equal(ints.n, 3);
  assert_int_equal(ints.v[0], 0);
  assert_int_equal(ints.v[2], -1);
  expect_ok(opr_sx_value_ints(c, IN_W, 0, "value(w)", &ints));
  assert_false(ints.known);
  expect_status(opr_sx_value_ints(c, IN_X, 0, "value(x)", &ints),
                "Probe: value(x): 'x' must have rank 0 or 1, but has shape "
                "[2, 3]");
  expect_ok(opr_sx_num_ints(c, num(-1), &ints));
  assert_true(ints.known);
  assert_int_equal(ints.n, 1);
  assert_int_equal(ints.v[0], -1);
  expect_ok(opr_sx_num_ints(c, unk, &ints));
  assert_false(ints.known);
}
static void values_as_integer_lists(void **state) {
  (void)state;
  VALUE32(IN_V, 1, DIMS(3), 0, 1, -1);
  in.shapes[IN_W][0] = SHAPE(1, 4);
  run(values_as_integer_lists_body);
}

/* ---- sum and concat over list inputs ---- */

TEST(sum_adds_a_dim_over_the_tensors) {
  opr_num n;
  expect_ok(opr_sx_sum_dims(c, IN_XS, num(-1), "sum(xs, -1)", &n));
  expect_num(n, 9, false);
  expect_ok(opr_sx_sum_dims(c, IN_XS, num(0), "sum(xs, 0)", &n));
  expect_unknown(n);
  expect_ok(opr_sx_sum_dims(c, IN_XS, unk, "sum(xs, k)", &n));
  expect_unknown(n);
  expect_ok(opr_sx_sum_dims(c, IN_ZS, num(5), "sum(zs, 5)", &n));
  expect_num(n, 0, false);
  expect_status(opr_sx_sum_dims(c, IN_XS, num(2), "sum(xs, 2)", &n),
                "Probe: axis 2 is out of range for rank 2 in sum(xs, 2); it "
                "must be in [-2, 2)");
}
static void sum_adds_a_dim_over_the_tensors(void **state) {
  (void)state;
  in.count[IN_XS] = 2;
  in.shapes[IN_XS][0] = SHAPE(2, 2, 4);
  in.shapes[IN_XS][1] = SHAPE(2, U, 5);
  run(sum_adds_a_dim_over_the_tensors_body);
}

TEST(concat_sums_the_axis_and_merges_the_rest) {
  opr_shape s;
  expect_ok(opr_sx_concat(c, IN_XS, num(1), "concat(xs, 1)", &s));
  expect_shape(s, "[2, 9]");
  expect_ok(opr_sx_concat(c, IN_ZS, num(-2), "concat(zs, -2)", &s));
  expect_shape(s, "[?, 4]"); /* 2 + 3 + ?: the tensor of unknown rank */
  expect_status(opr_sx_concat(c, IN_ZS, num(1), "concat(zs, 1)", &s),
                "Probe: concat(zs, 1): dim 0 of the tensors of 'zs' must be "
                "equal, but is 2 before element 1 and 3 in it");
  expect_ok(opr_sx_concat(c, IN_XS, unk, "concat(xs, value(axis))", &s));
  expect_shape(s, "[?, ?]");
  expect_status(opr_sx_concat(c, IN_XS, num(2), "concat(xs, value(axis))",
                              &s),
                "Probe: axis 2 is out of range for rank 2 in concat(xs, "
                "value(axis)); it must be in [-2, 2)");
  expect_status(opr_sx_concat(c, IN_XS, num(-3), "concat(xs, -3)", &s),
                "Probe: axis -3 is out of range for rank 2 in concat(xs, "
                "-3); it must be in [-2, 2)");
}
/* TensorFlow's ConcatV2: "Can't concatenate scalars", axis known or not. */
TEST(concat_of_scalars_is_an_error_whatever_the_axis) {
  opr_shape s;
  expect_status(opr_sx_concat(c, IN_XS, unk, "concat(xs, value(axis))", &s),
                "Probe: concat(xs, value(axis)): the tensors of 'xs' are "
                "scalars, which do not concatenate");
  expect_status(opr_sx_concat(c, IN_XS, num(0), "concat(xs, 0)", &s),
                "Probe: concat(xs, 0): the tensors of 'xs' are scalars, which "
                "do not concatenate");
}
static void concat_of_scalars_is_an_error_whatever_the_axis(void **state) {
  (void)state;
  in.count[IN_XS] = 2;
  in.shapes[IN_XS][0] = scalar;
  in.shapes[IN_XS][1] = unknown;
  run(concat_of_scalars_is_an_error_whatever_the_axis_body);
}

static void concat_sums_the_axis_and_merges_the_rest(void **state) {
  (void)state;
  in.count[IN_XS] = 2;
  in.shapes[IN_XS][0] = SHAPE(2, 2, 4);
  in.shapes[IN_XS][1] = SHAPE(2, U, 5);
  in.count[IN_ZS] = 3;
  in.shapes[IN_ZS][0] = SHAPE(2, 2, 4);
  in.shapes[IN_ZS][1] = SHAPE(2, 3, 4);
  in.shapes[IN_ZS][2] = unknown;
  run(concat_sums_the_axis_and_merges_the_rest_body);
}

TEST(concat_of_disagreeing_tensors_is_an_error) {
  opr_shape s;
  expect_status(opr_sx_concat(c, IN_XS, num(0), "concat(xs, 0)", &s),
                "Probe: concat(xs, 0): dim 1 of the tensors of 'xs' must be "
                "equal, but is 3 before element 2 and 4 in it");
  expect_status(opr_sx_concat(c, IN_ZS, num(0), "concat(zs, 0)", &s),
                "Probe: concat(zs, 0): the tensors of 'zs' must have the "
                "same rank, but element 0 is [2] and element 1 is [2, 2]");
}
static void concat_of_disagreeing_tensors_is_an_error(void **state) {
  (void)state;
  in.count[IN_XS] = 3;
  in.shapes[IN_XS][0] = SHAPE(2, 1, 3);
  in.shapes[IN_XS][1] = SHAPE(2, 1, U);
  in.shapes[IN_XS][2] = SHAPE(2, 1, 4);
  in.count[IN_ZS] = 2;
  in.shapes[IN_ZS][0] = SHAPE(1, 2);
  in.shapes[IN_ZS][1] = SHAPE(2, 2, 2);
  run(concat_of_disagreeing_tensors_is_an_error_body);
}

/* ---- attrs ---- */

TEST(int_and_bool_attrs) {
  opr_num n;
  expect_ok(opr_sx_attr_num(c, A_K, "attr(k)", &n));
  expect_num(n, 4, true);
  opr_cond b;
  expect_ok(opr_sx_attr_cond(c, A_B, "attr(b)", &b));
  assert_int_equal(b, OPR_COND_FALSE); /* given: false */
  expect_status(opr_sx_attr_num(c, A_REQ, "attr(req)", &n),
                "Probe: attr(req): attr 'req' has no value");
  expect_status(opr_sx_attr_num(c, A_S, "attr(s)", &n),
                "Probe: attr(s): attr 's' is a shape, not an int");
}
static void int_and_bool_attrs(void **state) {
  (void)state;
  give_attr("b", (opr_attr_value){.kind = OPR_ATTR_BOOL, .u.b = false});
  run(int_and_bool_attrs_body);
}

TEST(shape_int_list_and_tensor_attrs_as_shapes) {
  opr_shape s;
  expect_ok(opr_sx_attr_shape(c, A_S, "attr(s)", &s));
  expect_shape(s, "[2, ?]");
  expect_ok(opr_sx_attr_shape(c, A_L, "attr(l)", &s));
  expect_shape(s, "[0, ?, 3]"); /* a -1 element: the unknown dim */
  expect_ok(opr_sx_attr_shape(c, A_TENS, "attr(tens)", &s));
  expect_shape(s, "[3, 2]");
  opr_num n;
  expect_ok(opr_sx_attr_at(c, A_L, num(1), "attr(l)[1]", &n));
  expect_num(n, -1, true); /* the raw element */
  expect_ok(opr_sx_attr_at(c, A_L, unk, "attr(l)[k]", &n));
  expect_unknown(n);
  expect_status(opr_sx_attr_at(c, A_L, num(3), "attr(l)[3]", &n),
                "Probe: attr(l)[3]: index 3 is out of range for the 3 "
                "elements of attr 'l'");
  expect_status(opr_sx_attr_at(c, A_L, num(-1), "attr(l)[-1]", &n),
                "Probe: attr(l)[-1]: index -1 is out of range for the 3 "
                "elements of attr 'l'");
  expect_ok(opr_sx_attr_at(c, A_S, num(-2), "attr(s)[-2]", &n));
  expect_num(n, 2, false); /* a shape attr's dim */
  expect_ok(opr_sx_attr_at(c, A_S, num(1), "attr(s)[1]", &n));
  expect_unknown(n);
  expect_ok(opr_sx_attr_length(c, A_L, "length(attr(l))", &n));
  expect_num(n, 3, false);
}
RUN(shape_int_list_and_tensor_attrs_as_shapes)

TEST(an_int_list_below_minus_one_is_no_shape) {
  opr_shape s;
  expect_status(opr_sx_attr_shape(c, A_L, "attr(l)", &s),
                "Probe: attr(l): element 1 of attr 'l' is -2, a negative "
                "dim");
}
static void an_int_list_below_minus_one_is_no_shape(void **state) {
  (void)state;
  static const int64_t items[] = {1, -2};
  give_attr("l", opr_attr_list(OPR_ATTR_INT, items, 2));
  run(an_int_list_below_minus_one_is_no_shape_body);
}

TEST(shape_list_attrs_by_index) {
  opr_shape s;
  expect_ok(opr_sx_attr_shape_at(c, A_LS, num(1), "attr(ls)[1]", &s));
  expect_shape(s, "[2, ?]");
  expect_ok(opr_sx_attr_shape_at(c, A_LS, unk, "attr(ls)[i]", &s));
  expect_shape(s, "?");
  expect_status(opr_sx_attr_shape_at(c, A_LS, num(2), "attr(ls)[2]", &s),
                "Probe: attr(ls)[2]: index 2 is out of range for the 2 "
                "elements of attr 'ls'");
  opr_num n;
  expect_ok(opr_sx_attr_length(c, A_LS, "length(attr(ls))", &n));
  expect_num(n, 2, false);
  /* an inferred list(type): its input's tensors */
  expect_ok(opr_sx_attr_length(c, A_TZ, "length(attr(Tz))", &n));
  expect_num(n, 3, false);
}
static void shape_list_attrs_by_index(void **state) {
  (void)state;
  in.count[IN_ZS] = 3;
  run(shape_list_attrs_by_index_body);
}

TEST(string_and_type_attrs) {
  opr_cond b;
  expect_ok(opr_sx_attr_is_string(c, A_STR, "NHWC", "attr(str) == 'NHWC'",
                                  &b));
  assert_int_equal(b, OPR_COND_TRUE);
  expect_ok(opr_sx_attr_is_string(c, A_STR, "NCHW", "attr(str) == 'NCHW'",
                                  &b));
  assert_int_equal(b, OPR_COND_FALSE);
  expect_ok(opr_sx_attr_is_string(c, A_PAD, "VALIDX", "attr(pad) == 'X'",
                                  &b));
  assert_int_equal(b, OPR_COND_FALSE); /* the value is "VALID" (5 bytes) */
  expect_ok(opr_sx_attr_is_type(c, A_U, OPR_DT_INT64, "attr(u) == int64",
                                &b));
  assert_int_equal(b, OPR_COND_TRUE);
  /* read off x's type, which opr_infer_shapes does not know */
  expect_ok(opr_sx_attr_is_type(c, A_T, OPR_DT_INT64, "attr(t) == int64",
                                &b));
  assert_int_equal(b, OPR_COND_UNDECIDED);
  opr_num n;
  expect_ok(opr_sx_size_of(c, A_U, "size_of(u)", &n));
  expect_num(n, 8, false);
  expect_ok(opr_sx_size_of(c, A_T, "size_of(t)", &n));
  expect_unknown(n);
  const char *pad;
  expect_ok(opr_sx_attr_string(c, A_PAD, "attr(pad)", &pad));
  assert_string_equal(pad, "VALID");
  expect_ok(opr_sx_attr_string(c, A_STR, "attr(str)", &pad));
  assert_string_equal(pad, "NHWC");
  opr_num w;
  expect_status(opr_sx_window(c, dimn(4), dimn(1), num(1), num(1), pad,
                              "window(d, 1, 1, 1, attr(str))", &w),
                "Probe: window(d, 1, 1, 1, attr(str)): padding 'NHWC' is "
                "neither 'VALID' nor 'SAME'");
}
RUN(string_and_type_attrs)

TEST(size_of_opaque_types_is_zero) {
  opr_num n;
  expect_ok(opr_sx_size_of(c, A_U, "size_of(u)", &n));
  expect_num(n, 0, false);
}
static void size_of_opaque_types_is_zero(void **state) {
  (void)state;
  give_attr("u", (opr_attr_value){.kind = OPR_ATTR_TYPE,
                                  .u.type = OPR_DT_STRING});
  run(size_of_opaque_types_is_zero_body);
}

TEST(int_list_attrs_as_integer_lists) {
  opr_sx_ints ints;
  expect_ok(opr_sx_attr_ints(c, A_L, "attr(l)", &ints));
  assert_true(ints.known);
  assert_int_equal(ints.n, 3);
  assert_int_equal(ints.v[1], -1);
  expect_status(opr_sx_attr_ints(c, A_K, "attr(k)", &ints),
                "Probe: attr(k): attr 'k' is an int, not an int list");
}
RUN(int_list_attrs_as_integer_lists)

/* ---- shapes ---- */

TEST(literal_shapes_and_unknown_of_rank) {
  opr_shape s;
  opr_num dims[] = {dimn(2), num(-1), unk};
  const char *const whats[] = {"2", "-1", "?"};
  expect_ok(opr_sx_shape(c, dims, 3, whats, &s));
  expect_shape(s, "[2, ?, ?]");
  expect_ok(opr_sx_shape(c, NULL, 0, NULL, &s));
  expect_shape(s, "[]");
  opr_num bad[] = {dimn(2), opr_sx_computed(num(-1))};
  const char *const bad_whats[] = {"2", "dim(x, 0) - 3"};
  expect_status(opr_sx_shape(c, bad, 2, bad_whats, &s),
                "Probe: dim(x, 0) - 3 is -1, a negative dim");
  expect_ok(opr_sx_unknown_rank(c, dimn(3), "unknown(3)", &s));
  expect_shape(s, "[?, ?, ?]");
  expect_ok(opr_sx_unknown_rank(c, unk, "unknown(n)", &s));
  expect_shape(s, "?");
  expect_status(opr_sx_unknown_rank(c, num(-1), "unknown(attr(k))", &s),
                "Probe: unknown(attr(k)): a rank of -1 is negative");
  expect_status(opr_sx_unknown_rank(c, num(255), "unknown(attr(k))", &s),
                "Probe: unknown(attr(k)) has rank 255, more than the highest "
                "rank 254");
}
RUN(literal_shapes_and_unknown_of_rank)

TEST(dims_count_from_the_end_and_check_the_rank) {
  opr_shape x = SHAPE(3, 2, U, 4);
  opr_num n;
  expect_ok(opr_sx_dim(c, x, num(-1), "x[-1]", &n));
  expect_num(n, 4, false);
  expect_ok(opr_sx_dim(c, x, num(1), "dim(x, 1)", &n));
  expect_unknown(n);
  expect_ok(opr_sx_dim(c, x, unk, "dim(x, k)", &n));
  expect_unknown(n);
  expect_ok(opr_sx_dim(c, unknown, num(7), "dim(y, 7)", &n));
  expect_unknown(n);
  expect_status(opr_sx_dim(c, x, num(3), "dim(x, 3)", &n),
                "Probe: axis 3 is out of range for rank 3 in dim(x, 3); it "
                "must be in [-3, 3)");
  expect_status(opr_sx_dim(c, x, num(-4), "x[-4]", &n),
                "Probe: axis -4 is out of range for rank 3 in x[-4]; it must "
                "be in [-3, 3)");
  expect_num(opr_sx_rank(x), 3, false);
  expect_unknown(opr_sx_rank(unknown));
}
RUN(dims_count_from_the_end_and_check_the_rank)

static opr_shape slice(opr_infer_ctx *c, opr_shape s, bool has_lo, opr_num lo,
                       bool has_hi, opr_num hi) {
  opr_shape out;
  expect_ok(opr_sx_slice(c, s, has_lo, lo, has_hi, hi, &out));
  return out;
}

TEST(slices_follow_python_and_clamp) {
  opr_shape x = SHAPE(4, 1, 2, 3, 4);
  expect_shape(slice(c, x, true, num(1), false, unk), "[2, 3, 4]");
  expect_shape(slice(c, x, false, unk, true, num(-2)), "[1, 2]");
  expect_shape(slice(c, x, true, num(-10), true, num(10)), "[1, 2, 3, 4]");
  expect_shape(slice(c, x, true, num(3), true, num(1)), "[]");
  expect_shape(slice(c, x, false, unk, false, unk), "[1, 2, 3, 4]");
  expect_shape(slice(c, SHAPE(1, 5), false, unk, true, num(-2)), "[]");
  expect_shape(slice(c, x, true, num(INT64_MIN), true, num(INT64_MAX)),
               "[1, 2, 3, 4]");
  expect_shape(slice(c, x, true, unk, true, num(2)), "?");
  expect_shape(slice(c, unknown, true, num(0), true, num(2)), "?");
  /* a slice borrows its operand's dims */
  assert_ptr_equal(slice(c, x, true, num(1), false, unk).dims, x.dims + 1);
}
RUN(slices_follow_python_and_clamp)

TEST(concatenation_of_shapes) {
  opr_shape s, x = SHAPE(2, 1, 2);
  expect_ok(opr_sx_append(c, x, SHAPE(1, U), &s));
  expect_shape(s, "[1, 2, ?]");
  expect_ok(opr_sx_append(c, scalar, x, &s));
  assert_ptr_equal(s.dims, x.dims);
  expect_ok(opr_sx_append(c, x, unknown, &s));
  expect_shape(s, "?");
  expect_ok(opr_sx_append(c, unknown, scalar, &s));
  expect_shape(s, "?");
}
RUN(concatenation_of_shapes)

TEST(appending_literal_dims_equals_append_of_the_literal) {
  opr_shape s, x = SHAPE(2, 1, 2), big;
  opr_num known[] = {dimn(3), num(4)}, mixed[] = {num(-1), unk};
  const char *const whats[] = {"a", "b"};
  expect_ok(opr_sx_append_dims(c, x, known, 2, whats, &s));
  expect_shape(s, "[1, 2, 3, 4]");
  expect_ok(opr_sx_append_dims(c, scalar, mixed, 2, whats, &s));
  expect_shape(s, "[?, ?]");
  expect_ok(opr_sx_append_dims(c, unknown, known, 2, whats, &s));
  expect_shape(s, "?");
  /* the literal's errors come first, even after `?` */
  opr_num bad[] = {dimn(2), opr_sx_computed(num(-3))};
  expect_status(opr_sx_append_dims(c, unknown, bad, 2, whats, &s),
                "Probe: b is -3, a negative dim");
  expect_shape(s, "?");
  expect_ok(opr_sx_unknown_rank(c, dimn(253), "unknown(253)", &big));
  expect_status(opr_sx_append_dims(c, big, known, 2, whats, &s),
                "Probe: a shape of rank 253 ++ one of rank 2 has more dims "
                "than the highest rank 254");
}
RUN(appending_literal_dims_equals_append_of_the_literal)

TEST(set_insert_and_remove_a_dim) {
  opr_shape s, x = SHAPE(2, 2, 3);
  expect_ok(opr_sx_set(c, x, num(-1), dimn(7), "set(x, -1, 7)", &s));
  expect_shape(s, "[2, 7]");
  expect_ok(opr_sx_set(c, x, num(0), num(-1), "set(x, 0, -1)", &s));
  expect_shape(s, "[?, 3]");
  expect_ok(opr_sx_insert(c, x, num(-1), dimn(1), "insert(x, -1, 1)", &s));
  expect_shape(s, "[2, 3, 1]"); /* numpy expand_dims */
  expect_ok(opr_sx_insert(c, x, num(-3), dimn(1), "insert(x, -3, 1)", &s));
  expect_shape(s, "[1, 2, 3]");
  expect_ok(opr_sx_insert(c, x, num(2), dimn(5), "insert(x, 2, 5)", &s));
  expect_shape(s, "[2, 3, 5]");
  expect_ok(opr_sx_insert(c, x, num(1), dimn(5), "insert(x, 1, 5)", &s));
  expect_shape(s, "[2, 5, 3]");
  expect_ok(opr_sx_remove(c, x, num(-2), "remove(x, -2)", &s));
  expect_shape(s, "[3]");
  expect_ok(opr_sx_remove(c, x, num(1), "remove(x, 1)", &s));
  expect_shape(s, "[2]");
  expect_ok(opr_sx_insert(c, scalar, num(-1), dimn(4), "insert(s, -1, 4)",
                          &s));
  expect_shape(s, "[4]");
  /* an unknown position keeps the rank, every dim unknown */
  expect_ok(opr_sx_set(c, x, unk, dimn(7), "set(x, i, 7)", &s));
  expect_shape(s, "[?, ?]");
  expect_ok(opr_sx_insert(c, x, unk, dimn(7), "insert(x, i, 7)", &s));
  expect_shape(s, "[?, ?, ?]");
  expect_ok(opr_sx_remove(c, x, unk, "remove(x, i)", &s));
  expect_shape(s, "[?]");
  expect_ok(opr_sx_remove(c, unknown, num(5), "remove(y, 5)", &s));
  expect_shape(s, "?");
}
RUN(set_insert_and_remove_a_dim)

TEST(set_insert_and_remove_check_their_ranges) {
  opr_shape s, x = SHAPE(2, 2, 3);
  expect_status(opr_sx_insert(c, x, num(3), dimn(1), "insert(x, 3, 1)", &s),
                "Probe: axis 3 is out of range for rank 2 in insert(x, 3, 1); "
                "it must be in [-3, 2]");
  expect_status(opr_sx_insert(c, x, num(-4), dimn(1), "insert(x, -4, 1)",
                              &s),
                "Probe: axis -4 is out of range for rank 2 in insert(x, -4, "
                "1); it must be in [-3, 2]");
  expect_status(opr_sx_set(c, x, num(2), dimn(1), "set(x, 2, 1)", &s),
                "Probe: axis 2 is out of range for rank 2 in set(x, 2, 1); it "
                "must be in [-2, 2)");
  expect_status(opr_sx_remove(c, scalar, num(0), "remove(s, 0)", &s),
                "Probe: axis 0 is out of range for rank 0 in remove(s, 0); it "
                "must be in [0, 0)");
  expect_status(opr_sx_set(c, x, num(0), num(-2), "set(x, 0, attr(k))", &s),
                "Probe: set(x, 0, attr(k)) is -2, a negative dim");
}
RUN(set_insert_and_remove_check_their_ranges)

static opr_sx_ints ints_of(const int64_t *v, size_t n) {
  opr_sx_ints i = {v, n, true};
  return i;
}

TEST(reduce_removes_or_keeps_axes) {
  opr_shape s, x = SHAPE(3, 2, 3, 4);
  const int64_t repeated[] = {-1, 2, 0};
  const char *w = "reduce(x, attr(axes), attr(keep))";
  expect_ok(opr_sx_reduce(c, x, ints_of(repeated, 3), OPR_COND_FALSE, w, &s));
  expect_shape(s, "[3]"); /* -1 and 2 are one axis */
  expect_ok(opr_sx_reduce(c, x, ints_of(repeated, 3), OPR_COND_TRUE, w, &s));
  expect_shape(s, "[1, 3, 1]");
  expect_ok(opr_sx_reduce(c, x, ints_of(NULL, 0), OPR_COND_FALSE, w, &s));
  expect_shape(s, "[2, 3, 4]");
  expect_ok(opr_sx_reduce(c, x, ints_of(repeated, 3), OPR_COND_UNDECIDED, w,
                          &s));
  expect_shape(s, "?");
  opr_sx_ints axes_unknown = {NULL, 0, false};
  expect_ok(opr_sx_reduce(c, x, axes_unknown, OPR_COND_TRUE, w, &s));
  expect_shape(s, "[?, ?, ?]");
  expect_ok(opr_sx_reduce(c, x, axes_unknown, OPR_COND_FALSE, w, &s));
  expect_shape(s, "?");
  expect_ok(opr_sx_reduce(c, unknown, ints_of(repeated, 3), OPR_COND_TRUE, w,
                          &s));
  expect_shape(s, "?");
  const int64_t bad[] = {1, 3};
  expect_status(opr_sx_reduce(c, x, ints_of(bad, 2), OPR_COND_TRUE, w, &s),
                "Probe: axis 3 is out of range for rank 3 in reduce(x, "
                "attr(axes), attr(keep)); it must be in [-3, 3)");
}
RUN(reduce_removes_or_keeps_axes)

TEST(permute_reorders_dims) {
  opr_shape s, x = SHAPE(3, 2, 3, 4);
  const int64_t perm[] = {2, 0, -2};
  const char *w = "permute(x, attr(perm))";
  expect_ok(opr_sx_permute(c, x, ints_of(perm, 3), w, &s));
  expect_shape(s, "[4, 2, 3]");
  expect_ok(opr_sx_permute(c, unknown, ints_of(perm, 3), w, &s));
  expect_shape(s, "[?, ?, ?]");
  opr_sx_ints perm_unknown = {NULL, 0, false};
  expect_ok(opr_sx_permute(c, x, perm_unknown, w, &s));
  expect_shape(s, "[?, ?, ?]");
  expect_ok(opr_sx_permute(c, unknown, perm_unknown, w, &s));
  expect_shape(s, "?");
  expect_status(opr_sx_permute(c, x, ints_of(perm, 2), w, &s),
                "Probe: permute(x, attr(perm)): the permutation has 2 "
                "entries, but the shape [2, 3, 4] has rank 3");
  const int64_t bad[] = {0, 2};
  expect_status(opr_sx_permute(c, unknown, ints_of(bad, 2), w, &s),
                "Probe: axis 2 is out of range for rank 2 in permute(x, "
                "attr(perm)); it must be in [-2, 2)");
}
RUN(permute_reorders_dims)

TEST(product_of_a_shape) {
  opr_num n;
  expect_ok(opr_sx_product(c, SHAPE(3, 2, 3, 4), "product(x)", &n));
  expect_num(n, 24, false);
  expect_ok(opr_sx_product(c, SHAPE(3, U, 0, 4), "product(x)", &n));
  expect_num(n, 0, false);
  expect_ok(opr_sx_product(c, SHAPE(2, U, 4), "product(x)", &n));
  expect_unknown(n);
  expect_ok(opr_sx_product(c, unknown, "product(y)", &n));
  expect_unknown(n);
  expect_ok(opr_sx_product(c, scalar, "product(s)", &n));
  expect_num(n, 1, false);
  expect_status(opr_sx_product(c, SHAPE(3, INT64_MAX, 2, 1), "product(x)",
                               &n),
                "Probe: product(x) overflows: the dims multiply past "
                "9223372036854775807");
  expect_ok(opr_sx_product(c, SHAPE(3, INT64_MAX, 2, 0), "product(x)", &n));
  expect_num(n, 0, false);
}
RUN(product_of_a_shape)

/* ---- folds ---- */

/* fold op over numbers, ended. */
static opr_status fold_nums(opr_infer_ctx *c, opr_sx_fold_op op,
                            const opr_num *xs, size_t n, opr_num *out) {
  opr_sx_fold f;
  opr_status s = opr_sx_fold_init(c, &f, op, n);
  for (size_t k = 0; !s && k < n; k++) s = opr_sx_fold_num(c, &f, xs[k], "F");
  if (!s) s = opr_sx_fold_end_num(c, &f, "F(e for k < n)", out);
  return s;
}

static opr_num fold_ok(opr_infer_ctx *c, opr_sx_fold_op op,
                       const opr_num *xs, size_t n) {
  opr_num out;
  expect_ok(fold_nums(c, op, xs, n, &out));
  return out;
}

TEST(number_folds_of_no_elements) {
  opr_num n;
  expect_num(fold_ok(c, OPR_FOLD_SUM, NULL, 0), 0, false);
  expect_num(fold_ok(c, OPR_FOLD_PRODUCT, NULL, 0), 1, false);
  expect_unknown(fold_ok(c, OPR_FOLD_MERGE, NULL, 0));
  expect_unknown(fold_ok(c, OPR_FOLD_JOIN, NULL, 0));
  expect_status(fold_nums(c, OPR_FOLD_MIN, NULL, 0, &n),
                "Probe: F(e for k < n): min of no elements");
  expect_status(fold_nums(c, OPR_FOLD_MAX, NULL, 0, &n),
                "Probe: F(e for k < n): max of no elements");
}
RUN(number_folds_of_no_elements)

TEST(min_and_max_with_unknowns) {
  const opr_num three_unknown[] = {num(3), unk};
  const opr_num zero_unknown[] = {unk, num(0), dimn(5)};
  const opr_num negative[] = {num(-1), dimn(4)};
  const opr_num negative_unknown[] = {num(-1), unk};
  expect_unknown(fold_ok(c, OPR_FOLD_MIN, three_unknown, 2));
  expect_num(fold_ok(c, OPR_FOLD_MIN, zero_unknown, 3), 0, false);
  expect_num(fold_ok(c, OPR_FOLD_MIN, negative, 2), -1, false);
  expect_unknown(fold_ok(c, OPR_FOLD_MIN, negative_unknown, 2));
  expect_unknown(fold_ok(c, OPR_FOLD_MAX, three_unknown, 2));
  expect_num(fold_ok(c, OPR_FOLD_MAX, negative, 2), 4, false);
}
RUN(min_and_max_with_unknowns)

TEST(sum_and_product_folds) {
  const opr_num xs[] = {dimn(2), num(3), num(-1)};
  const opr_num zero[] = {unk, dimn(0), dimn(5)};
  const opr_num with_unknown[] = {dimn(2), unk};
  const opr_num huge[] = {num(INT64_MAX), num(2), num(0)};
  expect_num(fold_ok(c, OPR_FOLD_SUM, xs, 3), 4, false);
  expect_num(fold_ok(c, OPR_FOLD_PRODUCT, xs, 3), -6, false);
  expect_unknown(fold_ok(c, OPR_FOLD_SUM, with_unknown, 2));
  expect_unknown(fold_ok(c, OPR_FOLD_PRODUCT, with_unknown, 2));
  expect_num(fold_ok(c, OPR_FOLD_PRODUCT, zero, 3), 0, false);
  expect_num(fold_ok(c, OPR_FOLD_PRODUCT, huge, 3), 0, false);
  opr_sx_fold f;
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_PRODUCT, 0));
  expect_ok(opr_sx_fold_num(c, &f, dimn(0), "e"));
  assert_true(opr_sx_fold_done(&f)); /* a 0 decides the product */
  opr_sx_fold_unknown(&f);
  opr_num z;
  expect_ok(opr_sx_fold_end_num(c, &f, "product(e for k < n)", &z));
  expect_num(z, 0, false);
  opr_num n;
  expect_status(fold_nums(c, OPR_FOLD_PRODUCT, huge, 2, &n),
                "Probe: F(e for k < n) overflows");
  const opr_num big[] = {num(INT64_MAX), num(1)};
  expect_status(fold_nums(c, OPR_FOLD_SUM, big, 2, &n),
                "Probe: F overflows (9223372036854775807 + 1)");
}
RUN(sum_and_product_folds)

TEST(merge_and_join_folds_of_numbers) {
  const opr_num agree[] = {unk, dimn(3), num(-1), num(3)};
  expect_num(fold_ok(c, OPR_FOLD_MERGE, agree, 4), 3, false);
  const opr_num disagree[] = {dimn(2), dimn(3)};
  opr_num n;
  expect_status(fold_nums(c, OPR_FOLD_MERGE, disagree, 2, &n),
                "Probe: F: dims 2 and 3 do not merge");
  const opr_num negative[] = {dimn(2), opr_sx_computed(num(-1))};
  expect_status(fold_nums(c, OPR_FOLD_MERGE, negative, 2, &n),
                "Probe: F is -1, a negative dim");
  const opr_num minus_ones[] = {num(-1), num(-1)};
  expect_num(fold_ok(c, OPR_FOLD_JOIN, minus_ones, 2), -1, true);
  const opr_num mixed[] = {num(-1), opr_sx_computed(num(-1))};
  expect_num(fold_ok(c, OPR_FOLD_JOIN, mixed, 2), -1, false);
  const opr_num differ[] = {dimn(2), dimn(3), dimn(2)};
  expect_unknown(fold_ok(c, OPR_FOLD_JOIN, differ, 3));
}
RUN(merge_and_join_folds_of_numbers)

TEST(a_dims_comprehension_builds_a_shape) {
  opr_sx_fold f;
  opr_shape s;
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_DIMS, 3));
  expect_ok(opr_sx_fold_num(c, &f, dimn(2), "dim(x, k) + 1"));
  expect_ok(opr_sx_fold_num(c, &f, num(-1), "m[k]"));
  expect_ok(opr_sx_fold_num(c, &f, unk, "dim(y, k)"));
  expect_ok(opr_sx_fold_end_shape(c, &f, "[e for k < 3]", &s));
  expect_shape(s, "[2, ?, ?]");
  /* an `if` keeping none */
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_DIMS, 3));
  expect_ok(opr_sx_fold_end_shape(c, &f, "[e for k < 3 if c]", &s));
  expect_shape(s, "[]");
  /* N unknown, or an `if` undecided */
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_DIMS, 0));
  opr_sx_fold_unknown(&f);
  expect_ok(opr_sx_fold_end_shape(c, &f, "[e for k < n]", &s));
  expect_shape(s, "?");
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_DIMS, 1));
  expect_status(opr_sx_fold_num(c, &f, opr_sx_computed(num(-1)),
                                "dim(x, k) - 4"),
                "Probe: dim(x, k) - 4 is -1, a negative dim");
}
RUN(a_dims_comprehension_builds_a_shape)

TEST(dims_beyond_the_inline_storage) {
  opr_sx_fold f;
  opr_shape s;
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_DIMS, 300));
  for (int k = 0; k < OPR_MAX_RANK; k++)
    expect_ok(opr_sx_fold_num(c, &f, dimn(k), "k"));
  expect_ok(opr_sx_fold_end_shape(c, &f, "[k for k < 300 if c]", &s));
  assert_int_equal(s.rank, OPR_MAX_RANK);
  assert_int_equal(s.dims[OPR_MAX_RANK - 1], OPR_MAX_RANK - 1);
  expect_status(opr_sx_fold_num(c, &f, dimn(1), "k"),
                "Probe: k has more dims than the highest rank 254");
  opr_shape big;
  expect_ok(opr_sx_unknown_rank(c, dimn(200), "unknown(200)", &big));
  expect_ok(opr_sx_append(c, big, SHAPE(2, 1, 2), &s));
  assert_int_equal(s.rank, 202);
  assert_int_equal(s.dims[201], 2);
}
RUN(dims_beyond_the_inline_storage)

static opr_status fold_shapes(opr_infer_ctx *c, opr_sx_fold_op op,
                              const opr_shape *xs, size_t n,
                              opr_shape *out) {
  opr_sx_fold f;
  opr_status s = opr_sx_fold_init(c, &f, op, n);
  for (size_t k = 0; !s && k < n; k++)
    s = opr_sx_fold_shape(c, &f, xs[k], "x[k]");
  if (!s) s = opr_sx_fold_end_shape(c, &f, "F(x, y)", out);
  return s;
}

static void expect_fold_shape(opr_infer_ctx *c, opr_sx_fold_op op,
                              const opr_shape *xs, size_t n,
                              const char *want) {
  opr_shape s;
  expect_ok(fold_shapes(c, op, xs, n, &s));
  expect_shape(s, want);
}

TEST(shape_folds_merge_join_and_broadcast) {
  opr_shape s;
  expect_fold_shape(c, OPR_FOLD_MERGE, NULL, 0, "?");
  expect_fold_shape(c, OPR_FOLD_JOIN, NULL, 0, "?");
  expect_fold_shape(c, OPR_FOLD_BROADCAST, NULL, 0, "[]");
  const opr_shape m[] = {SHAPE(2, 2, U), unknown, SHAPE(2, U, 3)};
  expect_fold_shape(c, OPR_FOLD_MERGE, m, 3, "[2, 3]");
  const opr_shape j[] = {SHAPE(3, 2, 3, U), SHAPE(3, 2, 4, U)};
  expect_fold_shape(c, OPR_FOLD_JOIN, j, 2, "[2, ?, ?]");
  const opr_shape j2[] = {SHAPE(1, 2), SHAPE(2, 2, 3)};
  expect_fold_shape(c, OPR_FOLD_JOIN, j2, 2, "?");
  const opr_shape b[] = {SHAPE(3, U, U, U), SHAPE(3, 5, 1, 0)};
  expect_fold_shape(c, OPR_FOLD_BROADCAST, b, 2, "[5, ?, ?]");
  const opr_shape b2[] = {SHAPE(2, 4, 1), SHAPE(1, 3), SHAPE(3, 2, 1, 1)};
  expect_fold_shape(c, OPR_FOLD_BROADCAST, b2, 3, "[2, 4, 3]");
  const opr_shape b3[] = {SHAPE(1, 2), unknown};
  expect_fold_shape(c, OPR_FOLD_BROADCAST, b3, 2, "?");
  const opr_shape b4[] = {unknown, SHAPE(1, 2), SHAPE(1, 3)};
  expect_status(fold_shapes(c, OPR_FOLD_BROADCAST, b4, 3, &s),
                "Probe: x[k]: [2] and [3] do not broadcast");
  const opr_shape bad[] = {SHAPE(2, 2, 3), SHAPE(1, 4)};
  expect_status(fold_shapes(c, OPR_FOLD_BROADCAST, bad, 2, &s),
                "Probe: x[k]: [2, 3] and [4] do not broadcast");
  const opr_shape clash[] = {SHAPE(2, 2, U), SHAPE(2, 3, U)};
  expect_status(fold_shapes(c, OPR_FOLD_MERGE, clash, 2, &s),
                "Probe: x[k]: [2, ?] and [3, ?] do not merge");
}
RUN(shape_folds_merge_join_and_broadcast)

/* opr_sx_broadcast(a, b) is the fold of the two, and keeps an operand's
 * dims when the result equals it (giving back the storage it made). */
TEST(broadcast_of_two_equals_the_fold) {
  const opr_shape pairs[][2] = {
      {SHAPE(3, U, U, U), SHAPE(3, 5, 1, 0)}, {SHAPE(2, 4, 1), SHAPE(1, 3)},
      {SHAPE(1, 2), unknown}, {unknown, SHAPE(1, 2)}, {scalar, SHAPE(1, 2)},
      {SHAPE(2, 4, 1), SHAPE(3, 2, 1, 1)}};
  char want[64], got[64];
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    opr_shape f, s;
    expect_ok(fold_shapes(c, OPR_FOLD_BROADCAST, pairs[i], 2, &f));
    expect_ok(opr_sx_broadcast(c, pairs[i][0], pairs[i][1], "x[k]", &s));
    assert_string_equal(opr_infer_shape_text(s, got, sizeof got),
                        opr_infer_shape_text(f, want, sizeof want));
  }
  opr_shape s, x = SHAPE(2, 4, 3), y = SHAPE(1, 3);
  expect_ok(opr_sx_broadcast(c, x, y, "broadcast(x, y)", &s));
  assert_ptr_equal(s.dims, x.dims);
  expect_status(opr_sx_broadcast(c, SHAPE(2, 2, 3), SHAPE(1, 4), "x[k]", &s),
                "Probe: x[k]: [2, 3] and [4] do not broadcast");
}
RUN(broadcast_of_two_equals_the_fold)

/* opr_sx_set_output keeps a shape made in the inference's storage, copies
 * any other, and rejects what opr_infer_set_output rejects. */
TEST(set_output_keeps_made_shapes_and_copies_others) {
  opr_shape s, x = SHAPE(2, 4, 3), bad = SHAPE(1, -5);
  opr_num dims[] = {dimn(2), num(-1)};
  expect_ok(opr_sx_shape(c, dims, 2, NULL, &s));
  expect_ok(opr_sx_set_output(c, 0, s));
  assert_ptr_equal(opr_infer_output(c, 0, 0).dims, s.dims);
  expect_shape(opr_infer_output(c, 0, 0), "[2, ?]");
  expect_ok(opr_sx_set_output(c, 0, x));
  assert_ptr_not_equal(opr_infer_output(c, 0, 0).dims, x.dims);
  expect_shape(opr_infer_output(c, 0, 0), "[4, 3]");
  opr_shape made; /* in the inference's storage, then spoiled */
  expect_ok(opr_infer_make_shape(c, 1, NULL, &made));
  ((int64_t *)made.dims)[0] = -5;
  const opr_shape wrong[] = {bad, made};
  for (int i = 0; i < 2; i++) {
    opr_status want = opr_infer_set_output(c, 0, wrong[i]);
    opr_status got = opr_sx_set_output(c, 0, wrong[i]);
    assert_non_null(want);
    assert_non_null(got);
    assert_string_equal(opr_status_message(got), opr_status_message(want));
    opr_status_free(want);
    opr_status_free(got);
  }
}
RUN(set_output_keeps_made_shapes_and_copies_others)

TEST(all_and_any_decide_early) {
  opr_sx_fold f;
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_ALL, 0));
  assert_int_equal(opr_sx_fold_end_cond(&f), OPR_COND_TRUE); /* of none */
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_ANY, 0));
  assert_int_equal(opr_sx_fold_end_cond(&f), OPR_COND_FALSE);
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_ALL, 0));
  opr_sx_fold_cond(&f, OPR_COND_UNDECIDED);
  assert_false(opr_sx_fold_done(&f));
  opr_sx_fold_cond(&f, OPR_COND_TRUE);
  assert_int_equal(opr_sx_fold_end_cond(&f), OPR_COND_UNDECIDED);
  opr_sx_fold_cond(&f, OPR_COND_FALSE);
  assert_true(opr_sx_fold_done(&f));
  assert_int_equal(opr_sx_fold_end_cond(&f), OPR_COND_FALSE);
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_ANY, 0));
  opr_sx_fold_cond(&f, OPR_COND_TRUE);
  opr_sx_fold_unknown(&f); /* N unknown: a decided any stays decided */
  assert_int_equal(opr_sx_fold_end_cond(&f), OPR_COND_TRUE);
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_ALL, 0));
  opr_sx_fold_cond(&f, OPR_COND_TRUE);
  opr_sx_fold_unknown(&f);
  assert_int_equal(opr_sx_fold_end_cond(&f), OPR_COND_UNDECIDED);
}
RUN(all_and_any_decide_early)

TEST(an_unknown_count_makes_number_folds_unknown) {
  opr_sx_fold f;
  opr_num n;
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_MIN, 0));
  opr_sx_fold_unknown(&f);
  expect_ok(opr_sx_fold_end_num(c, &f, "min(e for k < n)", &n));
  expect_unknown(n); /* no error: more elements may come */
  expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_SUM, 0));
  expect_ok(opr_sx_fold_num(c, &f, dimn(2), "e"));
  opr_sx_fold_unknown(&f);
  expect_ok(opr_sx_fold_end_num(c, &f, "sum(e for k < n)", &n));
  expect_unknown(n);
}
RUN(an_unknown_count_makes_number_folds_unknown)

TEST(a_comprehension_count_is_never_negative) {
  size_t n;
  bool known;
  expect_ok(opr_sx_count(c, dimn(3), "rank(x)", &n, &known));
  assert_true(known);
  assert_int_equal(n, 3);
  expect_ok(opr_sx_count(c, unk, "dim(p, 0)", &n, &known));
  assert_false(known);
  expect_status(opr_sx_count(c, num(-2), "attr(k)", &n, &known),
                "Probe: attr(k): the count -2 is negative");
}
RUN(a_comprehension_count_is_never_negative)

/* Found while writing the fuzzers' run stage (infer_driver.c): with
 * `require sum(1 for k < attr(n)) >= 0;` and n = INT64_MAX the loop
 * ran 2^63 times (a hang). A count above OPR_SX_MAX_COUNT is an error;
 * the limit itself runs. */
TEST(a_comprehension_count_is_bounded) {
  size_t n;
  bool known;
  expect_ok(opr_sx_count(c, num(OPR_SX_MAX_COUNT), "attr(k)", &n, &known));
  assert_int_equal(n, OPR_SX_MAX_COUNT);
  expect_status(opr_sx_count(c, num(INT64_MAX), "attr(k)", &n, &known),
                "Probe: attr(k): the count 9223372036854775807 is beyond the "
                "limit of 16777216 elements");
  expect_status(opr_sx_count(c, dimn(OPR_SX_MAX_COUNT + 1), "dim(x, 0)", &n,
                             &known),
                "Probe: dim(x, 0): the count 16777217 is beyond the limit of "
                "16777216 elements");
}
RUN(a_comprehension_count_is_bounded)

/* ---- C ? X : Y, C undecided ---- */

TEST(undecided_branches_join_and_drop_a_failing_one) {
  opr_num n;
  expect_ok(opr_sx_join_branches_num(OPR_OK, num(-1), OPR_OK, num(-1), &n));
  expect_num(n, -1, true); /* both direct: still direct */
  expect_ok(opr_sx_join_branches_num(OPR_OK, dimn(2), OPR_OK, dimn(3), &n));
  expect_unknown(n);
  opr_status e = opr_infer_error(c, "first");
  expect_ok(opr_sx_join_branches_num(e, unk, OPR_OK, dimn(3), &n));
  expect_num(n, 3, false);
  e = opr_infer_error(c, "second");
  expect_ok(opr_sx_join_branches_num(OPR_OK, num(4), e, unk, &n));
  expect_num(n, 4, true);
  expect_status(opr_sx_join_branches_num(opr_infer_error(c, "first"), unk,
                                         opr_infer_error(c, "second"), unk,
                                         &n),
                "Probe: first");
  opr_shape s;
  expect_ok(opr_sx_join_branches_shape(c, OPR_OK, SHAPE(2, 2, 3), OPR_OK,
                                       SHAPE(2, 2, 4), &s));
  expect_shape(s, "[2, ?]");
  expect_ok(opr_sx_join_branches_shape(c, opr_infer_error(c, "x"), unknown,
                                       OPR_OK, SHAPE(1, 5), &s));
  expect_shape(s, "[5]");
  expect_status(opr_sx_join_branches_shape(c, opr_infer_error(c, "x"),
                                           unknown, opr_infer_error(c, "y"),
                                           unknown, &s),
                "Probe: x");
  opr_cond b;
  expect_ok(opr_sx_join_branches_cond(OPR_OK, OPR_COND_TRUE, OPR_OK,
                                      OPR_COND_TRUE, &b));
  assert_int_equal(b, OPR_COND_TRUE);
  expect_ok(opr_sx_join_branches_cond(OPR_OK, OPR_COND_TRUE, OPR_OK,
                                      OPR_COND_FALSE, &b));
  assert_int_equal(b, OPR_COND_UNDECIDED);
  expect_ok(opr_sx_join_branches_cond(OPR_OK, OPR_COND_FALSE,
                                      opr_infer_error(c, "y"),
                                      OPR_COND_UNDECIDED, &b));
  assert_int_equal(b, OPR_COND_FALSE);
}
RUN(undecided_branches_join_and_drop_a_failing_one)

/* ---- storage ---- */

/* BatchMatMulV2 (broadcast(x[:-2], y[:-2]) ++ [x[-2], y[-1]]), Conv2D's
 * window dims, Reshape's value(shape) and a comprehension, all at rank 4,
 * then every output set, 8 times over (about 250 dims): nothing leaves
 * the context's inline room. */
TEST(typical_inference_allocates_nothing) {
  opr_shape x, y, bx, by, batch, mat, out, shape;
  opr_num d[4];
  opr_sx_fold f;
  for (int round = 0; round < 8; round++) {
    expect_ok(opr_sx_input(c, IN_X, &x));
    expect_ok(opr_sx_input(c, IN_Y, &y));
    expect_ok(opr_sx_slice(c, x, false, unk, true, num(-2), &bx));
    expect_ok(opr_sx_slice(c, y, false, unk, true, num(-2), &by));
    expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_BROADCAST, 0));
    expect_ok(opr_sx_fold_shape(c, &f, bx, "x[:-2]"));
    expect_ok(opr_sx_fold_shape(c, &f, by, "y[:-2]"));
    expect_ok(opr_sx_fold_end_shape(c, &f, "broadcast(...)", &batch));
    expect_ok(opr_sx_dim(c, x, num(-2), "x[-2]", &d[0]));
    expect_ok(opr_sx_dim(c, y, num(-1), "y[-1]", &d[1]));
    expect_ok(opr_sx_shape(c, d, 2, NULL, &mat));
    expect_ok(opr_sx_append(c, batch, mat, &out));
    expect_shape(out, "[8, 5, 3, 7]");
    expect_ok(opr_infer_set_output(c, 0, out));
    /* Conv2D, NHWC: [dim(x, 0), window(...), window(...), dim(y, 3)] */
    expect_ok(opr_sx_dim(c, x, num(0), "dim(input, 0)", &d[0]));
    expect_ok(opr_sx_window(c, dimn(32), dimn(3), num(2), num(1), "SAME",
                            "window(...)", &d[1]));
    expect_ok(opr_sx_window(c, dimn(32), dimn(3), num(1), num(1), "VALID",
                            "window(...)", &d[2]));
    expect_ok(opr_sx_dim(c, y, num(3), "dim(filter, 3)", &d[3]));
    expect_ok(opr_sx_shape(c, d, 4, NULL, &out));
    expect_shape(out, "[1, 16, 30, 7]");
    expect_ok(opr_infer_set_output(c, 0, out));
    /* Reshape: value(shape) and [m[k] for k < 4] */
    expect_ok(opr_sx_value_shape(c, IN_V, 0, "value(shape)", &shape));
    expect_ok(opr_sx_fold_init(c, &f, OPR_FOLD_DIMS, 4));
    for (int k = 0; k < 4; k++) {
      opr_num m;
      expect_ok(opr_sx_dim(c, shape, dimn(k), "m[k]", &m));
      expect_ok(opr_sx_fold_num(c, &f, m, "m[k]"));
    }
    expect_ok(opr_sx_fold_end_shape(c, &f, "[m[k] for k < 4]", &out));
    expect_shape(out, "[2, ?, 4, 5]");
    expect_ok(opr_infer_set_output(c, 0, out));
  }
  assert_null(c->chunks);
}
static void typical_inference_allocates_nothing(void **state) {
  (void)state;
  in.shapes[IN_X][0] = SHAPE(4, 1, 5, 3, 4);
  in.shapes[IN_Y][0] = SHAPE(4, 8, 1, 4, 7);
  VALUE32(IN_V, 1, DIMS(4), 2, -1, 4, 5);
  run(typical_inference_allocates_nothing_body);
}

/* ---- docs/shapes.md's example: Pad, hand-written with these calls ---- */

static opr_status pad_shape(opr_infer_ctx *c) {
  opr_shape input, paddings, out;
  opr_num n, d, before, after;
  opr_sx_fold rank, dims;
  size_t count;
  bool known;
  opr_status s;
  if ((s = opr_sx_input(c, 0, &input)) || (s = opr_sx_input(c, 1, &paddings)))
    return s;
  /* require rank(paddings) == 2; */
  if ((s = opr_sx_require_compare(c, opr_sx_rank(paddings), OPR_DIM_EQ,
                                  opr_sx_int(2), "rank(paddings) == 2")))
    return s;
  /* n = merge(rank(input), dim(paddings, 0)) */
  if ((s = opr_sx_dim(c, paddings, opr_sx_int(0), "dim(paddings, 0)", &d)) ||
      (s = opr_sx_fold_init(c, &rank, OPR_FOLD_MERGE, 0)) ||
      (s = opr_sx_fold_num(c, &rank, opr_sx_rank(input), "rank(input)")) ||
      (s = opr_sx_fold_num(c, &rank, d, "dim(paddings, 0)")) ||
      (s = opr_sx_fold_end_num(c, &rank, "merge(rank(input), ...)", &n)) ||
      (s = opr_sx_count(c, n, "merge(rank(input), ...)", &count, &known)))
    return s;
  /* [dim(input, k) + before(k) + after(k) for k < n] */
  if ((s = opr_sx_fold_init(c, &dims, OPR_FOLD_DIMS, count))) return s;
  if (!known) opr_sx_fold_unknown(&dims);
  for (size_t k = 0; k < count; k++) {
    opr_num at = opr_sx_dim_num((int64_t)k);
    if ((s = opr_sx_dim(c, input, at, "dim(input, k)", &d)) ||
        (s = opr_sx_value_at(c, 1, 0, opr_sx_dim_num(2 * (int64_t)k),
                             "value(paddings)[2 * k]", &before)) ||
        (s = opr_sx_value_at(c, 1, 0, opr_sx_dim_num(2 * (int64_t)k + 1),
                             "value(paddings)[2 * k + 1]", &after)) ||
        (s = opr_sx_add(c, d, before, "dim(input, k) + before(k)", &d)) ||
        (s = opr_sx_add(c, d, after, "... + after(k)", &d)) ||
        (s = opr_sx_fold_num(c, &dims, d, "dim(input, k) + ...")))
      return s;
  }
  if ((s = opr_sx_fold_end_shape(c, &dims, "[... for k < n]", &out)))
    return s;
  return opr_infer_set_output(c, 0, out);
}

static const opr_arg_def pad_inputs[] = {
    {.name = "input", .type = OPR_DT_FLOAT, .type_attr = NO,
     .number_attr = NO, .type_list_attr = NO},
    {.name = "paddings", .type = OPR_DT_INT32, .type_attr = NO,
     .number_attr = NO, .type_list_attr = NO},
};
static opr_op_state pad_state;
static const opr_op_def pad_def = {
    .name = "PadLike", .inputs = pad_inputs, .ninputs = 2,
    .outputs = probe_outputs, .noutputs = 1, .check = never_checked,
    .shape_fn = pad_shape, .state = &pad_state};

/* PadLike's output for an input shape and paddings (values or NULL). */
static void expect_pad(opr_shape input, opr_shape paddings,
                       const opr_tensor *values, const char *want) {
  const opr_tensor *v[1] = {values};
  const opr_shape_input ins[2] = {{&input, NULL, 1},
                                  {&paddings, values ? v : NULL, 1}};
  opr_inferred_shapes out;
  expect_ok(opr_infer_shapes(&pad_def, ins, 2, NULL, 0, &out));
  expect_shape(out.shapes[0], want);
  opr_inferred_shapes_free(&out);
}

static void the_docs_example_infers_pad(void **state) {
  (void)state;
  const opr_tensor *p = VALUE32(IN_V, 2, DIMS(2, 2), 1, 1, 2, 2);
  expect_pad(SHAPE(2, 2, 3), SHAPE(2, 2, 2), p, "[4, 7]");
  expect_pad(SHAPE(2, U, 3), unknown, p, "[?, 7]");
  expect_pad(unknown, SHAPE(2, 3, 2), NULL, "[?, ?, ?]");
  expect_pad(unknown, unknown, NULL, "?");
  const opr_shape_input ins[2] = {{(const opr_shape[]){SHAPE(1, 5)}, NULL, 1},
                                  {(const opr_shape[]){SHAPE(2, 2, 2)},
                                   NULL, 1}};
  opr_inferred_shapes out;
  expect_status(opr_infer_shapes(&pad_def, ins, 2, NULL, 0, &out),
                "PadLike: dim(paddings, 0): dims 1 and 2 do not merge");
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, reset, release)
  const struct CMUnitTest tests[] = {
      T(a_direct_minus_one_is_the_unknown_dim),
      T(add_and_sub_are_exact_and_unknown_in_unknown_out),
      T(mul_of_zero_is_zero_and_one_keeps_the_other),
      T(div_is_exact_and_a_divisor_must_be_positive),
      T(mod_is_from_zero_to_the_divisor),
      T(ceil_div_rounds_toward_plus_infinity),
      T(window_gives_valid_and_same_output_sizes),
      T(comparisons_are_undecided_on_unknowns),
      T(bit_reads_twos_complement_and_checks_the_index),
      T(same_decides_on_what_is_known_now),
      T(require_fails_only_when_decided_false),
      T(input_shapes_merge_list_tensors_and_values),
      T(list_tensors_that_disagree_are_an_error),
      T(a_list_tensor_by_index),
      T(list_tensors_with_values_merge_each_value_first),
      T(a_value_as_a_shape),
      T(an_unknown_value_as_a_shape_has_the_inputs_length),
      T(a_value_below_minus_one_is_no_dim),
      T(value_elements_are_read_row_major_and_direct),
      T(a_value_as_a_number_needs_one_value),
      T(values_as_integer_lists),
      T(sum_adds_a_dim_over_the_tensors),
      T(concat_sums_the_axis_and_merges_the_rest),
      T(concat_of_scalars_is_an_error_whatever_the_axis),
      T(concat_of_disagreeing_tensors_is_an_error),
      T(int_and_bool_attrs),
      T(shape_int_list_and_tensor_attrs_as_shapes),
      T(an_int_list_below_minus_one_is_no_shape),
      T(shape_list_attrs_by_index),
      T(string_and_type_attrs),
      T(size_of_opaque_types_is_zero),
      T(int_list_attrs_as_integer_lists),
      T(literal_shapes_and_unknown_of_rank),
      T(dims_count_from_the_end_and_check_the_rank),
      T(slices_follow_python_and_clamp),
      T(concatenation_of_shapes),
      T(appending_literal_dims_equals_append_of_the_literal),
      T(set_insert_and_remove_a_dim),
      T(set_insert_and_remove_check_their_ranges),
      T(reduce_removes_or_keeps_axes),
      T(permute_reorders_dims),
      T(product_of_a_shape),
      T(number_folds_of_no_elements),
      T(min_and_max_with_unknowns),
      T(sum_and_product_folds),
      T(merge_and_join_folds_of_numbers),
      T(a_dims_comprehension_builds_a_shape),
      T(dims_beyond_the_inline_storage),
      T(shape_folds_merge_join_and_broadcast),
      T(broadcast_of_two_equals_the_fold),
      T(set_output_keeps_made_shapes_and_copies_others),
      T(all_and_any_decide_early),
      T(an_unknown_count_makes_number_folds_unknown),
      T(a_comprehension_count_is_never_negative),
      T(a_comprehension_count_is_bounded),
      T(undecided_branches_join_and_drop_a_failing_one),
      T(typical_inference_allocates_nothing),
      T(the_docs_example_infers_pad),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
