/* Every shipped op, called through its generated typed wrapper and through
 * the generic by-name entry: accepted calls reach the kernel with the
 * attrs resolved; rejected calls answer the exact status and message. The
 * kernels here are test doubles that record what they saw (the real
 * kernels are in kernels/). */
#include "testutil.h"

#include "demo_kernels.h"
#include "guide_attrs_kernels.h"
#include "guide_io_kernels.h"

#include <string.h>

static opr_context *ctx;

/* What the last test kernel saw. */
static struct {
  int calls;
  opr_dtype T;
  int64_t preserve_index;
  demo_pad_mode mode;
} seen;

static opr_tensor *scalar(opr_dtype dt) {
  opr_tensor *t;
  assert_null(opr_tensor_new(dt, 0, NULL, &t));
  return t;
}

static opr_tensor *matrix(opr_dtype dt, int64_t rows, int64_t cols) {
  opr_tensor *t;
  const int64_t dims[2] = {rows, cols};
  assert_null(opr_tensor_new(dt, 2, dims, &t));
  return t;
}

/* Asserts a status's code and message, then frees it. */
#define expect_status(status, code, message)                          \
  do {                                                                \
    opr_status st_ = (status);                                        \
    assert_non_null(st_);                                             \
    assert_string_equal(opr_status_message(st_), message);            \
    assert_int_equal(opr_status_code(st_), code);                     \
    opr_status_free(st_);                                             \
  } while (0)

#define expect_ok(status)                                             \
  do {                                                                \
    opr_status st_ = (status);                                        \
    if (st_) fail_msg("unexpected: %s", opr_status_message(st_));     \
  } while (0)

/* ---- test kernels ---- */

static opr_status zero_out_kernel(opr_kernel_ctx *k) {
  const opr_tensor *in = demo_zero_out_input_to_zero(k);
  seen.calls++;
  seen.T = demo_zero_out_attr_T(k);
  seen.preserve_index = demo_zero_out_attr_preserve_index(k);
  opr_tensor *out;
  return demo_zero_out_alloc_zeroed(k, in->rank, in->dims, &out);
}

static opr_status add_n_kernel(opr_kernel_ctx *k) {
  seen.calls++;
  seen.T = demo_add_n_attr_T(k);
  const opr_tensor *first = demo_add_n_input_inputs(k, 0);
  opr_tensor *out;
  return demo_add_n_alloc_sum(k, first->rank, first->dims, &out);
}

static opr_status pad_kernel(opr_kernel_ctx *k) {
  seen.calls++;
  seen.mode = demo_pad_attr_mode(k);
  /* The tests pad by zeros: the output has the input's shape (the one
   * inferred and allocated before the kernel runs). */
  const opr_tensor *in = demo_pad_input_input(k);
  opr_tensor *out;
  return demo_pad_alloc_output(k, in->rank, in->dims, &out);
}

static opr_status string_to_number_kernel(opr_kernel_ctx *k) {
  seen.calls++;
  const opr_tensor *in = demo_string_to_number_input_string_tensor(k);
  opr_tensor *out;
  return demo_string_to_number_alloc_output(k, in->rank, in->dims, &out);
}

static int setup(void **state) {
  (void)state;
  if (opr_context_new(NULL, &ctx) || demo_register_ops() ||
      guide_attrs_register_ops() || guide_io_register_ops())
    return -1;
  /* ZeroOut: float and int32 only, so double finds no kernel. */
  opr_status s = demo_zero_out_register_kernel(&(demo_zero_out_kernel_def){
      .fn = zero_out_kernel,
      .T = OPR_DTYPE_BIT(OPR_DT_FLOAT) | OPR_DTYPE_BIT(OPR_DT_INT32)});
  if (!s) s = demo_add_n_register_kernel(&(demo_add_n_kernel_def){.fn = add_n_kernel});
  if (!s) s = demo_pad_register_kernel(&(demo_pad_kernel_def){.fn = pad_kernel});
  if (!s)
    s = demo_string_to_number_register_kernel(
        &(demo_string_to_number_kernel_def){.fn = string_to_number_kernel});
  opr_status_free(s);
  return s ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  opr_context_free(ctx);
  return 0;
}

