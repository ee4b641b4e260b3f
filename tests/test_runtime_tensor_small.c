/* Small host tensors: per-thread caches of their blocks (same memory back
 * on the same thread, bounded, freed at thread exit, frees on another
 * thread), the data contracts of reused memory (opr_tensor_new zeroed,
 * opr_tensor_new_like not cleared, string elements always cleared), and
 * opr_tensor_new_like itself. Sanitizer builds have no caches: there the
 * reuse tests check that nothing is kept instead. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "opr/opr.h"

#include <pthread.h>
#include <string.h>

/* The runtime's test hooks (runtime/src/tensor_cache.h). */
size_t opr_tc_thread_blocks(int cls);
size_t opr_tc_live_caches(void);

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CACHED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CACHED 0
#endif
#endif
#ifndef CACHED
#define CACHED 1
#endif

static opr_tensor *floats(int64_t n) {
  opr_tensor *t = NULL;
  assert_null(opr_tensor_new(OPR_DT_FLOAT, 1, &n, &t));
  return t;
}

static void expect_status(opr_status s, opr_code code, const char *msg) {
  assert_non_null(s);
  assert_string_equal(opr_status_message(s), msg);
  assert_int_equal(opr_status_code(s), code);
  opr_status_free(s);
}

static void a_freed_small_tensor_comes_back_on_the_same_thread(void **state) {
  (void)state;
  opr_tensor *a = floats(3);
  void *block = a;
  opr_tensor_unref(a);
  opr_tensor *b = floats(2); /* another size of the same class */
  if (CACHED) assert_ptr_equal(b, block);
  else assert_int_equal(opr_tc_thread_blocks(-1), 0);
  opr_tensor_unref(b);
}

static void new_zeroes_reused_memory(void **state) {
  (void)state;
  opr_tensor *a = floats(16);
  memset(a->data, 0xff, a->nbytes);
  opr_tensor_unref(a);
  opr_tensor *b = floats(16);
  const float *f = b->data;
  for (int i = 0; i < 16; i++) assert_true(f[i] == 0);
  opr_tensor_unref(b);
}

static void new_like_copies_the_shape_with_the_new_size(void **state) {
  (void)state;
  const int64_t dims[2] = {2, 3};
  opr_tensor *like = NULL, *t = NULL;
  assert_null(opr_tensor_new(OPR_DT_FLOAT, 2, dims, &like));
  assert_null(opr_tensor_new_like(OPR_DT_INT64, like, &t));
  assert_int_equal(t->dtype, OPR_DT_INT64);
  assert_int_equal(t->rank, 2);
  assert_memory_equal(t->dims, dims, sizeof dims);
  assert_int_equal(t->num_elements, 6);
  assert_int_equal(t->nbytes, 48);
  assert_int_equal(t->device, OPR_DEVICE_CPU);
  assert_non_null(t->data);
  opr_tensor_unref(t);
  opr_tensor_unref(like);
}

static void new_like_does_not_clear_reused_data(void **state) {
  (void)state;
  opr_tensor *a = floats(8);
  memset(a->data, 0xab, a->nbytes);
  void *data = a->data;
  opr_tensor *like = floats(8);
  opr_tensor_unref(a);
  opr_tensor *t = NULL;
  assert_null(opr_tensor_new_like(OPR_DT_FLOAT, like, &t));
  if (CACHED) {
    assert_ptr_equal(t->data, data);
    assert_int_equal(((const unsigned char *)t->data)[31], 0xab);
  }
  opr_tensor_unref(t);
  opr_tensor_unref(like);
}

static void new_like_string_elements_start_empty(void **state) {
  (void)state;
  opr_tensor *a = floats(8); /* 32 bytes: room for two strings */
  memset(a->data, 0xab, a->nbytes);
  opr_tensor_unref(a);
  const int64_t dims[1] = {2};
  opr_tensor *like = NULL, *t = NULL;
  assert_null(opr_tensor_new(OPR_DT_INT8, 1, dims, &like));
  assert_null(opr_tensor_new_like(OPR_DT_STRING, like, &t));
  const opr_string *s = t->data;
  for (int i = 0; i < 2; i++) {
    assert_null(s[i].data);
    assert_int_equal(s[i].len, 0);
  }
  assert_null(opr_tensor_set_string(t, 1, "abc", 3));
  opr_tensor_unref(t); /* frees the element */
  opr_tensor_unref(like);
}

static void new_like_of_a_high_rank_tensor(void **state) {
  (void)state;
  const int64_t dims[8] = {1, 2, 1, 2, 1, 2, 1, 2};
  opr_tensor *like = NULL, *t = NULL;
  assert_null(opr_tensor_new(OPR_DT_FLOAT, 8, dims, &like));
  assert_null(opr_tensor_new_like(OPR_DT_DOUBLE, like, &t));
  assert_int_equal(t->rank, 8);
  assert_memory_equal(t->dims, dims, sizeof dims);
  assert_int_equal(t->nbytes, 16 * 8);
  opr_tensor_unref(t);
  opr_tensor_unref(like);
}

