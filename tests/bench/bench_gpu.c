/* Section 5: the CUDA kernels and the GPU path of the runtime, where a
 * CUDA device is present (otherwise the section says why it skipped).
 *
 * a. The launchers alone on device memory, 64M float32 elements: GB/s
 *    of the bytes each must move, beside cudaMemcpy device to device of
 *    the same bytes (read + write), timed with cudaDeviceSynchronize.
 * b. The same ops through a GPU context: host tensors in, results home
 *    (what opr_execute does), and inputs already on the device.
 * c. One-element calls: the fixed cost of a GPU call, with the pool of
 *    device memory and without it (opr_gpu_cache_limit(0)), beside the
 *    cost of a CPU call. */
#include "bench_sections.h"
#include "bench_util.h"

#include "demo_ops.h"
#include "opr/device.h"
#include "shipped.h"

#include <stdio.h>

#ifndef OPGEN_WITH_CUDA
int bench_gpu(bool quick) {
  (void)quick;
  printf("5. GPU: skipped: this build has no CUDA support\n\n");
  return 0;
}
#else
#include "cuda_kernels.h"
#include "launch.h"

#include <cuda_runtime_api.h>

enum { ELEMENTS = 64 * 1024 * 1024 };
#define BYTES ((size_t)ELEMENTS * sizeof(float))

typedef enum launch_kind { COPY, TIMES_TWO, ADD_N2 } launch_kind;

/* One launch of `what` on device buffers, waited for; -1 on failure. */
static double timed_launch(launch_kind what, const float *a, const float *b,
                           float *out) {
  const void *both[2] = {a, b};
  double start = bench_now();
  int err = what == COPY ? (int)cudaMemcpy(out, a, BYTES,
                                           cudaMemcpyDeviceToDevice)
            : what == TIMES_TWO
                ? opgen_cuda_times_two(OPGEN_CUDA_F32, a, out, ELEMENTS)
                : opgen_cuda_add_n(OPGEN_CUDA_F32, both, 2, out, ELEMENTS);
  if (!err) err = (int)cudaDeviceSynchronize();
  double t = bench_now() - start;
  if (err) {
    printf("  failed: %s\n", opgen_cuda_error_string(err));
    return -1;
  }
  return t;
}

static int launchers_alone(int reps) {
  float *a = NULL, *b = NULL, *out = NULL;
  if (cudaMalloc((void **)&a, BYTES) || cudaMalloc((void **)&b, BYTES) ||
      cudaMalloc((void **)&out, BYTES) || cudaMemset(a, 0, BYTES) ||
      cudaMemset(b, 0, BYTES)) {
    printf("  failed: cudaMalloc of 3 x 256 MiB\n");
    cudaFree(a), cudaFree(b), cudaFree(out);
    return 1;
  }
  static const char *const names[3] = {
      "cudaMemcpy device to device", "Example (x * 2) launcher",
      "AddN of two launcher"};
  static const double moved[3] = {2, 2, 3}; /* tensors read + written */
  double best[3] = {1e30, 1e30, 1e30};
  int failed = 0;
  for (int r = 0; r < reps + 1 && !failed; r++) /* round 0 warms up */
    for (int k = 0; k < 3; k++) {
      double t = timed_launch((launch_kind)k, a, b, out);
      if (t < 0) failed = 1;
      else if (r > 0 && t < best[k]) best[k] = t;
    }
  for (int k = 0; k < 3 && !failed; k++) {
    double gbps = moved[k] * BYTES / best[k] / 1e9,
           copy = 2.0 * BYTES / best[0] / 1e9;
    printf("  %-40s %8.3f ms %8.1f GB/s", names[k], best[k] * 1e3, gbps);
    if (k) printf("  %5.1f%% of the copy", 100 * gbps / copy);
    printf("\n");
  }
  cudaFree(a), cudaFree(b), cudaFree(out);
  return failed;
}

/* Best of `reps` Example calls on `x` through `ctx`; -1 on failure. */
static double best_example(opr_context *ctx, const opr_tensor *x, int reps) {
  double best = 1e30;
  for (int i = 0; i < reps; i++) {
    opr_tensor *out = NULL;
    double start = bench_now();
    opr_status s = demo_example(ctx, x, &out);
    double t = bench_now() - start;
    if (s) {
      printf("  failed: %s\n", opr_status_message(s));
      opr_status_free(s);
      return -1;
    }
    opr_tensor_unref(out);
    if (t < best) best = t;
  }
  return best;
}

/* Median of `rounds` batches of `calls` one-element calls, ns a call. */
static double per_call_ns(opr_context *ctx, const opr_tensor *x, int rounds,
                          int calls) {
  double samples[32];
  for (int r = 0; r < rounds; r++) {
    double start = bench_now();
    for (int i = 0; i < calls; i++) {
      opr_tensor *out = NULL;
      opr_status s = demo_example(ctx, x, &out);
      if (s) {
        printf("  failed: %s\n", opr_status_message(s));
        opr_status_free(s);
        return -1;
      }
      opr_tensor_unref(out);
    }
    samples[r] = (bench_now() - start) / calls * 1e9;
  }
  return bench_median(samples, rounds);
}

