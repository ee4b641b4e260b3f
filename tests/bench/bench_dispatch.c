/* Section 2: what a call costs on top of the kernel, on a one-element
 * float tensor with Example (x * 2): the kernel function called directly
 * (allocating its output and releasing it, as every path does; and
 * writing into a preallocated output, which shows what the allocation
 * costs), the generated typed wrapper, and the generic entry by name and
 * by handle (opr_op_handle, then opr_execute_op). Each figure includes
 * releasing the output, and is the best batch of many, the paths taking
 * turns. Then the caller-owned forms (issue 15), writing a tensor
 * allocated once: the typed wrapper's _into form and
 * opr_execute_op_into. Last, two ops that the generic entry runs by its
 * general path (no generated fast path: ZeroOut has a second attr,
 * AddN a list input), each called directly and by handle: ZeroOut on a
 * one-element int32 tensor, AddN on two one-element float tensors. */
#include "bench_sections.h"
#include "bench_util.h"

#include "demo_kernels.h"
#include "shipped.h"

#include <stdio.h>

typedef struct fixture {
  opr_context *ctx;
  opr_tensor *x;
  opr_kernel_fn kernel;
  opr_tensor *pre; /* an output for the kernel to write into */
  opr_tensor *y;   /* the caller-owned output of the _into forms */
  const opr_op_def *handle; /* Example, by opr_op_handle */
  opr_tensor *xi;        /* a one-element int32 tensor, for ZeroOut */
  opr_kernel_fn zero_out; /* ZeroOut's int32 CPU kernel */
  opr_kernel_fn add_n;    /* AddN's float CPU kernel */
  const opr_op_def *zero_out_op, *add_n_op; /* by opr_op_handle */
} fixture;

#if defined(__GNUC__) || defined(__clang__)
#define OPGEN_BENCH_NOINLINE __attribute__((noinline))
#else
#define OPGEN_BENCH_NOINLINE
#endif

static opr_kernel_fn find_cpu_kernel(const opr_op_def *op, opr_dtype dt) {
  const opr_kernel_def *defs[64];
  size_t n = opr_list_kernels(op, defs, 64);
  for (size_t i = 0; i < n && i < 64; i++) {
    if (defs[i]->device != OPR_DEVICE_CPU) continue;
    for (size_t c = 0; c < defs[i]->nconstraints; c++)
      if (defs[i]->constraints[c].allowed & OPR_DTYPE_BIT(dt)) return defs[i]->fn;
  }
  return NULL;
}

enum { PATHS = 11 };

/* The kernel called directly, into `pre` or allocating its output (then
 * released). */
static inline opr_status direct_call(const fixture *f, opr_tensor *pre) {
  opr_tensor *out = pre;
  opr_attr_value attrs[1] = {{.kind = OPR_ATTR_TYPE, .u.type = OPR_DT_FLOAT}};
  const opr_input in[1] = {{(const opr_tensor *const *)&f->x, 1}};
  opr_output outs[1] = {{&out, 1}};
  opr_call call = {.op = &demo_example_def, .inputs = in, .attrs = attrs,
                   .outputs = outs};
  opr_kernel_ctx k = {.ctx = f->ctx, .call = &call, .device = OPR_DEVICE_CPU,
                      .outputs_preallocated = pre != NULL};
  opr_status s = f->kernel(&k);
  if (!pre) opr_tensor_unref(out);
  return s;
}

/* One call of each path, its output released. Not inlined, so that
 * callgrind gives each path's instructions per call (inclusive cost of
 * the function over its calls). */
static OPGEN_BENCH_NOINLINE opr_status direct_alloc(const fixture *f) {
  return direct_call(f, NULL);
}

static OPGEN_BENCH_NOINLINE opr_status direct_prealloc(const fixture *f) {
  return direct_call(f, f->pre);
}

static OPGEN_BENCH_NOINLINE opr_status typed_call(const fixture *f) {
  opr_tensor *out = NULL;
  opr_status s = demo_example(f->ctx, f->x, &out);
  opr_tensor_unref(out);
  return s;
}

static OPGEN_BENCH_NOINLINE opr_status by_name(const fixture *f) {
  const opr_input in[1] = {{(const opr_tensor *const *)&f->x, 1}};
  opr_tensor *out = NULL;
  size_t n;
  opr_status s = opr_execute(f->ctx, "Example", in, 1, NULL, 0, &out, 1, &n);
  opr_tensor_unref(out);
  return s;
}

