/* The op and kernel registries, the check building blocks, dispatch and
 * the generic entry, on op tables written by hand the way the generator
 * writes them. Every rejection is asserted with its exact code and
 * message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "opr/opr.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define NO OPR_NO_ATTR
#define BIT(t) OPR_DTYPE_BIT(OPR_DT_##t)
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define TYPE_ATTR {OPR_ATTR_TYPE, false}
#define TYPE_LIST_ATTR {OPR_ATTR_TYPE, true}
#define INT_ATTR {OPR_ATTR_INT, false}

static opr_context *cpu, *gpu;

static void expect_status(opr_status s, opr_code code, const char *msg) {
  assert_non_null(s);
  assert_string_equal(opr_status_message(s), msg);
  assert_string_equal(opr_code_name(opr_status_code(s)),
                      opr_code_name(code));
  opr_status_free(s);
}

static opr_tensor *scalar(opr_dtype dt) {
  opr_tensor *t;
  assert_null(opr_tensor_new(dt, 0, NULL, &t));
  return t;
}

static opr_tensor *floats(int64_t n, float first) {
  opr_tensor *t;
  assert_null(opr_tensor_new(OPR_DT_FLOAT, 1, &n, &t));
  for (int64_t i = 0; i < n; i++) ((float *)t->data)[i] = first + (float)i;
  return t;
}

/* Invokes a call the way a typed wrapper does. */
static opr_status invoke(opr_context *ctx, const opr_op_def *op,
                         const opr_input *in, opr_attr_value *attrs,
                         opr_output *out) {
  opr_call call = {.op = op, .inputs = in, .attrs = attrs, .outputs = out};
  opr_status s = opr_invoke(ctx, &call);
  opr_call_cleanup(&call);
  return s;
}

static opr_attr_value int_value(int64_t i) {
  return (opr_attr_value){.kind = OPR_ATTR_INT, .u.i = i};
}

static opr_attr_value type_value(opr_dtype t) {
  return (opr_attr_value){.kind = OPR_ATTR_TYPE, .u.type = t};
}

static opr_attr_value string_value(const char *s) {
  return (opr_attr_value){.kind = OPR_ATTR_STRING, .u.s = {s, strlen(s)}};
}

/* ---- ZeroOut: T {float, double, int32} inferred; preserve_index ---- */

static const opr_attr_value int_zero = {.kind = OPR_ATTR_INT, .u.i = 0};
static const opr_attr_def zero_out_attrs[] = {
    {.name = "T", .type = TYPE_ATTR, .inferred = true,
     .allowed_types = BIT(FLOAT) | BIT(DOUBLE) | BIT(INT32)},
    {.name = "preserve_index", .type = INT_ATTR, .has_minimum = true,
     .minimum = 0, .default_value = &int_zero},
};
static const opr_arg_def zero_out_in[] = {{"to_zero", 0, 0, NO, NO, false}};
static const opr_arg_def zero_out_out[] = {{"zeroed", 0, 0, NO, NO, false}};

static opr_status zero_out_check(opr_call *c) {
  opr_status s;
  if ((s = opr_check_single_input(c, 0))) return s;
  if ((s = opr_infer_type_attr(c, 0, 0))) return s;
  if ((s = opr_check_attrs(c))) return s;
  return opr_check_outputs(c); /* as generated checks do */
}

static opr_op_state zero_out_state, zero_out_twin_state;
#define ZERO_OUT_FIELDS                                                  \
  .name = "ZeroOut", .inputs = zero_out_in, .ninputs = 1,                \
  .outputs = zero_out_out, .noutputs = 1, .attrs = zero_out_attrs,       \
  .nattrs = 2, .check = zero_out_check
static const opr_op_def zero_out_def = {ZERO_OUT_FIELDS,
                                        .state = &zero_out_state};
/* Another table with the same name and definition (a twin), and one
 * defined differently (stateful), never registered. */
static const opr_op_def zero_out_twin = {ZERO_OUT_FIELDS,
                                         .state = &zero_out_twin_state};
static opr_op_state zero_out_other_state;
static const opr_op_def zero_out_other = {ZERO_OUT_FIELDS,
                                          .is_stateful = true,
                                          .state = &zero_out_other_state};

typedef struct zero_out_attrs_t {
  int64_t preserve_index;
} zero_out_attrs_t;

/* What the generated typed wrapper does. */
static opr_status zero_out(opr_context *ctx, const opr_tensor *to_zero,
                           const zero_out_attrs_t *attrs,
                           opr_tensor **zeroed) {
  opr_attr_value av[2] = {{0}};
  if (attrs) av[1] = int_value(attrs->preserve_index);
  const opr_tensor *in0[1] = {to_zero};
  opr_input in[1] = {{in0, 1}};
  opr_output out[1] = {{zeroed, 1}};
  return invoke(ctx, &zero_out_def, in, av, out);
}

static const char *last_kernel; /* label of the kernel that ran last */

/* Keeps element preserve_index; 99: fails after allocating, 98: leaves
 * the output unset, 97: allocates twice. */
static opr_status zero_out_kernel(opr_kernel_ctx *k) {
  const opr_tensor *in = k->call->inputs[0].tensors[0];
  int64_t keep = k->call->attrs[1].u.i;
  last_kernel = k->kernel->label;
  if (keep == 98) return OPR_OK;
  opr_tensor *out;
  opr_status s = opr_kernel_alloc_output(k, 0, 0, in->rank, in->dims, &out);
  if (s) return s;
  if (keep == 99) return opr_error(OPR_INTERNAL, "ZeroOut: kernel failed");
  if (keep == 97) return opr_kernel_alloc_output(k, 0, 0, 0, NULL, &out);
  size_t es = opr_dtype_size(in->dtype);
  memset(out->data, 0, out->nbytes); /* outputs come uncleared */
  if (keep < in->num_elements)
    memcpy((char *)out->data + keep * (int64_t)es,
           (const char *)in->data + keep * (int64_t)es, es);
  return OPR_OK;
}

static const opr_type_constraint float_or_double[] = {
    {"T", BIT(FLOAT) | BIT(DOUBLE)}};
static const opr_type_constraint float_only[] = {{"T", BIT(FLOAT)}};
static const opr_type_constraint double_only[] = {{"T", BIT(DOUBLE)}};
/* Both arguments on the host: the kernel reads and writes them on a real
 * GPU too. */
static const char *const zeroed_on_host[] = {"zeroed", "to_zero"};
static const opr_kernel_def zero_out_generic = {
    .op = "ZeroOut", .device = OPR_DEVICE_CPU, .constraints = float_or_double,
    .nconstraints = 1, .priority = 0, .fn = zero_out_kernel,
    .label = "generic"};
