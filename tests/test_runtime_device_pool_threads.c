/* The GPU memory pool (runtime/src/device_pool.h) shared by threads:
 * a block is never held by two at once, and every block is accounted
 * for at the end. Runs under TSan in CI (.ci/sanitize tsan). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the four headers above first. */
#include <cmocka.h>

#include "device_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

enum { THREADS = 4, ROUNDS = 3000 };

static pthread_mutex_t fake_mutex = PTHREAD_MUTEX_INITIALIZER;
static long live_blocks;

static int fake_alloc(void **p, size_t n) {
  *p = malloc(n);
  if (!*p) return 2;
  pthread_mutex_lock(&fake_mutex);
  live_blocks++;
  pthread_mutex_unlock(&fake_mutex);
  return 0;
}

static void fake_free(void *p) {
  free(p);
  pthread_mutex_lock(&fake_mutex);
  live_blocks--;
  pthread_mutex_unlock(&fake_mutex);
}

static opr_pool pool = OPR_POOL_INIT(fake_alloc, fake_free, 64 << 10);

/* Takes blocks of three size classes, marks each as its own, checks the
 * mark after giving other threads a turn, and gives it back. */
static void *worker(void *arg) {
  uintptr_t me = (uintptr_t)arg;
  static const size_t sizes[3] = {100, 3000, 9000};
  for (int i = 0; i < ROUNDS; i++) {
    size_t n = sizes[(me + (uintptr_t)i) % 3];
    void *p = NULL;
    if (opr_pool_get(&pool, n, &p)) return (void *)1;
    volatile uintptr_t *mark = p;
    *mark = me;
    sched_yield();
    if (*mark != me) return (void *)1;
    opr_pool_put(&pool, p, n);
  }
  return NULL;
}

static void threads_never_share_a_block(void **state) {
  (void)state;
  pthread_t t[THREADS];
  for (uintptr_t i = 0; i < THREADS; i++)
    assert_int_equal(pthread_create(&t[i], NULL, worker, (void *)(i + 1)), 0);
  for (int i = 0; i < THREADS; i++) {
    void *failed = NULL;
    pthread_join(t[i], &failed);
    assert_null(failed);
  }
  pthread_mutex_lock(&fake_mutex);
  long live = live_blocks;
  pthread_mutex_unlock(&fake_mutex);
  assert_int_equal(live, (long)pool.count); /* the rest went back */
  assert_true(pool.kept <= (size_t)64 << 10);
  opr_pool_set_limit(&pool, 0);
  assert_int_equal(live_blocks, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(threads_never_share_a_block),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
