/* opr_shard: cuts a range into blocks by cost, as TensorFlow's Shard
 * does, and runs them on the context's pool. */
#include "internal.h"
#include "opr/parallel.h"
#include "threadpool.h"

int opr_context_threads(const opr_context *ctx) {
  return ctx ? opr_threadpool_parallelism(ctx->pool) : 1;
}

/* How many blocks: one per OPR_SHARD_MIN_COST of work, at most one per
 * thread, at least one. */
static int64_t shard_count(int64_t total, int64_t cost, int threads) {
  if (cost < 1) cost = 1;
  if (total > INT64_MAX / cost) return threads; /* plenty of work */
  int64_t n = total * cost / OPR_SHARD_MIN_COST;
  return n < 1 ? 1 : n > threads ? threads : n;
}

void opr_shard(opr_context *ctx, int64_t total, int64_t cost_per_unit,
               void (*fn)(void *arg, int64_t begin, int64_t end),
               void *arg) {
  if (total <= 0 || !fn) return;
  int threads = opr_context_threads(ctx);
  int64_t shards = threads > 1 ? shard_count(total, cost_per_unit, threads)
                               : 1;
  int64_t block = total / shards + (total % shards != 0);
  if (block >= total) {
    fn(arg, 0, total);
    return;
  }
  opr_threadpool_run(ctx->pool, total, block, fn, arg);
}