static const opr_kernel_def zero_out_fast = {
    .op = "ZeroOut", .device = OPR_DEVICE_CPU, .constraints = float_only,
    .nconstraints = 1, .priority = 10, .fn = zero_out_kernel,
    .label = "fast"};
static const opr_kernel_def zero_out_late = {
    .op = "ZeroOut", .device = OPR_DEVICE_CPU, .constraints = double_only,
    .nconstraints = 1, .priority = 0, .fn = zero_out_kernel,
    .label = "late"};
static const opr_kernel_def zero_out_gpu = {
    .op = "ZeroOut", .device = OPR_DEVICE_GPU, .constraints = float_only,
    .nconstraints = 1, .host_memory = zeroed_on_host, .nhost_memory = 2,
    .fn = zero_out_kernel, .label = "gpu"};

/* ---- AddN: N * T ---- */

static const opr_attr_def add_n_attrs[] = {
    {.name = "N", .type = INT_ATTR, .has_minimum = true, .minimum = 1,
     .inferred = true},
    {.name = "T", .type = TYPE_ATTR, .inferred = true,
     .allowed_types = BIT(FLOAT) | BIT(INT32)},
};
static const opr_arg_def add_n_in[] = {{"inputs", 0, 1, 0, NO, false}};
static const opr_arg_def add_n_out[] = {{"sum", 0, 1, NO, NO, false}};

static opr_status add_n_check(opr_call *c) {
  opr_status s;
  if ((s = opr_check_list_input(c, 0))) return s;
  if ((s = opr_infer_number_attr(c, 0, 0))) return s;
  if ((s = opr_infer_type_attr(c, 0, 1))) return s;
  return opr_check_attrs(c);
}

static opr_op_state add_n_state;
static const opr_op_def add_n_def = {
    .name = "AddN", .inputs = add_n_in, .ninputs = 1, .outputs = add_n_out,
    .noutputs = 1, .attrs = add_n_attrs, .nattrs = 2, .check = add_n_check,
    .state = &add_n_state, .is_commutative = true, .is_aggregate = true};

static opr_status add_n_kernel(opr_kernel_ctx *k) {
  const opr_input *in = &k->call->inputs[0];
  opr_tensor *out;
  opr_status s = opr_kernel_alloc_output(k, 0, 0, in->tensors[0]->rank,
                                         in->tensors[0]->dims, &out);
  if (!s) memset(out->data, 0, out->nbytes); /* outputs come uncleared */
  for (size_t i = 0; !s && i < in->count; i++)
    for (int64_t j = 0; j < out->num_elements; j++)
      ((float *)out->data)[j] += ((const float *)in->tensors[i]->data)[j];
  return s;
}

static const opr_kernel_def add_n_cpu = {
    .op = "AddN", .device = OPR_DEVICE_CPU, .constraints = float_only,
    .nconstraints = 1, .fn = add_n_kernel};

/* ---- AddOne: fixed int32 ---- */

static const opr_arg_def add_one_in[] = {
    {"input", OPR_DT_INT32, NO, NO, NO, false}};
static const opr_arg_def add_one_out[] = {
    {"output", OPR_DT_INT32, NO, NO, NO, false}};

static opr_status add_one_check(opr_call *c) {
  opr_status s;
  if ((s = opr_check_single_input(c, 0))) return s;
  if ((s = opr_check_input_type(c, 0, OPR_DT_INT32))) return s;
  return opr_check_attrs(c);
}

static opr_op_state add_one_state;
static const opr_op_def add_one_def = {
    .name = "AddOne", .inputs = add_one_in, .ninputs = 1,
    .outputs = add_one_out, .noutputs = 1, .check = add_one_check,
    .state = &add_one_state};

/* ---- attr-only ops (no inputs, no outputs, no kernels) ---- */

static opr_status attrs_only_check(opr_call *c) { return opr_check_attrs(c); }

static const opr_str fruits[] = {{"apple", 5}, {"orange", 6}};
static const opr_attr_def enum_attrs[] = {
    {.name = "e", .type = {OPR_ATTR_STRING, false},
     .allowed_strings = fruits, .nallowed_strings = 2}};
static opr_op_state enum_state;
static const opr_op_def enum_def = {
    .name = "EnumExample", .attrs = enum_attrs, .nattrs = 1,
    .check = attrs_only_check, .state = &enum_state};

static const opr_attr_def min_int_attrs[] = {
    {.name = "a", .type = INT_ATTR, .has_minimum = true, .minimum = 2}};
static opr_op_state min_int_state;
static const opr_op_def min_int_def = {
    .name = "MinIntExample", .attrs = min_int_attrs, .nattrs = 1,
    .check = attrs_only_check, .state = &min_int_state};

static const opr_attr_def type_list_attrs[] = {
    {.name = "a", .type = TYPE_LIST_ATTR, .has_minimum = true, .minimum = 3,
     .allowed_types = BIT(INT32) | BIT(FLOAT)}};
static opr_op_state type_list_state;
static const opr_op_def type_list_def = {
    .name = "TypeListExample", .attrs = type_list_attrs, .nattrs = 1,
    .check = attrs_only_check, .state = &type_list_state};

static const opr_attr_def restricted_attrs[] = {
    {.name = "t", .type = TYPE_ATTR,
     .allowed_types = BIT(INT32) | BIT(FLOAT) | BIT(BOOL)}};
static opr_op_state restricted_state;
static const opr_op_def restricted_def = {
    .name = "RestrictedTypeExample", .attrs = restricted_attrs, .nattrs = 1,
    .check = attrs_only_check, .state = &restricted_state};

/* ---- int lists: N * int32 in, N * int32 out ---- */

static opr_status int_list_check(opr_call *c) {
  opr_status s;
  if ((s = opr_check_list_input(c, 0))) return s;
  if ((s = opr_check_input_type(c, 0, OPR_DT_INT32))) return s;
  if ((s = opr_infer_number_attr(c, 0, 0))) return s;
  return opr_check_attrs(c);
}

static const opr_attr_def int_list_attrs[] = {
    {.name = "N", .type = INT_ATTR, .has_minimum = true, .minimum = 1,
     .inferred = true}};
static const opr_arg_def int_list_in[] = {
    {"in", OPR_DT_INT32, NO, 0, NO, false}};
static const opr_arg_def int_list_out[] = {
    {"out", OPR_DT_INT32, NO, 0, NO, false}};
static opr_op_state int_list_state;
static const opr_op_def int_list_def = {
    .name = "IntListInputExample", .inputs = int_list_in, .ninputs = 1,
    .outputs = int_list_out, .noutputs = 1, .attrs = int_list_attrs,
    .nattrs = 1, .check = int_list_check, .state = &int_list_state};

