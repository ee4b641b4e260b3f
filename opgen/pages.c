#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, madvise */

#include "pages.h"

#include "arena.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OG_PAGES_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define OG_PAGES_MALLOC 1
#endif
#endif
#ifndef OG_PAGES_MALLOC
#define OG_PAGES_MALLOC 0
#endif

/* Address space only: pages count once touched. A prefault stops at
 * PREFAULT_MAX (a corpus run takes 29 MiB), whatever the spec's size. */
enum {
  REGION = 1u << 30,
  HUGE = 2u << 20,
  GRAIN = 4096,
  PREFAULT_MAX = 64u << 20
};

/* A freed buffer, stored in itself. */
typedef struct free_buf {
  struct free_buf *next;
  size_t size;
} free_buf;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char *base; /* NULL: no region */
static atomic_size_t used;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static free_buf *freed;

static void reserve(void) {
  if (OG_PAGES_MALLOC) return;
  void *p = mmap(NULL, REGION + HUGE, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return;
  /* Huge pages need 2 MiB-aligned addresses. */
  uintptr_t a = ((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
  (void)madvise((void *)a, REGION, MADV_HUGEPAGE); /* advice only */
  base = (char *)a;
}

static bool in_region(const void *p) {
  return base && (const char *)p >= base && (const char *)p < base + REGION;
}

/* A freed buffer of at least size bytes and at most twice that (the
 * first that fits: most requests are of one block size; the caller
 * frees it with its own size, so a far larger one would shrink for
 * good), unlinked; NULL if none. */
static void *take_freed(size_t size) {
  pthread_mutex_lock(&lock);
  free_buf **link = &freed;
  while (*link && ((*link)->size < size || (*link)->size / 2 > size))
    link = &(*link)->next;
  free_buf *b = *link;
  if (b) *link = b->next;
  pthread_mutex_unlock(&lock);
  return b;
}

static size_t rounded(size_t size) {
  return size > SIZE_MAX - GRAIN ? SIZE_MAX : (size + GRAIN - 1) & ~(size_t)(GRAIN - 1);
}

void *og_pages_alloc(size_t size) {
  pthread_once(&once, reserve);
  size = rounded(size);
  if (!base || size > REGION) return og_xmalloc(size);
  void *p = take_freed(size);
  if (p) return p;
  size_t at = atomic_fetch_add(&used, size);
  if (at + size > REGION) return og_xmalloc(size); /* used stays past */
  return base + at;
}

bool og_pages_owns(const void *p) { return in_region(p); }

void og_pages_free(void *p, size_t size) {
  if (!p) return;
  if (!in_region(p)) {
    free(p);
    return;
  }
  free_buf *b = p;
  b->size = rounded(size);
  pthread_mutex_lock(&lock);
  b->next = freed;
  freed = b;
  pthread_mutex_unlock(&lock);
}

/* One huge page at a time, so that a page the program faults itself
 * meanwhile costs the populating thread nothing more. */
static atomic_bool stop_populating;

static void *populate(void *arg) {
#ifdef MADV_POPULATE_WRITE
  size_t end = (size_t)(uintptr_t)arg;
  for (size_t at = 0; at < end && !atomic_load(&stop_populating); at += HUGE)
    if (madvise(base + at, HUGE, MADV_POPULATE_WRITE) != 0) break;
#else
  (void)arg;
#endif
  return NULL;
}

void og_pages_prefault(size_t bytes) {
  static atomic_bool started;
  pthread_once(&once, reserve);
  if (!base || atomic_exchange(&started, true)) return;
  if (bytes > PREFAULT_MAX) bytes = PREFAULT_MAX;
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) != 0) return;
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  (void)pthread_create(&thread, &attr, populate, (void *)(uintptr_t)bytes);
  pthread_attr_destroy(&attr);
}

void og_pages_prefault_stop(void) { atomic_store(&stop_populating, true); }