/* The tensor `x` on the GPU, or NULL after printing why. */
static opr_tensor *on_gpu(const opr_tensor *x) {
  opr_tensor *d = NULL;
  opr_status s = opr_tensor_to_device(x, OPR_DEVICE_GPU, &d);
  if (s) {
    printf("  failed: %s\n", opr_status_message(s));
    opr_status_free(s);
  }
  return d;
}

static int through_the_runtime(opr_context *gpu, opr_context *cpu,
                               int reps) {
  const int64_t big[1] = {ELEMENTS}, one[1] = {1};
  opr_tensor *x = NULL, *x1 = NULL;
  opr_status s = opr_tensor_new(OPR_DT_FLOAT, 1, big, &x);
  if (!s) s = opr_tensor_new(OPR_DT_FLOAT, 1, one, &x1);
  if (s) {
    printf("  failed: %s\n", opr_status_message(s));
    opr_status_free(s);
    opr_tensor_unref(x);
    return 1;
  }
  for (int64_t i = 0; i < ELEMENTS; i++) ((float *)x->data)[i] = (float)i;
  ((float *)x1->data)[0] = 1.5f;
  opr_tensor *dx = on_gpu(x), *dx1 = on_gpu(x1);
  int failed = !dx || !dx1;
  if (!failed) {
    double host = best_example(gpu, x, reps), dev = best_example(gpu, dx, reps);
    failed = host < 0 || dev < 0;
    if (!failed) {
      printf("  %-40s %8.3f ms %8.1f GB/s of the tensor\n",
             "Example, host tensor in, result home", host * 1e3,
             BYTES / host / 1e9);
      printf("  %-40s %8.3f ms %8.1f GB/s of the tensor\n",
             "Example, input on the GPU, result home", dev * 1e3,
             BYTES / dev / 1e9);
    }
  }
  int rounds = reps < 3 ? 3 : 11, calls = reps < 3 ? 200 : 2000;
  double g = failed ? -1 : per_call_ns(gpu, x1, rounds, calls);
  double gd = g < 0 ? -1 : per_call_ns(gpu, dx1, rounds, calls);
  /* The same without the pool of device memory: cudaMalloc and cudaFree
   * every call, as before opr_gpu_cache_limit existed. */
  size_t limit = opr_gpu_cache_limit(0);
  double g0 = gd < 0 ? -1 : per_call_ns(gpu, x1, rounds, calls);
  double gd0 = g0 < 0 ? -1 : per_call_ns(gpu, dx1, rounds, calls);
  opr_gpu_cache_limit(limit);
  double c = gd0 < 0 ? -1 : per_call_ns(cpu, x1, rounds, calls * 10);
  if (c >= 0) {
    printf("  one element, a call (median)           device cache   "
           "none (limit 0)\n");
    printf("  %-40s %8.2f us %8.2f us\n", "  GPU context, host tensor",
           g / 1e3, g0 / 1e3);
    printf("  %-40s %8.2f us %8.2f us\n", "  GPU context, GPU tensor",
           gd / 1e3, gd0 / 1e3);
    printf("  %-40s %8.2f us\n", "  CPU context", c / 1e3);
  }
  failed = failed || c < 0;
  opr_tensor_unref(dx1), opr_tensor_unref(dx);
  opr_tensor_unref(x1), opr_tensor_unref(x);
  return failed;
}

int bench_gpu(bool quick) {
  printf("5. GPU: the CUDA kernels and the runtime's GPU path\n");
  opr_status why = opr_device_available(OPR_DEVICE_GPU);
  if (why) {
    printf("  skipped: %s\n\n", opr_status_message(why));
    opr_status_free(why);
    return 0;
  }
  printf("  %s\n", opgen_cuda_build_info());
  opr_context *gpu = NULL, *cpu = NULL;
  opr_context_options gpu_opts = {.device = OPR_DEVICE_GPU};
  opr_status s = opgen_shipped_register(); /* the GPU kernels too */
  if (!s) s = opr_context_new(&gpu_opts, &gpu);
  if (!s) s = opr_context_new(NULL, &cpu);
  if (s) {
    printf("  failed: %s\n\n", opr_status_message(s));
    opr_status_free(s);
    opr_context_free(gpu);
    return 1;
  }
  int reps = quick ? 2 : 10;
  printf(" a. launchers on device memory, 64M float32 (best of %d)\n", reps);
  int failed = launchers_alone(reps);
  printf(" b. through a GPU context, 64M float32 (best of %d)\n", reps);
  failed += through_the_runtime(gpu, cpu, reps);
  opr_context_free(cpu);
  opr_context_free(gpu);
  printf("\n");
  return failed;
}
#endif
