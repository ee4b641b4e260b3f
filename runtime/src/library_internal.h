/* What the op registry and the library loader share. */
#ifndef OPR_LIBRARY_INTERNAL_H
#define OPR_LIBRARY_INTERNAL_H

#include "internal.h"

/* While this thread runs a library's register_ops, collects `def`
 * (already checked) into the load in progress and returns true, *s the
 * outcome; returns false otherwise (the op registers as usual). */
bool opr_library_stage_op(const opr_op_def *def, opr_status *s);

/* opr_register_op for a checked def, with the registry lock held. */
opr_status opr_register_op_locked(const opr_op_def *def);

#endif
