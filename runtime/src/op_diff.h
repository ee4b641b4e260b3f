/* What differs between two definitions of an op, in words, for the
 * messages that refuse a conflicting registration or library load. */
#ifndef OPR_OP_DIFF_H
#define OPR_OP_DIFF_H

#include "opr/op.h"

#include <stddef.h>

/* The first difference between `a` (the definition registered first) and
 * `b` (the one that conflicts with it), checked in the order name,
 * inputs, outputs, attrs, flags: "input 1 'y' is missing", "attr 'T':
 * allowed types differ ({float} vs {float, double})". Written to buf
 * (cut to n bytes); returns buf. */
const char *opr_op_def_diff(const opr_op_def *a, const opr_op_def *b,
                            char *buf, size_t n);

/* " (DIFFERENCE)" for definitions that hash differently, "" for
 * identical ones: what follows a message that refuses `b`. */
const char *opr_op_def_diff_note(const opr_op_def *a, const opr_op_def *b,
                                 char *buf, size_t n);

/* Room for any opr_op_def_diff text worth printing. */
#define OPR_OP_DIFF_MAX 256
/* ... and for a note. */
#define OPR_OP_DIFF_NOTE_MAX (OPR_OP_DIFF_MAX + 3)

#endif
