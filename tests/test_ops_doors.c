/* Every door of the runtime's public API: NULL for each pointer
 * parameter, shapes whose element count or byte size overflows, byte
 * sizes that do not match the dtype and shape, malformed calls. Each
 * answers a status (code and message), never a crash; output pointers
 * are cleared on failure. docs/guarantees.md. */
#include "testutil.h"

#include "demo_ops.h"
#include "opr/device.h"
#include "opr/library.h"
#include "opr/opr.h"
#include "opr/parallel.h"
#include "shipped.h"

#include <stdint.h>
#include <string.h>

static opr_context *ctx;

/* The status has `code` and its message contains `part`; freed. */
#define expect_code(status, code, part)                                 \
  do {                                                                  \
    opr_status st_ = (status);                                          \
    if (!st_) fail_msg("expected %s, got OK", opr_code_name(code));     \
    if (!strstr(opr_status_message(st_), part))                         \
      fail_msg("'%s' is not in: %s", part, opr_status_message(st_));    \
    assert_string_equal(opr_code_name(opr_status_code(st_)),            \
                        opr_code_name(code));                           \
    opr_status_free(st_);                                               \
  } while (0)

#define expect_ok(status)                                               \
  do {                                                                  \
    opr_status st_ = (status);                                          \
    if (st_) fail_msg("unexpected: %s", opr_status_message(st_));       \
  } while (0)

static opr_tensor *int32_vec(int64_t n) {
  opr_tensor *t = NULL;
  expect_ok(opr_tensor_new(OPR_DT_INT32, 1, &n, &t));
  return t;
}

/* A non-NULL pointer a failing call must clear. */
#define POISON(T) ((T)(uintptr_t)0x1)

/* ---- tensors ---- */

static void dims_whose_element_count_overflows_are_invalid(void **state) {
  (void)state;
  opr_tensor *t = POISON(opr_tensor *);
  const int64_t huge[3] = {INT64_C(1) << 32, INT64_C(1) << 32, 2};
  expect_code(opr_tensor_new(OPR_DT_FLOAT, 3, huge, &t),
              OPR_INVALID_ARGUMENT, "opr_tensor_new: a tensor of type float "
              "and shape [4294967296, 4294967296, 2] is too large");
  assert_null(t);
  /* The count fits in int64 but the bytes do not fit in size_t. */
  const int64_t big[1] = {INT64_MAX / 2};
  expect_code(opr_tensor_new(OPR_DT_COMPLEX128, 1, big, &t),
              OPR_INVALID_ARGUMENT, "is too large (its size overflows)");
  const int64_t max[2] = {INT64_MAX, INT64_MAX};
  expect_code(opr_tensor_new(OPR_DT_INT8, 2, max, &t), OPR_INVALID_ARGUMENT,
              "too large");
  /* A zero dim makes any other dims an empty tensor. */
  const int64_t empty[3] = {INT64_MAX, 0, INT64_MAX};
  expect_ok(opr_tensor_new(OPR_DT_DOUBLE, 3, empty, &t));
  assert_int_equal(t->num_elements, 0);
  assert_int_equal(t->nbytes, 0);
  opr_tensor_unref(t);
  assert_int_equal(opr_shape_num_elements(3, huge), -1);
  assert_int_equal(opr_shape_num_elements(2, max), -1);
}

static void bad_dims_ranks_and_dtypes_are_invalid(void **state) {
  (void)state;
  opr_tensor *t = POISON(opr_tensor *);
  const int64_t neg[2] = {2, -3};
  expect_code(opr_tensor_new(OPR_DT_FLOAT, 2, neg, &t), OPR_INVALID_ARGUMENT,
              "opr_tensor_new: dim 1 is -3; dims must be >= 0");
  assert_null(t);
  expect_code(opr_tensor_new(OPR_DT_FLOAT, 2, NULL, &t), OPR_INVALID_ARGUMENT,
              "opr_tensor_new: dims is NULL for rank 2");
  expect_code(opr_tensor_new(OPR_DT_FLOAT, -1, NULL, &t),
              OPR_INVALID_ARGUMENT, "rank -1 is out of range [0, 254]");
  expect_code(opr_tensor_new(OPR_DT_FLOAT, 255, neg, &t),
              OPR_INVALID_ARGUMENT, "rank 255 is out of range");
  expect_code(opr_tensor_new((opr_dtype)999, 0, NULL, &t),
              OPR_INVALID_ARGUMENT, "invalid dtype (value 999)");
  expect_code(opr_tensor_new(OPR_DT_INVALID, 0, NULL, &t),
              OPR_INVALID_ARGUMENT, "invalid dtype (value 0)");
  expect_code(opr_tensor_new((opr_dtype)-5, 0, NULL, &t),
              OPR_INVALID_ARGUMENT, "invalid dtype (value -5)");
  expect_code(opr_tensor_new(OPR_DT_FLOAT, 0, NULL, NULL),
              OPR_INVALID_ARGUMENT, "opr_tensor_new: out is NULL");
}

