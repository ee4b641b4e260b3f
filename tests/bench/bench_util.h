/* Timing helpers for the benchmark programs: a monotonic clock and the
 * median of repeated measurements. */
#ifndef OPGEN_BENCH_UTIL_H
#define OPGEN_BENCH_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int bench_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median of n samples (sorts them). */
static inline double bench_median(double *samples, int n) {
  qsort(samples, (size_t)n, sizeof *samples, bench_cmp);
  return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

#endif
