/* Host memory for tensors. Small blocks come from malloc. Large ones
 * (OPR_HOST_LARGE and more) are what an element-wise op on big tensors
 * allocates every call, and fresh memory costs a page fault per page
 * touched, which here is several times the cost of the op itself. So:
 *
 * - a freed large block is kept for reuse, up to a total limit
 *   (opr_tensor_cache_limit), the way TensorFlow's BFC allocator keeps
 *   its pool: an op run again on tensors of the same size writes into
 *   memory already mapped;
 * - a new large block is aligned to 2 MiB and, on Linux, advised for
 *   transparent huge pages, so that the faults that remain are 512 times
 *   fewer.
 *
 * A large block starts with a header holding its capacity; the caller
 * gets the memory after it. */
#define _DEFAULT_SOURCE /* madvise */

#include "internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

enum {
  HUGE_PAGE = 2 * 1024 * 1024,
  CACHE_SLOTS = 16,
  /* Before the caller's memory: room for the capacity, a multiple of any
   * alignment a tensor needs. */
  BLOCK_HEADER = 64,
};

/* The default limit of memory kept for reuse: none under AddressSanitizer,
 * where a reused block would hide a use after free of a large tensor. */
#if defined(__SANITIZE_ADDRESS__)
#define OPR_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OPR_ASAN 1
#endif
#endif
#ifdef OPR_ASAN
#define DEFAULT_CACHE_LIMIT ((size_t)0)
#else
#define DEFAULT_CACHE_LIMIT ((size_t)1 << 30)
#endif

typedef struct block_header {
  size_t capacity; /* bytes after the header */
} block_header;

_Static_assert(sizeof(block_header) <= BLOCK_HEADER, "header fits");
_Static_assert(BLOCK_HEADER % _Alignof(max_align_t) == 0, "aligned");

static pthread_mutex_t cache_mutex = PTHREAD_MUTEX_INITIALIZER;
static void *cache[CACHE_SLOTS]; /* oldest first; block starts */
static size_t cache_count, cache_bytes, cache_limit = DEFAULT_CACHE_LIMIT;

static size_t capacity_of(void *block) {
  return ((const block_header *)block)->capacity;
}

/* The block new_large makes for `size`: its total size (header
 * included), 0 on overflow. Blocks of two huge pages and more are whole
 * huge pages. */
static size_t block_total(size_t size) {
  size_t total = BLOCK_HEADER + size;
  if (total < size) return 0;
  if (total < 2 * (size_t)HUGE_PAGE) return total;
  size_t rounded = (total + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
  return rounded < total ? 0 : rounded;
}

/* Takes the smallest cached block that holds `size` and is at most an
 * eighth larger than a new one would be. Under the mutex. */
static void *cache_take(size_t size) {
  size_t best = CACHE_SLOTS, fresh = block_total(size) - BLOCK_HEADER;
  for (size_t i = 0; i < cache_count; i++) {
    size_t cap = capacity_of(cache[i]);
    if (cap >= size && cap - fresh / 8 <= fresh &&
        (best == CACHE_SLOTS || cap < capacity_of(cache[best])))
      best = i;
  }
  if (best == CACHE_SLOTS) return NULL;
  void *block = cache[best];
  memmove(&cache[best], &cache[best + 1],
          (cache_count - best - 1) * sizeof *cache);
  cache_count--;
  cache_bytes -= capacity_of(block);
  return block;
}

/* Frees the oldest cached blocks until `room` more bytes and one more
 * block fit the limits. Under the mutex; returns false when they never
 * will. */
static bool cache_make_room(size_t room) {
  if (room > cache_limit) return false;
  while (cache_count > 0 &&
         (cache_count == CACHE_SLOTS || cache_bytes + room > cache_limit)) {
    cache_bytes -= capacity_of(cache[0]);
    free(cache[0]);
    cache_count--;
    memmove(&cache[0], &cache[1], cache_count * sizeof *cache);
  }
  return true;
}

static void *new_large(size_t size) {
  size_t total = block_total(size);
  if (!total) return NULL;
  void *block;
  if (total >= 2 * (size_t)HUGE_PAGE) {
    block = aligned_alloc(HUGE_PAGE, total);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (block) madvise(block, total, MADV_HUGEPAGE); /* advice only */
#endif
  } else {
    block = malloc(total);
  }
  if (block) ((block_header *)block)->capacity = total - BLOCK_HEADER;
  return block;
}

void *opr_host_alloc_large(size_t size) {
  pthread_mutex_lock(&cache_mutex);
  void *block = cache_take(size);
  pthread_mutex_unlock(&cache_mutex);
  if (!block) block = new_large(size);
  return block ? (char *)block + BLOCK_HEADER : NULL;
}

void opr_host_free_large(void *p) {
  if (!p) return;
  void *block = (char *)p - BLOCK_HEADER;
  size_t cap = capacity_of(block);
  pthread_mutex_lock(&cache_mutex);
  bool keep = cache_make_room(cap);
  if (keep) {
    cache[cache_count++] = block;
    cache_bytes += cap;
  }
  pthread_mutex_unlock(&cache_mutex);
  if (!keep) free(block);
}

size_t opr_tensor_cache_limit(size_t bytes) {
  pthread_mutex_lock(&cache_mutex);
  size_t old = cache_limit;
  cache_limit = bytes;
  cache_make_room(0);
  pthread_mutex_unlock(&cache_mutex);
  return old;
}
