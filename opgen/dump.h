/* `opgen dump`: the finalized model as JSON (the format is specified in
 * the language reference, section "`opgen dump` JSON"). */
#ifndef OPGEN_DUMP_H
#define OPGEN_DUMP_H

#include "model.h"
#include "writer.h"

/* The version of the JSON layout that og_dump_json writes, recorded as
 * its top-level "format_version". It goes up when a field is added,
 * removed or changes meaning; og_dump_read refuses a newer one. */
#define OG_DUMP_FORMAT_VERSION 1

/* Appends `{"format_version": 1, "ops": [...]}` and a final newline to
 * `w`: ops in model order,
 * fields in the documented order, 2-space indentation, one key per line,
 * arrays of scalars on one line. The same model always gives the same
 * bytes, and og_dump_read gives back an og_op_equal model. */
void og_dump_json(const og_model *m, og_writer *w);

#endif
