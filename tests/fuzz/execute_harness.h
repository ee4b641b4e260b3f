/* The body of the fuzz_execute target, shared with the regression test
 * that replays its reproducers (tests/test_fuzz_regressions.c). The
 * encoding of the bytes is documented in execute_harness.c. */
#ifndef OPGEN_FUZZ_EXECUTE_HARNESS_H
#define OPGEN_FUZZ_EXECUTE_HARNESS_H

#include "opr/opr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the decoded call answered. */
typedef struct fz_execute_result {
  bool infer;        /* opr_infer_shapes_by_name, else opr_execute */
  char op[64];       /* the op name passed ("(null)" for NULL) */
  opr_code code;     /* OPR_CODE_OK on success */
  char message[512]; /* the status message, "" on success */
} fz_execute_result;

/* Registers the shipped ops, the shape-form ops of tests/shape/forms.op
 * and the ops of fuzz_ops.op, and makes the two CPU contexts (1 and 2
 * threads). Once; fz_execute_one calls it. */
void fz_execute_init(void);

/* Decodes `data` into one call and runs it, checking the runtime's
 * answers; aborts with a message on stderr when one is wrong. Everything
 * the call made is released. `res` (may be NULL) receives the answer. */
void fz_execute_one(const uint8_t *data, size_t size, fz_execute_result *res);

#endif