/* Output i is input i plus one. */
static opr_status int_list_kernel(opr_kernel_ctx *k) {
  const opr_input *in = &k->call->inputs[0];
  for (size_t i = 0; i < in->count; i++) {
    opr_tensor *out;
    opr_status s = opr_kernel_alloc_output(k, 0, i, 0, NULL, &out);
    if (s) return s;
    *(int32_t *)out->data = *(const int32_t *)in->tensors[i]->data + 1;
  }
  return OPR_OK;
}

static const opr_kernel_def int_list_cpu = {
    .op = "IntListInputExample", .device = OPR_DEVICE_CPU,
    .fn = int_list_kernel};
static const opr_kernel_def int_list_gpu = {
    .op = "IntListInputExample", .device = OPR_DEVICE_GPU,
    .fn = int_list_kernel};

static const opr_attr_def min_length_attrs[] = {
    {.name = "N", .type = INT_ATTR, .has_minimum = true, .minimum = 2,
     .inferred = true}};
static const opr_arg_def one_int32_out[] = {
    {"out", OPR_DT_INT32, NO, NO, NO, false}};
static opr_op_state min_length_state;
static const opr_op_def min_length_def = {
    .name = "MinLengthIntListExample", .inputs = int_list_in, .ninputs = 1,
    .outputs = one_int32_out, .noutputs = 1, .attrs = min_length_attrs,
    .nattrs = 1, .check = int_list_check, .state = &min_length_state};

/* ---- list(type) inputs ---- */

static const opr_attr_def min_poly_attrs[] = {
    {.name = "T", .type = TYPE_LIST_ATTR, .has_minimum = true, .minimum = 3,
     .inferred = true}};
static const opr_arg_def min_poly_in[] = {{"in", 0, NO, NO, 0, false}};

static opr_status min_poly_check(opr_call *c) {
  opr_status s;
  if ((s = opr_check_list_input(c, 0))) return s;
  if ((s = opr_infer_type_list_attr(c, 0, 0))) return s;
  return opr_check_attrs(c);
}

static opr_op_state min_poly_state;
static const opr_op_def min_poly_def = {
    .name = "MinimumLengthPolymorphicListExample", .inputs = min_poly_in,
    .ninputs = 1, .outputs = one_int32_out, .noutputs = 1,
    .attrs = min_poly_attrs, .nattrs = 1, .check = min_poly_check,
    .state = &min_poly_state};

/* TwoLists: a: T, b: U (U restricted); out: T (copies of a). */
static const opr_attr_def two_lists_attrs[] = {
    {.name = "T", .type = TYPE_LIST_ATTR, .inferred = true},
    {.name = "U", .type = TYPE_LIST_ATTR, .inferred = true,
     .allowed_types = BIT(FLOAT) | BIT(INT32)}};
static const opr_arg_def two_lists_in[] = {{"a", 0, NO, NO, 0, false},
                                           {"b", 0, NO, NO, 1, false}};
static const opr_arg_def two_lists_out[] = {{"out", 0, NO, NO, 0, false}};

static opr_status two_lists_check(opr_call *c) {
  opr_status s;
  for (size_t i = 0; i < 2; i++) {
    if ((s = opr_check_list_input(c, i))) return s;
    if ((s = opr_infer_type_list_attr(c, i, i))) return s;
  }
  return opr_check_attrs(c);
}

static opr_op_state two_lists_state;
static const opr_op_def two_lists_def = {
    .name = "TwoLists", .inputs = two_lists_in, .ninputs = 2,
    .outputs = two_lists_out, .noutputs = 1, .attrs = two_lists_attrs,
    .nattrs = 2, .check = two_lists_check, .state = &two_lists_state};

static size_t seen_u_count;
static opr_dtype seen_u3;

static opr_status two_lists_kernel(opr_kernel_ctx *k) {
  const opr_input *a = &k->call->inputs[0];
  const opr_attr_value *u = &k->call->attrs[1];
  seen_u_count = u->u.list.count;
  seen_u3 = ((const opr_dtype *)u->u.list.items)[3];
  for (size_t i = 0; i < a->count; i++) {
    const opr_tensor *t = a->tensors[i];
    opr_tensor *out;
    opr_status s = opr_kernel_alloc_output(k, 0, i, t->rank, t->dims, &out);
    if (s) return s;
    assert_int_equal(out->dtype, opr_output_dtype(k->call, 0, i));
    memcpy(out->data, t->data, t->nbytes);
  }
  return OPR_OK;
}

static const opr_kernel_def two_lists_cpu = {
    .op = "TwoLists", .device = OPR_DEVICE_CPU, .fn = two_lists_kernel};

static const opr_op_def *const all_ops[] = {
    &zero_out_def, &add_n_def,     &add_one_def,    &enum_def,
    &min_int_def,  &type_list_def, &restricted_def, &int_list_def,
    &min_length_def, &min_poly_def, &two_lists_def};
static const opr_kernel_def *const all_kernels[] = {
    &zero_out_generic, &zero_out_fast, &zero_out_late, &zero_out_gpu,
    &add_n_cpu,        &int_list_cpu,  &int_list_gpu,  &two_lists_cpu};

static int setup(void **state) {
  (void)state;
  for (size_t i = 0; i < COUNT(all_ops); i++)
    if (opr_register_op(all_ops[i])) return -1;
  for (size_t i = 0; i < COUNT(all_kernels); i++)
    if (opr_register_kernel(all_kernels[i])) return -1;
  opr_context_options gpu_options = {.device = OPR_DEVICE_GPU};
  if (opr_context_new(NULL, &cpu)) return -1;
  /* Without a GPU there is no GPU context: its tests skip. */
  opr_status s = opr_context_new(&gpu_options, &gpu);
  if (s && opr_gpu_device_count() > 0) return -1;
  opr_status_free(s);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  opr_context_free(cpu);
  opr_context_free(gpu);
  return 0;
}

/* ---- the op registry ---- */

static void registered_ops_are_found_and_listed_sorted(void **state) {
  (void)state;
  const opr_op_def *list[64];
  size_t n = opr_list_ops(list, COUNT(list));
  assert_int_equal(n, COUNT(all_ops));
  assert_int_equal(opr_list_ops(NULL, 0), n);
  for (size_t i = 1; i < n; i++)
    assert_true(strcmp(list[i - 1]->name, list[i]->name) < 0);
  assert_ptr_equal(opr_find_op("ZeroOut"), &zero_out_def);
  assert_ptr_equal(opr_find_op("AddN"), &add_n_def);
  assert_null(opr_find_op("Foo"));
  assert_null(opr_find_op(NULL));
}

static void registering_the_same_def_again_is_a_no_op(void **state) {
  (void)state;
  assert_null(opr_register_op(&zero_out_def));
  assert_int_equal(opr_list_ops(NULL, 0), COUNT(all_ops));
}

static void another_def_with_a_registered_name_already_exists(void **s) {
  (void)s;
  expect_status(opr_register_op(&zero_out_other), OPR_ALREADY_EXISTS,
                "ZeroOut: another op of that name is already registered "
                "with a different definition (flags differ (none vs stateful))");
  assert_false(zero_out_other_state.registered);
}

