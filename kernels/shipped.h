/* opgen_shipped: the ops of specs/ and their CPU kernels. */
#ifndef OPGEN_SHIPPED_H
#define OPGEN_SHIPPED_H

#include "opr/opr.h"

/* Registers every shipped op (demo, guide_attrs, guide_io, guide_shapes),
 * every CPU kernel of kernels/ and, when built with CUDA, every GPU kernel
 * of cuda/. Idempotent; thread-safe. Ops without a kernel (the
 * signature-only examples, MyGeneralUnaryOp) answer UNIMPLEMENTED. */
opr_status opgen_shipped_register(void);

#endif
