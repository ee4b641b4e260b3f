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

#endif