/* ---- ZeroOut ---- */

static void zero_out_infers_T_and_applies_defaults(void **state) {
  (void)state;
  opr_tensor *in = matrix(OPR_DT_INT32, 2, 2), *out = NULL;
  seen.calls = 0;
  expect_ok(demo_zero_out(ctx, in, NULL, &out));
  assert_int_equal(seen.calls, 1);
  assert_int_equal(seen.T, OPR_DT_INT32);
  assert_int_equal(seen.preserve_index, 0);
  assert_int_equal(out->dtype, OPR_DT_INT32);
  assert_int_equal(out->rank, 2);
  opr_tensor_unref(out);
  demo_zero_out_attrs attrs = DEMO_ZERO_OUT_ATTRS_DEFAULT;
  attrs.preserve_index = 3;
  opr_tensor *f = matrix(OPR_DT_FLOAT, 2, 2);
  expect_ok(demo_zero_out(ctx, f, &attrs, &out));
  assert_int_equal(seen.T, OPR_DT_FLOAT);
  assert_int_equal(seen.preserve_index, 3);
  opr_tensor_unref(out);
  opr_tensor_unref(f);
  opr_tensor_unref(in);
}

static void zero_out_rejects_a_type_outside_T(void **state) {
  (void)state;
  opr_tensor *in = scalar(OPR_DT_STRING), *out = NULL;
  expect_status(demo_zero_out(ctx, in, NULL, &out), OPR_INVALID_ARGUMENT,
                "ZeroOut: input 'to_zero' has type string; attr T must be one "
                "of {float, double, int32}");
  assert_null(out);
  opr_tensor_unref(in);
}

static void zero_out_rejects_negative_preserve_index(void **state) {
  (void)state;
  opr_tensor *in = scalar(OPR_DT_INT32), *out = NULL;
  demo_zero_out_attrs attrs = {.preserve_index = -1};
  expect_status(demo_zero_out(ctx, in, &attrs, &out), OPR_INVALID_ARGUMENT,
                "ZeroOut: attr 'preserve_index' is -1; must be >= 0");
  opr_tensor_unref(in);
}

static void zero_out_rejects_null_pointers(void **state) {
  (void)state;
  opr_tensor *in = scalar(OPR_DT_INT32), *out = NULL;
  expect_status(demo_zero_out(ctx, NULL, NULL, &out), OPR_INVALID_ARGUMENT,
                "ZeroOut: input 'to_zero' is NULL");
  expect_status(demo_zero_out(ctx, in, NULL, NULL), OPR_INVALID_ARGUMENT,
                "ZeroOut: output 'zeroed' is NULL");
  opr_tensor_unref(in);
}

static void zero_out_without_a_kernel_is_unimplemented(void **state) {
  (void)state;
  opr_tensor *in = scalar(OPR_DT_DOUBLE), *out = NULL;
  expect_status(demo_zero_out(ctx, in, NULL, &out), OPR_UNIMPLEMENTED,
                "ZeroOut: no kernel for device CPU with T=double");
  assert_null(out);
  opr_tensor_unref(in);
}

/* ---- other demo ops ---- */

static void add_n_checks_agreement_and_length(void **state) {
  (void)state;
  opr_tensor *a = scalar(OPR_DT_FLOAT), *b = scalar(OPR_DT_FLOAT);
  opr_tensor *c = scalar(OPR_DT_INT32), *out = NULL;
  const opr_tensor *ok[2] = {a, b}, *mixed[3] = {a, c, b};
  expect_ok(demo_add_n(ctx, ok, 2, &out));
  assert_int_equal(seen.T, OPR_DT_FLOAT);
  opr_tensor_unref(out);
  expect_status(demo_add_n(ctx, mixed, 3, &out), OPR_INVALID_ARGUMENT,
                "AddN: input 'inputs' element 1 has type int32, but attr T is "
                "float");
  expect_status(demo_add_n(ctx, ok, 0, &out), OPR_INVALID_ARGUMENT,
                "AddN: input 'inputs' has 0 tensors; attr N must be >= 1");
  const opr_tensor *holes[2] = {a, NULL};
  expect_status(demo_add_n(ctx, holes, 2, &out), OPR_INVALID_ARGUMENT,
                "AddN: input 'inputs' element 1 is NULL");
  opr_tensor_unref(a);
  opr_tensor_unref(b);
  opr_tensor_unref(c);
}

