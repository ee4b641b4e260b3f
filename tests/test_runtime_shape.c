/* The shape inference API (opr/shape.h) on a hand-written op whose shape
 * function runs each test's body: partial shapes through every helper,
 * the exact error messages, and the standalone entry opr_infer_shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "opr/opr.h"
#include "shape_expect.h"

#include <string.h>

#define NO OPR_NO_ATTR
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void expect_status(opr_status s, opr_code code, const char *msg) {
  assert_non_null(s);
  assert_string_equal(opr_status_message(s), msg);
  assert_string_equal(opr_code_name(opr_status_code(s)),
                      opr_code_name(code));
  opr_status_free(s);
}

static const opr_shape scalar = {0, NULL};
#define U OPR_UNKNOWN_DIM

/* ---- the probe op: Probe(x, y, xs: N * float) -> (a, ys: N * float) ---- */

static const opr_arg_def probe_inputs[] = {
    {.name = "x", .type = OPR_DT_FLOAT, .type_attr = NO, .number_attr = NO,
     .type_list_attr = NO},
    {.name = "y", .type = OPR_DT_FLOAT, .type_attr = NO, .number_attr = NO,
     .type_list_attr = NO},
    {.name = "xs", .type = OPR_DT_FLOAT, .type_attr = NO, .number_attr = 0,
     .type_list_attr = NO},
};
static const opr_arg_def probe_outputs[] = {
    {.name = "a", .type = OPR_DT_FLOAT, .type_attr = NO, .number_attr = NO,
     .type_list_attr = NO},
    {.name = "ys", .type = OPR_DT_FLOAT, .type_attr = NO, .number_attr = 0,
     .type_list_attr = NO},
};
static const opr_attr_value s_default = {
    .kind = OPR_ATTR_SHAPE, .u.shape = {2, (const int64_t[]){1, 2}}};
