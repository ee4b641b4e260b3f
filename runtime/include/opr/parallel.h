/* Multithreaded CPU kernels: the context's thread pool, reached through
 * opr_shard. */
#ifndef OPR_PARALLEL_H
#define OPR_PARALLEL_H

#include "opr/kernel.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs fn over [0, total) split into contiguous blocks, on the context's
 * threads and the calling one, and returns when all are done. As
 * TensorFlow's Shard: `cost_per_unit` is a rough cost of one unit (say,
 * the bytes it touches); the range is cut into at most as many blocks as
 * the context has threads, and into fewer when each would cost less than
 * OPR_SHARD_MIN_COST; one block runs inline on the caller. Each unit is
 * covered exactly once. A NULL ctx, total <= 0 or a NULL fn: fn runs
 * inline, or not at all for total <= 0. Safe to call from several threads
 * at once and from inside fn. */
void opr_shard(opr_context *ctx, int64_t total, int64_t cost_per_unit,
               void (*fn)(void *arg, int64_t begin, int64_t end), void *arg);

/* The least cost of a block before opr_shard cuts another. */
#define OPR_SHARD_MIN_COST 10000

/* The number of threads opr_shard uses on ctx (its workers and the
 * caller); 1 for NULL. */
int opr_context_threads(const opr_context *ctx);

#ifdef __cplusplus
}
#endif

#endif