static void byte_sizes_must_match_dtype_and_shape(void **state) {
  (void)state;
  const int32_t v[6] = {1, 2, 3, 4, 5, 6};
  const int64_t dims[2] = {2, 3};
  opr_tensor *t = POISON(opr_tensor *);
  expect_code(opr_tensor_from_data(OPR_DT_INT32, 2, dims, v, 20, &t),
              OPR_INVALID_ARGUMENT, "opr_tensor_from_data: a tensor of type "
              "int32 and shape [2, 3] takes 24 bytes; got 20");
  assert_null(t);
  expect_code(opr_tensor_from_data(OPR_DT_INT32, 2, dims, v, 28, &t),
              OPR_INVALID_ARGUMENT, "takes 24 bytes; got 28");
  expect_code(opr_tensor_from_data(OPR_DT_DOUBLE, 2, dims, v, sizeof v, &t),
              OPR_INVALID_ARGUMENT, "type double and shape [2, 3] takes 48 "
              "bytes; got 24");
  expect_code(opr_tensor_from_data(OPR_DT_INT32, 2, dims, NULL, 24, &t),
              OPR_INVALID_ARGUMENT, "takes 24 bytes; got 24 (NULL)");
  expect_code(opr_tensor_from_data(OPR_DT_INT32, 2, dims, v, SIZE_MAX, &t),
              OPR_INVALID_ARGUMENT, "got 18446744073709551615");
  expect_code(opr_tensor_from_data(OPR_DT_STRING, 2, dims, v, 24, &t),
              OPR_INVALID_ARGUMENT, "string tensors are made with "
              "opr_tensor_from_strings");
  expect_code(opr_tensor_from_data(OPR_DT_INT32, 2, dims, v, 24, NULL),
              OPR_INVALID_ARGUMENT, "opr_tensor_from_data: out is NULL");
  const int64_t huge[2] = {INT64_MAX, 3};
  expect_code(opr_tensor_from_data(OPR_DT_INT32, 2, huge, v, 24, &t),
              OPR_INVALID_ARGUMENT, "too large");
  /* Empty: NULL data is fine. */
  const int64_t zero[1] = {0};
  expect_ok(opr_tensor_from_data(OPR_DT_INT32, 1, zero, NULL, 0, &t));
  opr_tensor_unref(t);
}

static void string_tensors_refuse_nulls(void **state) {
  (void)state;
  const int64_t n = 2;
  opr_tensor *t = POISON(opr_tensor *);
  expect_code(opr_tensor_from_strings(1, &n, NULL, NULL, &t),
              OPR_INVALID_ARGUMENT, "opr_tensor_from_strings: strs is NULL");
  assert_null(t);
  const char *strs[2] = {"a", NULL};
  expect_code(opr_tensor_from_strings(1, &n, strs, NULL, &t),
              OPR_INVALID_ARGUMENT, "string 1 is NULL");
  const size_t lens[2] = {1, 3};
  expect_code(opr_tensor_from_strings(1, &n, strs, lens, &t),
              OPR_INVALID_ARGUMENT, "string 1 is NULL");
  const size_t lens0[2] = {1, 0}; /* NULL with length 0: empty */
  expect_ok(opr_tensor_from_strings(1, &n, strs, lens0, &t));
  expect_code(opr_tensor_set_string(t, 0, NULL, 4), OPR_INVALID_ARGUMENT,
              "opr_tensor_set_string: bytes is NULL");
  expect_code(opr_tensor_set_string(t, 2, "x", 1), OPR_OUT_OF_RANGE,
              "index 2 is out of range [0, 2)");
  expect_code(opr_tensor_set_string(t, -1, "x", 1), OPR_OUT_OF_RANGE,
              "index -1 is out of range");
  opr_tensor_unref(t);
  expect_code(opr_tensor_set_string(NULL, 0, "x", 1), OPR_INVALID_ARGUMENT,
              "opr_tensor_set_string: tensor is NULL");
  opr_tensor *i = int32_vec(2);
  expect_code(opr_tensor_set_string(i, 0, "x", 1), OPR_INVALID_ARGUMENT,
              "tensor has type int32; expected string");
  opr_tensor_unref(i);
  expect_code(opr_tensor_from_strings(1, NULL, strs, NULL, &t),
              OPR_INVALID_ARGUMENT, "dims is NULL for rank 1");
  expect_code(opr_tensor_from_strings(1, &n, strs, NULL, NULL),
              OPR_INVALID_ARGUMENT, "out is NULL");
  assert_null(opr_tensor_ref(NULL));
  opr_tensor_unref(NULL);
}

