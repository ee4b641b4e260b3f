/* Outputs large enough to be written past the cache (KERN_STREAM_MIN_BYTES,
 * kernels/kernels.h) hold the same bytes as the plain stores give: each
 * is compared, slice by slice, with the op run on slices small enough to
 * be written plainly. On 1 and 3 threads, so that blocks start at
 * addresses off the cache line too. */
#include "kerneltest.h"

/* Bytes of the large tensors: just above the streaming threshold (16 MiB),
 * no multiple of a cache line. */
#define LARGE_BYTES ((int64_t)16 * 1024 * 1024 + 52)
/* Elements of a reference slice: well below the threshold. */
enum { SLICE = 1 << 18 };

static opr_context *ctx1, *ctx3;

static int setup(void **state) {
  (void)state;
  kt_register();
  ctx1 = kt_context(1);
  ctx3 = kt_context(3);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  opr_context_free(ctx1);
  opr_context_free(ctx3);
  return 0;
}

/* Elements [first, first + n) of t as a tensor of their own. */
static opr_tensor *slice(const opr_tensor *t, int64_t first, int64_t n) {
  size_t size = opr_dtype_size(t->dtype);
  opr_tensor *s = NULL;
  kt_expect_ok(opr_tensor_from_data(t->dtype, 1, &n,
                                    (const char *)t->data + first * size,
                                    (size_t)n * size, &s));
  return s;
}

/* Runs AddN (count inputs) or Example (count 0). */
static opr_status run(opr_context *ctx, opr_tensor *const *in, size_t count,
                      opr_tensor **out) {
  return count ? demo_add_n(ctx, (const opr_tensor *const *)in, count, out)
               : demo_example(ctx, in[0], out);
}

/* The op on the large inputs against the op on each slice of them. */
static void check_slices(opr_context *ctx, opr_tensor *const *in,
                         size_t count) {
  opr_tensor *big = NULL;
  kt_expect_ok(run(ctx, in, count, &big));
  size_t size = opr_dtype_size(big->dtype), nin = count ? count : 1;
  for (int64_t first = 0; first < big->num_elements; first += SLICE) {
    int64_t n = big->num_elements - first < SLICE ? big->num_elements - first
                                                  : SLICE;
    opr_tensor *parts[5], *want = NULL;
    for (size_t i = 0; i < nin; i++) parts[i] = slice(in[i], first, n);
    kt_expect_ok(run(ctx, parts, count, &want));
    if (memcmp((const char *)big->data + first * size, want->data,
               (size_t)n * size) != 0)
      fail_msg("%s: elements from %lld differ", opr_dtype_name(big->dtype),
               (long long)first);
    opr_tensor_unref(want);
    for (size_t i = 0; i < nin; i++) opr_tensor_unref(parts[i]);
  }
  opr_tensor_unref(big);
}

static void example_streams_the_same_bytes(void **state) {
  (void)state;
  const opr_dtype types[] = {OPR_DT_FLOAT, OPR_DT_UINT8, OPR_DT_HALF,
                             OPR_DT_COMPLEX128};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    int64_t n = LARGE_BYTES / (int64_t)opr_dtype_size(types[t]) + 1;
    opr_tensor *in = kt_filled(types[t], 1, &n, 3);
    check_slices(ctx1, &in, 0);
    check_slices(ctx3, &in, 0);
    opr_tensor_unref(in);
  }
}

static void add_n_streams_the_same_bytes(void **state) {
  (void)state;
  const opr_dtype types[] = {OPR_DT_FLOAT, OPR_DT_FLOAT, OPR_DT_INT64,
                             OPR_DT_COMPLEX64};
  const size_t counts[] = {2, 3, 5, 2};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    int64_t n = LARGE_BYTES / (int64_t)opr_dtype_size(types[t]) + 1;
    opr_tensor *in[5];
    for (size_t i = 0; i < counts[t]; i++)
      in[i] = kt_filled(types[t], 1, &n, (int64_t)i * 31);
    check_slices(ctx1, in, counts[t]);
    check_slices(ctx3, in, counts[t]);
    for (size_t i = 0; i < counts[t]; i++) opr_tensor_unref(in[i]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(example_streams_the_same_bytes),
      cmocka_unit_test(add_n_streams_the_same_bytes),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
