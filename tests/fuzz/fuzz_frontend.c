/* libFuzzer target for the front end: arbitrary bytes as a spec (check,
 * dump and its read-back, gen in memory, .op text round trip), as a dump
 * and as a TensorFlow OpList; see frontend_harness.c. Seeds:
 * tests/fuzz/corpus_frontend/. Run by .ci/fuzz. */
#include "frontend_harness.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_frontend_one(data, size);
  return 0;
}
