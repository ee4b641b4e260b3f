/* The CUDA kernels on a GPU, each against the CPU kernel of the same op
 * (same dtype, shape and bytes: the GPU kernels compute as the CPU ones
 * do), through a GPU context and the generic entry. Reports itself
 * skipped (77) where there is no CUDA device or no CUDA build. */
#include "testutil.h"

#include "cuda_kernels.h"
#include "demo_kernels.h"
#include "shipped.h"

#include <stdio.h>
#include <string.h>

static opr_context *cpu, *gpu;

#define expect_ok(status)                                             \
  do {                                                                \
    opr_status st_ = (status);                                        \
    if (st_) fail_msg("unexpected: %s", opr_status_message(st_));     \
  } while (0)

#define expect_code(status, code, text)                               \
  do {                                                                \
    opr_status st_ = (status);                                        \
    assert_non_null(st_);                                             \
    if (!strstr(opr_status_message(st_), text))                       \
      fail_msg("'%s' is not in: %s", text, opr_status_message(st_));  \
    assert_int_equal(opr_status_code(st_), code);                     \
    opr_status_free(st_);                                             \
  } while (0)

/* Element i of a test tensor: small values, negative ones included, that
 * every number type holds (and their doubles stay finite). */
static void fill(opr_tensor *t, int seed) {
  for (int64_t i = 0; i < t->num_elements; i++) {
    int v = (int)((i * 7 + seed * 13) % 23) - 11;
    void *p = (char *)t->data + i * (int64_t)opr_dtype_size(t->dtype);
    switch (t->dtype) {
#define FILL(ID, CT)                                                      \
  case OPR_DT_##ID:                                                       \
    *(CT *)p = (CT)v;                                                     \
    break;
      FILL(FLOAT, float) FILL(DOUBLE, double) FILL(INT32, int32_t)
      FILL(UINT8, uint8_t) FILL(INT16, int16_t) FILL(INT8, int8_t)
      FILL(INT64, int64_t) FILL(QINT8, int8_t) FILL(QUINT8, uint8_t)
      FILL(QINT32, int32_t) FILL(UINT16, uint16_t) FILL(UINT32, uint32_t)
      FILL(UINT64, uint64_t) FILL(BOOL, bool)
#undef FILL
    case OPR_DT_HALF: *(opr_half *)p = opr_half_from_float((float)v); break;
    case OPR_DT_BFLOAT16:
      *(opr_bfloat16 *)p = opr_bfloat16_from_float((float)v);
      break;
    case OPR_DT_COMPLEX64:
      *(opr_complex64 *)p = (opr_complex64){(float)v, (float)-v / 2};
      break;
    case OPR_DT_COMPLEX128:
      *(opr_complex128 *)p = (opr_complex128){v, -v / 4.0};
      break;
    default: memset(p, v & 0xff, opr_dtype_size(t->dtype)); break;
    }
  }
}

static opr_tensor *make(opr_dtype dt, int rank, const int64_t *dims,
                        int seed) {
  opr_tensor *t;
  expect_ok(opr_tensor_new(dt, rank, dims, &t));
  fill(t, seed);
  return t;
}

static opr_tensor *paddings(opr_dtype dt, int rank, const int64_t *values) {
  const int64_t dims[2] = {rank, 2};
  opr_tensor *t;
  expect_ok(opr_tensor_new(dt, 2, dims, &t));
  for (int i = 0; i < 2 * rank; i++) {
    if (dt == OPR_DT_INT64) ((int64_t *)t->data)[i] = values[i];
    else ((int32_t *)t->data)[i] = (int32_t)values[i];
  }
  return t;
}

/* Runs `op` on the CPU and the GPU and asserts that both succeed with
 * equal results. */
