/* libFuzzer target for the runtime's generic entry points (opr_execute
 * and opr_infer_shapes_by_name): see execute_harness.c for what it
 * checks and how the bytes are decoded. Seeds: tests/fuzz/corpus_execute/
 * (make_execute_seeds.py). Run by .ci/fuzz. */
#include "execute_harness.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* ASan: an allocation above 32 MiB returns NULL (the runtime must turn
 * it into a status) instead of aborting, exhausting the memory, or
 * taking seconds to fill (Pad's output grows with fuzzed paddings). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "allocator_may_return_null=1:max_allocation_size_mb=32";
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fz_execute_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_execute_one(data, size, NULL);
  return 0;
}
