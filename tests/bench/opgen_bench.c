/* opgen's benchmarks: prints a table of figures, each beside its goal or
 * its baseline measured in the same run. Not a test: run it by hand
 * (README, BENCHMARKS.md):
 *
 *   build/bin/opgen_bench [--quick]
 *
 * 1. opgen end to end on the whole TensorFlow corpus (imported with
 *    import-tf): check, gen, compat against its own baseline.
 * 2. Dispatch overhead on one-element tensors: the kernel called directly,
 *    the typed wrapper, the generic by-name entry.
 * 3. Kernels: Example (x * 2) and AddN on 64M float32 elements, 1 and 2
 *    threads, beside memcpy of the same bytes. */
#include "bench_util.h"
#include "bench_sections.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  printf("opgen benchmarks%s\n\n", quick ? " (quick: fewer repetitions)" : "");
  int failures = 0;
  failures += bench_frontend(quick);
  failures += bench_dispatch(quick);
  failures += bench_kernels(quick);
  return failures ? 1 : 0;
}
