/* opr_shard and the context's thread pool: every unit of [0, total) runs
 * exactly once, in at most one block per thread, cut by cost the way
 * TensorFlow's Shard cuts it; small work runs inline; calls nest and run
 * from many threads at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "opr/opr.h"
#include "opr/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_BLOCKS = 64 };

/* What a sharded function saw. */
typedef struct record {
  pthread_mutex_t mu;
  int64_t begin[MAX_BLOCKS], end[MAX_BLOCKS];
  bool on_caller[MAX_BLOCKS];
  int nblocks;
  pthread_t caller;
  atomic_int *hits; /* per unit, or NULL */
  opr_context *nest; /* when set, each block shards itself again */
} record;

static void record_block(void *arg, int64_t begin, int64_t end) {
  record *r = arg;
  pthread_mutex_lock(&r->mu);
  if (r->nblocks < MAX_BLOCKS) {
    r->begin[r->nblocks] = begin;
    r->end[r->nblocks] = end;
    r->on_caller[r->nblocks] = pthread_equal(pthread_self(), r->caller);
  }
  r->nblocks++;
  pthread_mutex_unlock(&r->mu);
  for (int64_t i = begin; r->hits && i < end; i++)
    atomic_fetch_add(&r->hits[i], 1);
}

static void record_init(record *r, int64_t hits) {
  memset(r, 0, sizeof *r);
  pthread_mutex_init(&r->mu, NULL);
  r->caller = pthread_self();
  if (hits) {
    r->hits = calloc((size_t)hits, sizeof *r->hits);
    assert_non_null(r->hits);
  }
}

static void record_free(record *r) {
  pthread_mutex_destroy(&r->mu);
  free(r->hits);
}

static opr_context *context(int threads) {
  opr_context_options o = {.threads = threads};
  opr_context *ctx = NULL;
  opr_status s = opr_context_new(&o, &ctx);
  if (s) fail_msg("%s", opr_status_message(s));
  return ctx;
}

/* Blocks sorted by begin tile [0, total); all but the last the same
 * size. Returns the block count. */
static int check_tiling(record *r, int64_t total) {
  int n = r->nblocks;
  assert_true(n >= 1 && n <= MAX_BLOCKS);
  for (int i = 1; i < n; i++) /* insertion sort by begin */
    for (int j = i; j > 0 && r->begin[j - 1] > r->begin[j]; j--) {
      int64_t b = r->begin[j], e = r->end[j];
      r->begin[j] = r->begin[j - 1];
      r->end[j] = r->end[j - 1];
      r->begin[j - 1] = b;
      r->end[j - 1] = e;
    }
  assert_int_equal(r->begin[0], 0);
  for (int i = 0; i < n; i++) {
    assert_true(r->end[i] > r->begin[i]);
    if (i + 1 < n) {
      assert_int_equal(r->end[i], r->begin[i + 1]);
      assert_int_equal(r->end[i] - r->begin[i], r->end[0] - r->begin[0]);
    }
  }
  assert_int_equal(r->end[n - 1], total);
  return n;
}

static void shard_covers_each_unit_exactly_once(void **state) {
  (void)state;
  const int threads[] = {1, 2, 3, 8};
  const int64_t totals[] = {1, 2, 3, 1000, 10007, 100003};
  const int64_t costs[] = {0, 1, 10, 1000, 1 << 20};
  for (int t = 0; t < 4; t++) {
    opr_context *ctx = context(threads[t]);
    for (int n = 0; n < 6; n++)
      for (int c = 0; c < 5; c++) {
        record r;
        record_init(&r, totals[n]);
        opr_shard(ctx, totals[n], costs[c], record_block, &r);
        for (int64_t i = 0; i < totals[n]; i++)
          assert_int_equal(atomic_load(&r.hits[i]), 1);
        assert_true(check_tiling(&r, totals[n]) <= threads[t]);
        record_free(&r);
      }
    opr_context_free(ctx);
  }
}

/* Blocks for total units of cost each on 8 threads. */
static int blocks_for(opr_context *ctx, int64_t total, int64_t cost) {
  record r;
  record_init(&r, 0);
  opr_shard(ctx, total, cost, record_block, &r);
  int n = check_tiling(&r, total);
  record_free(&r);
  return n;
}

static void shard_cuts_by_cost_like_tensorflow(void **state) {
  (void)state;
  opr_context *ctx = context(8);
  /* One block per OPR_SHARD_MIN_COST (10000) of work, at most 8. */
  assert_int_equal(blocks_for(ctx, 100, 300), 3);   /* 30000 */
  assert_int_equal(blocks_for(ctx, 100, 1000), 8);  /* 100000 */
  assert_int_equal(blocks_for(ctx, 100, 99), 1);    /* 9900 */
  /* 8 shards of 9 units: blocks of ceil(9 / 8) = 2, so 5 of them. */
  assert_int_equal(blocks_for(ctx, 9, 1 << 30), 5);
  /* total * cost overflows: plenty of work. Blocks are only recorded. */
  assert_int_equal(blocks_for(ctx, (int64_t)1 << 40, INT64_MAX), 8);
  opr_context_free(ctx);
}