static void fixed_types_are_checked(void **state) {
  (void)state;
  opr_tensor *f = scalar(OPR_DT_FLOAT), *out = NULL;
  expect_status(demo_add_one(ctx, f, &out), OPR_INVALID_ARGUMENT,
                "AddOne: input 'input' has type float; expected int32");
  opr_tensor *i = scalar(OPR_DT_INT32);
  expect_status(demo_add_one(ctx, i, &out), OPR_UNIMPLEMENTED,
                "AddOne: no kernel for device CPU");
  opr_tensor_unref(f);
  opr_tensor_unref(i);
}

static void pad_enum_attr_reaches_the_kernel(void **state) {
  (void)state;
  opr_tensor *in = matrix(OPR_DT_FLOAT, 2, 2), *pads = matrix(OPR_DT_INT32, 2, 2);
  opr_tensor *out = NULL;
  demo_pad_attrs attrs = {.mode = DEMO_PAD_MODE_REFLECT};
  expect_ok(demo_pad(ctx, in, pads, &attrs, &out));
  assert_int_equal(seen.mode, DEMO_PAD_MODE_REFLECT);
  opr_tensor_unref(out);
  expect_ok(demo_pad(ctx, in, pads, NULL, &out));
  assert_int_equal(seen.mode, DEMO_PAD_MODE_CONSTANT);
  opr_tensor_unref(out);
  attrs.mode = (demo_pad_mode)7;
  expect_status(demo_pad(ctx, in, pads, &attrs, &out), OPR_INVALID_ARGUMENT,
                "Pad: attr 'mode' is 7, not a value of demo_pad_mode");
  opr_tensor *bad = matrix(OPR_DT_UINT8, 2, 2);
  expect_status(demo_pad(ctx, in, bad, NULL, &out), OPR_INVALID_ARGUMENT,
                "Pad: input 'paddings' has type uint8; attr Tpaddings must be "
                "one of {int32, int64}");
  opr_tensor_unref(bad);
  opr_tensor_unref(in);
  opr_tensor_unref(pads);
}

static void output_type_attr_sets_the_output_dtype(void **state) {
  (void)state;
  opr_tensor *in = matrix(OPR_DT_STRING, 1, 3), *out = NULL;
  expect_ok(demo_string_to_number(ctx, in, NULL, &out));
  assert_int_equal(out->dtype, OPR_DT_FLOAT);
  opr_tensor_unref(out);
  demo_string_to_number_attrs attrs = {.out_type = OPR_DT_INT32};
  expect_ok(demo_string_to_number(ctx, in, &attrs, &out));
  assert_int_equal(out->dtype, OPR_DT_INT32);
  opr_tensor_unref(out);
  attrs.out_type = OPR_DT_STRING;
  expect_status(demo_string_to_number(ctx, in, &attrs, &out),
                OPR_INVALID_ARGUMENT,
                "StringToNumber: attr 'out_type' is string; must be one of "
                "{float, int32}");
  opr_tensor_unref(in);
}

/* ---- the attr examples of the guide (no kernels) ---- */

