/* The op model written back as `.op` source (op-language.md), such that
 * compiling the text gives the same model: what `opgen import-tf` writes. */
#ifndef OPGEN_EMIT_OP_H
#define OPGEN_EMIT_OP_H

#include "model.h"
#include "writer.h"

/* Every op of `m` in model order, preceded by `package NAME;` unless
 * `package` is NULL. Ops are separated by a blank line. Deterministic:
 * the same model always gives the same bytes. Shape rules and shape_fn
 * are not written (an imported model has none). */
void og_emit_op_source(const og_model *m, const char *package, og_writer *w);

/* One `op Name { ... }` block with its doc comment. */
void og_emit_op_def(const og_op *op, og_writer *w);

/* A value as a default is written: 'str', 2, 1.5, true, float, [2, ?],
 * { dtype: DT_INT32 int_val: 1 }, { name: 'f' }, [a, b]. */
void og_emit_op_value(const og_value *v, og_writer *w);

/* The shortest "%.Ng" text of `f` that reads back as the same double,
 * with ".0" added where it would read as an integer; "inf", "-inf",
 * "nan". `buf` needs 32 bytes. Returns buf. */
char *og_format_float(double f, char *buf);

#endif
