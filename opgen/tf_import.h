/* TensorFlow OpList text (ops.pbtxt) to the op model. */
#ifndef OPGEN_TF_IMPORT_H
#define OPGEN_TF_IMPORT_H

#include "arena.h"
#include "diag.h"
#include "model.h"

#include <stddef.h>

/* Reads an OpList in protobuf text format (`len` bytes of `text`, named
 * `path` in diagnostics and source positions) into a model: every OpDef
 * field the model has, as TensorFlow wrote it (allowed sets keep their
 * duplicates; nothing is re-finalized). Unknown fields, unknown enum values,
 * values of the wrong kind, fields the model has no place for, and broken
 * references (an arg naming a missing attr) are errors reported to `diag`
 * with their position, and so is a name the `.op` language cannot hold
 * (og_tf_check_names). Unknown fields (a newer TensorFlow's) are skipped
 * with one warning naming them, experimental_full_type with one warning
 * counting them. Internal ops ('_' names) and namespaced ones ("Ns>Name")
 * are left out with one warning per kind that counts them. Every op is
 * read, so that one pass reports all the errors of a file. Returns the model (ops sorted by
 * name; the caller owns it: og_model_free), or NULL when any error was
 * reported. Every op's package is og_tf_package_name(path). */
og_model *og_tf_import(const char *path, const char *text, size_t len,
                       og_diag *diag);

/* og_tf_import; with `verbose`, a note names each op left out. */
og_model *og_tf_import_verbose(const char *path, const char *text,
                               size_t len, og_diag *diag, bool verbose);

/* Checks every name that `.op` text of `op` would hold (the op's, its
 * attrs', its inputs' and outputs', and the attr names they refer to)
 * against the language's rules (name_rules.h); reports each bad one to
 * `diag`, naming the op and the field, and returns false. */
bool og_tf_check_names(og_diag *diag, const og_op *op);

/* The package for ops imported from `path`: the one a .op file of that
 * name gets without `package` (og_default_package, compile.h), so
 * "tf-ops.pbtxt" -> "tf_ops". In `arena`. */
char *og_tf_package_name(og_arena *arena, const char *path);

/* TensorFlow's snake_case of an op name, as its Python wrappers spell it:
 * "Conv2DBackpropInput" -> "conv2d_backprop_input", "LRNGrad" ->
 * "lrn_grad". In `arena`. */
char *og_tf_snake_case(og_arena *arena, const char *name);

/* The TensorProto field that holds values of `dt` ("float_val",
 * "int_val", ...), or NULL where the model cannot hold them. */
const char *og_tf_tensor_val_field(og_dtype dt);

#endif