/* A twin binds to the registered op: not listed, not found by name,
 * but calls through it dispatch to the registered op's kernels. */
static void an_identical_def_binds_to_the_registered_op(void **s) {
  (void)s;
  assert_null(opr_register_op(&zero_out_twin));
  assert_true(zero_out_twin_state.registered);
  assert_ptr_equal(opr_find_op("ZeroOut"), &zero_out_def);
  assert_int_equal(opr_list_ops(NULL, 0), COUNT(all_ops));
  assert_ptr_equal(zero_out_twin_state.kernels, zero_out_state.kernels);
  assert_int_equal(opr_list_kernels(&zero_out_twin, NULL, 0),
                   opr_list_kernels(&zero_out_def, NULL, 0));
}

static void invoking_an_unregistered_op_fails_precondition(void **state) {
  (void)state;
  opr_tensor *t = scalar(OPR_DT_FLOAT), *out = NULL;
  const opr_tensor *in0[1] = {t};
  opr_input in[1] = {{in0, 1}};
  opr_attr_value av[2] = {{0}};
  opr_output o[1] = {{&out, 1}};
  expect_status(invoke(cpu, &zero_out_other, in, av, o),
                OPR_FAILED_PRECONDITION,
                "ZeroOut: op is not registered (call its register function "
                "first)");
  assert_null(out);
  opr_tensor_unref(t);
}

static opr_status never_called(opr_call *c) {
  (void)c;
  return OPR_OK;
}

static void inconsistent_op_defs_are_rejected(void **state) {
  (void)state;
  static opr_op_state st;
  static const opr_attr_def int_attr[] = {{.name = "a", .type = INT_ATTR}};
  static const opr_arg_def typed_by_int[] = {{"x", 0, 0, NO, NO, false}};
  static const opr_attr_value text = {.kind = OPR_ATTR_STRING};
  static const opr_attr_def bad_default[] = {
      {.name = "a", .type = INT_ATTR, .default_value = &text}};
  const opr_op_def no_state = {.name = "Broken", .check = never_called};
  const opr_op_def bad_ref = {.name = "Broken", .inputs = typed_by_int,
                              .ninputs = 1, .attrs = int_attr, .nattrs = 1,
                              .check = never_called, .state = &st};
  const opr_op_def bad_def = {.name = "Broken", .attrs = bad_default,
                              .nattrs = 1, .check = never_called,
                              .state = &st};
  expect_status(opr_register_op(&no_state), OPR_INVALID_ARGUMENT,
                "Broken: the op def lacks a state record");
  expect_status(opr_register_op(&bad_ref), OPR_INVALID_ARGUMENT,
                "Broken: input 'x' names a type attr that is no type attr "
                "of the op");
  expect_status(opr_register_op(&bad_def), OPR_INVALID_ARGUMENT,
                "Broken: attr 'a' has a default of type string; the attr is "
                "int");
  assert_null(opr_find_op("Broken"));
}

/* ---- the kernel registry ---- */

static void kernel_for_an_unknown_op_is_not_found(void **state) {
  (void)state;
  opr_kernel_def k = zero_out_fast;
  k.op = "Foo";
  expect_status(opr_register_kernel(&k), OPR_NOT_FOUND,
                "no op named 'Foo' is registered");
}

static void kernel_constraints_and_host_memory_must_name_the_op(void **s) {
  (void)s;
  static const opr_type_constraint on_int[] = {{"preserve_index", 0}};
  static const char *const nowhere[] = {"nowhere"};
  opr_kernel_def k = zero_out_fast;
  k.constraints = on_int;
  expect_status(opr_register_kernel(&k), OPR_INVALID_ARGUMENT,
                "ZeroOut: kernel constraint on 'preserve_index', which is "
                "no type attr of the op");
  k = zero_out_fast;
  k.host_memory = nowhere;
  k.nhost_memory = 1;
  expect_status(opr_register_kernel(&k), OPR_INVALID_ARGUMENT,
                "ZeroOut: kernel host_memory 'nowhere' is no argument of "
                "the op");
  k = zero_out_fast;
  k.fn = NULL;
  expect_status(opr_register_kernel(&k), OPR_INVALID_ARGUMENT,
                "ZeroOut: kernel has no function");
}

static void kernels_are_listed_in_selection_order(void **state) {
  (void)state;
  const opr_kernel_def *k[8];
  assert_int_equal(opr_list_kernels(&zero_out_def, k, COUNT(k)), 4);
  assert_string_equal(k[0]->label, "fast");
  assert_string_equal(k[1]->label, "generic");
  assert_string_equal(k[2]->label, "late");
  assert_string_equal(k[3]->label, "gpu");
  /* The definition was copied, strings included. */
  assert_ptr_not_equal(k[0], &zero_out_fast);
  assert_ptr_not_equal(k[0]->constraints, zero_out_fast.constraints);
  assert_string_equal(k[0]->constraints[0].attr, "T");
  assert_string_equal(k[3]->host_memory[0], "zeroed");
}

static void registering_the_same_kernel_again_is_a_no_op(void **state) {
  (void)state;
  assert_null(opr_register_kernel(&zero_out_fast));
  assert_int_equal(opr_list_kernels(&zero_out_def, NULL, 0), 4);
}

static void highest_priority_matching_kernel_runs(void **state) {
  (void)state;
  opr_tensor *f = scalar(OPR_DT_FLOAT), *d = scalar(OPR_DT_DOUBLE), *out;
  assert_null(zero_out(cpu, f, NULL, &out));
  assert_string_equal(last_kernel, "fast");
  opr_tensor_unref(out);
  /* "generic" and "late" tie on priority: the earlier one wins. */
  assert_null(zero_out(cpu, d, NULL, &out));
  assert_string_equal(last_kernel, "generic");
  assert_int_equal(out->dtype, OPR_DT_DOUBLE);
  opr_tensor_unref(out);
  opr_tensor_unref(f);
  opr_tensor_unref(d);
}

static void no_kernel_for_the_types_is_unimplemented(void **state) {
  (void)state;
  opr_tensor *t = scalar(OPR_DT_INT32), *out = (opr_tensor *)&out;
  expect_status(zero_out(cpu, t, NULL, &out), OPR_UNIMPLEMENTED,
                "ZeroOut: no kernel for device CPU with T=int32");
  assert_null(out);
  opr_tensor_unref(t);
}

static void no_kernel_for_the_device_is_unimplemented(void **state) {
  (void)state;
  if (!gpu) skip();
  opr_tensor *a = floats(2, 1), *out = NULL;
  const opr_tensor *list[1] = {a};
  opr_input in[1] = {{list, 1}};
  opr_attr_value av[2] = {{0}};
  opr_output o[1] = {{&out, 1}};
  expect_status(invoke(gpu, &add_n_def, in, av, o), OPR_UNIMPLEMENTED,
                "AddN: no kernel for device GPU with T=float");
  opr_tensor_unref(a);
}

