/* Every shipped CPU kernel on random shapes: the shape of what it
 * produces equals the shape inference of the op's spec computed from the
 * input shapes alone (with the paddings of Pad as known values). A kernel
 * asking for another shape would also fail the call: its outputs are
 * allocated from the inferred shapes before it runs. */
#include "kerneltest.h"

#include <stdio.h>
#include <stdlib.h>

static opr_context *ctx;

enum { ROUNDS = 60, MAX_RANK = 4 };

/* xorshift64: the same shapes on every run. */
static uint64_t rng = 0x9e3779b97f4a7c15u;
static int64_t rnd(int64_t n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (int64_t)(rng % (uint64_t)n);
}

/* A random shape: rank 0..MAX_RANK, dims in [min_dim, 4]. */
static int random_shape(int64_t *dims, int64_t min_dim) {
  int rank = (int)rnd(MAX_RANK + 1);
  for (int i = 0; i < rank; i++) dims[i] = min_dim + rnd(5 - min_dim);
  return rank;
}

static const char *shape_text(int rank, const int64_t *dims) {
  static char buf[4][128];
  static int next;
  char *b = buf[next++ % 4];
  return opr_shape_text(rank, dims, b, sizeof buf[0]);
}

/* Runs `op` on the inputs (one argument each, list arguments of n
 * tensors) and compares its single output's shape with the inference. */
static void check(const char *op, const opr_input *in, size_t nargs,
                  const opr_named_attr *attrs, size_t nattrs) {
  opr_shape shapes[8][8];
  opr_shape_input sin[8];
  for (size_t a = 0; a < nargs; a++) {
    for (size_t i = 0; i < in[a].count; i++) {
      const opr_tensor *t = in[a].tensors[i];
      shapes[a][i] = (opr_shape){t->rank, t->dims};
    }
    sin[a] = (opr_shape_input){shapes[a], in[a].tensors, in[a].count};
  }
  opr_inferred_shapes want;
  kt_expect_ok(opr_infer_shapes_by_name(op, sin, nargs, attrs, nattrs, &want));
  assert_int_equal(want.count, 1);
  opr_tensor *out = NULL;
  size_t n = 0;
  kt_expect_ok(opr_execute(ctx, op, in, nargs, attrs, nattrs, &out, 1, &n));
  opr_shape w = want.shapes[0];
  if (!opr_shape_same(w, (opr_shape){out->rank, out->dims}))
    fail_msg("%s: the kernel made %s, inference says %s", op,
             shape_text(out->rank, out->dims), shape_text(w.rank, w.dims));
  assert_true(opr_shape_fully_defined(w));
  opr_inferred_shapes_free(&want);
  opr_tensor_unref(out);
}

/* One input of the op's element type, output of the same shape. */
static void unary(const char *op, opr_dtype dt) {
  for (int r = 0; r < ROUNDS; r++) {
    int64_t dims[MAX_RANK];
    int rank = random_shape(dims, 0);
    opr_tensor *x = kt_filled(dt, rank, dims, r);
    const opr_tensor *xs[1] = {x};
    const opr_input in[1] = {{xs, 1}};
    check(op, in, 1, NULL, 0);
    opr_tensor_unref(x);
  }
}

static void elementwise_kernels(void **state) {
  (void)state;
  unary("ZeroOut", OPR_DT_FLOAT);
  unary("ZeroOut", OPR_DT_INT32);
  unary("ZeroOutInt32", OPR_DT_INT32);
  unary("ZeroOutFloatInt32", OPR_DT_FLOAT);
  unary("ZeroOutRealNumber", OPR_DT_DOUBLE);
  unary("Example", OPR_DT_INT64);
  unary("AddOne", OPR_DT_INT32);
}

static void string_to_number_kernel(void **state) {
  (void)state;
  for (int r = 0; r < ROUNDS; r++) {
    int64_t dims[MAX_RANK];
    int rank = random_shape(dims, 0);
    int64_t count = opr_shape_num_elements(rank, dims);
    const char **strs = calloc((size_t)count + 1, sizeof *strs);
    for (int64_t i = 0; i < count; i++) strs[i] = "12";
    opr_tensor *x = NULL;
    kt_expect_ok(opr_tensor_from_strings(rank, dims, strs, NULL, &x));
    const opr_tensor *xs[1] = {x};
    const opr_input in[1] = {{xs, 1}};
    check("StringToNumber", in, 1, NULL, 0);
    opr_tensor_unref(x);
    free(strs);
  }
}

