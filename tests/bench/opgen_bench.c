/* opgen's benchmarks: prints a table of figures, each beside its goal or
 * its baseline measured in the same run. Not a test: run it by hand
 * (BENCHMARKS.md):
 *
 *   build/bin/opgen_bench [--quick] [frontend] [dispatch] [kernels]
 *                         [shapes] [gpu]
 *
 * (no section named: all of them)
 * 1. opgen end to end on the whole TensorFlow corpus (imported with
 *    import-tf): check, gen, compat against its own baseline.
 * 2. Dispatch overhead on one-element tensors: the kernel called directly,
 *    the typed wrapper, the generic by-name entry.
 * 3. Kernels: Example (x * 2) and AddN on 64M float32 elements, 1 and 2
 *    threads, beside memcpy of the same bytes.
 * 4. Shape inference: statements compiled by opgen beside the same rules
 *    written by hand in C.
 * 5. GPU (where a CUDA device is present): the launchers alone, the GPU
 *    path of the runtime, and the fixed cost of a GPU call. */
#include "bench_util.h"
#include "bench_sections.h"

#include <stdio.h>
#include <string.h>

static const struct {
  const char *name;
  int (*run)(bool quick);
} sections[] = {
    {"frontend", bench_frontend},
    {"dispatch", bench_dispatch},
    {"kernels", bench_kernels},
    {"shapes", bench_shapes},
    {"gpu", bench_gpu},
};
enum { NSECTIONS = sizeof sections / sizeof *sections };

int main(int argc, char **argv) {
  bool quick = false, chosen[NSECTIONS] = {false}, any = false;
  for (int i = 1; i < argc; i++) {
    bool known = strcmp(argv[i], "--quick") == 0;
    quick = quick || known;
    for (int k = 0; k < NSECTIONS; k++)
      if (strcmp(argv[i], sections[k].name) == 0) chosen[k] = known = any = true;
    if (!known) {
      fprintf(stderr, "usage: opgen_bench [--quick] [frontend] [dispatch] "
                      "[kernels] [shapes] [gpu]\n");
      return 2;
    }
  }
  printf("opgen benchmarks%s\n\n", quick ? " (quick: fewer repetitions)" : "");
  int failures = 0;
  for (int k = 0; k < NSECTIONS; k++)
    if (!any || chosen[k]) failures += sections[k].run(quick);
  return failures ? 1 : 0;
}
