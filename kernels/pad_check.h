/* The paddings rules of Pad, shared by the CPU kernel and the GPU
 * kernel's host side, so that a call answers the same words whichever
 * layer catches a problem. (Pad's shape rules are its spec's statements,
 * specs/demo.op.) */
#ifndef OPGEN_PAD_CHECK_H
#define OPGEN_PAD_CHECK_H

#include "demo_ops.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Element i of a paddings tensor (int32 or int64, as Tpaddings allows). */
int64_t pad_check_amount(const opr_tensor *paddings, int64_t i);

/* Whether dimension d's paddings (lo, hi) fit an input dim n under `mode`:
 * non-negative, less than n for REFLECT and at most n for SYMMETRIC, and
 * an output size that does not overflow (n < 0: unknown, the mode's
 * limit is not checked). When not, writes why into `why` (without
 * the op's name: callers prefix it) and returns false. */
bool pad_check_dim(demo_pad_mode mode, int d, int64_t lo, int64_t hi,
                   int64_t n, char *why, size_t len);

#endif
