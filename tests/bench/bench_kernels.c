/* Section 3: memory bandwidth of the elementwise kernels on 64M float32
 * elements (256 MiB a tensor), with 1 and 2 threads, beside memcpy of the
 * same bytes on the same threads in the same run. GB/s count the bytes an
 * operation must move: read + write (2x the tensor) for memcpy and
 * Example, 2 reads + a write (3x) for AddN of two.
 *
 * Where the destination comes from decides the figure as much as the loop
 * does: a fresh 256 MiB buffer is faulted in page by page, which costs
 * several times the copy itself. So memcpy is measured into fresh memory
 * (malloc'd, and allocated as the runtime allocates a large tensor) and
 * into warm memory (allocated once, already touched); the ops run as a
 * program running them repeatedly gets them (the runtime reuses a freed
 * output's memory, opr_tensor_cache_limit) and with that reuse off, every
 * output in fresh memory. The goal (80% of memcpy) is stated against warm
 * memcpy, the harder baseline. */
#define _DEFAULT_SOURCE /* madvise */

#include "bench_sections.h"
#include "bench_util.h"

#include "demo_ops.h"
#include "opr/parallel.h"
#include "shipped.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

enum { ELEMENTS = 64 * 1024 * 1024 };
#define BYTES ((size_t)ELEMENTS * sizeof(float))
#define HUGE_PAGE ((size_t)2 << 20)

typedef struct copy_arg {
  unsigned char *dst;
  const unsigned char *src;
} copy_arg;

static void copy_block(void *p, int64_t begin, int64_t end) {
  const copy_arg *a = p;
  memcpy(a->dst + begin, a->src + begin, (size_t)(end - begin));
}

/* Keeps the copies observable, so the compiler cannot drop them. */
static volatile unsigned char sink;

/* memcpy of BYTES on the context's threads (opr_shard, as the kernels
 * split their work); seconds. */
static double timed_copy(opr_context *ctx, void *dst, const void *src) {
  copy_arg a = {dst, src};
  double start = bench_now();
  opr_shard(ctx, (int64_t)BYTES, 2, copy_block, &a);
  double t = bench_now() - start;
  sink = a.dst[BYTES / 2];
  return t;
}

/* Where a memcpy destination comes from. */
typedef enum dest { DEST_MALLOC, DEST_LIKE_RUNTIME, DEST_WARM } dest;

/* A fresh destination as the runtime allocates a large tensor: 2 MiB
 * aligned, transparent huge pages advised (runtime/src/host_alloc.c). */
static void *like_runtime(void) {
  void *p = aligned_alloc(HUGE_PAGE, BYTES);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (p) madvise(p, BYTES, MADV_HUGEPAGE);
#endif
  return p;
}

/* Best of `reps` copies into destinations of kind `d`; -1 on failure. */
static double best_copy(opr_context *ctx, const void *src, dest d, int reps) {
  void *warm = NULL;
  if (d == DEST_WARM) {
    warm = malloc(BYTES);
    if (!warm) return -1;
    memset(warm, 1, BYTES);
  }
  double best = 1e30;
  for (int i = 0; i < reps; i++) {
    void *dst = d == DEST_WARM ? warm
                : d == DEST_MALLOC ? malloc(BYTES) : like_runtime();
    if (!dst) return -1;
    double t = timed_copy(ctx, dst, src);
    if (t < best) best = t;
    if (d != DEST_WARM) free(dst);
  }
  free(warm);
  return best;
}

/* Best of `reps` runs of Example (add_n false) or AddN of x and y. */
static double best_op(opr_context *ctx, const opr_tensor *x,
                      const opr_tensor *y, bool add_n, int reps) {
  double best = 1e30;
  for (int i = 0; i < reps; i++) {
    opr_tensor *out = NULL;
    const opr_tensor *both[2] = {x, y};
    double start = bench_now();
    opr_status s = add_n ? demo_add_n(ctx, both, 2, &out)
                         : demo_example(ctx, x, &out);
    double t = bench_now() - start;
    if (s) {
      fprintf(stderr, "  %s\n", opr_status_message(s));
      opr_status_free(s);
      return -1;
    }
    opr_tensor_unref(out);
    if (t < best) best = t;
  }
  return best;
}

static double gbps(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds / 1e9 : 0;
}

