/* Section 3: memory bandwidth of the elementwise kernels on 64M float32
 * elements, with 1 and 2 threads, beside memcpy of the same bytes in the
 * same run. Every path gets a freshly allocated destination each time, as
 * a kernel's output is, so page faults weigh the same on both sides. */
#include "bench_sections.h"
#include "bench_util.h"

#include "demo_ops.h"
#include "shipped.h"

#include <stdio.h>
#include <string.h>

enum { ELEMENTS = 64 * 1024 * 1024 };

static double best_of(int reps, double (*run)(void *), void *arg) {
  double best = 1e30;
  for (int i = 0; i < reps; i++) {
    double t = run(arg);
    if (t < 0) return -1;
    if (t < best) best = t;
  }
  return best;
}

typedef struct memcpy_arg {
  const void *src;
  size_t bytes;
} memcpy_arg;

/* Keeps the copy observable, so the compiler cannot drop it. */
static volatile unsigned char sink;

static double run_memcpy(void *p) {
  const memcpy_arg *a = p;
  double start = bench_now();
  unsigned char *dst = malloc(a->bytes);
  if (!dst) return -1;
  memcpy(dst, a->src, a->bytes);
  double t = bench_now() - start;
  sink = dst[a->bytes / 2];
  free(dst);
  return t;
}

typedef struct op_arg {
  opr_context *ctx;
  const opr_tensor *a, *b;
  bool add_n;
} op_arg;

static double run_op(void *p) {
  const op_arg *a = p;
  opr_tensor *out = NULL;
  const opr_tensor *both[2] = {a->a, a->b};
  double start = bench_now();
  opr_status s = a->add_n ? demo_add_n(a->ctx, both, 2, &out)
                          : demo_example(a->ctx, a->a, &out);
  double t = bench_now() - start;
  if (s) {
    fprintf(stderr, "  %s\n", opr_status_message(s));
    opr_status_free(s);
    return -1;
  }
  opr_tensor_unref(out);
  return t;
}

/* GB/s of moved bytes (read + written). */
static double gbps(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds / 1e9 : 0;
}

static void row(const char *what, int threads, double moved, double t,
                double base_gbps) {
  double g = gbps(moved, t);
  printf("  %-10s %d thread%s %8.2f GB/s   %5.1f%% of memcpy (goal >= 80%%)\n",
         what, threads, threads == 1 ? " " : "s", g, 100 * g / base_gbps);
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
  double bytes = (double)ELEMENTS * sizeof(float);
  memcpy_arg m = {x->data, (size_t)bytes};
  op_arg ex = {ctx, x, y, false}, add = {ctx, x, y, true};
  double t_copy = best_of(reps, run_memcpy, &m);
  double t_ex = best_of(reps, run_op, &ex);
  double t_add = best_of(reps, run_op, &add);
  opr_context_free(ctx);
  if (t_copy < 0 || t_ex < 0 || t_add < 0) return 1;
  double copy_gbps = gbps(2 * bytes, t_copy);
  printf("  %-10s %d thread%s %8.2f GB/s   (baseline: read + write)\n",
         "memcpy", threads, threads == 1 ? " " : "s", copy_gbps);
  row("Example", threads, 2 * bytes, t_ex, copy_gbps);
  row("AddN (2)", threads, 3 * bytes, t_add, copy_gbps);
  return 0;
}

int bench_kernels(bool quick) {
  printf("3. kernels on %d float32 elements (%.0f MiB a tensor)\n", ELEMENTS,
         ELEMENTS * 4.0 / (1 << 20));
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
  int reps = quick ? 2 : 5, failures = 0;
  failures += measure(x, y, 1, reps);
  failures += measure(x, y, 2, reps);
  opr_tensor_unref(x);
  opr_tensor_unref(y);
  printf("\n");
  return failures;
}
