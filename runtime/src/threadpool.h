/* The context's worker threads and the jobs opr_shard hands them. */
#ifndef OPR_THREADPOOL_H
#define OPR_THREADPOOL_H

#include "opr/status.h"

#include <stdint.h>

typedef struct opr_threadpool opr_threadpool;

/* What a job runs on each block: [begin, end). */
typedef void (*opr_block_fn)(void *arg, int64_t begin, int64_t end);

/* A pool for `parallelism` threads in all: the thread that runs a job
 * works on it too, so parallelism - 1 workers start (none for 1). */
opr_status opr_threadpool_new(int parallelism, opr_threadpool **out);
/* Stops and joins the workers. No job may be running. NULL is ignored. */
void opr_threadpool_free(opr_threadpool *pool);
/* Workers + 1; 1 for NULL. */
int opr_threadpool_parallelism(const opr_threadpool *pool);

/* Runs fn over [0, total) cut into blocks of `block` units (the last one
 * shorter), on the workers and on the calling thread, and returns when
 * every block is done. The caller claims blocks too, so a job never waits
 * for a busy worker, and a block may itself run a job. */
void opr_threadpool_run(opr_threadpool *pool, int64_t total, int64_t block,
                        opr_block_fn fn, void *arg);

/* The machine's online cores (at least 1). */
int opr_threadpool_default_size(void);

#endif
