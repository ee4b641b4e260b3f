/* Whenever nvcc is present at configure time (OPGEN_TEST_NVCC, found by
 * tests/CMakeLists.txt on its own), the CUDA kernels are compiled and
 * linked into opgen_shipped and registered for the GPU: this needs no GPU.
 * Without nvcc the test reports itself skipped. */
#include "testutil.h"

#include "cuda_kernels.h"
#include "demo_ops.h"
#include "shipped.h"

#ifdef OPGEN_WITH_CUDA
#include "launch.h"
#endif

#include <stdio.h>
#include <string.h>

static void cuda_kernels_are_compiled_in(void **state) {
  (void)state;
#ifndef OPGEN_WITH_CUDA
  fail_msg("nvcc is at %s but opgen_shipped was built without "
           "OPGEN_WITH_CUDA: the CUDA kernels are missing", OPGEN_TEST_NVCC);
#else
  /* A symbol of the nvcc-compiled objects: they are linked. */
  const char *info = opgen_cuda_build_info();
  printf("CUDA kernels: %s\n", info);
  assert_non_null(strstr(info, "CUDA "));
  assert_non_null(strstr(info, "90"));
  assert_true(opr_gpu_support_built());
#endif
}

/* The GPU kernel of `op`, or NULL. */
static const opr_kernel_def *gpu_kernel(const char *op) {
  const opr_kernel_def *k[64];
  const opr_op_def *def = opr_find_op(op);
  assert_non_null(def);
  size_t n = opr_list_kernels(def, k, 64);
  for (size_t i = 0; i < n && i < 64; i++)
    if (k[i]->device == OPR_DEVICE_GPU) return k[i];
  return NULL;
}

static void every_gpu_op_has_a_gpu_kernel(void **state) {
  (void)state;
  static const char *const ops[] = {
      "Example",           "ZeroOut",           "ZeroOutInt32",
      "ZeroOutFloatInt32", "ZeroOutRealNumber", "AddOne",
      "AddN",              "Pad"};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (!gpu_kernel(ops[i])) fail_msg("%s has no GPU kernel", ops[i]);
  assert_null(gpu_kernel("StringToNumber"));
  assert_null(gpu_kernel("MyGeneralUnaryOp"));
}

static void gpu_kernels_take_the_cpu_types(void **state) {
  (void)state;
  const opr_kernel_def *example = gpu_kernel("Example");
  assert_int_equal(example->nconstraints, 1);
  opr_dtype_set want = OPR_DTYPE_BIT(OPR_DT_FLOAT) |
                       OPR_DTYPE_BIT(OPR_DT_DOUBLE) |
                       OPR_DTYPE_BIT(OPR_DT_INT32) |
                       OPR_DTYPE_BIT(OPR_DT_INT64) |
                       OPR_DTYPE_BIT(OPR_DT_HALF) |
                       OPR_DTYPE_BIT(OPR_DT_COMPLEX64);
  assert_true((example->constraints[0].allowed & want) == want);
  const opr_kernel_def *add_n = gpu_kernel("AddN");
  assert_false(add_n->constraints[0].allowed &
               OPR_DTYPE_BIT(OPR_DT_VARIANT));
}

static void pad_keeps_its_paddings_on_the_host(void **state) {
  (void)state;
  const opr_kernel_def *pad = gpu_kernel("Pad");
  assert_int_equal(pad->nhost_memory, 1);
  assert_string_equal(pad->host_memory[0], "paddings");
}

static int setup(void **state) {
  (void)state;
  opr_status s = opgen_shipped_register();
  if (!s) s = opgen_cuda_register();
  if (s) {
    fprintf(stderr, "%s\n", opr_status_message(s));
    opr_status_free(s);
    return -1;
  }
  return 0;
}

int main(void) {
  if (!OPGEN_TEST_NVCC[0]) {
    printf("no nvcc at configure time: skipped\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cuda_kernels_are_compiled_in),
      cmocka_unit_test(every_gpu_op_has_a_gpu_kernel),
      cmocka_unit_test(gpu_kernels_take_the_cpu_types),
      cmocka_unit_test(pad_keeps_its_paddings_on_the_host),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