static void op_without_type_attrs_names_only_the_device(void **state) {
  (void)state;
  opr_attr_value av[1] = {string_value("apple")};
  expect_status(invoke(cpu, &enum_def, NULL, av, NULL), OPR_UNIMPLEMENTED,
                "EnumExample: no kernel for device CPU");
}

static void host_memory_outputs_of_device_kernels_live_on_the_host(void **s) {
  (void)s;
  if (!gpu) skip();
  opr_tensor *t = floats(3, 5), *out;
  assert_null(zero_out(gpu, t, NULL, &out));
  assert_string_equal(last_kernel, "gpu");
  assert_int_equal(out->device, OPR_DEVICE_CPU);
  assert_true(((float *)out->data)[0] == 5.0f);
  opr_tensor_unref(out);
  opr_tensor_unref(t);
}

static void a_gpu_context_needs_a_device(void **state) {
  (void)state;
  if (gpu) skip();
  opr_context_options options = {.device = OPR_DEVICE_GPU};
  opr_context *ctx = (opr_context *)&ctx;
  opr_status s = opr_context_new(&options, &ctx);
  static const char msg[] = "opr_context_new: no CUDA device is available: ";
  assert_int_equal(opr_status_code(s), OPR_FAILED_PRECONDITION);
  assert_memory_equal(opr_status_message(s), msg, sizeof msg - 1);
  opr_status_free(s);
  assert_null(ctx);
}

/* ---- calls through a typed wrapper ---- */

static void zero_out_returns_an_output_the_caller_owns(void **state) {
  (void)state;
  opr_tensor *t = floats(4, 1), *out;
  zero_out_attrs_t attrs = {.preserve_index = 2};
  assert_null(zero_out(cpu, t, &attrs, &out));
  assert_int_equal(out->dtype, OPR_DT_FLOAT);
  assert_int_equal(out->num_elements, 4);
  assert_int_equal(out->refcount, 1);
  const float *v = out->data;
  assert_true(v[0] == 0 && v[1] == 0 && v[2] == 3 && v[3] == 0);
  opr_tensor_unref(out);
  opr_tensor_unref(t);
}

static void unset_attrs_take_their_defaults(void **state) {
  (void)state;
  opr_tensor *t = floats(2, 7), *out;
  assert_null(zero_out(cpu, t, NULL, &out));
  assert_true(((float *)out->data)[0] == 7 && ((float *)out->data)[1] == 0);
  opr_tensor_unref(out);
  opr_tensor_unref(t);
}

static void null_input_is_rejected(void **state) {
  (void)state;
  opr_tensor *out;
  expect_status(zero_out(cpu, NULL, NULL, &out), OPR_INVALID_ARGUMENT,
                "ZeroOut: input 'to_zero' is NULL");
}

static void input_type_outside_the_attr_constraint_is_rejected(void **s) {
  (void)s;
  opr_tensor *t, *out;
  assert_null(opr_tensor_from_strings(0, NULL, (const char *[]){"x"}, NULL,
                                      &t));
  expect_status(zero_out(cpu, t, NULL, &out), OPR_INVALID_ARGUMENT,
                "ZeroOut: input 'to_zero' has type string; attr T must be "
                "one of {float, double, int32}");
  opr_tensor_unref(t);
}

static void attr_below_its_minimum_is_rejected(void **state) {
  (void)state;
  opr_tensor *t = scalar(OPR_DT_FLOAT), *out;
  zero_out_attrs_t attrs = {.preserve_index = -1};
  expect_status(zero_out(cpu, t, &attrs, &out), OPR_INVALID_ARGUMENT,
                "ZeroOut: attr 'preserve_index' is -1; must be >= 0");
  opr_tensor_unref(t);
}

static void null_output_slot_is_rejected(void **state) {
  (void)state;
  opr_tensor *t = scalar(OPR_DT_FLOAT);
  expect_status(zero_out(cpu, t, NULL, NULL), OPR_INVALID_ARGUMENT,
                "ZeroOut: output 'zeroed' is NULL");
  opr_tensor_unref(t);
}

static void failing_kernel_releases_its_outputs(void **state) {
  (void)state;
  opr_tensor *t = scalar(OPR_DT_FLOAT), *out = NULL;
  zero_out_attrs_t fail = {99}, forget = {98}, twice = {97};
  expect_status(zero_out(cpu, t, &fail, &out), OPR_INTERNAL,
                "ZeroOut: kernel failed");
  assert_null(out);
  expect_status(zero_out(cpu, t, &forget, &out), OPR_INTERNAL,
                "ZeroOut: the kernel left output 'zeroed' element 0 unset");
  expect_status(zero_out(cpu, t, &twice, &out), OPR_INTERNAL,
                "ZeroOut: the kernel allocates output 'zeroed' element 0 "
                "twice");
  assert_null(out);
  opr_tensor_unref(t); /* valgrind: the allocated outputs were freed */
}

static opr_status add_n(opr_context *ctx, const opr_tensor *const *inputs,
                        size_t n, opr_tensor **sum) {
  opr_input in[1] = {{inputs, n}};
  opr_attr_value av[2] = {{0}};
  opr_output out[1] = {{sum, 1}};
  return invoke(ctx, &add_n_def, in, av, out);
}

static void add_n_infers_n_and_t(void **state) {
  (void)state;
  opr_tensor *a = floats(2, 1), *b = floats(2, 10), *sum;
  const opr_tensor *list[2] = {a, b};
  assert_null(add_n(cpu, list, 2, &sum));
  assert_true(((float *)sum->data)[0] == 11 && ((float *)sum->data)[1] == 13);
  opr_tensor_unref(sum);
  opr_tensor_unref(a);
  opr_tensor_unref(b);
}

static void null_list_element_is_rejected(void **state) {
  (void)state;
  opr_tensor *a = floats(1, 0), *sum;
  const opr_tensor *list[2] = {a, NULL};
  expect_status(add_n(cpu, list, 2, &sum), OPR_INVALID_ARGUMENT,
                "AddN: input 'inputs' element 1 is NULL");
  opr_tensor_unref(a);
}

static void list_elements_must_agree_on_the_inferred_type(void **state) {
  (void)state;
  opr_tensor *a = scalar(OPR_DT_FLOAT), *b = scalar(OPR_DT_INT32), *sum;
  const opr_tensor *list[2] = {a, b};
  expect_status(add_n(cpu, list, 2, &sum), OPR_INVALID_ARGUMENT,
                "AddN: input 'inputs' element 1 has type int32, but attr T "
                "is float");
  opr_tensor_unref(a);
  opr_tensor_unref(b);
}