static void new_like_refuses_bad_arguments(void **state) {
  (void)state;
  opr_tensor *like = floats(1), *t = like;
  expect_status(opr_tensor_new_like(OPR_DT_FLOAT, NULL, &t),
                OPR_INVALID_ARGUMENT, "opr_tensor_new_like: like is NULL");
  expect_status(opr_tensor_new_like(OPR_DT_FLOAT, like, NULL),
                OPR_INVALID_ARGUMENT, "opr_tensor_new_like: out is NULL");
  expect_status(opr_tensor_new_like((opr_dtype)999, like, &t),
                OPR_INVALID_ARGUMENT,
                "opr_tensor_new_like: invalid dtype (value 999)");
  assert_null(t);
  opr_tensor_unref(like);
}

static void the_cache_is_bounded(void **state) {
  (void)state;
  opr_tensor *t[100];
  for (int i = 0; i < 100; i++) t[i] = floats(1);
  for (int i = 0; i < 100; i++) opr_tensor_unref(t[i]);
  /* 32 of the smallest class; the other 68 went back to malloc. */
  assert_int_equal(opr_tc_thread_blocks(0), CACHED ? 32 : 0);
}

static void medium_and_large_tensors_are_not_kept_here(void **state) {
  (void)state;
  size_t before = opr_tc_thread_blocks(-1);
  size_t old = opr_tensor_cache_limit((size_t)1 << 30);
  opr_tensor *m = floats(4096), *l = floats(1 << 20);
  opr_tensor_unref(m); /* malloc's */
  opr_tensor_unref(l); /* the large-tensor cache's */
  assert_int_equal(opr_tc_thread_blocks(-1), before);
  opr_tensor *again = floats(1 << 20);
  assert_ptr_equal(again, l); /* still reused through the large cache */
  opr_tensor_unref(again);
  opr_tensor_cache_limit(old);
}

static void a_zero_large_limit_leaves_small_tensors_cached(void **state) {
  (void)state;
  size_t old = opr_tensor_cache_limit(0);
  opr_tensor *a = floats(1);
  void *block = a;
  opr_tensor_unref(a);
  opr_tensor *b = floats(1);
  if (CACHED) assert_ptr_equal(b, block);
  opr_tensor_unref(b);
  opr_tensor_cache_limit(old);
}

/* A thread that frees what it is given and makes and frees its own. */
typedef struct handed {
  opr_tensor *given[4];
  size_t seen; /* blocks in the thread's cache after freeing them */
} handed;

static void *free_on_thread(void *arg) {
  handed *h = arg;
  for (int i = 0; i < 4; i++) opr_tensor_unref(h->given[i]);
  h->seen = opr_tc_thread_blocks(-1);
  for (int i = 0; i < 10; i++) opr_tensor_unref(floats(i * 100));
  return NULL;
}

static void a_tensor_freed_on_another_thread_joins_its_cache(void **state) {
  (void)state;
  size_t live = opr_tc_live_caches();
  handed h;
  for (int i = 0; i < 4; i++) h.given[i] = floats(1);
  size_t mine = opr_tc_thread_blocks(-1);
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, free_on_thread, &h), 0);
  assert_int_equal(pthread_join(th, NULL), 0);
  assert_int_equal(h.seen, CACHED ? 4 : 0);
  assert_int_equal(opr_tc_thread_blocks(-1), mine); /* not this thread's */
  /* The thread's cache was freed as it exited. */
  assert_int_equal(opr_tc_live_caches(), live);
}

static void *churn(void *arg) {
  (void)arg;
  for (int r = 0; r < 1000; r++) {
    opr_tensor *t[8];
    for (int i = 0; i < 8; i++) t[i] = floats(r % 7 * 150 + i);
    for (int i = 0; i < 8; i++) opr_tensor_unref(t[i]);
  }
  return NULL;
}

static void thread_exit_frees_every_cache(void **state) {
  (void)state;
  size_t live = opr_tc_live_caches();
  pthread_t th[4];
  for (int i = 0; i < 4; i++)
    assert_int_equal(pthread_create(&th[i], NULL, churn, NULL), 0);
  for (int i = 0; i < 4; i++) assert_int_equal(pthread_join(th[i], NULL), 0);
  assert_int_equal(opr_tc_live_caches(), live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_freed_small_tensor_comes_back_on_the_same_thread),
      cmocka_unit_test(new_zeroes_reused_memory),
      cmocka_unit_test(new_like_copies_the_shape_with_the_new_size),
      cmocka_unit_test(new_like_does_not_clear_reused_data),
      cmocka_unit_test(new_like_string_elements_start_empty),
      cmocka_unit_test(new_like_of_a_high_rank_tensor),
      cmocka_unit_test(new_like_refuses_bad_arguments),
      cmocka_unit_test(the_cache_is_bounded),
      cmocka_unit_test(medium_and_large_tensors_are_not_kept_here),
      cmocka_unit_test(a_zero_large_limit_leaves_small_tensors_cached),
      cmocka_unit_test(a_tensor_freed_on_another_thread_joins_its_cache),
      cmocka_unit_test(thread_exit_frees_every_cache),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
