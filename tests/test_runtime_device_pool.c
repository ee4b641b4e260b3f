/* The pool that keeps freed GPU memory for reuse (runtime/src/
 * device_pool.h), driven by a counting host allocator in place of
 * cudaMalloc, so it runs without a device: size classes, reuse, the
 * limit, the slot bound, and the retry when the device is full. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "device_pool.h"

#include <stdlib.h>

/* The fake device: `budget` bytes; counts of calls and live blocks. */
static size_t budget, live_bytes;
static int allocs, frees;

static int fake_alloc(void **p, size_t n) {
  allocs++;
  if (live_bytes + n > budget) return 2; /* cudaErrorMemoryAllocation */
  size_t *block = malloc(sizeof(size_t) + n);
  if (!block) return 2;
  *block = n;
  live_bytes += n;
  *p = block + 1;
  return 0;
}

static void fake_free(void *p) {
  size_t *block = (size_t *)p - 1;
  frees++;
  live_bytes -= *block;
  free(block);
}

static opr_pool pool = OPR_POOL_INIT(fake_alloc, fake_free, 1 << 20);

static int reset(void **state) {
  (void)state;
  opr_pool_set_limit(&pool, 0);
  opr_pool_set_limit(&pool, 1 << 20);
  budget = (size_t)64 << 20;
  allocs = frees = 0;
  assert_int_equal(live_bytes, 0); /* every test gives back its blocks */
  return 0;
}

static void *get(size_t n) {
  void *p = NULL;
  assert_int_equal(opr_pool_get(&pool, n, &p), 0);
  assert_non_null(p);
  return p;
}

static void sizes_round_up_to_their_class(void **state) {
  (void)state;
  assert_int_equal(opr_pool_capacity(1), 512);
  assert_int_equal(opr_pool_capacity(512), 512);
  assert_int_equal(opr_pool_capacity(513), 1024);
  assert_int_equal(opr_pool_capacity(300000), 524288);
  assert_int_equal(opr_pool_capacity(1 << 20), 1 << 20);
  assert_int_equal(opr_pool_capacity((1 << 20) + 1), 2 << 20);
  assert_int_equal(opr_pool_capacity((size_t)5 << 20), (size_t)6 << 20);
  assert_int_equal(opr_pool_capacity(SIZE_MAX), 0);
}

static void a_freed_block_serves_its_size_class_again(void **state) {
  (void)state;
  void *a = get(700);
  opr_pool_put(&pool, a, 700);
  assert_ptr_equal(get(1000), a); /* 700 and 1000: both 1024 */
  assert_int_equal(allocs, 1);
  assert_int_equal(frees, 0);
  void *b = get(1025); /* 2048: a new block */
  assert_ptr_not_equal(b, a);
  assert_int_equal(allocs, 2);
  opr_pool_put(&pool, a, 1000);
  opr_pool_put(&pool, b, 1025);
}

static void the_limit_frees_the_oldest_blocks(void **state) {
  (void)state;
  opr_pool_set_limit(&pool, 2048);
  void *a = get(1024), *b = get(1024), *c = get(1024);
  opr_pool_put(&pool, a, 1024);
  opr_pool_put(&pool, b, 1024);
  assert_int_equal(frees, 0);
  opr_pool_put(&pool, c, 1024); /* a goes */
  assert_int_equal(frees, 1);
  assert_int_equal(pool.kept, 2048);
  assert_ptr_equal(get(1024), c); /* the newest first */
  assert_ptr_equal(get(1024), b);
  assert_int_equal(allocs, 3);
  opr_pool_put(&pool, b, 1024);
  opr_pool_put(&pool, c, 1024);
}

static void a_block_over_the_limit_is_freed_at_once(void **state) {
  (void)state;
  opr_pool_set_limit(&pool, 4096);
  void *a = get(5000);
  opr_pool_put(&pool, a, 5000);
  assert_int_equal(frees, 1);
  assert_int_equal(pool.count, 0);
}

static void limit_zero_frees_what_is_kept(void **state) {
  (void)state;
  void *a = get(100), *b = get(100000);
  opr_pool_put(&pool, a, 100);
  opr_pool_put(&pool, b, 100000);
  assert_int_equal(opr_pool_set_limit(&pool, 0), 1 << 20);
  assert_int_equal(frees, 2);
  assert_int_equal(pool.kept, 0);
  assert_int_equal(live_bytes, 0);
  void *c = get(100); /* nothing kept any more: a new block, freed back */
  opr_pool_put(&pool, c, 100);
  assert_int_equal(allocs, 3);
  assert_int_equal(frees, 3);
}

static void at_most_64_blocks_are_kept(void **state) {
  (void)state;
  void *blocks[70];
  for (int i = 0; i < 70; i++) blocks[i] = get(512);
  for (int i = 0; i < 70; i++) opr_pool_put(&pool, blocks[i], 512);
  assert_int_equal(pool.count, OPR_POOL_SLOTS);
  assert_int_equal(frees, 70 - OPR_POOL_SLOTS);
}

static void a_full_device_gets_back_what_is_kept(void **state) {
  (void)state;
  budget = (size_t)4 << 20;
  void *a = get((size_t)3 << 20); /* 4 MiB: the whole device */
  opr_pool_put(&pool, a, (size_t)3 << 20); /* over the 1 MiB limit: freed */
  opr_pool_set_limit(&pool, (size_t)8 << 20);
  a = get(1 << 20);
  opr_pool_put(&pool, a, 1 << 20); /* kept: 1 MiB of the 4 */
  void *b = get((size_t)3 << 20);  /* fails, frees the kept MiB, retries */
  assert_int_equal(pool.kept, 0);
  opr_pool_put(&pool, b, (size_t)3 << 20);
  void *c = NULL;
  budget = 0;
  opr_pool_set_limit(&pool, 0);
  assert_int_equal(opr_pool_get(&pool, 1, &c), 2); /* nothing to give back */
  assert_null(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sizes_round_up_to_their_class),
      cmocka_unit_test_setup(a_freed_block_serves_its_size_class_again, reset),
      cmocka_unit_test_setup(the_limit_frees_the_oldest_blocks, reset),
      cmocka_unit_test_setup(a_block_over_the_limit_is_freed_at_once, reset),
      cmocka_unit_test_setup(limit_zero_frees_what_is_kept, reset),
      cmocka_unit_test_setup(at_most_64_blocks_are_kept, reset),
      cmocka_unit_test_setup(a_full_device_gets_back_what_is_kept, reset),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  reset(NULL);
  opr_pool_set_limit(&pool, 0);
  return failed;
}
