/* The front end as one call: parse and validate spec files into a model. */
#ifndef OPGEN_COMPILE_H
#define OPGEN_COMPILE_H

#include "diag.h"
#include "model.h"

/* Parses and validates sources `files` (indexes into `sources`) as one run:
 * an op may be defined once across them. Diagnostics go to `diag`.
 * Returns the finalized model (ops sorted by name), or NULL when any error
 * was reported. The caller owns the model (og_model_free). */
og_model *og_compile(const og_sources *sources, const uint32_t *files,
                     size_t nfiles, og_diag *diag);

/* The C prefix of the ops of a file without `package`: the base name of
 * `path` up to its first '.', lower-cased, every byte outside [a-z0-9]
 * made '_', with "op_" in front when that is empty or starts with a digit
 * ("dir/My-Ops.v2.op" -> "my_ops"). In `arena`. */
char *og_default_package(og_arena *arena, const char *path);

/* Convenience for tests and tools: one in-memory spec. */
og_model *og_compile_text(og_sources *sources, const char *path,
                          const char *text, og_diag *diag);

#endif