static OPGEN_BENCH_NOINLINE opr_status by_handle(const fixture *f) {
  const opr_input in[1] = {{(const opr_tensor *const *)&f->x, 1}};
  opr_tensor *out = NULL;
  size_t n;
  opr_status s =
      opr_execute_op(f->ctx, f->handle, in, 1, NULL, 0, &out, 1, &n);
  opr_tensor_unref(out);
  return s;
}

static OPGEN_BENCH_NOINLINE opr_status typed_into(const fixture *f) {
  return demo_example_into(f->ctx, f->x, f->y);
}

static OPGEN_BENCH_NOINLINE opr_status generic_into(const fixture *f) {
  const opr_input in[1] = {{(const opr_tensor *const *)&f->x, 1}};
  opr_tensor *out = f->y;
  return opr_execute_op_into(f->ctx, f->handle, in, 1, NULL, 0, &out, 1);
}

/* The general path's ops, directly: the kernel with the attrs the
 * check would resolve, its output allocated and released. */
static OPGEN_BENCH_NOINLINE opr_status zero_out_direct(const fixture *f) {
  opr_tensor *out = NULL;
  opr_attr_value attrs[2] = {{.kind = OPR_ATTR_TYPE, .u.type = OPR_DT_INT32},
                             {.kind = OPR_ATTR_INT, .u.i = 0}};
  const opr_input in[1] = {{(const opr_tensor *const *)&f->xi, 1}};
  opr_output outs[1] = {{&out, 1}};
  opr_call call = {.op = &demo_zero_out_def, .inputs = in, .attrs = attrs,
                   .outputs = outs};
  opr_kernel_ctx k = {.ctx = f->ctx, .call = &call,
                      .device = OPR_DEVICE_CPU};
  opr_status s = f->zero_out(&k);
  opr_tensor_unref(out);
  return s;
}

static OPGEN_BENCH_NOINLINE opr_status zero_out_handle(const fixture *f) {
  const opr_input in[1] = {{(const opr_tensor *const *)&f->xi, 1}};
  opr_tensor *out = NULL;
  size_t n;
  opr_status s =
      opr_execute_op(f->ctx, f->zero_out_op, in, 1, NULL, 0, &out, 1, &n);
  opr_tensor_unref(out);
  return s;
}

static OPGEN_BENCH_NOINLINE opr_status add_n_direct(const fixture *f) {
  opr_tensor *out = NULL;
  const opr_tensor *xs[2] = {f->x, f->pre};
  opr_attr_value attrs[2] = {{.kind = OPR_ATTR_INT, .u.i = 2},
                             {.kind = OPR_ATTR_TYPE, .u.type = OPR_DT_FLOAT}};
  const opr_input in[1] = {{xs, 2}};
  opr_output outs[1] = {{&out, 1}};
  opr_call call = {.op = &demo_add_n_def, .inputs = in, .attrs = attrs,
                   .outputs = outs};
  opr_kernel_ctx k = {.ctx = f->ctx, .call = &call,
                      .device = OPR_DEVICE_CPU};
  opr_status s = f->add_n(&k);
  opr_tensor_unref(out);
  return s;
}

static OPGEN_BENCH_NOINLINE opr_status add_n_handle(const fixture *f) {
  const opr_tensor *xs[2] = {f->x, f->pre};
  const opr_input in[1] = {{xs, 2}};
  opr_tensor *out = NULL;
  size_t n;
  opr_status s =
      opr_execute_op(f->ctx, f->add_n_op, in, 1, NULL, 0, &out, 1, &n);
  opr_tensor_unref(out);
  return s;
}

/* ns per call of one batch of `calls` calls of one of the paths; -1
 * when a call fails. */
static double batch(const fixture *f, int path, long calls) {
  double start = bench_now();
  for (long i = 0; i < calls; i++) {
    opr_status s = path == 0   ? direct_alloc(f)
                   : path == 1 ? direct_prealloc(f)
                   : path == 2 ? typed_call(f)
                   : path == 3 ? by_name(f)
                   : path == 4 ? by_handle(f)
                   : path == 5 ? typed_into(f)
                   : path == 6 ? generic_into(f)
                   : path == 7 ? zero_out_direct(f)
                   : path == 8 ? zero_out_handle(f)
                   : path == 9 ? add_n_direct(f)
                               : add_n_handle(f);
    if (s) {
      fprintf(stderr, "call failed: %s\n", opr_status_message(s));
      opr_status_free(s);
      return -1;
    }
  }
  return (bench_now() - start) * 1e9 / (double)calls;
}

/* Best ns per call of each path over `rounds` rounds; each round runs a
 * batch of every path in turn, so that a busy machine slows them alike
 * rather than whichever ran while it was busy. */
