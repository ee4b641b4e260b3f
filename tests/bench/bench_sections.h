/* The sections of opgen_bench; each prints its table and returns
 * the number of figures it could not measure. */
#ifndef OPGEN_BENCH_SECTIONS_H
#define OPGEN_BENCH_SECTIONS_H

#include <stdbool.h>

int bench_frontend(bool quick);
int bench_dispatch(bool quick);
int bench_kernels(bool quick);
int bench_shapes(bool quick);
int bench_gpu(bool quick);

#endif
