/* opgen_shipped: the ops of specs/ and their CPU kernels. */
#ifndef OPGEN_SHIPPED_H
#define OPGEN_SHIPPED_H

#include "opr/opr.h"

/* Registers every shipped op (demo, guide_attrs, guide_io, guide_shapes),
 * every CPU kernel of kernels/ and, when built with CUDA, every GPU kernel
 * of cuda/, and the C gradients of ZeroOut (all four), Example, AddN and
 * Pad (opr/gradient.h; a gradient registered before for one of these
 * ops, a user's own, is kept). Idempotent; thread-safe. Ops without a kernel (the
 * signature-only examples, MyGeneralUnaryOp) answer UNIMPLEMENTED. */
opr_status opgen_shipped_register(void);

#endif