static int per_call(const fixture *f, long calls, int rounds,
                    double best[PATHS]) {
  for (int p = 0; p < PATHS; p++) best[p] = 1e30;
  for (int r = 0; r < rounds; r++)
    for (int p = 0; p < PATHS; p++) {
      double ns = batch(f, p, calls);
      if (ns < 0) return 1;
      if (ns < best[p]) best[p] = ns;
    }
  return 0;
}

int bench_dispatch(bool quick) {
  printf("2. dispatch overhead: Example on a one-element float32 tensor\n");
  fixture f = {0};
  opr_context_options opts = {.device = OPR_DEVICE_CPU, .threads = 1};
  opr_status s = opgen_shipped_register();
  if (!s) s = opr_context_new(&opts, &f.ctx);
  if (!s) s = opr_tensor_new(OPR_DT_FLOAT, 0, NULL, &f.x);
  if (!s) s = opr_tensor_new(OPR_DT_FLOAT, 0, NULL, &f.pre);
  if (!s) s = opr_tensor_new(OPR_DT_FLOAT, 0, NULL, &f.y);
  if (!s) s = opr_tensor_new(OPR_DT_INT32, 0, NULL, &f.xi);
  if (!s) s = opr_op_handle("Example", &f.handle);
  if (!s) s = opr_op_handle("ZeroOut", &f.zero_out_op);
  if (!s) s = opr_op_handle("AddN", &f.add_n_op);
  f.kernel = find_cpu_kernel(&demo_example_def, OPR_DT_FLOAT);
  f.zero_out = find_cpu_kernel(&demo_zero_out_def, OPR_DT_INT32);
  f.add_n = find_cpu_kernel(&demo_add_n_def, OPR_DT_FLOAT);
  if (s || !f.kernel || !f.zero_out || !f.add_n) {
    printf("  failed: %s\n\n", s ? opr_status_message(s) : "no CPU kernel");
    opr_status_free(s);
    return 1;
  }
  /* Short batches (about 2 ms), many rounds: on a busy machine some
   * batches run without being preempted, and the best one is the cost. */
  long calls = 20000;
  int rounds = quick ? 25 : 201;
  double best[PATHS];
  int failed = per_call(&f, calls, rounds, best);
  double direct = best[0], typed = best[2], generic = best[3];
  printf("  %-28s %8.1f ns/call   goal <= 20 ns: %.2fx of goal\n",
         "kernel called directly", direct, direct / 20);
  printf("  %-28s %8.1f ns/call   (output allocation and release: %.1f ns)\n",
         "kernel, output preallocated", best[1], direct - best[1]);
  printf("  %-28s %8.1f ns/call   +%.1f ns over direct; goal <= +10 ns: %.2fx of goal\n",
         "typed wrapper (fast path)", typed, typed - direct,
         (typed - direct) / 10);
  printf("  %-28s %8.1f ns/call   +%.1f ns over direct; goal <= +150 ns: %.2fx of goal\n",
         "generic entry (by name)", generic, generic - direct,
         (generic - direct) / 150);
  printf("  %-28s %8.1f ns/call   +%.1f ns over direct; goal <= +30 ns: %.2fx of goal\n",
         "generic entry (by handle)", best[4], best[4] - direct,
         (best[4] - direct) / 30);
  printf("  %-28s %8.1f ns/call   goal <= 15 ns: %.2fx of goal\n",
         "typed wrapper, _into form", best[5], best[5] / 15);
  printf("  %-28s %8.1f ns/call\n", "generic entry, into (handle)",
         best[6]);
  printf("  ops without a generated fast path (the generic entry's general path):\n");
  printf("  %-28s %8.1f ns/call\n", "ZeroOut, kernel directly", best[7]);
  printf("  %-28s %8.1f ns/call   +%.1f ns over direct; goal <= +30 ns: %.2fx of goal\n",
         "ZeroOut, by handle", best[8], best[8] - best[7],
         (best[8] - best[7]) / 30);
  printf("  %-28s %8.1f ns/call\n", "AddN (2 inputs), directly", best[9]);
  printf("  %-28s %8.1f ns/call   +%.1f ns over direct; goal <= +30 ns: %.2fx of goal\n",
         "AddN (2 inputs), by handle", best[10], best[10] - best[9],
         (best[10] - best[9]) / 30);
  printf("  (references: PyTorch's C++ dispatcher ~270 ns, TensorFlow eager ~5 us)\n\n");
  opr_tensor_unref(f.x);
  opr_tensor_unref(f.pre);
  opr_tensor_unref(f.y);
  opr_tensor_unref(f.xi);
  opr_context_free(f.ctx);
  return failed;
}
