/* opgen_shipped_register: every shipped op registered, one CPU kernel per
 * allowed type of each op with real semantics, none for the
 * signature-only ones (which answer UNIMPLEMENTED); registering twice
 * changes nothing. */
#include "kerneltest.h"

#include "guide_attrs_ops.h"
#include "guide_io_ops.h"

static opr_context *ctx;

/* CPU kernels only: a CUDA build adds GPU kernels of its own. */
static size_t kernel_count(const char *op) {
  const opr_op_def *def = opr_find_op(op);
  assert_non_null(def);
  const opr_kernel_def *k[64];
  size_t n = opr_list_kernels(def, k, 64), cpu = 0;
  assert_true(n <= 64);
  for (size_t i = 0; i < n; i++) cpu += k[i]->device == OPR_DEVICE_CPU;
  return cpu;
}

static void every_op_gets_its_kernels(void **state) {
  (void)state;
  static const struct { const char *op; size_t kernels; } want[] = {
      {"ZeroOut", 3},  {"ZeroOutInt32", 1}, {"ZeroOutFloatInt32", 2},
      {"ZeroOutRealNumber", 12}, {"Example", 17}, {"AddOne", 1},
      {"AddN", 17},    {"Pad", 13},         {"StringToNumber", 2},
      {"MyGeneralUnaryOp", 0}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    if (kernel_count(want[i].op) != want[i].kernels)
      fail_msg("%s: %zu kernels, expected %zu", want[i].op,
               kernel_count(want[i].op), want[i].kernels);
}

/* Each CPU kernel takes one type of each constrained attr. */
static void each_kernel_takes_one_type(void **state) {
  (void)state;
  const opr_op_def *ops[64];
  size_t n = opr_list_ops(ops, 64);
  assert_true(n <= 64);
  for (size_t i = 0; i < n; i++) {
    const opr_kernel_def *k[32];
    size_t nk = opr_list_kernels(ops[i], k, 32);
    for (size_t j = 0; j < nk; j++) {
      if (k[j]->device != OPR_DEVICE_CPU) continue;
      for (size_t c = 0; c < k[j]->nconstraints; c++)
        assert_int_equal(__builtin_popcountll(k[j]->constraints[c].allowed),
                         1);
    }
  }
}

static void registering_twice_changes_nothing(void **state) {
  (void)state;
  size_t before = kernel_count("Example") + kernel_count("Pad");
  const opr_op_def *ops[64];
  size_t nops = opr_list_ops(ops, 64);
  kt_expect_ok(opgen_shipped_register());
  assert_int_equal(kernel_count("Example") + kernel_count("Pad"), before);
  assert_int_equal(opr_list_ops(ops, 64), nops);
  /* 10 demo, 9 guide_attrs, 14 guide_io, 2 guide_shapes */
  assert_int_equal(nops, 35);
}

static void signature_only_ops_answer_unimplemented(void **state) {
  (void)state;
  opr_tensor *x = kt_vec(OPR_DT_FLOAT, 2), *out = NULL;
  kt_expect_status(demo_my_general_unary_op(ctx, x, &out), OPR_UNIMPLEMENTED,
                   "MyGeneralUnaryOp: no kernel for device CPU with "
                   "T=float");
  assert_null(out);
  kt_expect_status(guide_io_polymorphic_single_input(ctx, x),
                   OPR_UNIMPLEMENTED, "PolymorphicSingleInput: no kernel "
                   "for device CPU with T=float");
  kt_expect_status(guide_attrs_number_type(ctx, OPR_DT_INT32),
                   OPR_UNIMPLEMENTED, "NumberType: no kernel for device CPU "
                   "with t=int32");
  opr_tensor_unref(x);
}

static int setup(void **state) {
  (void)state;
  kt_register();
  ctx = kt_context(1);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  opr_context_free(ctx);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_op_gets_its_kernels),
      cmocka_unit_test(each_kernel_takes_one_type),
      cmocka_unit_test(registering_twice_changes_nothing),
      cmocka_unit_test(signature_only_ops_answer_unimplemented),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