static void list_shorter_than_its_minimum_is_rejected(void **state) {
  (void)state;
  opr_tensor *a = scalar(OPR_DT_FLOAT), *sum;
  expect_status(add_n(cpu, NULL, 0, &sum), OPR_INVALID_ARGUMENT,
                "AddN: input 'inputs' has 0 tensors; attr N must be >= 1");
  opr_tensor *i = scalar(OPR_DT_INT32), *out = NULL;
  const opr_tensor *one[1] = {i};
  opr_input in[1] = {{one, 1}};
  opr_attr_value av[1] = {{0}};
  opr_output o[1] = {{&out, 1}};
  expect_status(invoke(cpu, &min_length_def, in, av, o),
                OPR_INVALID_ARGUMENT,
                "MinLengthIntListExample: input 'in' has 1 tensor; attr N "
                "must be >= 2");
  opr_tensor_unref(a);
  opr_tensor_unref(i);
}

static void fixed_input_type_is_checked(void **state) {
  (void)state;
  opr_tensor *f = scalar(OPR_DT_FLOAT), *out = NULL;
  const opr_tensor *one[1] = {f};
  opr_input in[1] = {{one, 1}};
  opr_output o[1] = {{&out, 1}};
  expect_status(invoke(cpu, &add_one_def, in, NULL, o), OPR_INVALID_ARGUMENT,
                "AddOne: input 'input' has type float; expected int32");
  opr_tensor_unref(f);
}

static void output_list_needs_room_for_every_tensor(void **state) {
  (void)state;
  opr_tensor *t[3] = {scalar(OPR_DT_INT32), scalar(OPR_DT_INT32),
                      scalar(OPR_DT_INT32)};
  opr_tensor *out[3] = {NULL, NULL, NULL};
  const opr_tensor *list[3] = {t[0], t[1], t[2]};
  opr_input in[1] = {{list, 3}};
  opr_attr_value av[1] = {{0}};
  opr_output small[1] = {{out, 2}};
  expect_status(invoke(cpu, &int_list_def, in, av, small),
                OPR_INVALID_ARGUMENT,
                "IntListInputExample: output 'out' has room for 2 tensors; "
                "the op produces 3");
  av[0].kind = OPR_ATTR_UNSET;
  opr_output room[1] = {{out, 3}};
  *(int32_t *)t[2]->data = 41;
  assert_null(invoke(cpu, &int_list_def, in, av, room));
  assert_int_equal(*(int32_t *)out[2]->data, 42);
  for (int i = 0; i < 3; i++) {
    opr_tensor_unref(out[i]);
    opr_tensor_unref(t[i]);
  }
}

/* ---- attr checks ---- */

static void check_attrs_only(const opr_op_def *op, opr_attr_value v,
                             opr_code code, const char *msg) {
  opr_attr_value av[1] = {v};
  expect_status(invoke(cpu, op, NULL, av, NULL), code, msg);
}

static void required_attr_must_be_given(void **state) {
  (void)state;
  check_attrs_only(&enum_def, (opr_attr_value){0}, OPR_INVALID_ARGUMENT,
                   "EnumExample: attr 'e' is required");
}

static void string_attr_must_be_an_allowed_value(void **state) {
  (void)state;
  check_attrs_only(&enum_def, string_value("banana"), OPR_INVALID_ARGUMENT,
                   "EnumExample: attr 'e' is 'banana'; must be one of "
                   "{'apple', 'orange'}");
  check_attrs_only(&enum_def, string_value("orange"), OPR_UNIMPLEMENTED,
                   "EnumExample: no kernel for device CPU");
}

static void int_attr_respects_its_minimum(void **state) {
  (void)state;
  check_attrs_only(&min_int_def, int_value(1), OPR_INVALID_ARGUMENT,
                   "MinIntExample: attr 'a' is 1; must be >= 2");
}

static void attr_of_the_wrong_kind_is_rejected(void **state) {
  (void)state;
  check_attrs_only(&min_int_def, string_value("2"), OPR_INVALID_ARGUMENT,
                   "MinIntExample: attr 'a' must be int, got string");
  opr_attr_value list = {.kind = OPR_ATTR_INT, .is_list = true};
  check_attrs_only(&min_int_def, list, OPR_INVALID_ARGUMENT,
                   "MinIntExample: attr 'a' must be int, got list(int)");
}

static opr_attr_value type_list(const opr_dtype *types, size_t n) {
  return (opr_attr_value){.kind = OPR_ATTR_TYPE, .is_list = true,
                          .u.list = {n, types}};
}

static void type_list_attr_respects_its_minimum_length(void **state) {
  (void)state;
  static const opr_dtype two[] = {OPR_DT_INT32, OPR_DT_FLOAT};
  check_attrs_only(&type_list_def, type_list(two, 2), OPR_INVALID_ARGUMENT,
                   "TypeListExample: attr 'a' has 2 elements; must have >= "
                   "3");
}

static void type_list_elements_must_be_allowed(void **state) {
  (void)state;
  static const opr_dtype three[] = {OPR_DT_INT32, OPR_DT_BOOL, OPR_DT_FLOAT};
  /* Type sets print in dtype order, whatever order the spec used. */
  check_attrs_only(&type_list_def, type_list(three, 3), OPR_INVALID_ARGUMENT,
                   "TypeListExample: attr 'a' element 1 is bool; must be one "
                   "of {float, int32}");
}

static void type_attr_must_be_allowed_and_valid(void **state) {
  (void)state;
  check_attrs_only(&restricted_def, type_value(OPR_DT_STRING),
                   OPR_INVALID_ARGUMENT,
                   "RestrictedTypeExample: attr 't' is string; must be one of "
                   "{float, int32, bool}");
  check_attrs_only(&restricted_def, type_value((opr_dtype)99),
                   OPR_INVALID_ARGUMENT,
                   "RestrictedTypeExample: attr 't' is not a valid type "
                   "(value 99)");
}

/* ---- list(type) inputs ---- */

static void polymorphic_list_shorter_than_its_minimum_is_rejected(void **s) {
  (void)s;
  opr_tensor *a = scalar(OPR_DT_FLOAT), *b = scalar(OPR_DT_BOOL), *out;
  const opr_tensor *list[2] = {a, b};
  opr_input in[1] = {{list, 2}};
  opr_attr_value av[1] = {{0}};
  opr_output o[1] = {{&out, 1}};
  expect_status(invoke(cpu, &min_poly_def, in, av, o), OPR_INVALID_ARGUMENT,
                "MinimumLengthPolymorphicListExample: input 'in' has 2 "
                "tensors; attr T must have >= 3");
  opr_tensor_unref(a);
  opr_tensor_unref(b);
}

enum { LONG_LIST = 20 }; /* beyond the call's inline type storage */