static void shape_text_and_statuses_take_nulls(void **state) {
  (void)state;
  char buf[32];
  assert_string_equal(opr_shape_text(2, NULL, buf, sizeof buf), "[?, ?]");
  assert_string_equal(opr_shape_text(-1, NULL, buf, sizeof buf), "?");
  assert_null(opr_shape_text(2, NULL, NULL, 0));
  char tiny[4];
  const int64_t dims[3] = {1000, 2000, 3000};
  assert_string_equal(opr_shape_text(3, dims, tiny, sizeof tiny), "[10");
  assert_int_equal(opr_shape_num_elements(2, NULL), -1);
  assert_int_equal(opr_status_code(NULL), OPR_CODE_OK);
  assert_string_equal(opr_status_message(NULL), "");
  opr_status_free(NULL);
  assert_string_equal(opr_code_name((opr_code)99), "UNKNOWN");
  assert_string_equal(opr_code_name((opr_code)-1), "UNKNOWN");
  assert_null(opr_error(OPR_CODE_OK, "ignored"));
  assert_non_null(opr_dtype_name((opr_dtype)999));
  assert_int_equal(opr_dtype_size((opr_dtype)999), 0);
  assert_int_equal(opr_dtype_size((opr_dtype)-3), 0);
  assert_false(opr_dtype_valid((opr_dtype)-3));
  assert_non_null(opr_device_name((opr_device_kind)7));
}

/* ---- contexts ---- */

static void contexts_refuse_bad_arguments(void **state) {
  (void)state;
  expect_code(opr_context_new(NULL, NULL), OPR_INVALID_ARGUMENT,
              "opr_context_new: out is NULL");
  opr_context *c = POISON(opr_context *);
  opr_context_options o = {.device = (opr_device_kind)9};
  expect_code(opr_context_new(&o, &c), OPR_INVALID_ARGUMENT,
              "opr_context_new: invalid device (value 9)");
  assert_null(c);
  o = (opr_context_options){.device = OPR_DEVICE_CPU, .threads = -1};
  expect_code(opr_context_new(&o, &c), OPR_INVALID_ARGUMENT,
              "threads is -1; must be in [0, 1024]");
  o.threads = 1025;
  expect_code(opr_context_new(&o, &c), OPR_INVALID_ARGUMENT,
              "threads is 1025");
  opr_context_free(NULL);
  assert_int_equal(opr_context_device(NULL), OPR_DEVICE_CPU);
  assert_int_equal(opr_context_threads(NULL), 1);
}

static void shard_takes_null_context_and_function(void **state) {
  (void)state;
  opr_shard(NULL, 100, 1, NULL, NULL);
  opr_shard(ctx, 100, 1, NULL, NULL);
  opr_shard(ctx, -5, 1, NULL, NULL);
}

/* ---- opr_execute ---- */

static opr_status execute1(const char *op, const opr_tensor *in,
                           opr_tensor **out) {
  const opr_tensor *list[1] = {in};
  opr_input inputs[1] = {{list, 1}};
  size_t n = 0;
  return opr_execute(ctx, op, inputs, 1, NULL, 0, out, 1, &n);
}

