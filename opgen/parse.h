/* Parsing one .op source into an AST. */
#ifndef OPGEN_PARSE_H
#define OPGEN_PARSE_H

#include "ast.h"
#include "diag.h"

/* Parses source `file` of `sources` into an og_ast_file allocated in
 * `arena`. Syntax errors go to `diag`; the tree holds whatever was
 * recovered. Never returns NULL. */
og_ast_file *og_parse(og_arena *arena, const og_sources *sources,
                      uint32_t file, og_diag *diag);

/* og_parse that also hands each op to on_op(arg, op) as soon as it is
 * complete (on the parsing thread; the op is not changed after, but for
 * its `next`), so that a consumer can check it while the parse goes on
 * (see og_compile). */
og_ast_file *og_parse_each(og_arena *arena, const og_sources *sources,
                           uint32_t file, og_diag *diag,
                           void (*on_op)(void *arg, og_ast_op *op),
                           void *arg);
/* og_parse_each of the bytes [begin, end) of the source alone, as if the
 * rest were not there (locations stay the file's). */
og_ast_file *og_parse_range(og_arena *arena, const og_sources *sources,
                            uint32_t file, uint32_t begin, uint32_t end,
                            og_diag *diag,
                            void (*on_op)(void *arg, og_ast_op *op),
                            void *arg);

#endif