static void type_lists_are_inferred_for_any_length(void **state) {
  (void)state;
  opr_tensor *t[LONG_LIST], *out[LONG_LIST];
  const opr_tensor *list[LONG_LIST];
  for (int i = 0; i < LONG_LIST; i++) {
    t[i] = scalar(i % 2 ? OPR_DT_INT32 : OPR_DT_FLOAT);
    *(int32_t *)t[i]->data = i;
    list[i] = t[i];
  }
  opr_input in[2] = {{list, LONG_LIST}, {list, LONG_LIST}};
  opr_attr_value av[2] = {{0}};
  opr_output o[1] = {{out, LONG_LIST}};
  assert_null(invoke(cpu, &two_lists_def, in, av, o));
  assert_int_equal(seen_u_count, LONG_LIST);
  assert_int_equal(seen_u3, OPR_DT_INT32);
  for (int i = 0; i < LONG_LIST; i++) {
    assert_int_equal(out[i]->dtype, t[i]->dtype);
    assert_int_equal(*(int32_t *)out[i]->data, i);
    opr_tensor_unref(out[i]);
    opr_tensor_unref(t[i]);
  } /* valgrind: the two heap type lists were freed */
}

static void type_list_elements_from_inputs_must_be_allowed(void **state) {
  (void)state;
  opr_tensor *f = scalar(OPR_DT_FLOAT), *b = scalar(OPR_DT_BOOL), *out[1];
  const opr_tensor *a_list[1] = {f}, *b_list[2] = {f, b};
  opr_input in[2] = {{a_list, 1}, {b_list, 2}};
  opr_attr_value av[2] = {{0}};
  opr_output o[1] = {{out, 1}};
  expect_status(invoke(cpu, &two_lists_def, in, av, o), OPR_INVALID_ARGUMENT,
                "TwoLists: input 'b' element 1 has type bool; attr U must be "
                "one of {float, int32}");
  opr_tensor_unref(f);
  opr_tensor_unref(b);
}

/* ---- the generic entry ---- */

static void execute_runs_an_op_by_name_with_named_attrs(void **state) {
  (void)state;
  opr_tensor *t = floats(3, 1), *out[2] = {NULL, NULL};
  const opr_tensor *one[1] = {t};
  opr_input in[1] = {{one, 1}};
  opr_named_attr attrs[1] = {{"preserve_index", int_value(1)}};
  size_t n = 99;
  assert_null(opr_execute(cpu, "ZeroOut", in, 1, attrs, 1, out, 2, &n));
  assert_int_equal(n, 1);
  const float *v = out[0]->data;
  assert_true(v[0] == 0 && v[1] == 2 && v[2] == 0);
  opr_tensor_unref(out[0]);
  opr_tensor_unref(t);
}

static void execute_flattens_list_outputs(void **state) {
  (void)state;
  opr_tensor *t[3] = {scalar(OPR_DT_INT32), scalar(OPR_DT_INT32),
                      scalar(OPR_DT_INT32)};
  const opr_tensor *list[3] = {t[0], t[1], t[2]};
  opr_input in[1] = {{list, 3}};
  opr_tensor *out[3];
  size_t n = 0;
  assert_null(opr_execute(cpu, "IntListInputExample", in, 1, NULL, 0, out, 3,
                          &n));
  assert_int_equal(n, 3);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(*(int32_t *)out[i]->data, 1);
    opr_tensor_unref(out[i]);
    opr_tensor_unref(t[i]);
  }
}

static void execute_of_an_unknown_op_is_not_found(void **state) {
  (void)state;
  size_t n = 5;
  expect_status(opr_execute(cpu, "Foo", NULL, 0, NULL, 0, NULL, 0, &n),
                OPR_NOT_FOUND, "no op named 'Foo' is registered");
  assert_int_equal(n, 0);
}

static void execute_checks_the_number_of_input_arguments(void **state) {
  (void)state;
  opr_tensor *t = scalar(OPR_DT_FLOAT), *out;
  const opr_tensor *one[1] = {t};
  opr_input in[2] = {{one, 1}, {one, 1}};
  size_t n;
  expect_status(opr_execute(cpu, "ZeroOut", in, 2, NULL, 0, &out, 1, &n),
                OPR_INVALID_ARGUMENT, "ZeroOut: takes 1 input argument, got 2");
  const opr_tensor *three[3] = {t, t, t};
  in[0] = (opr_input){three, 3};
  expect_status(opr_execute(cpu, "ZeroOut", in, 1, NULL, 0, &out, 1, &n),
                OPR_INVALID_ARGUMENT,
                "ZeroOut: input 'to_zero' takes one tensor, got 3");
  opr_tensor_unref(t);
}

static void execute_maps_attr_names(void **state) {
  (void)state;
  opr_tensor *t = scalar(OPR_DT_FLOAT), *out;
  const opr_tensor *one[1] = {t};
  opr_input in[1] = {{one, 1}};
  size_t n;
  opr_named_attr foo[1] = {{"foo", int_value(1)}};
  expect_status(opr_execute(cpu, "ZeroOut", in, 1, foo, 1, &out, 1, &n),
                OPR_INVALID_ARGUMENT, "ZeroOut: no attr named 'foo'");
  opr_named_attr twice[2] = {{"T", type_value(OPR_DT_FLOAT)},
                             {"T", type_value(OPR_DT_FLOAT)}};
  expect_status(opr_execute(cpu, "ZeroOut", in, 1, twice, 2, &out, 1, &n),
                OPR_INVALID_ARGUMENT, "ZeroOut: attr 'T' given twice");
  opr_tensor_unref(t);
}

static void execute_checks_given_attrs_against_the_inputs(void **state) {
  (void)state;
  opr_tensor *t[3] = {scalar(OPR_DT_FLOAT), scalar(OPR_DT_INT32),
                      scalar(OPR_DT_INT32)};
  const opr_tensor *one[1] = {t[0]}, *ints[3] = {t[1], t[2], t[2]};
  opr_input in[1] = {{one, 1}};
  opr_tensor *out[3];
  size_t n;
  opr_named_attr t_int[1] = {{"T", type_value(OPR_DT_INT32)}};
  expect_status(opr_execute(cpu, "ZeroOut", in, 1, t_int, 1, out, 1, &n),
                OPR_INVALID_ARGUMENT,
                "ZeroOut: input 'to_zero' has type float, but attr T is "
                "int32");
  in[0] = (opr_input){ints, 3};
  opr_named_attr n2[1] = {{"N", int_value(2)}};
  expect_status(opr_execute(cpu, "IntListInputExample", in, 1, n2, 1, out, 3,
                            &n),
                OPR_INVALID_ARGUMENT,
                "IntListInputExample: input 'in' has 3 tensors, but attr N "
                "is 2");
  for (int i = 0; i < 3; i++) opr_tensor_unref(t[i]);
}