static void attr_constraints_are_checked(void **state) {
  (void)state;
  expect_status(guide_attrs_min_int_example(ctx, 1), OPR_INVALID_ARGUMENT,
                "MinIntExample: attr 'a' is 1; must be >= 2");
  expect_status(guide_attrs_min_int_example(ctx, 2), OPR_UNIMPLEMENTED,
                "MinIntExample: no kernel for device CPU");
  expect_status(guide_attrs_restricted_type_example(ctx, OPR_DT_STRING),
                OPR_INVALID_ARGUMENT,
                "RestrictedTypeExample: attr 't' is string; must be one of "
                "{float, int32, bool}"); /* sets print in dtype order */
  expect_status(guide_attrs_number_type(ctx, OPR_DT_BOOL), OPR_INVALID_ARGUMENT,
                "NumberType: attr 't' is bool; must be one of {float, double, "
                "int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
                "qint32, bfloat16, uint16, complex128, half, uint32, uint64}");
  expect_status(guide_attrs_number_or_boolean_type(ctx, OPR_DT_BOOL),
                OPR_UNIMPLEMENTED,
                "NumberOrBooleanType: no kernel for device CPU with t=bool");
  expect_status(guide_attrs_enum_example(ctx, GUIDE_ATTRS_ENUM_EXAMPLE_E_ORANGE),
                OPR_UNIMPLEMENTED, "EnumExample: no kernel for device CPU");
  const opr_dtype two[2] = {OPR_DT_INT32, OPR_DT_FLOAT};
  const opr_dtype three[3] = {OPR_DT_INT32, OPR_DT_BOOL, OPR_DT_FLOAT};
  expect_status(guide_attrs_type_list_example(ctx, two, 2), OPR_INVALID_ARGUMENT,
                "TypeListExample: attr 'a' has 2 elements; must have >= 3");
  expect_status(guide_attrs_type_list_example(ctx, three, 3),
                OPR_INVALID_ARGUMENT,
                "TypeListExample: attr 'a' element 1 is bool; must be one of "
                "{float, int32}");
  guide_attrs_attr_constraint_and_default_example_attrs zero = {.i = 0};
  expect_status(guide_attrs_attr_constraint_and_default_example(ctx, &zero),
                OPR_INVALID_ARGUMENT,
                "AttrConstraintAndDefaultExample: attr 'i' is 0; must be >= 1");
}

/* ---- the input examples of the guide (no kernels) ---- */

static void list_inputs_are_checked(void **state) {
  (void)state;
  opr_tensor *i = scalar(OPR_DT_INT32), *f = scalar(OPR_DT_FLOAT);
  opr_tensor *out[3] = {NULL, NULL, NULL};
  const opr_tensor *one[1] = {i}, *ints[2] = {i, i}, *mixed[2] = {i, f};
  expect_status(guide_io_min_length_int_list_example(ctx, one, 1, out),
                OPR_INVALID_ARGUMENT,
                "MinLengthIntListExample: input 'in' has 1 tensor; attr N "
                "must be >= 2");
  expect_status(guide_io_int_list_input_example(ctx, mixed, 2, out),
                OPR_INVALID_ARGUMENT,
                "IntListInputExample: input 'in' element 1 has type float; "
                "expected int32");
  expect_status(guide_io_same_list_input_example(ctx, mixed, 2, out),
                OPR_INVALID_ARGUMENT,
                "SameListInputExample: input 'in' element 1 has type float, "
                "but attr T is int32");
  expect_status(guide_io_restricted_tensor_sequence_example(ctx, mixed, 2, out, 2),
                OPR_INVALID_ARGUMENT,
                "RestrictedTensorSequenceExample: input 'in' element 1 has "
                "type float; attr T must be one of {int32, int64}");
  expect_status(guide_io_polymorphic_list_example(ctx, mixed, 2, out, 1),
                OPR_INVALID_ARGUMENT,
                "PolymorphicListExample: output 'out' has room for 1 tensor; "
                "the op produces 2");
  expect_status(guide_io_polymorphic_list_example(ctx, mixed, 2, out, 2),
                OPR_UNIMPLEMENTED,
                "PolymorphicListExample: no kernel for device CPU");
  expect_status(guide_io_int32_sequence_example(ctx, ints, 2), OPR_UNIMPLEMENTED,
                "Int32SequenceExample: no kernel for device CPU");
  expect_status(guide_io_built_in_types_example(ctx, i, i), OPR_INVALID_ARGUMENT,
                "BuiltInTypesExample: input 'complex_numbers' has type int32; "
                "expected complex64");
  opr_tensor_unref(i);
  opr_tensor_unref(f);
}

/* ---- the generic entry ---- */

