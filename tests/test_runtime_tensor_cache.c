/* The host memory of large tensors: kept for reuse up to a limit
 * (opr_tensor_cache_limit), cleared where a tensor must start zeroed, and
 * never handed to two live tensors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "opr/opr.h"

#include <string.h>

enum { BIG = 1 << 20 }; /* floats: 4 MiB, a large block */

static opr_tensor *big_tensor(void) {
  const int64_t dims[1] = {BIG};
  opr_tensor *t = NULL;
  opr_status s = opr_tensor_new(OPR_DT_FLOAT, 1, dims, &t);
  assert_null(s);
  return t;
}

static void a_freed_large_block_is_reused(void **state) {
  (void)state;
  opr_tensor *a = big_tensor();
  void *data = a->data;
  opr_tensor_unref(a);
  opr_tensor *b = big_tensor();
  assert_ptr_equal(b->data, data);
  opr_tensor_unref(b);
}

static void reused_memory_of_a_new_tensor_is_zeroed(void **state) {
  (void)state;
  opr_tensor *a = big_tensor();
  memset(a->data, 0xff, a->nbytes);
  opr_tensor_unref(a);
  opr_tensor *b = big_tensor();
  const float *f = b->data;
  for (int64_t i = 0; i < b->num_elements; i++)
    if (f[i] != 0) fail_msg("element %lld is not zero", (long long)i);
  opr_tensor_unref(b);
}

static void live_tensors_never_share_memory(void **state) {
  (void)state;
  opr_tensor *a = big_tensor(), *b = big_tensor();
  assert_ptr_not_equal(a->data, b->data);
  opr_tensor_unref(a);
  opr_tensor *c = big_tensor();
  assert_ptr_not_equal(c->data, b->data);
  opr_tensor_unref(b);
  opr_tensor_unref(c);
}

static void a_zero_limit_keeps_nothing(void **state) {
  (void)state;
  size_t old = opr_tensor_cache_limit(0);
  assert_int_equal(old, (size_t)1 << 30); /* the default */
  opr_tensor *a = big_tensor(), *b = big_tensor();
  const float one = 1;
  memcpy(a->data, &one, sizeof one);
  opr_tensor_unref(a);
  opr_tensor_unref(b);
  assert_int_equal(opr_tensor_cache_limit(old), 0);
}

static void from_data_copies_into_reused_memory(void **state) {
  (void)state;
  opr_tensor *a = big_tensor();
  opr_tensor_unref(a);
  static float values[BIG];
  for (int i = 0; i < BIG; i++) values[i] = (float)i;
  const int64_t dims[1] = {BIG};
  opr_tensor *t = NULL;
  assert_null(opr_tensor_from_data(OPR_DT_FLOAT, 1, dims, values,
                                   sizeof values, &t));
  assert_memory_equal(t->data, values, sizeof values);
  opr_tensor_unref(t);
}

/* The default limit is 0 under AddressSanitizer: set one for the tests. */
static size_t saved_limit;

static int setup(void **state) {
  (void)state;
  saved_limit = opr_tensor_cache_limit((size_t)1 << 30);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  opr_tensor_cache_limit(saved_limit);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_freed_large_block_is_reused),
      cmocka_unit_test(reused_memory_of_a_new_tensor_is_zeroed),
      cmocka_unit_test(live_tensors_never_share_memory),
      cmocka_unit_test(a_zero_limit_keeps_nothing),
      cmocka_unit_test(from_data_copies_into_reused_memory),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
