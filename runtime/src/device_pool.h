/* Device memory kept for reuse. cudaMalloc and cudaFree cost
 * microseconds each (cudaFree also waits for the device), more than a
 * small kernel; a program calling ops on the GPU in a loop frees and
 * allocates the same sizes every call. So a freed block goes back to a
 * pool instead, up to a limit (opr_gpu_cache_limit), and an allocation
 * of the same size class takes it. The pool knows nothing of CUDA: it
 * is given the allocator, so it is tested without a device. */
#ifndef OPR_DEVICE_POOL_H
#define OPR_DEVICE_POOL_H

#include <pthread.h>
#include <stddef.h>

enum { OPR_POOL_SLOTS = 64 };

typedef struct opr_pool {
  /* 0 on success; else an error code, returned by opr_pool_get. */
  int (*alloc)(void **p, size_t n);
  void (*free)(void *p);
  pthread_mutex_t mutex;
  size_t limit; /* bytes kept at most */
  size_t kept;  /* bytes kept now */
  size_t count;
  struct {
    void *p;
    size_t capacity;
  } slots[OPR_POOL_SLOTS]; /* oldest first */
} opr_pool;

#define OPR_POOL_INIT(alloc_fn, free_fn, limit_bytes)                  \
  {.alloc = (alloc_fn), .free = (free_fn),                             \
   .mutex = PTHREAD_MUTEX_INITIALIZER, .limit = (limit_bytes)}

/* The bytes a block for `n` bytes holds: 512 at least, powers of two up
 * to 1 MiB, then whole 2 MiB units, so that blocks of nearby sizes are
 * interchangeable. 0 when that overflows. */
size_t opr_pool_capacity(size_t n);

/* A block for `n` (> 0) bytes in *p: a kept one of n's size class, else
 * a new one. When the allocator fails and blocks are kept, they are
 * freed and the allocation tried once more. */
int opr_pool_get(opr_pool *pool, size_t n, void **p);

/* Gives back the block that opr_pool_get returned for `n` bytes: kept
 * when it fits the limit (the oldest kept blocks freed to make room),
 * freed otherwise. NULL is ignored. */
void opr_pool_put(opr_pool *pool, void *p, size_t n);

/* Sets the limit, frees the kept blocks beyond it; returns the old one. */
size_t opr_pool_set_limit(opr_pool *pool, size_t limit);

#endif
