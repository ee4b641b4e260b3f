/* Per-thread caches of small host tensor blocks (tensor_cache.c): a
 * tensor header with its data after it, in a few size classes. A call
 * that allocates and releases a one-element output then costs a pop and
 * a push on this thread's lists instead of a malloc and a free.
 *
 * Under AddressSanitizer, ThreadSanitizer (and so in OPGEN_FUZZ builds)
 * the caches are compiled out: every tensor is its own malloc, so that
 * the sanitizer sees every use after free. */
#ifndef OPR_TENSOR_CACHE_H
#define OPR_TENSOR_CACHE_H

#include "internal.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OPR_TC_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define OPR_TC_SANITIZED 1
#endif
#endif

#if defined(OPR_TC_SANITIZED) || defined(OPR_NO_TENSOR_CACHE)
#define OPR_TC_ENABLED 0
#else
#define OPR_TC_ENABLED 1
#endif

/* Block sizes of the classes (header and data); larger blocks are not
 * cached here (the large ones are, by host_alloc.c). */
enum { OPR_TC_CLASSES = 4 };
#define OPR_TC_CLASS_SIZES {256, 512, 1280, 4352}
#define OPR_TC_MAX ((size_t)4352)

/* One thread's lists: blocks linked through their first word. */
typedef struct opr_tcache {
  void *head[OPR_TC_CLASSES];
  unsigned count[OPR_TC_CLASSES];
} opr_tcache;

/* This thread's cache; NULL until its first free of a small block, then
 * a retired one (taking nothing) once the thread has exited. */
extern _Thread_local opr_tcache *opr_tc_mine OPR_TLS_FAST;
extern const unsigned opr_tc_limit[OPR_TC_CLASSES];

void *opr_tc_alloc_slow(int cls);
void opr_tc_free_slow(void *p, int cls);

static inline int opr_tc_class(size_t size) {
  return size <= 256 ? 0 : size <= 512 ? 1 : size <= 1280 ? 2 : 3;
}

/* A cached block for `size` bytes (at most OPR_TC_MAX), or NULL when
 * this thread has none: no call, for the fast paths. */
static inline void *opr_tc_take(size_t size) {
#if OPR_TC_ENABLED
  int c = opr_tc_class(size);
  opr_tcache *tc = opr_tc_mine;
  void *b = tc ? tc->head[c] : NULL;
  if (b) {
    tc->head[c] = *(void **)b;
    tc->count[c]--;
  }
  return b;
#else
  (void)size;
  return NULL;
#endif
}

/* Keeps a block of `size` bytes in this thread's cache if it has room;
 * false otherwise (then the caller frees it): no call. */
static inline bool opr_tc_put(void *p, size_t size) {
#if OPR_TC_ENABLED
  if (size > OPR_TC_MAX) return false;
  int c = opr_tc_class(size);
  opr_tcache *tc = opr_tc_mine;
  if (!tc || tc->count[c] >= opr_tc_limit[c]) return false;
  *(void **)p = tc->head[c];
  tc->head[c] = p;
  tc->count[c]++;
  return true;
#else
  (void)p;
  (void)size;
  return false;
#endif
}

/* Memory for a host tensor block of `size` bytes; free it with
 * opr_tc_free and the same size. */
static inline void *opr_tc_alloc(size_t size) {
#if OPR_TC_ENABLED
  if (size <= OPR_TC_MAX) {
    int c = opr_tc_class(size);
    opr_tcache *tc = opr_tc_mine;
    void *b = tc ? tc->head[c] : NULL;
    if (!b) return opr_tc_alloc_slow(c);
    tc->head[c] = *(void **)b;
    tc->count[c]--;
    return b;
  }
#endif
  return opr_host_alloc(size);
}

static inline void opr_tc_free(void *p, size_t size) {
#if OPR_TC_ENABLED
  if (size <= OPR_TC_MAX) {
    int c = opr_tc_class(size);
    opr_tcache *tc = opr_tc_mine;
    if (!tc || tc->count[c] >= opr_tc_limit[c]) {
      opr_tc_free_slow(p, c);
      return;
    }
    *(void **)p = tc->head[c];
    tc->head[c] = p;
    tc->count[c]++;
    return;
  }
#endif
  opr_host_free(p, size);
}

/* Blocks held by this thread's cache in class `cls`, or in all with -1
 * (tests). */
size_t opr_tc_thread_blocks(int cls);
/* Threads whose caches are alive (tests: thread exit frees them). */
size_t opr_tc_live_caches(void);

#endif
