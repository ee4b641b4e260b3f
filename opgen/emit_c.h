/* C code generation: per spec file, a public header of typed wrappers, a
 * source with the const op tables, checks, wrappers and the register
 * function, and a header for kernel authors. */
#ifndef OPGEN_EMIT_C_H
#define OPGEN_EMIT_C_H

#include "diag.h"
#include "model.h"
#include "outputs.h"

/* Renders the C files of every spec file of `m` into `out`, paths under
 * `dir`. Problems that only code generation can find (two files with one
 * prefix, names that collide in C) are reported to `diag`; returns false
 * if there was any. */
bool og_emit_c(const og_model *m, const char *dir, og_outputs *out,
               og_diag *diag);

/* Only the checks of og_emit_c (the generated names), for `opgen check`:
 * a spec that check accepts is one gen accepts. */
bool og_emit_c_check(const og_model *m, og_diag *diag);
/* A file of this many ops or more renders its source in two halves on
 * two threads (64; tests set it); the bytes are the same either way. */
extern size_t og_c_source_split_ops;

#endif
