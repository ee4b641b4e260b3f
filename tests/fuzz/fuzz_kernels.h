/* The fuzz-only ops (fuzz_ops.op) and their CPU kernels. */
#ifndef OPGEN_FUZZ_KERNELS_H
#define OPGEN_FUZZ_KERNELS_H

#include "opr/opr.h"

/* Registers the ops of fuzz_ops.op and their kernels; once. */
opr_status fuzz_kernels_register(void);

#endif
