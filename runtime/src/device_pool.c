/* The device memory pool (device_pool.h). */
#include "device_pool.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { SMALLEST = 512, POWERS_UP_TO = 1 << 20, UNIT = 2 << 20 };

size_t opr_pool_capacity(size_t n) {
  if (n <= SMALLEST) return SMALLEST;
  if (n <= POWERS_UP_TO) {
    size_t c = SMALLEST;
    while (c < n) c *= 2;
    return c;
  }
  if (n > SIZE_MAX - (UNIT - 1)) return 0;
  return (n + UNIT - 1) / UNIT * UNIT;
}

/* Removes slot i; returns its block. Under the mutex. */
static void *take_slot(opr_pool *pool, size_t i) {
  void *p = pool->slots[i].p;
  pool->kept -= pool->slots[i].capacity;
  pool->count--;
  memmove(&pool->slots[i], &pool->slots[i + 1],
          (pool->count - i) * sizeof *pool->slots);
  return p;
}

/* Frees the oldest kept blocks until `room` more bytes and one more
 * block fit under `limit` (limit 0: all of them). Under the mutex. */
static void shrink(opr_pool *pool, size_t room, size_t limit) {
  while (pool->count > 0 && (pool->count == OPR_POOL_SLOTS ||
                             pool->kept + room > limit))
    pool->free(take_slot(pool, 0));
}

int opr_pool_get(opr_pool *pool, size_t n, void **p) {
  size_t cap = opr_pool_capacity(n);
  *p = NULL;
  if (!cap) return pool->alloc(p, n); /* cannot succeed; says why */
  pthread_mutex_lock(&pool->mutex);
  for (size_t i = pool->count; i-- > 0;) /* the newest first */
    if (pool->slots[i].capacity == cap) {
      *p = take_slot(pool, i);
      break;
    }
  pthread_mutex_unlock(&pool->mutex);
  if (*p) return 0;
  int err = pool->alloc(p, cap);
  if (!err) return 0;
  /* Out of memory, perhaps only because of what is kept. */
  pthread_mutex_lock(&pool->mutex);
  bool had = pool->count > 0;
  shrink(pool, 0, 0);
  pthread_mutex_unlock(&pool->mutex);
  return had ? pool->alloc(p, cap) : err;
}

void opr_pool_put(opr_pool *pool, void *p, size_t n) {
  if (!p) return;
  size_t cap = opr_pool_capacity(n);
  pthread_mutex_lock(&pool->mutex);
  bool keep = cap != 0 && cap <= pool->limit;
  if (keep) {
    shrink(pool, cap, pool->limit);
    pool->slots[pool->count].p = p;
    pool->slots[pool->count].capacity = cap;
    pool->count++;
    pool->kept += cap;
  }
  pthread_mutex_unlock(&pool->mutex);
  if (!keep) pool->free(p);
}

size_t opr_pool_set_limit(opr_pool *pool, size_t limit) {
  pthread_mutex_lock(&pool->mutex);
  size_t old = pool->limit;
  pool->limit = limit;
  shrink(pool, 0, limit);
  pthread_mutex_unlock(&pool->mutex);
  return old;
}
