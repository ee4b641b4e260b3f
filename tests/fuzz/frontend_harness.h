/* The body of the fuzz_frontend target, shared with the regression test
 * that replays its reproducers (tests/test_fuzz_regressions.c). */
#ifndef OPGEN_FUZZ_FRONTEND_HARNESS_H
#define OPGEN_FUZZ_FRONTEND_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* `data` as a spec, a dump and an OpList, with the round trips that
 * frontend_harness.c describes; aborts with a message on stderr when one
 * breaks. Writes no file. */
void fz_frontend_one(const uint8_t *data, size_t size);

#endif
