/* `opgen dump`: the finalized model as JSON (the format is specified in
 * the language reference, section "`opgen dump` JSON"). */
#ifndef OPGEN_DUMP_H
#define OPGEN_DUMP_H

#include "model.h"
#include "writer.h"

/* Appends `{"ops": [...]}` and a final newline to `w`: ops in model order,
 * fields in the documented order, 2-space indentation, one key per line,
 * arrays of scalars on one line. The same model always gives the same
 * bytes, and og_dump_read gives back an og_op_equal model. */
void og_dump_json(const og_model *m, og_writer *w);

#endif