static void shard_runs_small_work_inline(void **state) {
  (void)state;
  opr_context *ctx = context(8);
  record r;
  record_init(&r, 0);
  opr_shard(ctx, 10, 1, record_block, &r);
  assert_int_equal(r.nblocks, 1);
  assert_int_equal(r.begin[0], 0);
  assert_int_equal(r.end[0], 10);
  assert_true(r.on_caller[0]);
  record_free(&r);
  opr_context_free(ctx);
}

static void shard_without_a_context_runs_inline(void **state) {
  (void)state;
  record r;
  record_init(&r, 0);
  opr_shard(NULL, 1000000, 1000, record_block, &r);
  assert_int_equal(r.nblocks, 1);
  assert_int_equal(r.end[0], 1000000);
  assert_true(r.on_caller[0]);
  record_free(&r);
  assert_int_equal(opr_context_threads(NULL), 1);
}

static void shard_of_nothing_calls_nothing(void **state) {
  (void)state;
  opr_context *ctx = context(4);
  record r;
  record_init(&r, 0);
  opr_shard(ctx, 0, 1000, record_block, &r);
  opr_shard(ctx, -5, 1000, record_block, &r);
  assert_int_equal(r.nblocks, 0);
  opr_shard(ctx, 100, 1000, NULL, &r); /* no function: nothing to run */
  record_free(&r);
  opr_context_free(ctx);
}

/* Each block shards its own range again on the same context. */
static void nested_block(void *arg, int64_t begin, int64_t end) {
  record *r = arg;
  record inner;
  record_init(&inner, 0);
  inner.hits = r->hits + begin;
  opr_shard(r->nest, end - begin, 1000, record_block, &inner);
  inner.hits = NULL;
  record_free(&inner);
}

static void shard_can_run_inside_a_shard(void **state) {
  (void)state;
  opr_context *ctx = context(3);
  record r;
  record_init(&r, 100000);
  r.nest = ctx;
  opr_shard(ctx, 100000, 1000, nested_block, &r);
  for (int64_t i = 0; i < 100000; i++)
    assert_int_equal(atomic_load(&r.hits[i]), 1);
  record_free(&r);
  opr_context_free(ctx);
}

static opr_context *shared;

static void *shard_many_times(void *arg) {
  (void)arg;
  for (int k = 0; k < 100; k++) {
    record r;
    record_init(&r, 20000 + k);
    opr_shard(shared, 20000 + k, 100, record_block, &r);
    for (int64_t i = 0; i < 20000 + k; i++)
      if (atomic_load(&r.hits[i]) != 1) abort();
    record_free(&r);
  }
  return NULL;
}

static void shard_from_many_threads_at_once(void **state) {
  (void)state;
  shared = context(3);
  pthread_t t[8];
  for (int i = 0; i < 8; i++)
    assert_int_equal(pthread_create(&t[i], NULL, shard_many_times, NULL), 0);
  for (int i = 0; i < 8; i++) pthread_join(t[i], NULL);
  opr_context_free(shared);
}

static void context_threads_follow_the_option(void **state) {
  (void)state;
  opr_context *ctx = context(5);
  assert_int_equal(opr_context_threads(ctx), 5);
  opr_context_free(ctx);
  ctx = context(1);
  assert_int_equal(opr_context_threads(ctx), 1);
  opr_context_free(ctx);
  ctx = context(0);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  assert_int_equal(opr_context_threads(ctx), cores < 1 ? 1 : cores);
  opr_context_free(ctx);
  assert_null(opr_context_new(NULL, &ctx)); /* defaults: cores */
  assert_int_equal(opr_context_threads(ctx), cores < 1 ? 1 : cores);
  opr_context_free(ctx);
}

static void context_rejects_a_bad_thread_count(void **state) {
  (void)state;
  const int bad[] = {-1, 1025};
  const char *msgs[] = {
      "opr_context_new: threads is -1; must be in [0, 1024] (0: one per "
      "core)",
      "opr_context_new: threads is 1025; must be in [0, 1024] (0: one per "
      "core)"};
  for (int i = 0; i < 2; i++) {
    opr_context_options o = {.threads = bad[i]};
    opr_context *ctx = (opr_context *)&o;
    opr_status s = opr_context_new(&o, &ctx);
    assert_non_null(s);
    assert_int_equal(opr_status_code(s), OPR_INVALID_ARGUMENT);
    assert_string_equal(opr_status_message(s), msgs[i]);
    assert_null(ctx);
    opr_status_free(s);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(shard_covers_each_unit_exactly_once),
      cmocka_unit_test(shard_cuts_by_cost_like_tensorflow),
      cmocka_unit_test(shard_runs_small_work_inline),
      cmocka_unit_test(shard_without_a_context_runs_inline),
      cmocka_unit_test(shard_of_nothing_calls_nothing),
      cmocka_unit_test(shard_can_run_inside_a_shard),
      cmocka_unit_test(shard_from_many_threads_at_once),
      cmocka_unit_test(context_threads_follow_the_option),
      cmocka_unit_test(context_rejects_a_bad_thread_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