static void baseline_row(const char *what, int threads, double t) {
  printf("  %-44s %d thread%s %7.2f GB/s\n", what, threads,
         threads == 1 ? " " : "s", gbps(2.0 * BYTES, t));
}

static void op_row(const char *what, int threads, double moved, double t,
                   double base_t, const char *base, bool goal) {
  double g = gbps(moved, t), b = gbps(2.0 * BYTES, base_t);
  printf("  %-44s %d thread%s %7.2f GB/s  %5.1f%% of %s%s\n", what, threads,
         threads == 1 ? " " : "s", g, 100 * g / b, base,
         goal ? (100 * g / b >= 80 ? " (goal >= 80%: met)"
                                   : " (goal >= 80%: missed)")
              : "");
}

static int measure(const opr_tensor *x, const opr_tensor *y, int threads,
                   int reps) {
  opr_context *ctx;
  opr_context_options opts = {.device = OPR_DEVICE_CPU, .threads = threads};
  opr_status s = opr_context_new(&opts, &ctx);
  if (s) {
    printf("  failed: %s\n", opr_status_message(s));
    opr_status_free(s);
    return 1;
  }
  double d = (double)BYTES;
  /* Interleaved rounds, best of each: a busy machine slows all alike. */
  double c_malloc = 1e30, c_runtime = 1e30, c_warm = 1e30, ex = 1e30,
         add = 1e30, ex_fresh = 1e30, add_fresh = 1e30;
  int failed = 0;
  for (int r = 0; r < reps && !failed; r++) {
    double t[7];
    t[0] = best_copy(ctx, x->data, DEST_MALLOC, 1);
    t[1] = best_copy(ctx, x->data, DEST_LIKE_RUNTIME, 1);
    t[2] = best_copy(ctx, x->data, DEST_WARM, 2);
    t[3] = best_op(ctx, x, y, false, 2); /* the second reuses the first's */
    t[4] = best_op(ctx, x, y, true, 2);
    size_t limit = opr_tensor_cache_limit(0); /* every output fresh */
    t[5] = best_op(ctx, x, y, false, 1);
    t[6] = best_op(ctx, x, y, true, 1);
    opr_tensor_cache_limit(limit);
    double *best[7] = {&c_malloc, &c_runtime, &c_warm, &ex, &add, &ex_fresh,
                       &add_fresh};
    for (int i = 0; i < 7; i++) {
      if (t[i] < 0) failed = 1;
      else if (t[i] < *best[i]) *best[i] = t[i];
    }
  }
  opr_context_free(ctx);
  if (failed) return 1;
  baseline_row("memcpy into fresh malloc'd memory", threads, c_malloc);
  baseline_row("memcpy into fresh memory, runtime's way", threads, c_runtime);
  baseline_row("memcpy into warm memory (baseline)", threads, c_warm);
  op_row("Example, output memory reused (default)", threads, 2 * d, ex,
         c_warm, "warm memcpy", true);
  op_row("AddN (2), output memory reused (default)", threads, 3 * d, add,
         c_warm, "warm memcpy", true);
  op_row("Example, every output fresh", threads, 2 * d, ex_fresh, c_runtime,
         "fresh memcpy", false);
  op_row("AddN (2), every output fresh", threads, 3 * d, add_fresh, c_runtime,
         "fresh memcpy", false);
  return 0;
}

int bench_kernels(bool quick) {
  printf("3. kernels on %d float32 elements (%.0f MiB a tensor); GB/s of "
         "bytes read + written\n", ELEMENTS, BYTES / 1048576.0);
  const int64_t dims[1] = {ELEMENTS};
  opr_tensor *x = NULL, *y = NULL;
  opr_status s = opgen_shipped_register();
  if (!s) s = opr_tensor_new(OPR_DT_FLOAT, 1, dims, &x);
  if (!s) s = opr_tensor_new(OPR_DT_FLOAT, 1, dims, &y);
  if (s) {
    printf("  failed: %s\n\n", opr_status_message(s));
    opr_status_free(s);
    opr_tensor_unref(x);
    return 1;
  }
  float *px = x->data, *py = y->data;
  for (int64_t i = 0; i < ELEMENTS; i++) px[i] = (float)(i % 1000), py[i] = 1;
  int reps = quick ? 2 : 7, failures = 0;
  failures += measure(x, y, 1, reps);
  failures += measure(x, y, 2, reps);
  opr_tensor_unref(x);
  opr_tensor_unref(y);
  printf("\n");
  return failures;
}