static void same_on_both(const char *op, const opr_input *in, size_t nin,
                         const opr_named_attr *attrs, size_t nattrs) {
  opr_tensor *c = NULL, *g = NULL;
  size_t nc = 0, ng = 0;
  opr_status sc = opr_execute(cpu, op, in, nin, attrs, nattrs, &c, 1, &nc);
  opr_status sg = opr_execute(gpu, op, in, nin, attrs, nattrs, &g, 1, &ng);
  if (sc || sg)
    fail_msg("%s: CPU: %s; GPU: %s", op, opr_status_message(sc),
             opr_status_message(sg));
  assert_int_equal(g->device, OPR_DEVICE_CPU); /* results come home */
  assert_int_equal(g->dtype, c->dtype);
  assert_int_equal(g->rank, c->rank);
  if (c->rank) assert_memory_equal(g->dims, c->dims, c->rank * 8);
  assert_int_equal(g->nbytes, c->nbytes);
  if (c->nbytes && memcmp(g->data, c->data, c->nbytes))
    fail_msg("%s (%s): the GPU result differs from the CPU's", op,
             opr_dtype_name(c->dtype));
  opr_tensor_unref(c);
  opr_tensor_unref(g);
}

static void same_unary(const char *op, const opr_tensor *t,
                       const opr_named_attr *attrs, size_t nattrs) {
  const opr_tensor *list[1] = {t};
  opr_input in[1] = {{list, 1}};
  same_on_both(op, in, 1, attrs, nattrs);
}

#define DTYPE_OF(ID, CT) OPR_DT_##ID,

static void example_matches_the_cpu_for_every_type(void **state) {
  (void)state;
  static const opr_dtype types[] = {DEMO_EXAMPLE_T_TYPES(DTYPE_OF)};
  const int64_t dims[2] = {37, 29}, none[1] = {0};
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    opr_tensor *t = make(types[i], 2, dims, (int)i);
    same_unary("Example", t, NULL, 0);
    opr_tensor_unref(t);
    t = make(types[i], 1, none, 0); /* empty */
    same_unary("Example", t, NULL, 0);
    opr_tensor_unref(t);
  }
}

static void add_one_matches_the_cpu_and_wraps(void **state) {
  (void)state;
  const int64_t dims[1] = {1000};
  opr_tensor *t = make(OPR_DT_INT32, 1, dims, 3);
  ((int32_t *)t->data)[7] = INT32_MAX;
  same_unary("AddOne", t, NULL, 0);
  opr_tensor_unref(t);
}

static void add_n_matches_the_cpu_across_batches(void **state) {
  (void)state;
  static const opr_dtype types[] = {OPR_DT_FLOAT, OPR_DT_HALF, OPR_DT_INT64,
                                    OPR_DT_COMPLEX128, OPR_DT_UINT8};
  static const size_t counts[] = {1, 2, 8, 9, 17};
  const int64_t dims[3] = {5, 7, 11};
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
      opr_tensor *ts[17];
      for (size_t j = 0; j < counts[c]; j++)
        ts[j] = make(types[i], 3, dims, (int)j);
      opr_input in[1] = {{(const opr_tensor *const *)ts, counts[c]}};
      same_on_both("AddN", in, 1, NULL, 0);
      for (size_t j = 0; j < counts[c]; j++) opr_tensor_unref(ts[j]);
    }
}

static void zero_out_forms_match_the_cpu(void **state) {
  (void)state;
  static const opr_dtype types[] = {
      DEMO_ZERO_OUT_REAL_NUMBER_T_TYPES(DTYPE_OF)};
  const int64_t dims[2] = {3, 4};
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    opr_tensor *t = make(types[i], 2, dims, 1);
    same_unary("ZeroOutRealNumber", t, NULL, 0);
    opr_tensor_unref(t);
  }
  opr_tensor *f = make(OPR_DT_FLOAT, 2, dims, 2);
  opr_tensor *n = make(OPR_DT_INT32, 2, dims, 2);
  opr_named_attr keep[1] = {{"preserve_index", {.kind = OPR_ATTR_INT}}};
  keep[0].value.u.i = 11;
  same_unary("ZeroOut", f, keep, 1);
  same_unary("ZeroOutInt32", n, NULL, 0);
  same_unary("ZeroOutFloatInt32", f, NULL, 0);
  opr_tensor_unref(f);
  opr_tensor_unref(n);
}

