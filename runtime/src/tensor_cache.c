/* Per-thread caches of small host tensor blocks (see tensor_cache.h).
 * Bounded per class and thread; a block freed on another thread than
 * the one that allocated it joins the freeing thread's cache (it is
 * plain malloc memory). A thread's cache is freed when the thread exits
 * (a pthread key destructor), and the exiting process's at exit. */
#include "tensor_cache.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

_Thread_local opr_tcache *opr_tc_mine OPR_TLS_FAST;

/* At most about 54 KiB a thread. */
const unsigned opr_tc_limit[OPR_TC_CLASSES] = {32, 16, 8, 8};
static const size_t class_size[OPR_TC_CLASSES] = OPR_TC_CLASS_SIZES;

_Static_assert(OPR_TC_MAX < OPR_HOST_LARGE, "small blocks come from malloc");

/* What a thread's pointer becomes once its cache is freed: full and
 * empty, so that later frees go to malloc. Never written. */
static opr_tcache retired = {{NULL}, {~0u, ~0u, ~0u, ~0u}};

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t key;
static bool key_ok;
static atomic_size_t live;

static void drain(opr_tcache *tc) {
  for (int c = 0; c < OPR_TC_CLASSES; c++)
    while (tc->head[c]) {
      void *b = tc->head[c];
      tc->head[c] = *(void **)b;
      free(b);
    }
  free(tc);
  atomic_fetch_sub_explicit(&live, 1, memory_order_relaxed);
}

/* Runs at thread exit for a thread that has a cache. */
static void thread_exit(void *arg) {
  opr_tc_mine = &retired;
  drain(arg);
}

/* The thread calling exit() (usually the main thread, whose key
 * destructors do not run): frees its cache too, so that leak checkers
 * see nothing held. */
static void process_exit(void) {
  opr_tcache *tc = opr_tc_mine;
  if (!tc || tc == &retired) return;
  opr_tc_mine = &retired;
  if (key_ok) pthread_setspecific(key, NULL);
  drain(tc);
}

static void make_key(void) {
  key_ok = pthread_key_create(&key, thread_exit) == 0;
  if (key_ok) atexit(process_exit);
}

void *opr_tc_alloc_slow(int cls) {
  return malloc(class_size[cls]);
}

void opr_tc_free_slow(void *p, int cls) {
  opr_tcache *tc = opr_tc_mine;
  if (!tc) { /* first small free on this thread: make its cache */
    pthread_once(&key_once, make_key);
    tc = key_ok ? calloc(1, sizeof *tc) : NULL;
    if (tc && pthread_setspecific(key, tc) != 0) {
      free(tc);
      tc = NULL;
    }
    if (!tc) {
      opr_tc_mine = &retired; /* no cache on this thread */
      free(p);
      return;
    }
    atomic_fetch_add_explicit(&live, 1, memory_order_relaxed);
    opr_tc_mine = tc;
  }
  if (tc->count[cls] >= opr_tc_limit[cls]) {
    free(p);
    return;
  }
  *(void **)p = tc->head[cls];
  tc->head[cls] = p;
  tc->count[cls]++;
}

size_t opr_tc_thread_blocks(int cls) {
  const opr_tcache *tc = opr_tc_mine;
  size_t n = 0;
  for (int c = 0; tc && tc != &retired && c < OPR_TC_CLASSES; c++)
    if (cls < 0 || cls == c) n += tc->count[c];
  return n;
}

size_t opr_tc_live_caches(void) {
  return atomic_load_explicit(&live, memory_order_relaxed);
}