static const opr_attr_value k_default = {.kind = OPR_ATTR_INT, .u.i = 4};
static const opr_attr_def probe_attrs[] = {
    {.name = "N", .type = {OPR_ATTR_INT, false}, .has_minimum = true,
     .inferred = true},
    {.name = "s", .type = {OPR_ATTR_SHAPE, false}, .default_value = &s_default},
    {.name = "k", .type = {OPR_ATTR_INT, false}, .default_value = &k_default},
    {.name = "t", .type = {OPR_ATTR_TYPE, false}},
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

static opr_op_state probe_state, bare_state;
static const opr_op_def probe_def = {
    .name = "Probe", .inputs = probe_inputs, .ninputs = 3,
    .outputs = probe_outputs, .noutputs = 2, .attrs = probe_attrs,
    .nattrs = 4, .check = never_checked, .shape_fn = probe_shape_fn,
    .state = &probe_state};
/* The same op without a shape function. */
static const opr_op_def bare_def = {
    .name = "Bare", .inputs = probe_inputs, .ninputs = 3,
    .outputs = probe_outputs, .noutputs = 2, .attrs = probe_attrs,
    .nattrs = 4, .check = never_checked, .state = &bare_state};

/* Runs `fn` as Probe's shape function with x, y and no xs. */
static opr_inferred_shapes run_with(void (*fn)(opr_infer_ctx *), opr_shape x,
                                    opr_shape y) {
  const opr_shape xs[1] = {x}, ys[1] = {y};
  const opr_shape_input in[3] = {{xs, NULL, 1}, {ys, NULL, 1}, {NULL, NULL, 0}};
  opr_inferred_shapes out;
  body = fn;
  expect_ok(opr_infer_shapes(&probe_def, in, 3, NULL, 0, &out));
  return out;
}

static void run(void (*fn)(opr_infer_ctx *)) {
  opr_inferred_shapes out = run_with(fn, SHAPE(2, 2, 3), opr_shape_unknown());
  opr_inferred_shapes_free(&out);
}

/* ---- merging ---- */

static void merge_body(opr_infer_ctx *c) {
  opr_shape m;
  expect_ok(opr_infer_merge(c, SHAPE(2, 2, U), SHAPE(2, U, 3), "'p'", &m));
  expect_shape(m, "[2, 3]");
  expect_ok(opr_infer_merge(c, opr_shape_unknown(), SHAPE(1, U), "'p'", &m));
  expect_shape(m, "[?]");
  expect_ok(opr_infer_merge(c, SHAPE(1, 5), opr_shape_unknown(), "'p'", &m));
  expect_shape(m, "[5]");
  expect_ok(opr_infer_merge(c, opr_shape_unknown(), opr_shape_unknown(),
                            "'p'", &m));
  expect_shape(m, "?");
  expect_ok(opr_infer_merge(c, scalar, scalar, "'p'", &m));
  expect_shape(m, "[]");
  expect_status(opr_infer_merge(c, SHAPE(2, 2, 3), SHAPE(2, 2, 4),
                                "'a' and 'b'", &m),
                OPR_INVALID_ARGUMENT,
                "Probe: 'a' and 'b' must have compatible shapes, but are "
                "[2, 3] and [2, 4]");
  expect_status(opr_infer_merge(c, SHAPE(1, 2), SHAPE(2, 2, U), "'a' and 'b'",
                                &m),
                OPR_INVALID_ARGUMENT,
                "Probe: 'a' and 'b' must have compatible shapes, but are [2] "
                "and [2, ?]");
  int64_t d;
  expect_ok(opr_infer_merge_dim(c, U, 3, "the dims", &d));
  assert_int_equal(d, 3);
  expect_ok(opr_infer_merge_dim(c, U, U, "the dims", &d));
  assert_int_equal(d, U);
  expect_status(opr_infer_merge_dim(c, 2, 3, "dim 0 of 'a' and 'b'", &d),
                OPR_INVALID_ARGUMENT,
                "Probe: dim 0 of 'a' and 'b' must be equal, but are 2 and 3");
  assert_true(opr_shape_compatible(SHAPE(2, 2, U), SHAPE(2, U, 3)));
  assert_false(opr_shape_compatible(SHAPE(1, 2), SHAPE(1, 3)));
  assert_true(opr_shape_same(SHAPE(2, 2, U), SHAPE(2, 2, U)));
  assert_false(opr_shape_same(SHAPE(2, 2, U), SHAPE(2, 2, 3)));
  assert_false(opr_shape_same(opr_shape_unknown(), SHAPE(1, U)));
}

static void merge_keeps_what_either_shape_knows(void **state) {
  (void)state;
  run(merge_body);
}

/* ---- broadcasting ---- */

static void expect_broadcast(opr_infer_ctx *c, opr_shape a, opr_shape b,
                             const char *want) {
  opr_shape out;
  expect_ok(opr_infer_broadcast(c, a, b, "'a' and 'b'", &out));
  expect_shape(out, want);
  expect_ok(opr_infer_broadcast(c, b, a, "'a' and 'b'", &out));
  expect_shape(out, want); /* symmetric */
}

static void broadcast_body(opr_infer_ctx *c) {
  expect_broadcast(c, SHAPE(2, 2, 3), SHAPE(1, 3), "[2, 3]");
  expect_broadcast(c, SHAPE(2, 2, 1), SHAPE(2, 1, 3), "[2, 3]");
  expect_broadcast(c, SHAPE(3, 2, 1, 3), SHAPE(2, 4, 1), "[2, 4, 3]");
  expect_broadcast(c, scalar, SHAPE(2, 2, 3), "[2, 3]");
  expect_broadcast(c, SHAPE(1, U), SHAPE(1, 1), "[?]");
  expect_broadcast(c, SHAPE(1, U), SHAPE(1, 5), "[5]");
  expect_broadcast(c, SHAPE(1, U), SHAPE(1, 0), "[0]");
  expect_broadcast(c, SHAPE(1, 0), SHAPE(1, 1), "[0]");
  expect_broadcast(c, SHAPE(1, U), SHAPE(1, U), "[?]");
  expect_broadcast(c, opr_shape_unknown(), SHAPE(1, 2), "?");
  opr_shape out;
  expect_status(opr_infer_broadcast(c, SHAPE(2, 2, 3), SHAPE(1, 4),
                                    "'x' and 'y'", &out),
                OPR_INVALID_ARGUMENT,
                "Probe: 'x' and 'y' must be broadcast-compatible, but are "
                "[2, 3] and [4]");
  expect_status(opr_infer_broadcast(c, SHAPE(1, 0), SHAPE(1, 2), "'x' and 'y'",
                                    &out),
                OPR_INVALID_ARGUMENT,
                "Probe: 'x' and 'y' must be broadcast-compatible, but are [0] "
                "and [2]");
}

static void broadcast_follows_numpy_on_partial_shapes(void **state) {
  (void)state;
  run(broadcast_body);
}

/* ---- ranks and dims ---- */

static void rank_body(opr_infer_ctx *c) {
  opr_shape out;
  expect_ok(opr_infer_with_rank(c, opr_shape_unknown(), 2, "'x'", &out));
  expect_shape(out, "[?, ?]");
  expect_ok(opr_infer_with_rank(c, SHAPE(2, 1, U), 2, "'x'", &out));
  expect_shape(out, "[1, ?]");
  expect_status(opr_infer_with_rank(c, SHAPE(3, 1, 2, 3), 2, "'x'", &out),
                OPR_INVALID_ARGUMENT,
                "Probe: 'x' must have rank 2, but has shape [1, 2, 3]");
  expect_ok(opr_infer_with_rank_at_least(c, opr_shape_unknown(), 2, "'x'",
                                         &out));
  expect_shape(out, "?");
  expect_ok(opr_infer_with_rank_at_least(c, SHAPE(2, 1, 2), 2, "'x'", &out));
  expect_status(opr_infer_with_rank_at_least(c, SHAPE(1, 7), 2, "'x'", &out),
                OPR_INVALID_ARGUMENT,
                "Probe: 'x' must have rank at least 2, but has shape [7]");
  expect_ok(opr_infer_with_rank_at_most(c, scalar, 1, "'x'", &out));
  expect_shape(out, "[]");
  expect_status(opr_infer_with_rank_at_most(c, SHAPE(2, 1, 2), 1, "'x'", &out),
                OPR_INVALID_ARGUMENT,
                "Probe: 'x' must have rank at most 1, but has shape [1, 2]");
  expect_status(opr_infer_with_rank(c, scalar, -2, "'x'", &out),
                OPR_INVALID_ARGUMENT,
                "Probe: 'x': rank -2 asked for; a rank must be in [0, 254]");
}

static void with_rank_checks_known_ranks_and_fixes_unknown_ones(void **state) {
  (void)state;
  run(rank_body);
}

static void dim_body(opr_infer_ctx *c) {
  int64_t d;
  opr_shape x = SHAPE(3, 4, U, 6);
  expect_ok(opr_infer_dim(c, x, 0, "'x'", &d));
  assert_int_equal(d, 4);
  expect_ok(opr_infer_dim(c, x, 1, "'x'", &d));
  assert_int_equal(d, U);
  expect_ok(opr_infer_dim(c, x, -1, "'x'", &d));
  assert_int_equal(d, 6);
  expect_ok(opr_infer_dim(c, x, -3, "'x'", &d));
  assert_int_equal(d, 4);
  expect_ok(opr_infer_dim(c, opr_shape_unknown(), 7, "'x'", &d));
  assert_int_equal(d, U);
  expect_status(opr_infer_dim(c, x, 3, "'x'", &d), OPR_INVALID_ARGUMENT,
                "Probe: 'x' has no dim 3: its shape is [4, ?, 6]");
  expect_status(opr_infer_dim(c, x, -4, "'x'", &d), OPR_INVALID_ARGUMENT,
                "Probe: 'x' has no dim -4: its shape is [4, ?, 6]");
  expect_status(opr_infer_dim(c, scalar, 0, "'x'", &d), OPR_INVALID_ARGUMENT,
                "Probe: 'x' has no dim 0: its shape is []");
  assert_int_equal(opr_shape_rank_dim(x), 3);
  assert_int_equal(opr_shape_rank_dim(opr_shape_unknown()), U);
  assert_false(opr_shape_fully_defined(x));
  assert_true(opr_shape_fully_defined(scalar));
  assert_false(opr_shape_fully_defined(opr_shape_unknown()));
}

static void dim_counts_from_the_end_and_checks_the_rank(void **state) {
  (void)state;
  run(dim_body);
}

/* ---- dim arithmetic ---- */

typedef opr_status (*arith_fn)(opr_infer_ctx *, int64_t, int64_t,
                               const char *, int64_t *);

static int64_t arith(opr_infer_ctx *c, arith_fn fn, int64_t a, int64_t b) {
  int64_t out = 12345;
  expect_ok(fn(c, a, b, "e", &out));
  return out;
}

static void arith_body(opr_infer_ctx *c) {
  assert_int_equal(arith(c, opr_infer_add, 2, 3), 5);
  assert_int_equal(arith(c, opr_infer_add, U, 3), U);
  assert_int_equal(arith(c, opr_infer_add, 0, U), U);
  assert_int_equal(arith(c, opr_infer_sub, 5, 3), 2);
  assert_int_equal(arith(c, opr_infer_sub, 5, 5), 0);
  assert_int_equal(arith(c, opr_infer_sub, U, 0), U);
  assert_int_equal(arith(c, opr_infer_sub, 5, 0), 5);
  assert_int_equal(arith(c, opr_infer_sub, 5, U), U);
  assert_int_equal(arith(c, opr_infer_mul, 4, 3), 12);
  assert_int_equal(arith(c, opr_infer_mul, U, 3), U);
  assert_int_equal(arith(c, opr_infer_mul, U, 0), 0); /* 0 whatever ? is */
  assert_int_equal(arith(c, opr_infer_mul, 0, U), 0);
  assert_int_equal(arith(c, opr_infer_mul, 1, U), U);
  assert_int_equal(arith(c, opr_infer_mul, 7, 1), 7);
  assert_int_equal(arith(c, opr_infer_div, 12, 4), 3);
  assert_int_equal(arith(c, opr_infer_div, 0, 4), 0);
  assert_int_equal(arith(c, opr_infer_div, U, 4), U);
  assert_int_equal(arith(c, opr_infer_div, 12, U), U);
  assert_int_equal(arith(c, opr_infer_div, U, 1), U);
  assert_int_equal(arith(c, opr_infer_div, 9, 1), 9);
  int64_t d;
  expect_status(opr_infer_sub(c, 3, 5, "dim(x, 0) - 5", &d),
                OPR_INVALID_ARGUMENT,
                "Probe: dim(x, 0) - 5 is negative (3 - 5)");
  expect_status(opr_infer_div(c, 7, 2, "dim(x, 0) / 2", &d),
                OPR_INVALID_ARGUMENT,
                "Probe: dim(x, 0) / 2 is not a whole number (7 / 2)");
  expect_status(opr_infer_div(c, U, 0, "dim(x, 0) / dim(y, 0)", &d),
                OPR_INVALID_ARGUMENT,
                "Probe: dim(x, 0) / dim(y, 0) divides by zero (? / 0)");
  expect_status(opr_infer_add(c, INT64_MAX, 1, "a + b", &d),
                OPR_INVALID_ARGUMENT,
                "Probe: a + b overflows (9223372036854775807 + 1)");
  expect_status(opr_infer_mul(c, INT64_C(1) << 32, INT64_C(1) << 32, "a * b",
                              &d),
                OPR_INVALID_ARGUMENT,
                "Probe: a * b overflows (4294967296 * 4294967296)");
}

static void dim_arithmetic_stays_unknown_with_unknown_operands(void **state) {
  (void)state;
  run(arith_body);
}

/* ---- requirements ---- */

static void require_body(opr_infer_ctx *c) {
  expect_ok(opr_infer_require(c, 3, OPR_DIM_EQ, 3, "a", "b"));
  expect_ok(opr_infer_require(c, U, OPR_DIM_EQ, 3, "a", "b"));
  expect_ok(opr_infer_require(c, 3, OPR_DIM_LT, U, "a", "b"));
  expect_status(opr_infer_require(c, 3, OPR_DIM_EQ, 4, "dim 1 of 'a'",
                                  "dim 0 of 'b'"),
                OPR_INVALID_ARGUMENT,
                "Probe: dim 1 of 'a' (3) must equal dim 0 of 'b' (4)");
  expect_status(opr_infer_require(c, 3, OPR_DIM_EQ, 2, "rank of 'p'", NULL),
                OPR_INVALID_ARGUMENT, "Probe: rank of 'p' (3) must equal 2");
  expect_status(opr_infer_require(c, 2, OPR_DIM_NE, 2, "x", NULL),
                OPR_INVALID_ARGUMENT, "Probe: x (2) must differ from 2");
  expect_status(opr_infer_require(c, 2, OPR_DIM_LT, 2, "x", NULL),
                OPR_INVALID_ARGUMENT, "Probe: x (2) must be less than 2");
  expect_status(opr_infer_require(c, 3, OPR_DIM_LE, 2, "x", NULL),
                OPR_INVALID_ARGUMENT, "Probe: x (3) must be at most 2");
  expect_status(opr_infer_require(c, 2, OPR_DIM_GT, 2, "x", NULL),
                OPR_INVALID_ARGUMENT, "Probe: x (2) must be greater than 2");
  expect_status(opr_infer_require(c, 1, OPR_DIM_GE, 2, NULL, "y"),
                OPR_INVALID_ARGUMENT, "Probe: 1 must be at least y (2)");
  expect_status(opr_infer_require(c, 1, (opr_dim_cmp)99, 2, NULL, NULL),
                OPR_INVALID_ARGUMENT,
                "Probe: opr_infer_require: invalid comparison (value 99)");
  expect_ok(opr_infer_require_in(c, 2, 1, 3, "x", NULL, NULL));
  expect_ok(opr_infer_require_in(c, U, 1, 3, "x", NULL, NULL));
  expect_ok(opr_infer_require_in(c, 9, U, U, "x", "lo", "hi"));
  expect_status(opr_infer_require_in(c, 4, 1, 3, "rank of 'x'", NULL, NULL),
                OPR_INVALID_ARGUMENT, "Probe: rank of 'x' (4) must be in [1, 3]");
  expect_status(opr_infer_require_in(c, 0, 1, U, "x", NULL, "hi"),
                OPR_INVALID_ARGUMENT, "Probe: x (0) must be in [1, hi]");
  expect_status(opr_infer_require_in(c, 7, 2, 5, "x", "lo", "hi"),
                OPR_INVALID_ARGUMENT,
                "Probe: x (7) must be in [lo (2), hi (5)]");
}

static void requirements_pass_until_both_sides_are_known(void **state) {
  (void)state;
  run(require_body);
}

/* ---- building shapes, outputs, errors ---- */

static void make_shape_body(opr_infer_ctx *c) {
  opr_shape s;
  int64_t dims[2] = {2, 3};
  expect_ok(opr_infer_make_shape(c, 2, dims, &s));
  dims[0] = 9; /* copied */
  expect_shape(s, "[2, 3]");
  expect_ok(opr_infer_make_shape(c, 3, NULL, &s));
  expect_shape(s, "[?, ?, ?]");
  expect_ok(opr_infer_make_shape(c, OPR_UNKNOWN_RANK, NULL, &s));
  expect_shape(s, "?");
  expect_status(opr_infer_make_shape(c, 2, (const int64_t[]){2, -3}, &s),
                OPR_INVALID_ARGUMENT,
                "Probe: dim 1 of a shape is -3; a dim must be >= 0 (or -1: "
                "unknown)");
  expect_status(opr_infer_make_shape(c, 255, NULL, &s), OPR_INVALID_ARGUMENT,
                "Probe: a shape of rank 255; the rank must be in [0, 254] "
                "(or -1: unknown)");
  /* Ranks beyond the inline storage take heap chunks. */
  for (int i = 0; i < 20; i++) expect_ok(opr_infer_make_shape(c, 200, NULL, &s));
  expect_status(opr_infer_error(c, "rule %d broken", 7), OPR_INVALID_ARGUMENT,
                "Probe: rule 7 broken");
  assert_ptr_equal(opr_infer_op(c), &probe_def);
}

static void make_shape_copies_and_validates(void **state) {
  (void)state;
  run(make_shape_body);
}

static void outputs_body(opr_infer_ctx *c) {
  assert_int_equal(opr_infer_num_outputs(c, 0), 1);
  assert_int_equal(opr_infer_num_outputs(c, 1), 3); /* N, from xs */
  assert_int_equal(opr_infer_num_outputs(c, 2), 0);
  expect_shape(opr_infer_output(c, 1, 2), "?"); /* unknown until set */
  int64_t dims[1] = {5};
  expect_ok(opr_infer_set_output(c, 1, (opr_shape){1, dims}));
  dims[0] = 6; /* copied */
  expect_ok(opr_infer_set_output_at(c, 1, 2, SHAPE(2, 7, U)));
  expect_ok(opr_infer_set_output_dims(c, 0, 0, NULL));
  expect_shape(opr_infer_output(c, 1, 0), "[5]");
  expect_shape(opr_infer_output(c, 1, 2), "[7, ?]");
  expect_shape(opr_infer_output(c, 1, 3), "?");
  expect_status(opr_infer_set_output(c, 2, scalar), OPR_INVALID_ARGUMENT,
                "Probe: the shape function sets output 2 element 0, which the "
                "op does not have");
  expect_status(opr_infer_set_output_at(c, 1, 3, scalar), OPR_INVALID_ARGUMENT,
                "Probe: the shape function sets output 1 element 3, which the "
                "op does not have");
  expect_status(opr_infer_set_output(c, 0, SHAPE(1, -5)), OPR_INVALID_ARGUMENT,
                "Probe: dim 0 of a shape is -5; a dim must be >= 0 (or -1: "
                "unknown)");
}

static void outputs_are_set_per_argument_or_per_tensor(void **state) {
  (void)state;
  const opr_shape x[1] = {{0, NULL}}, xs[3] = {{0, NULL}, {0, NULL}, {0, NULL}};
  const opr_shape_input in[3] = {{x, NULL, 1}, {x, NULL, 1}, {xs, NULL, 3}};
  opr_inferred_shapes out;
  body = outputs_body;
  expect_ok(opr_infer_shapes(&probe_def, in, 3, NULL, 0, &out));
  assert_int_equal(out.count, 4); /* a, then ys[0..2] */
  expect_shape(out.shapes[0], "[]");
  expect_shape(out.shapes[1], "[5]");
  expect_shape(out.shapes[2], "[5]");
  expect_shape(out.shapes[3], "[7, ?]");
  opr_inferred_shapes_free(&out);
  assert_null(out.shapes);
  assert_int_equal(out.count, 0);
  opr_inferred_shapes_free(NULL);
}

/* ---- what the context tells ---- */

static opr_tensor *value;

static void inputs_body(opr_infer_ctx *c) {
  assert_int_equal(opr_infer_num_inputs(c, 0), 1);
  assert_int_equal(opr_infer_num_inputs(c, 2), 2);
  assert_int_equal(opr_infer_num_inputs(c, 3), 0);
  expect_shape(opr_infer_input(c, 0, 0), "[2, ?]");
  expect_shape(opr_infer_input(c, 2, 1), "[?, 3]");
  expect_shape(opr_infer_input(c, 2, 2), "?");
  assert_ptr_equal(opr_infer_input_value(c, 1, 0), value);
  assert_null(opr_infer_input_value(c, 0, 0));
  assert_null(opr_infer_input_value(c, 2, 0));
  assert_null(opr_infer_input_value(c, 1, 1));
  opr_shape s;
  int64_t d;
  expect_ok(opr_infer_input_shape(c, 2, &s)); /* the list, merged */
  expect_shape(s, "[2, 3]");
  expect_ok(opr_infer_input_rank(c, 2, &d));
  assert_int_equal(d, 2);
  expect_ok(opr_infer_input_dim(c, 2, -1, &d));
  assert_int_equal(d, 3);
  expect_status(opr_infer_input_dim(c, 0, 2, &d), OPR_INVALID_ARGUMENT,
                "Probe: 'x' has no dim 2: its shape is [2, ?]");
  /* Attrs: N from the list, s and k given, t unset. */
  assert_int_equal(opr_infer_attr(c, 0)->u.i, 2);
  assert_int_equal(opr_infer_attr(c, 3)->kind, OPR_ATTR_UNSET);
  assert_null(opr_infer_attr(c, 4));
  expect_ok(opr_infer_attr_shape(c, 1, &s));
  expect_shape(s, "[?, 5]");
  expect_ok(opr_infer_attr_dim(c, 2, &d));
  assert_int_equal(d, U);
}

static void inputs_values_and_attrs_reach_the_function(void **state) {
  (void)state;
  const int64_t two = 2;
  expect_ok(opr_tensor_new(OPR_DT_INT32, 1, &two, &value));
  const opr_shape x[1] = {SHAPE(2, 2, U)}, y[1] = {SHAPE(1, 2)};
  const opr_shape xs[2] = {SHAPE(2, 2, U), SHAPE(2, U, 3)};
  const opr_tensor *const values[1] = {value};
  const opr_shape_input in[3] = {{x, NULL, 1}, {y, values, 1}, {xs, NULL, 2}};
  const opr_named_attr attrs[2] = {
      {"s", {.kind = OPR_ATTR_SHAPE, .u.shape = SHAPE(2, U, 5)}},
      {"k", {.kind = OPR_ATTR_INT, .u.i = -1}}};
  opr_inferred_shapes out;
  body = inputs_body;
  expect_ok(opr_infer_shapes(&probe_def, in, 3, attrs, 2, &out));
  opr_inferred_shapes_free(&out);
  opr_tensor_unref(value);
}

static void attrs_body(opr_infer_ctx *c) {
  opr_shape s;
  int64_t d;
  expect_ok(opr_infer_attr_shape(c, 1, &s)); /* the default */
  expect_shape(s, "[1, 2]");
  expect_ok(opr_infer_attr_dim(c, 2, &d));
  assert_int_equal(d, 4);
  expect_ok(opr_infer_attr_dim(c, 3, &d)); /* unset: unknown */
  assert_int_equal(d, U);
  expect_status(opr_infer_attr_dim(c, 1, &d), OPR_INVALID_ARGUMENT,
                "Probe: attr 's' is not an int");
  expect_status(opr_infer_attr_shape(c, 2, &s), OPR_INVALID_ARGUMENT,
                "Probe: attr 'k' is not a shape");
}

static void attrs_take_their_defaults(void **state) {
  (void)state;
  run(attrs_body);
}

static void bad_attrs_body(opr_infer_ctx *c) {
  opr_shape s;
  int64_t d;
  expect_status(opr_infer_attr_dim(c, 2, &d), OPR_INVALID_ARGUMENT,
                "Probe: attr 'k' is -2; a dim must be >= 0 (or -1: unknown)");
  expect_status(opr_infer_attr_shape(c, 1, &s), OPR_INVALID_ARGUMENT,
                "Probe: attr 's' is not a valid shape: [1, ?]");
}

static void attr_values_that_are_no_dims_are_errors(void **state) {
  (void)state;
  const opr_shape x[1] = {{0, NULL}};
  const opr_shape_input in[3] = {{x, NULL, 1}, {x, NULL, 1}, {NULL, NULL, 0}};
  const opr_named_attr attrs[2] = {
      {"k", {.kind = OPR_ATTR_INT, .u.i = -2}},
      {"s", {.kind = OPR_ATTR_SHAPE, .u.shape = SHAPE(2, 1, -7)}}};
  opr_inferred_shapes out;
  body = bad_attrs_body;
  expect_ok(opr_infer_shapes(&probe_def, in, 3, attrs, 2, &out));
  opr_inferred_shapes_free(&out);
}

/* ---- the standalone entry ---- */

static void opr_infer_shapes_checks_its_arguments(void **state) {
  (void)state;
  const opr_shape one[1] = {{0, NULL}}, two[2] = {{0, NULL}, {0, NULL}};
  const opr_shape bad[1] = {{2, NULL}}, deep[1] = {{300, NULL}};
  const opr_shape neg[1] = {SHAPE(1, -2)};
  opr_shape_input in[3] = {{one, NULL, 1}, {one, NULL, 1}, {two, NULL, 2}};
  opr_inferred_shapes out;
  expect_status(opr_infer_shapes(NULL, in, 3, NULL, 0, &out),
                OPR_INVALID_ARGUMENT, "opr_infer_shapes: the op is NULL");
  expect_status(opr_infer_shapes(&probe_def, in, 3, NULL, 0, NULL),
                OPR_INVALID_ARGUMENT, "opr_infer_shapes: out is NULL");
  expect_status(opr_infer_shapes(&probe_def, in, 2, NULL, 0, &out),
                OPR_INVALID_ARGUMENT, "Probe: takes 3 input arguments, got 2");
  expect_status(opr_infer_shapes(&probe_def, NULL, 3, NULL, 0, &out),
                OPR_INVALID_ARGUMENT, "Probe: the input array is NULL");
  expect_status(opr_infer_shapes(&probe_def, in, 3, NULL, 1, &out),
                OPR_INVALID_ARGUMENT, "Probe: the attr array is NULL");
  in[0] = (opr_shape_input){two, NULL, 2};
  expect_status(opr_infer_shapes(&probe_def, in, 3, NULL, 0, &out),
                OPR_INVALID_ARGUMENT, "Probe: input 'x' takes one shape, got 2");
  in[0] = (opr_shape_input){NULL, NULL, 1};
  expect_status(opr_infer_shapes(&probe_def, in, 3, NULL, 0, &out),
                OPR_INVALID_ARGUMENT, "Probe: input 'x' has no shapes");
  const opr_shape *invalid[3] = {bad, deep, neg};
  for (int i = 0; i < 3; i++) {
    in[0] = (opr_shape_input){invalid[i], NULL, 1};
    opr_status s = opr_infer_shapes(&probe_def, in, 3, NULL, 0, &out);
    assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
    assert_non_null(strstr(opr_status_message(s), "Probe: input 'x' element "
                                                  "0: invalid shape"));
    opr_status_free(s);
  }
  opr_tensor *t;
  const int64_t three = 3;
  expect_ok(opr_tensor_new(OPR_DT_INT32, 1, &three, &t));
  const opr_tensor *const values[1] = {t};
  in[0] = (opr_shape_input){(const opr_shape[]){SHAPE(1, 2)}, values, 1};
  expect_status(opr_infer_shapes(&probe_def, in, 3, NULL, 0, &out),
                OPR_INVALID_ARGUMENT,
                "Probe: input 'x' element 0: the value's shape [3] does not "
                "fit the shape [2]");
  opr_tensor_unref(t);
  assert_null(out.shapes);
}

static void opr_infer_shapes_checks_named_attrs(void **state) {
  (void)state;
  const opr_shape one[1] = {{0, NULL}}, two[2] = {{0, NULL}, {0, NULL}};
  const opr_shape_input in[3] = {{one, NULL, 1}, {one, NULL, 1},
                                 {two, NULL, 2}};
  opr_inferred_shapes out;
  const opr_named_attr unknown[1] = {{"nope", {.kind = OPR_ATTR_INT}}};
  expect_status(opr_infer_shapes(&probe_def, in, 3, unknown, 1, &out),
                OPR_INVALID_ARGUMENT, "Probe: no attr named 'nope'");
  const opr_named_attr twice[2] = {{"k", {.kind = OPR_ATTR_INT}},
                                   {"k", {.kind = OPR_ATTR_INT}}};
  expect_status(opr_infer_shapes(&probe_def, in, 3, twice, 2, &out),
                OPR_INVALID_ARGUMENT, "Probe: attr 'k' given twice");
  const opr_named_attr kind[1] = {{"k", {.kind = OPR_ATTR_FLOAT}}};
  expect_status(opr_infer_shapes(&probe_def, in, 3, kind, 1, &out),
                OPR_INVALID_ARGUMENT, "Probe: attr 'k' must be int, got float");
  const opr_named_attr n[1] = {{"N", {.kind = OPR_ATTR_INT, .u.i = 3}}};
  expect_status(opr_infer_shapes(&probe_def, in, 3, n, 1, &out),
                OPR_INVALID_ARGUMENT,
                "Probe: input 'xs' has 2 shapes, but attr N is 3");
  const opr_named_attr null_name[1] = {{NULL, {.kind = OPR_ATTR_INT}}};
  expect_status(opr_infer_shapes(&probe_def, in, 3, null_name, 1, &out),
                OPR_INVALID_ARGUMENT, "Probe: no attr named '(null)'");
}

static void failing_body(opr_infer_ctx *c) {
  expect_ok(opr_infer_set_output(c, 0, scalar));
}

static opr_status failing_shape_fn(opr_infer_ctx *c) {
  failing_body(c);
  return opr_infer_error(c, "no");
}

static void a_failing_shape_function_returns_no_shapes(void **state) {
  (void)state;
  static opr_op_state failing_state;
  const opr_op_def failing = {
      .name = "Failing", .inputs = probe_inputs, .ninputs = 3,
      .outputs = probe_outputs, .noutputs = 2, .attrs = probe_attrs,
      .nattrs = 4, .check = never_checked, .shape_fn = failing_shape_fn,
      .state = &failing_state};
  const opr_shape one[1] = {{0, NULL}};
  const opr_shape_input in[3] = {{one, NULL, 1}, {one, NULL, 1},
                                 {NULL, NULL, 0}};
  opr_inferred_shapes out = {(opr_shape *)1, 9};
  expect_status(opr_infer_shapes(&failing, in, 3, NULL, 0, &out),
                OPR_INVALID_ARGUMENT, "Failing: no");
  assert_null(out.shapes);
  assert_int_equal(out.count, 0);
}

static void ops_without_a_shape_function_have_unknown_outputs(void **state) {
  (void)state;
  const opr_shape one[1] = {SHAPE(1, 2)};
  const opr_shape_input in[3] = {{one, NULL, 1}, {one, NULL, 1},
                                 {one, NULL, 1}};
  opr_inferred_shapes out;
  expect_ok(opr_infer_shapes(&bare_def, in, 3, NULL, 0, &out));
  assert_int_equal(out.count, 2);
  expect_shape(out.shapes[0], "?");
  expect_shape(out.shapes[1], "?");
  opr_inferred_shapes_free(&out);
}

static void many_outputs_body(opr_infer_ctx *c) {
  expect_ok(opr_infer_set_output(c, 1, SHAPE(3, 1, 2, 3)));
  expect_ok(opr_infer_set_output_at(c, 1, 39, SHAPE(1, 9)));
}

static void many_output_tensors_leave_the_inline_storage(void **state) {
  (void)state;
  opr_shape xs[40];
  for (int i = 0; i < 40; i++) xs[i] = scalar;
  const opr_shape_input in[3] = {{xs, NULL, 1}, {xs, NULL, 1},
                                 {xs, NULL, 40}};
  opr_inferred_shapes out;
  body = many_outputs_body;
  expect_ok(opr_infer_shapes(&probe_def, in, 3, NULL, 0, &out));
  assert_int_equal(out.count, 41);
  expect_shape(out.shapes[0], "?");
  expect_shape(out.shapes[1], "[1, 2, 3]");
  expect_shape(out.shapes[39], "[1, 2, 3]");
  expect_shape(out.shapes[40], "[9]");
  opr_inferred_shapes_free(&out);
}

static void by_name_finds_registered_ops(void **state) {
  (void)state;
  const opr_shape one[1] = {SHAPE(1, 2)};
  const opr_shape_input in[3] = {{one, NULL, 1}, {one, NULL, 1},
                                 {NULL, NULL, 0}};
  opr_inferred_shapes out;
  body = failing_body;
  expect_ok(opr_infer_shapes_by_name("Probe", in, 3, NULL, 0, &out));
  assert_int_equal(out.count, 1);
  expect_shape(out.shapes[0], "[]");
  opr_inferred_shapes_free(&out);
  expect_status(opr_infer_shapes_by_name("Nope", in, 3, NULL, 0, &out),
                OPR_NOT_FOUND, "no op named 'Nope' is registered");
  expect_status(opr_infer_shapes_by_name(NULL, in, 3, NULL, 0, &out),
                OPR_INVALID_ARGUMENT, "opr_infer_shapes: the op name is NULL");
}

static int setup(void **state) {
  (void)state;
  opr_status s = opr_register_op(&probe_def);
  opr_status_free(s);
  return s ? -1 : 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(merge_keeps_what_either_shape_knows),
      cmocka_unit_test(broadcast_follows_numpy_on_partial_shapes),
      cmocka_unit_test(with_rank_checks_known_ranks_and_fixes_unknown_ones),
      cmocka_unit_test(dim_counts_from_the_end_and_checks_the_rank),
      cmocka_unit_test(dim_arithmetic_stays_unknown_with_unknown_operands),
      cmocka_unit_test(requirements_pass_until_both_sides_are_known),
      cmocka_unit_test(make_shape_copies_and_validates),
      cmocka_unit_test(outputs_are_set_per_argument_or_per_tensor),
      cmocka_unit_test(inputs_values_and_attrs_reach_the_function),
      cmocka_unit_test(attrs_take_their_defaults),
      cmocka_unit_test(attr_values_that_are_no_dims_are_errors),
      cmocka_unit_test(opr_infer_shapes_checks_its_arguments),
      cmocka_unit_test(opr_infer_shapes_checks_named_attrs),
      cmocka_unit_test(a_failing_shape_function_returns_no_shapes),
      cmocka_unit_test(ops_without_a_shape_function_have_unknown_outputs),
      cmocka_unit_test(many_output_tensors_leave_the_inline_storage),
      cmocka_unit_test(by_name_finds_registered_ops),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