static void generic_entry_runs_by_name_with_the_same_checks(void **state) {
  (void)state;
  opr_tensor *in = matrix(OPR_DT_FLOAT, 1, 2), *outs[2] = {NULL, NULL};
  const opr_tensor *ins[1] = {in};
  const opr_input inputs[1] = {{ins, 1}};
  const opr_named_attr attrs[1] = {
      {"preserve_index", {.kind = OPR_ATTR_INT, .u.i = 1}}};
  size_t n = 0;
  expect_ok(opr_execute(ctx, "ZeroOut", inputs, 1, attrs, 1, outs, 2, &n));
  assert_int_equal(n, 1);
  assert_int_equal(seen.preserve_index, 1);
  assert_int_equal(seen.T, OPR_DT_FLOAT);
  opr_tensor_unref(outs[0]);
  const opr_named_attr negative[1] = {
      {"preserve_index", {.kind = OPR_ATTR_INT, .u.i = -5}}};
  expect_status(opr_execute(ctx, "ZeroOut", inputs, 1, negative, 1, outs, 2, &n),
                OPR_INVALID_ARGUMENT,
                "ZeroOut: attr 'preserve_index' is -5; must be >= 0");
  const opr_named_attr wrong_kind[1] = {
      {"preserve_index", {.kind = OPR_ATTR_FLOAT, .u.f = 1.0f}}};
  expect_status(opr_execute(ctx, "ZeroOut", inputs, 1, wrong_kind, 1, outs, 2, &n),
                OPR_INVALID_ARGUMENT,
                "ZeroOut: attr 'preserve_index' must be int, got float");
  const opr_named_attr unknown[1] = {{"foo", {.kind = OPR_ATTR_INT}}};
  expect_status(opr_execute(ctx, "ZeroOut", inputs, 1, unknown, 1, outs, 2, &n),
                OPR_INVALID_ARGUMENT, "ZeroOut: no attr named 'foo'");
  expect_status(opr_execute(ctx, "ZeroOut", inputs, 0, NULL, 0, outs, 2, &n),
                OPR_INVALID_ARGUMENT, "ZeroOut: takes 1 input argument, got 0");
  expect_status(opr_execute(ctx, "NoSuchOp", inputs, 1, NULL, 0, outs, 2, &n),
                OPR_NOT_FOUND, "no op named 'NoSuchOp' is registered");
  opr_tensor_unref(in);
}

static void generic_entry_applies_every_kind_of_default(void **state) {
  (void)state;
  const opr_op_def *op = opr_find_op("AttrDefaultExampleForAllTypes");
  assert_ptr_equal(op, &guide_attrs_attr_default_example_for_all_types_def);
  size_t n = 0;
  /* No kernel: the check has run (defaults applied) when this answers. */
  expect_status(opr_execute(ctx, "AttrDefaultExampleForAllTypes", NULL, 0,
                            NULL, 0, NULL, 0, &n),
                OPR_UNIMPLEMENTED,
                "AttrDefaultExampleForAllTypes: no kernel for device CPU with "
                "ty=int32");
  const opr_attr_value *te = op->attrs[6].default_value;
  assert_int_equal(te->u.tensor->dtype, OPR_DT_INT32);
  assert_int_equal(*(const int32_t *)te->u.tensor->data, 5);
  const opr_attr_value *sh = op->attrs[5].default_value;
  assert_int_equal(sh->u.shape.rank, 2);
  assert_int_equal(sh->u.shape.dims[1], 2);
  const opr_attr_value *l = op->attrs[8].default_value;
  assert_int_equal(l->u.list.count, 4);
  assert_int_equal(((const int64_t *)l->u.list.items)[3], 7);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(zero_out_infers_T_and_applies_defaults),
      cmocka_unit_test(zero_out_rejects_a_type_outside_T),
      cmocka_unit_test(zero_out_rejects_negative_preserve_index),
      cmocka_unit_test(zero_out_rejects_null_pointers),
      cmocka_unit_test(zero_out_without_a_kernel_is_unimplemented),
      cmocka_unit_test(add_n_checks_agreement_and_length),
      cmocka_unit_test(fixed_types_are_checked),
      cmocka_unit_test(pad_enum_attr_reaches_the_kernel),
      cmocka_unit_test(output_type_attr_sets_the_output_dtype),
      cmocka_unit_test(attr_constraints_are_checked),
      cmocka_unit_test(list_inputs_are_checked),
      cmocka_unit_test(generic_entry_runs_by_name_with_the_same_checks),
      cmocka_unit_test(generic_entry_applies_every_kind_of_default),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
