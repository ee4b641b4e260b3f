/* Reading an `opgen dump` JSON file back into a model: how a compat
 * baseline is loaded. */
#ifndef OPGEN_DUMP_READ_H
#define OPGEN_DUMP_READ_H

#include "diag.h"
#include "model.h"

#include <stddef.h>

/* Parses `len` bytes of `text` (the contents of `path`, which only names
 * it in diagnostics). Every problem (malformed JSON, a missing field, a
 * value of the wrong JSON type, an unknown dtype or attr type, a default
 * that does not fit its attr type, an arg naming a missing attr, a
 * duplicate op, an unknown field, an op, attr or arg name that a .op file
 * could not hold) is reported to `diag` at the offending JSON value or
 * key, and NULL is returned. A "format_version" newer than
 * OG_DUMP_FORMAT_VERSION is refused before anything else is read; none,
 * or 0, reads as version 1 (the layout before versions were recorded).
 *
 * The model owns all its strings. Ops, args and attrs get the position
 * {"file", "line", 0} from their op's fields; `inferred` and
 * `allowed_types` are recomputed; ops are sorted by name. What the dump
 * does not hold reads as empty: package "", no shape rules, no shape_fn.
 * The caller frees the model with og_model_free. */
og_model *og_dump_read(const char *path, const char *text, size_t len,
                       og_diag *diag);

#endif