static void execute_needs_room_for_every_output(void **state) {
  (void)state;
  opr_tensor *t = scalar(OPR_DT_FLOAT);
  const opr_tensor *one[1] = {t};
  opr_input in[1] = {{one, 1}};
  size_t n;
  expect_status(opr_execute(cpu, "ZeroOut", in, 1, NULL, 0, NULL, 0, &n),
                OPR_INVALID_ARGUMENT,
                "ZeroOut: produces 1 output tensor, room for 0");
  opr_tensor_unref(t);
}

static void execute_reports_kind_mismatch_with_type_names(void **state) {
  (void)state;
  opr_named_attr a[1] = {{"a", string_value("x")}};
  expect_status(opr_execute(cpu, "MinIntExample", NULL, 0, a, 1, NULL, 0,
                            NULL),
                OPR_INVALID_ARGUMENT,
                "MinIntExample: attr 'a' must be int, got string");
}

/* ---- concurrency ---- */

enum { THREADS = 4, CALLS = 10000 };

static atomic_int spin_runs;

static opr_status spin_kernel(opr_kernel_ctx *k) {
  opr_tensor *out;
  opr_status s = opr_kernel_alloc_output(k, 0, 0, 0, NULL, &out);
  if (s) return s;
  *(float *)out->data = *(const float *)k->call->inputs[0].tensors[0]->data;
  atomic_fetch_add(&spin_runs, 1);
  return OPR_OK;
}

static void *spin_thread(void *arg) {
  opr_tensor *t = scalar(OPR_DT_FLOAT);
  *(float *)t->data = (float)(intptr_t)arg;
  intptr_t bad = 0;
  for (int i = 0; i < CALLS; i++) {
    opr_tensor *out;
    opr_status s = zero_out(cpu, t, NULL, &out);
    bad += s || *(float *)out->data != (float)(intptr_t)arg;
    opr_status_free(s);
    opr_tensor_unref(out);
  }
  opr_tensor_unref(t);
  return (void *)bad;
}

/* Calls run while kernels are being registered for the same op: the
 * table swap must be invisible to them. */
static void concurrent_calls_see_consistent_registries(void **state) {
  (void)state;
  opr_kernel_def spin = {.op = "ZeroOut", .device = OPR_DEVICE_CPU,
                         .constraints = float_only, .nconstraints = 1,
                         .priority = 100, .fn = spin_kernel,
                         .label = "spin"};
  assert_null(opr_register_kernel(&spin));
  pthread_t th[THREADS];
  for (intptr_t i = 0; i < THREADS; i++)
    assert_int_equal(pthread_create(&th[i], NULL, spin_thread,
                                    (void *)(i + 1)), 0);
  for (int p = 0; p < 50; p++) { /* lower priority: never selected */
    opr_kernel_def extra = zero_out_fast;
    extra.priority = -1 - p;
    assert_null(opr_register_kernel(&extra));
  }
  for (int i = 0; i < THREADS; i++) {
    void *bad;
    pthread_join(th[i], &bad);
    assert_int_equal((intptr_t)bad, 0);
  }
  assert_int_equal(atomic_load(&spin_runs), THREADS * CALLS);
  assert_int_equal(opr_list_kernels(&zero_out_def, NULL, 0), 55);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(registered_ops_are_found_and_listed_sorted),
      cmocka_unit_test(registering_the_same_def_again_is_a_no_op),
      cmocka_unit_test(another_def_with_a_registered_name_already_exists),
      cmocka_unit_test(an_identical_def_binds_to_the_registered_op),
      cmocka_unit_test(invoking_an_unregistered_op_fails_precondition),
      cmocka_unit_test(inconsistent_op_defs_are_rejected),
      cmocka_unit_test(kernel_for_an_unknown_op_is_not_found),
      cmocka_unit_test(kernel_constraints_and_host_memory_must_name_the_op),
      cmocka_unit_test(kernels_are_listed_in_selection_order),
      cmocka_unit_test(registering_the_same_kernel_again_is_a_no_op),
      cmocka_unit_test(highest_priority_matching_kernel_runs),
      cmocka_unit_test(no_kernel_for_the_types_is_unimplemented),
      cmocka_unit_test(no_kernel_for_the_device_is_unimplemented),
      cmocka_unit_test(op_without_type_attrs_names_only_the_device),
      cmocka_unit_test(host_memory_outputs_of_device_kernels_live_on_the_host),
      cmocka_unit_test(a_gpu_context_needs_a_device),
      cmocka_unit_test(zero_out_returns_an_output_the_caller_owns),
      cmocka_unit_test(unset_attrs_take_their_defaults),
      cmocka_unit_test(null_input_is_rejected),
      cmocka_unit_test(input_type_outside_the_attr_constraint_is_rejected),
      cmocka_unit_test(attr_below_its_minimum_is_rejected),
      cmocka_unit_test(null_output_slot_is_rejected),
      cmocka_unit_test(failing_kernel_releases_its_outputs),
      cmocka_unit_test(add_n_infers_n_and_t),
      cmocka_unit_test(null_list_element_is_rejected),
      cmocka_unit_test(list_elements_must_agree_on_the_inferred_type),
      cmocka_unit_test(list_shorter_than_its_minimum_is_rejected),
      cmocka_unit_test(fixed_input_type_is_checked),
      cmocka_unit_test(output_list_needs_room_for_every_tensor),
      cmocka_unit_test(required_attr_must_be_given),
      cmocka_unit_test(string_attr_must_be_an_allowed_value),
      cmocka_unit_test(int_attr_respects_its_minimum),
      cmocka_unit_test(attr_of_the_wrong_kind_is_rejected),
      cmocka_unit_test(type_list_attr_respects_its_minimum_length),
      cmocka_unit_test(type_list_elements_must_be_allowed),
      cmocka_unit_test(type_attr_must_be_allowed_and_valid),
      cmocka_unit_test(polymorphic_list_shorter_than_its_minimum_is_rejected),
      cmocka_unit_test(type_lists_are_inferred_for_any_length),
      cmocka_unit_test(type_list_elements_from_inputs_must_be_allowed),
      cmocka_unit_test(execute_runs_an_op_by_name_with_named_attrs),
      cmocka_unit_test(execute_flattens_list_outputs),
      cmocka_unit_test(execute_of_an_unknown_op_is_not_found),
      cmocka_unit_test(execute_checks_the_number_of_input_arguments),
      cmocka_unit_test(execute_maps_attr_names),
      cmocka_unit_test(execute_checks_given_attrs_against_the_inputs),
      cmocka_unit_test(execute_needs_room_for_every_output),
      cmocka_unit_test(execute_reports_kind_mismatch_with_type_names),
      cmocka_unit_test(concurrent_calls_see_consistent_registries),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
