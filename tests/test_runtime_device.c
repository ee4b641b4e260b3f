/* Devices without a GPU: every GPU request answers FAILED_PRECONDITION
 * naming the reason, and nothing crashes; the CPU side of the device API
 * works everywhere. Where a GPU is present the no-device tests skip and a
 * round trip through device memory runs instead. */
#include "testutil.h"

#include "opr/opr.h"

#include <string.h>

static const char no_device[] = "no CUDA device is available: ";

/* Asserts FAILED_PRECONDITION whose message starts with `prefix` and goes
 * on with the reason. */
static void expect_no_device(opr_status s, const char *prefix) {
  assert_non_null(s);
  assert_int_equal(opr_status_code(s), OPR_FAILED_PRECONDITION);
  const char *msg = opr_status_message(s);
  size_t n = strlen(prefix);
  if (strncmp(msg, prefix, n) != 0 ||
      strncmp(msg + n, no_device, sizeof no_device - 1) != 0 ||
      strlen(msg) <= n + sizeof no_device - 1)
    fail_msg("unexpected message: %s", msg);
  opr_status_free(s);
}

static opr_tensor *floats(int64_t n) {
  opr_tensor *t;
  const int64_t dims[1] = {n};
  assert_null(opr_tensor_new(OPR_DT_FLOAT, 1, dims, &t));
  for (int64_t i = 0; i < n; i++) ((float *)t->data)[i] = (float)i / 4;
  return t;
}

static void the_cpu_is_always_available(void **state) {
  (void)state;
  assert_null(opr_device_available(OPR_DEVICE_CPU));
}

static void no_gpu_means_no_gpu_context(void **state) {
  (void)state;
  if (opr_gpu_device_count() > 0) skip();
  opr_context_options options = {.device = OPR_DEVICE_GPU};
  opr_context *ctx = (opr_context *)&ctx;
  expect_no_device(opr_context_new(&options, &ctx), "opr_context_new: ");
  assert_null(ctx);
  expect_no_device(opr_device_available(OPR_DEVICE_GPU), "");
}

static void no_gpu_means_no_device_tensors(void **state) {
  (void)state;
  if (opr_gpu_device_count() > 0) skip();
  opr_tensor *t = floats(3), *out = (opr_tensor *)&out;
  expect_no_device(opr_tensor_to_device(t, OPR_DEVICE_GPU, &out),
                   "opr_tensor_to_device: ");
  assert_null(out);
  opr_tensor_unref(t);
}

static void the_reason_matches_the_build(void **state) {
  (void)state;
  if (opr_gpu_device_count() > 0) skip();
  opr_status s = opr_device_available(OPR_DEVICE_GPU);
  const char *msg = opr_status_message(s);
  bool says_no_cuda = strstr(msg, "built without CUDA") != NULL;
  assert_int_equal(says_no_cuda, !opr_gpu_support_built());
  opr_status_free(s);
}

static void a_tensor_already_there_is_shared(void **state) {
  (void)state;
  opr_tensor *t = floats(3), *out = NULL;
  assert_null(opr_tensor_to_device(t, OPR_DEVICE_CPU, &out));
  assert_ptr_equal(out, t);
  opr_tensor_unref(out);
  opr_tensor_unref(t);
}

static void bad_device_requests_are_invalid(void **state) {
  (void)state;
  opr_tensor *t = floats(1), *out = NULL;
  opr_status s = opr_tensor_to_device(t, (opr_device_kind)7, &out);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  opr_status_free(s);
  s = opr_tensor_to_device(NULL, OPR_DEVICE_CPU, &out);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  opr_status_free(s);
  s = opr_device_available((opr_device_kind)7);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  opr_status_free(s);
  opr_tensor_unref(t);
}

static void strings_stay_on_the_host(void **state) {
  (void)state;
  if (opr_gpu_device_count() == 0) skip();
  const char *const strs[1] = {"x"};
  const int64_t dims[1] = {1};
  opr_tensor *t, *out = NULL;
  assert_null(opr_tensor_from_strings(1, dims, strs, NULL, &t));
  opr_status s = opr_tensor_to_device(t, OPR_DEVICE_GPU, &out);
  assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
  opr_status_free(s);
  opr_tensor_unref(t);
}

static void a_round_trip_through_the_gpu_keeps_the_data(void **state) {
  (void)state;
  if (opr_gpu_device_count() == 0) skip();
  opr_tensor *t = floats(1000), *d = NULL, *back = NULL;
  assert_null(opr_tensor_to_device(t, OPR_DEVICE_GPU, &d));
  assert_int_equal(d->device, OPR_DEVICE_GPU);
  assert_int_equal(d->nbytes, t->nbytes);
  assert_null(opr_tensor_to_device(d, OPR_DEVICE_CPU, &back));
  assert_int_equal(back->device, OPR_DEVICE_CPU);
  assert_memory_equal(back->data, t->data, t->nbytes);
  opr_tensor_unref(back);
  opr_tensor_unref(d);
  opr_tensor_unref(t);
}

/* The kept device memory: 1 GiB unless set, with or without a GPU. */
static void the_gpu_cache_limit_is_set_and_returned(void **state) {
  (void)state;
  assert_int_equal(opr_gpu_cache_limit(0), (size_t)1 << 30);
  assert_int_equal(opr_gpu_cache_limit((size_t)1 << 20), 0);
  assert_int_equal(opr_gpu_cache_limit((size_t)1 << 30), (size_t)1 << 20);
}

/* Memory freed and taken again: the pool must not hand back stale or
 * shared blocks, and limit 0 (no pool) must work the same. */
static void gpu_memory_reused_holds_the_new_data(void **state) {
  (void)state;
  if (opr_gpu_device_count() == 0) skip();
  for (int round = 0; round < 2; round++) {
    size_t old = opr_gpu_cache_limit(round ? 0 : (size_t)1 << 30);
    for (int k = 0; k < 4; k++) {
      opr_tensor *t = floats(1000 + k), *d = NULL, *e = NULL, *back = NULL;
      ((float *)t->data)[k] = -1.0f;
      assert_null(opr_tensor_to_device(t, OPR_DEVICE_GPU, &d));
      assert_null(opr_tensor_to_device(t, OPR_DEVICE_GPU, &e));
      assert_ptr_not_equal(d->data, e->data);
      assert_null(opr_tensor_to_device(d, OPR_DEVICE_CPU, &back));
      assert_memory_equal(back->data, t->data, t->nbytes);
      opr_tensor_unref(back), opr_tensor_unref(e), opr_tensor_unref(d);
      opr_tensor_unref(t);
    }
    opr_gpu_cache_limit(old);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_cpu_is_always_available),
      cmocka_unit_test(no_gpu_means_no_gpu_context),
      cmocka_unit_test(no_gpu_means_no_device_tensors),
      cmocka_unit_test(the_reason_matches_the_build),
      cmocka_unit_test(a_tensor_already_there_is_shared),
      cmocka_unit_test(bad_device_requests_are_invalid),
      cmocka_unit_test(strings_stay_on_the_host),
      cmocka_unit_test(a_round_trip_through_the_gpu_keeps_the_data),
      cmocka_unit_test(the_gpu_cache_limit_is_set_and_returned),
      cmocka_unit_test(gpu_memory_reused_holds_the_new_data),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
