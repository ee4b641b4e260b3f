/* `opgen import-tf`: TensorFlow's ops.pbtxt to `.op` files. */
#ifndef OPGEN_TF_IMPORT_CLI_H
#define OPGEN_TF_IMPORT_CLI_H

/* opgen import-tf OPS.pbtxt -o DIR [--split]
 *
 * argv[0] is the verb ("import-tf") and is skipped. Without --split, writes
 * DIR/<package>.op holding `package <package>;` and every op, where
 * <package> is og_tf_package_name(OPS.pbtxt) ("tf-ops.pbtxt" -> tf_ops).
 * With --split, writes DIR/<snake_case(op)>.op per op, without a package
 * line. DIR is created when missing. Each op's .op text is compiled before
 * anything is written: an op the .op language rejects (TensorFlow would
 * too: a lower-case op name, say) is an error; one that compiles to a
 * different op (a doc comment the language cannot hold exactly) is a
 * warning. Files are written only once the whole import has succeeded,
 * all or nothing (og_outputs_commit): when one cannot be written, none
 * is.
 *
 * Returns 0 on success, 1 for invalid input (diagnostics on stderr, GCC
 * style), 2 for a usage or I/O error ("opgen: error: ..." on stderr). */
int og_cmd_import_tf(int argc, char **argv);

#endif