static void execute_refuses_nulls(void **state) {
  (void)state;
  opr_tensor *x = int32_vec(3), *out = POISON(opr_tensor *);
  const opr_tensor *list[1] = {x};
  opr_input inputs[1] = {{list, 1}};
  size_t n = 99;
  expect_code(opr_execute(NULL, "ZeroOut", inputs, 1, NULL, 0, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "opr_execute: the context is NULL");
  assert_int_equal(n, 0);
  expect_code(opr_execute(ctx, NULL, inputs, 1, NULL, 0, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "opr_execute: the op name is NULL");
  expect_code(opr_execute(ctx, "NoSuchOp", inputs, 1, NULL, 0, &out, 1, &n),
              OPR_NOT_FOUND, "no op named 'NoSuchOp' is registered");
  expect_code(opr_execute(ctx, "ZeroOut", NULL, 1, NULL, 0, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: the input array is NULL");
  expect_code(opr_execute(ctx, "ZeroOut", inputs, 1, NULL, 2, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: the attr array is NULL");
  expect_code(opr_execute(ctx, "ZeroOut", inputs, 1, NULL, 0, NULL, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: produces 1 output tensor, "
              "room for 0");
  expect_code(opr_execute(ctx, "ZeroOut", inputs, 1, NULL, 0, &out, 0, &n),
              OPR_INVALID_ARGUMENT, "room for 0");
  expect_code(opr_execute(ctx, "ZeroOut", inputs, 0, NULL, 0, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: takes 1 input argument, got 0");
  /* noutputs may be NULL. */
  expect_ok(opr_execute(ctx, "ZeroOut", inputs, 1, NULL, 0, &out, 1, NULL));
  opr_tensor_unref(out);
  out = NULL; /* failed calls put no tensor there */
  /* Inputs with NULL tensors. */
  opr_input null_list[1] = {{NULL, 1}};
  expect_code(opr_execute(ctx, "ZeroOut", null_list, 1, NULL, 0, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: input 'to_zero'");
  const opr_tensor *null_tensor[1] = {NULL};
  opr_input null_elem[1] = {{null_tensor, 1}};
  expect_code(opr_execute(ctx, "ZeroOut", null_elem, 1, NULL, 0, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: input 'to_zero'");
  opr_input two[1] = {{list, 2}};
  expect_code(opr_execute(ctx, "ZeroOut", two, 1, NULL, 0, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: input 'to_zero'");
  opr_input none[1] = {{list, 0}};
  expect_code(opr_execute(ctx, "ZeroOut", none, 1, NULL, 0, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: input 'to_zero'");
  const opr_tensor *three[3] = {x, NULL, x};
  opr_input addn[1] = {{three, 3}};
  expect_code(opr_execute(ctx, "AddN", addn, 1, NULL, 0, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "AddN: input 'inputs'");
  addn[0].tensors = NULL;
  expect_code(opr_execute(ctx, "AddN", addn, 1, NULL, 0, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "AddN: input 'inputs'");
  assert_null(out);
  opr_tensor_unref(x);
}

static void execute_refuses_bad_attrs(void **state) {
  (void)state;
  opr_tensor *x = int32_vec(3), *out = NULL;
  const opr_tensor *list[1] = {x};
  opr_input inputs[1] = {{list, 1}};
  size_t n = 0;
  opr_named_attr a[2] = {{NULL, {.kind = OPR_ATTR_INT, .u.i = 0}}};
  expect_code(opr_execute(ctx, "ZeroOut", inputs, 1, a, 1, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: no attr named '(null)'");
  a[0].name = "preserve_index";
  a[0].value = (opr_attr_value){.kind = OPR_ATTR_STRING,
                                .u.s = {NULL, 5}};
  expect_code(opr_execute(ctx, "ZeroOut", inputs, 1, a, 1, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: attr 'preserve_index'");
  a[0].value = (opr_attr_value){.kind = (opr_attr_kind)77};
  expect_code(opr_execute(ctx, "ZeroOut", inputs, 1, a, 1, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: attr 'preserve_index'");
  a[0].value = (opr_attr_value){.kind = OPR_ATTR_INT, .u.i = 3};
  expect_code(opr_execute(ctx, "ZeroOut", inputs, 1, a, 1, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut");
  a[0].value = (opr_attr_value){.kind = OPR_ATTR_INT, .u.i = -1};
  expect_code(opr_execute(ctx, "ZeroOut", inputs, 1, a, 1, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: attr 'preserve_index' is -1; "
              "must be >= 0");
  a[0].value = (opr_attr_value){.kind = OPR_ATTR_INT, .u.i = 0};
  a[1] = a[0];
  expect_code(opr_execute(ctx, "ZeroOut", inputs, 1, a, 2, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: attr 'preserve_index' given "
              "twice");
  /* A string attr whose bytes are NULL, a list attr whose items are. */
  opr_tensor *m = NULL;
  const int64_t md[2] = {2, 2};
  expect_ok(opr_tensor_new(OPR_DT_FLOAT, 2, md, &m));
  opr_tensor *p = NULL;
  expect_ok(opr_tensor_new(OPR_DT_INT32, 2, md, &p));
  const opr_tensor *pl[2][1] = {{m}, {p}};
  opr_input pin[2] = {{pl[0], 1}, {pl[1], 1}};
  opr_named_attr mode = {"mode", {.kind = OPR_ATTR_STRING, .u.s = {NULL, 7}}};
  expect_code(opr_execute(ctx, "Pad", pin, 2, &mode, 1, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "Pad: attr 'mode'");
  mode.value = (opr_attr_value){.kind = OPR_ATTR_STRING, .is_list = true,
                                .u.list = {3, NULL}};
  expect_code(opr_execute(ctx, "Pad", pin, 2, &mode, 1, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "Pad: attr 'mode'");
  assert_null(out);
  opr_tensor_unref(m);
  opr_tensor_unref(p);
  opr_tensor_unref(x);
}

/* Runs an op without inputs with one attr; the status. */
static opr_status attr_only(const char *op, opr_named_attr a) {
  size_t n = 0;
  return opr_execute(ctx, op, NULL, 0, &a, 1, NULL, 0, &n);
}

static void attr_values_are_checked_before_use(void **state) {
  (void)state;
  /* Lists whose items are NULL. */
  opr_named_attr a = {"a", opr_attr_list(OPR_ATTR_TYPE, NULL, 3)};
  expect_code(attr_only("TypeListExample", a), OPR_INVALID_ARGUMENT,
              "TypeListExample: attr 'a'");
  a = (opr_named_attr){"l_int", opr_attr_list(OPR_ATTR_INT, NULL, 2)};
  expect_code(attr_only("AttrDefaultExampleForAllTypes", a),
              OPR_INVALID_ARGUMENT, "attr 'l_int'");
  /* Out-of-range type values, a shape without dims, a NULL func. */
  a = (opr_named_attr){"t", {.kind = OPR_ATTR_TYPE, .u.type = 999}};
  expect_code(attr_only("NumberType", a), OPR_INVALID_ARGUMENT,
              "NumberType: attr 't'");
  a = (opr_named_attr){"t", {.kind = OPR_ATTR_TYPE, .u.type = -7}};
  expect_code(attr_only("RestrictedTypeExample", a), OPR_INVALID_ARGUMENT,
              "attr 't'");
  a = (opr_named_attr){"sh", {.kind = OPR_ATTR_SHAPE, .u.shape = {3, NULL}}};
  expect_code(attr_only("AttrDefaultExampleForAllTypes", a),
              OPR_INVALID_ARGUMENT, "attr 'sh'");
  a = (opr_named_attr){"sh", {.kind = OPR_ATTR_SHAPE, .u.shape = {-9, NULL}}};
  expect_code(attr_only("AttrDefaultExampleForAllTypes", a),
              OPR_INVALID_ARGUMENT, "attr 'sh'");
  a = (opr_named_attr){"e", {.kind = OPR_ATTR_STRING, .u.s = {NULL, 5}}};
  expect_code(attr_only("EnumExample", a), OPR_INVALID_ARGUMENT,
              "EnumExample: attr 'e'");
  a = (opr_named_attr){"te", {.kind = OPR_ATTR_TENSOR, .u.tensor = NULL}};
  expect_code(attr_only("AttrDefaultExampleForAllTypes", a),
              OPR_INVALID_ARGUMENT, "AttrDefaultExampleForAllTypes: attr "
              "'te' is NULL");
  /* opr_attr_tensor(NULL) is "not given": the default applies (and the
   * op has no kernel). */
  a = (opr_named_attr){"te", opr_attr_tensor(NULL)};
  expect_code(attr_only("AttrDefaultExampleForAllTypes", a),
              OPR_UNIMPLEMENTED, "no kernel");
}

/* Pad with paddings of `dims` holding `values` (int64). */
static opr_status pad_with(int rank, const int64_t *dims,
                           const int64_t *values, size_t nvalues,
                           opr_tensor **out) {
  const int64_t xd[2] = {2, 3};
  opr_tensor *x = NULL, *p = NULL;
  expect_ok(opr_tensor_new(OPR_DT_FLOAT, 2, xd, &x));
  expect_ok(opr_tensor_from_data(OPR_DT_INT64, rank, dims, values,
                                 nvalues * sizeof *values, &p));
  const opr_tensor *xl[1] = {x}, *pl[1] = {p};
  opr_input in[2] = {{xl, 1}, {pl, 1}};
  opr_named_attr t = {"Tpaddings", {.kind = OPR_ATTR_TYPE,
                                    .u.type = OPR_DT_INT64}};
  size_t n = 0;
  opr_status s = opr_execute(ctx, "Pad", in, 2, &t, 1, out, 1, &n);
  opr_tensor_unref(x);
  opr_tensor_unref(p);
  return s;
}

static void pad_amounts_that_overflow_are_invalid(void **state) {
  (void)state;
  opr_tensor *out = NULL;
  const int64_t pd[2] = {2, 2};
  const int64_t huge[4] = {INT64_MAX, 1, 0, 0};
  expect_code(pad_with(2, pd, huge, 4, &out), OPR_INVALID_ARGUMENT,
              "overflow");
  const int64_t big[4] = {INT64_C(1) << 40, INT64_C(1) << 40, 1 << 30, 0};
  expect_code(pad_with(2, pd, big, 4, &out), OPR_INVALID_ARGUMENT,
              "too large");
  const int64_t neg[4] = {0, 0, -1, 0};
  expect_code(pad_with(2, pd, neg, 4, &out), OPR_INVALID_ARGUMENT,
              "value(paddings)[j] >= 0");
  const int64_t wrong[2] = {3, 2};
  const int64_t six[6] = {0};
  expect_code(pad_with(2, wrong, six, 6, &out), OPR_INVALID_ARGUMENT,
              "rank(input) == dim(paddings, 0) does not hold (2 vs 3)");
  const int64_t flat[1] = {4};
  expect_code(pad_with(1, flat, six, 4, &out), OPR_INVALID_ARGUMENT,
              "rank(paddings) == 2 does not hold (1 vs 2)");
  assert_null(out);
}

static void zero_out_index_beyond_the_tensor_is_invalid(void **state) {
  (void)state;
  opr_tensor *x = int32_vec(3), *out = NULL;
  demo_zero_out_attrs attrs = {.preserve_index = INT64_MAX};
  expect_code(demo_zero_out(ctx, x, &attrs, &out), OPR_INVALID_ARGUMENT,
              "ZeroOut: preserve_index 9223372036854775807 is out of range "
              "for a tensor of 3 elements");
  assert_null(out);
  /* An empty tensor gives an empty output, whatever the index. */
  opr_tensor *empty = int32_vec(0);
  expect_ok(demo_zero_out(ctx, empty, &attrs, &out));
  assert_int_equal(out->num_elements, 0);
  opr_tensor_unref(out);
  opr_tensor_unref(empty);
  opr_tensor_unref(x);
}

/* ---- opr_invoke and the typed wrappers ---- */

static void invoke_refuses_nulls(void **state) {
  (void)state;
  const opr_op_def *op = opr_find_op("ZeroOut");
  assert_non_null(op);
  opr_tensor *x = int32_vec(3), *slot = POISON(opr_tensor *);
  const opr_tensor *list[1] = {x};
  opr_input inputs[1] = {{list, 1}};
  opr_attr_value attrs[2] = {{0}};
  opr_output outputs[1] = {{&slot, 1}};
  opr_call call = {.op = op, .inputs = inputs, .attrs = attrs,
                   .outputs = outputs};
  expect_code(opr_invoke(NULL, &call), OPR_INVALID_ARGUMENT,
              "opr_invoke: the context is NULL");
  expect_code(opr_invoke(ctx, NULL), OPR_INVALID_ARGUMENT,
              "opr_invoke: the call is NULL");
  call.op = NULL;
  expect_code(opr_invoke(ctx, &call), OPR_INVALID_ARGUMENT,
              "opr_invoke: the call's op is NULL");
  call.op = op;
  call.inputs = NULL;
  expect_code(opr_invoke(ctx, &call), OPR_INVALID_ARGUMENT,
              "ZeroOut: the call has no input array");
  call.inputs = inputs;
  call.attrs = NULL;
  expect_code(opr_invoke(ctx, &call), OPR_INVALID_ARGUMENT,
              "ZeroOut: the call has no attr array");
  call.attrs = attrs;
  call.outputs = NULL;
  expect_code(opr_invoke(ctx, &call), OPR_INVALID_ARGUMENT,
              "ZeroOut: output 'zeroed'");
  outputs[0] = (opr_output){NULL, 1};
  call.outputs = outputs;
  expect_code(opr_invoke(ctx, &call), OPR_INVALID_ARGUMENT,
              "ZeroOut: output 'zeroed'");
  outputs[0] = (opr_output){&slot, 1};
  memset(attrs, 0, sizeof attrs);
  expect_ok(opr_invoke(ctx, &call));
  opr_tensor_unref(slot);
  opr_tensor_unref(x);
}

static void wrappers_refuse_nulls(void **state) {
  (void)state;
  opr_tensor *x = int32_vec(3), *out = POISON(opr_tensor *);
  expect_code(demo_zero_out(NULL, x, NULL, &out), OPR_INVALID_ARGUMENT,
              "the context is NULL");
  expect_code(demo_zero_out(ctx, NULL, NULL, &out), OPR_INVALID_ARGUMENT,
              "ZeroOut: input 'to_zero'");
  expect_code(demo_zero_out(ctx, x, NULL, NULL), OPR_INVALID_ARGUMENT,
              "ZeroOut: output 'zeroed' is NULL");
  expect_code(demo_add_n(ctx, NULL, 2, &out), OPR_INVALID_ARGUMENT,
              "AddN: input 'inputs'");
  const opr_tensor *two[2] = {x, NULL};
  expect_code(demo_add_n(ctx, two, 2, &out), OPR_INVALID_ARGUMENT,
              "AddN: input 'inputs'");
  expect_code(demo_add_n(ctx, two, 0, &out), OPR_INVALID_ARGUMENT,
              "AddN");
  expect_code(demo_string_to_number(ctx, x, NULL, &out),
              OPR_INVALID_ARGUMENT, "StringToNumber: input 'string_tensor'");
  opr_tensor_unref(x);
}

/* ---- shapes ---- */

static void infer_shapes_refuses_nulls(void **state) {
  (void)state;
  const opr_op_def *op = opr_find_op("ZeroOut");
  const int64_t d[2] = {2, 3};
  opr_shape shape = {2, d};
  opr_shape_input in[1] = {{&shape, NULL, 1}};
  opr_inferred_shapes out = {POISON(opr_shape *), 7};
  expect_code(opr_infer_shapes(op, in, 1, NULL, 0, NULL),
              OPR_INVALID_ARGUMENT, "opr_infer_shapes: out is NULL");
  expect_code(opr_infer_shapes(NULL, in, 1, NULL, 0, &out),
              OPR_INVALID_ARGUMENT, "opr_infer_shapes: the op is NULL");
  assert_null(out.shapes);
  assert_int_equal(out.count, 0);
  expect_code(opr_infer_shapes(op, NULL, 1, NULL, 0, &out),
              OPR_INVALID_ARGUMENT, "ZeroOut: the input array is NULL");
  expect_code(opr_infer_shapes(op, in, 1, NULL, 1, &out),
              OPR_INVALID_ARGUMENT, "ZeroOut: the attr array is NULL");
  opr_shape_input no_shapes[1] = {{NULL, NULL, 1}};
  expect_code(opr_infer_shapes(op, no_shapes, 1, NULL, 0, &out),
              OPR_INVALID_ARGUMENT, "ZeroOut: input 'to_zero' has no shapes");
  opr_shape bad = {2, NULL};
  opr_shape_input bad_in[1] = {{&bad, NULL, 1}};
  expect_code(opr_infer_shapes(op, bad_in, 1, NULL, 0, &out),
              OPR_INVALID_ARGUMENT, "invalid shape (rank 2)");
  bad = (opr_shape){OPR_MAX_RANK + 1, d};
  expect_code(opr_infer_shapes(op, bad_in, 1, NULL, 0, &out),
              OPR_INVALID_ARGUMENT, "invalid shape (rank 255)");
  expect_code(opr_infer_shapes_by_name(NULL, in, 1, NULL, 0, &out),
              OPR_INVALID_ARGUMENT, "the op name is NULL");
  expect_code(opr_infer_shapes_by_name("Nope", in, 1, NULL, 0, &out),
              OPR_NOT_FOUND, "no op named 'Nope'");
  opr_named_attr a = {NULL, {.kind = OPR_ATTR_INT}};
  expect_code(opr_infer_shapes(op, in, 1, &a, 1, &out), OPR_INVALID_ARGUMENT,
              "no attr named '(null)'");
  expect_ok(opr_infer_shapes(op, in, 1, NULL, 0, &out));
  assert_int_equal(out.count, 1);
  opr_inferred_shapes_free(&out);
  opr_inferred_shapes_free(&out); /* twice is fine */
  opr_inferred_shapes_free(NULL);
}

/* ---- registries, libraries, devices ---- */

static void registries_refuse_nulls(void **state) {
  (void)state;
  expect_code(opr_register_op(NULL), OPR_INVALID_ARGUMENT,
              "opr_register_op: the op def has no name");
  opr_op_def nameless = {0};
  expect_code(opr_register_op(&nameless), OPR_INVALID_ARGUMENT,
              "the op def has no name");
  opr_op_def stateless = {.name = "Stateless"};
  expect_code(opr_register_op(&stateless), OPR_INVALID_ARGUMENT,
              "Stateless: the op def lacks a state record");
  expect_code(opr_register_kernel(NULL), OPR_INVALID_ARGUMENT,
              "opr_register_kernel: the kernel names no op");
  opr_kernel_def k = {.op = "ZeroOut"};
  expect_code(opr_register_kernel(&k), OPR_INVALID_ARGUMENT,
              "ZeroOut: kernel has no function");
  assert_null(opr_find_op(NULL));
  assert_true(opr_list_ops(NULL, 10) > 0);
  assert_int_equal(opr_list_kernels(NULL, NULL, 10), 0);
  assert_true(opr_list_kernels(opr_find_op("ZeroOut"), NULL, 10) > 0);
  assert_int_equal(opr_op_defs_hash(NULL, 0), opr_op_defs_hash(NULL, 0));
}

static void libraries_refuse_nulls(void **state) {
  (void)state;
  opr_library *lib = POISON(opr_library *);
  expect_code(opr_load_library(NULL, &lib), OPR_INVALID_ARGUMENT,
              "opr_load_library: the path is NULL");
  assert_null(lib);
  expect_code(opr_load_library("", NULL), OPR_INVALID_ARGUMENT,
              "the path is empty");
  expect_code(opr_load_library("/nonexistent/lib.so", NULL), OPR_NOT_FOUND,
              "'/nonexistent/lib.so': no such file");
  expect_code(opr_load_library("/", NULL), OPR_INVALID_ARGUMENT,
              "cannot be loaded");
  assert_null(opr_library_name(NULL));
  assert_null(opr_library_path(NULL));
  assert_int_equal(opr_library_def_hash(NULL), 0);
  assert_int_equal(opr_library_ops(NULL, NULL, 5), 0);
  uint64_t h = 0;
  expect_code(opr_library_hash_ops(NULL, NULL), OPR_INVALID_ARGUMENT,
              "opr_library_hash_ops: hash is NULL");
  expect_ok(opr_library_hash_ops(NULL, &h));
}

static void devices_refuse_nulls(void **state) {
  (void)state;
  opr_tensor *out = POISON(opr_tensor *);
  expect_code(opr_tensor_to_device(NULL, OPR_DEVICE_CPU, &out),
              OPR_INVALID_ARGUMENT, "opr_tensor_to_device");
  assert_null(out);
  opr_tensor *x = int32_vec(2);
  expect_code(opr_tensor_to_device(x, OPR_DEVICE_CPU, NULL),
              OPR_INVALID_ARGUMENT, "opr_tensor_to_device");
  expect_code(opr_tensor_to_device(x, (opr_device_kind)5, &out),
              OPR_INVALID_ARGUMENT, "opr_tensor_to_device");
  expect_code(opr_device_available((opr_device_kind)5), OPR_INVALID_ARGUMENT,
              "");
  opr_tensor_unref(x);
}

static void a_call_that_works_still_works(void **state) {
  (void)state;
  const int32_t v[3] = {5, 6, 7}, want[3] = {5, 0, 0};
  const int64_t n = 3;
  opr_tensor *x = NULL, *out = NULL;
  expect_ok(opr_tensor_from_data(OPR_DT_INT32, 1, &n, v, sizeof v, &x));
  expect_ok(execute1("ZeroOut", x, &out));
  assert_memory_equal(out->data, want, sizeof want);
  opr_tensor_unref(out);
  opr_tensor_unref(x);
}

static int setup(void **state) {
  (void)state;
  opr_status s = opgen_shipped_register();
  if (!s) s = opr_context_new(NULL, &ctx);
  if (s) opr_status_free(s);
  return s ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  opr_context_free(ctx);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(dims_whose_element_count_overflows_are_invalid),
      cmocka_unit_test(bad_dims_ranks_and_dtypes_are_invalid),
      cmocka_unit_test(byte_sizes_must_match_dtype_and_shape),
      cmocka_unit_test(string_tensors_refuse_nulls),
      cmocka_unit_test(shape_text_and_statuses_take_nulls),
      cmocka_unit_test(contexts_refuse_bad_arguments),
      cmocka_unit_test(shard_takes_null_context_and_function),
      cmocka_unit_test(execute_refuses_nulls),
      cmocka_unit_test(execute_refuses_bad_attrs),
      cmocka_unit_test(attr_values_are_checked_before_use),
      cmocka_unit_test(pad_amounts_that_overflow_are_invalid),
      cmocka_unit_test(zero_out_index_beyond_the_tensor_is_invalid),
      cmocka_unit_test(invoke_refuses_nulls),
      cmocka_unit_test(wrappers_refuse_nulls),
      cmocka_unit_test(infer_shapes_refuses_nulls),
      cmocka_unit_test(registries_refuse_nulls),
      cmocka_unit_test(libraries_refuse_nulls),
      cmocka_unit_test(devices_refuse_nulls),
      cmocka_unit_test(a_call_that_works_still_works),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