static void zero_out_checks_preserve_index_on_the_gpu(void **state) {
  (void)state;
  const int64_t dims[1] = {4};
  opr_tensor *t = make(OPR_DT_DOUBLE, 1, dims, 0), *out = NULL;
  const opr_tensor *list[1] = {t};
  opr_input in[1] = {{list, 1}};
  opr_named_attr keep[1] = {{"preserve_index", {.kind = OPR_ATTR_INT}}};
  keep[0].value.u.i = 4;
  size_t n = 0;
  expect_code(opr_execute(gpu, "ZeroOut", in, 1, keep, 1, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "ZeroOut: preserve_index 4 is out of "
              "range for a tensor of 4 elements");
  assert_null(out);
  opr_tensor_unref(t);
}

/* Pad of `t` by `pads` in `mode`, on both devices, for both Tpaddings. */
static void same_pad(const opr_tensor *t, const int64_t *pads,
                     const char *mode) {
  static const opr_dtype index_types[] = {OPR_DT_INT32, OPR_DT_INT64};
  for (size_t i = 0; i < 2; i++) {
    opr_tensor *p = paddings(index_types[i], t->rank, pads);
    const opr_tensor *a[1] = {t}, *b[1] = {p};
    opr_input in[2] = {{a, 1}, {b, 1}};
    opr_named_attr attrs[1] = {
        {"mode", opr_attr_cstring(OPR_ATTR_STRING, mode)}};
    same_on_both("Pad", in, 2, attrs, 1);
    opr_tensor_unref(p);
  }
}

static void pad_modes_match_the_cpu(void **state) {
  (void)state;
  static const opr_dtype types[] = {DEMO_PAD_T_TYPES(DTYPE_OF)};
  static const char *const modes[] = {"CONSTANT", "REFLECT", "SYMMETRIC"};
  const int64_t dims[3] = {3, 4, 5};
  const int64_t pads[6] = {1, 2, 0, 3, 2, 2}; /* within REFLECT's limits */
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    for (size_t m = 0; m < 3; m++) {
      opr_tensor *t = make(types[i], 3, dims, (int)m);
      same_pad(t, pads, modes[m]);
      opr_tensor_unref(t);
    }
  opr_tensor *scalar = make(OPR_DT_FLOAT, 0, NULL, 4);
  same_pad(scalar, NULL, "CONSTANT");
  opr_tensor_unref(scalar);
  const int64_t empty_dims[2] = {0, 3}, grow[4] = {2, 1, 0, 0};
  opr_tensor *empty = make(OPR_DT_INT32, 2, empty_dims, 0);
  same_pad(empty, grow, "CONSTANT");
  opr_tensor_unref(empty);
}

static void pad_checks_reflect_limits_on_the_gpu(void **state) {
  (void)state;
  const int64_t dims[1] = {3}, pads[2] = {3, 0};
  opr_tensor *t = make(OPR_DT_FLOAT, 1, dims, 0);
  opr_tensor *p = paddings(OPR_DT_INT32, 1, pads), *out = NULL;
  const opr_tensor *a[1] = {t}, *b[1] = {p};
  opr_input in[2] = {{a, 1}, {b, 1}};
  opr_named_attr attrs[1] = {
      {"mode", opr_attr_cstring(OPR_ATTR_STRING, "REFLECT")}};
  size_t n = 0;
  expect_code(opr_execute(gpu, "Pad", in, 2, attrs, 1, &out, 1, &n),
              OPR_INVALID_ARGUMENT, "REFLECT paddings of dimension 0");
  opr_tensor_unref(p);
  opr_tensor_unref(t);
}

static void inputs_already_on_the_gpu_are_used_there(void **state) {
  (void)state;
  const int64_t dims[1] = {100}, pads[2] = {2, 3};
  opr_tensor *t = make(OPR_DT_FLOAT, 1, dims, 5), *d = NULL, *back = NULL;
  expect_ok(opr_tensor_to_device(t, OPR_DEVICE_GPU, &d));
  assert_int_equal(d->device, OPR_DEVICE_GPU);
  expect_ok(opr_tensor_to_device(d, OPR_DEVICE_CPU, &back));
  assert_memory_equal(back->data, t->data, t->nbytes);
  same_unary("Example", d, NULL, 0); /* the CPU side gets it back too */
  /* Paddings on the device go back to the host for the kernel. */
  opr_tensor *p = paddings(OPR_DT_INT64, 1, pads), *pd = NULL;
  expect_ok(opr_tensor_to_device(p, OPR_DEVICE_GPU, &pd));
  const opr_tensor *a[1] = {d}, *b[1] = {pd};
  opr_input in[2] = {{a, 1}, {b, 1}};
  opr_tensor *out = NULL;
  size_t n = 0;
  expect_ok(opr_execute(gpu, "Pad", in, 2, NULL, 0, &out, 1, &n));
  assert_int_equal(out->dims[0], 105);
  assert_true(((float *)out->data)[2] == ((float *)t->data)[0]);
  opr_tensor_unref(out);
  opr_tensor_unref(pd);
  opr_tensor_unref(p);
  opr_tensor_unref(back);
  opr_tensor_unref(d);
  opr_tensor_unref(t);
}

/* More elements than one grid covers (65535 blocks of 256 threads): the
 * grid-stride loops must reach the tail. */
static void large_tensors_cover_every_element(void **state) {
  (void)state;
  const int64_t flat[1] = {65535LL * 256 * 2 + 77};
  opr_tensor *t = make(OPR_DT_FLOAT, 1, flat, 6);
  same_unary("Example", t, NULL, 0);
  opr_tensor *ts[3] = {t, t, t};
  opr_input in[1] = {{(const opr_tensor *const *)ts, 3}};
  same_on_both("AddN", in, 1, NULL, 0);
  opr_tensor_unref(t);
  const int64_t dims[3] = {257, 259, 263}, pads[6] = {3, 1, 2, 5, 7, 4};
  t = make(OPR_DT_INT16, 3, dims, 7);
  same_pad(t, pads, "SYMMETRIC");
  opr_tensor_unref(t);
}

static void ops_without_gpu_kernels_are_unimplemented(void **state) {
  (void)state;
  const int64_t dims[1] = {1};
  const char *const strs[1] = {"1.5"};
  opr_tensor *t, *out = NULL;
  expect_ok(opr_tensor_from_strings(1, dims, strs, NULL, &t));
  const opr_tensor *list[1] = {t};
  opr_input in[1] = {{list, 1}};
  size_t n = 0;
  expect_code(opr_execute(gpu, "StringToNumber", in, 1, NULL, 0, &out, 1,
                          &n),
              OPR_UNIMPLEMENTED, "StringToNumber: no kernel for device GPU");
  opr_tensor_unref(t);
}

static int setup(void **state) {
  (void)state;
  opr_context_options options = {.device = OPR_DEVICE_GPU};
  opr_status s = opgen_shipped_register();
  if (!s) s = opgen_cuda_register();
  if (!s) s = opr_context_new(NULL, &cpu);
  if (!s) s = opr_context_new(&options, &gpu);
  if (s) {
    fprintf(stderr, "%s\n", opr_status_message(s));
    opr_status_free(s);
    return -1;
  }
  return 0;
}

static int teardown(void **state) {
  (void)state;
  opr_context_free(gpu);
  opr_context_free(cpu);
  return 0;
}

int main(void) {
  opr_status why = opr_device_available(OPR_DEVICE_GPU);
  if (why) {
    printf("skipped: %s\n", opr_status_message(why));
    opr_status_free(why);
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(example_matches_the_cpu_for_every_type),
      cmocka_unit_test(add_one_matches_the_cpu_and_wraps),
      cmocka_unit_test(add_n_matches_the_cpu_across_batches),
      cmocka_unit_test(zero_out_forms_match_the_cpu),
      cmocka_unit_test(zero_out_checks_preserve_index_on_the_gpu),
      cmocka_unit_test(pad_modes_match_the_cpu),
      cmocka_unit_test(pad_checks_reflect_limits_on_the_gpu),
      cmocka_unit_test(inputs_already_on_the_gpu_are_used_there),
      cmocka_unit_test(large_tensors_cover_every_element),
      cmocka_unit_test(ops_without_gpu_kernels_are_unimplemented),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