static void add_n_kernel(void **state) {
  (void)state;
  for (int r = 0; r < ROUNDS; r++) {
    int64_t dims[MAX_RANK];
    int rank = random_shape(dims, 0);
    size_t n = 1 + (size_t)rnd(4);
    opr_tensor *ts[4];
    for (size_t i = 0; i < n; i++)
      ts[i] = kt_filled(OPR_DT_FLOAT, rank, dims, (int64_t)i);
    const opr_input in[1] = {{(const opr_tensor *const *)ts, n}};
    check("AddN", in, 1, NULL, 0);
    for (size_t i = 0; i < n; i++) opr_tensor_unref(ts[i]);
  }
}

/* Paddings that every mode takes: below each dim (REFLECT). */
static opr_tensor *random_paddings(opr_dtype dt, int rank,
                                   const int64_t *dims) {
  const int64_t pdims[2] = {rank, 2};
  opr_tensor *p = kt_new(dt, 2, pdims);
  for (int i = 0; i < 2 * rank; i++) {
    int64_t v = rnd(dims[i / 2]); /* dims >= 1 here */
    if (dt == OPR_DT_INT64) ((int64_t *)p->data)[i] = v;
    else ((int32_t *)p->data)[i] = (int32_t)v;
  }
  return p;
}

static void pad_kernel(void **state) {
  (void)state;
  static const char *const modes[3] = {"CONSTANT", "REFLECT", "SYMMETRIC"};
  for (int r = 0; r < ROUNDS; r++) {
    int64_t dims[MAX_RANK];
    int rank = random_shape(dims, 1);
    opr_dtype pt = r % 2 ? OPR_DT_INT64 : OPR_DT_INT32;
    opr_tensor *x = kt_filled(OPR_DT_FLOAT, rank, dims, r);
    opr_tensor *p = random_paddings(pt, rank, dims);
    const opr_tensor *xs[1] = {x}, *ps[1] = {p};
    const opr_input in[2] = {{xs, 1}, {ps, 1}};
    const opr_named_attr mode[1] = {
        {"mode", opr_attr_cstring(OPR_ATTR_STRING, modes[r % 3])}};
    check("Pad", in, 2, mode, 1);
    opr_tensor_unref(x);
    opr_tensor_unref(p);
  }
}

/* Every op with a CPU kernel has a case above. */
static void every_cpu_kernel_is_covered(void **state) {
  (void)state;
  static const char *const covered[] = {
      "ZeroOut", "ZeroOutInt32", "ZeroOutFloatInt32", "ZeroOutRealNumber",
      "Example", "AddOne", "AddN", "Pad", "StringToNumber"};
  const opr_op_def *ops[256];
  size_t n = opr_list_ops(ops, 256);
  assert_true(n <= 256);
  for (size_t i = 0; i < n; i++) {
    const opr_kernel_def *kernels[64];
    size_t nk = opr_list_kernels(ops[i], kernels, 64);
    bool cpu = false;
    for (size_t k = 0; k < nk && k < 64; k++)
      cpu |= kernels[k]->device == OPR_DEVICE_CPU;
    if (!cpu) continue;
    bool found = false;
    for (size_t c = 0; c < sizeof covered / sizeof *covered; c++)
      found |= strcmp(covered[c], ops[i]->name) == 0;
    if (!found) fail_msg("%s has a CPU kernel but no shape case", ops[i]->name);
    assert_non_null(ops[i]->shape_fn);
  }
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
      cmocka_unit_test(elementwise_kernels),
      cmocka_unit_test(string_to_number_kernel),
      cmocka_unit_test(add_n_kernel),
      cmocka_unit_test(pad_kernel),
      cmocka_unit_test(every_cpu_kernel_is_covered),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
