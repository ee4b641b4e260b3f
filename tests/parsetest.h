/* Parse-level helpers shared by the lexer, parser and recovery tests: parse
 * a text into an AST (owned by the test's CMocka state) and look into it.
 * Every test that parses registers pt_teardown, which frees what the last
 * pt_parse* left in the state. */
#ifndef OPGEN_PARSETEST_H
#define OPGEN_PARSETEST_H

#include "testutil.h"

#include "parse.h"

#include <stddef.h>

typedef struct pt_parsed {
  og_sources sources;
  og_arena arena;
  og_diag diag;
  tu_diags diags;
  og_ast_file *ast;
} pt_parsed;

/* Parses `len` bytes of `text` as "t.op"; the result goes to *state. */
pt_parsed *pt_parse_n(void **state, const char *text, size_t len);
pt_parsed *pt_parse(void **state, const char *text);
/* Frees what *state holds (a CMocka teardown). */
int pt_teardown(void **state);
/* pt_teardown and an empty state: for tests that parse several texts. */
void pt_reset(void **state);

/* "line:col" of the start of `loc` (from a few rotating buffers). */
const char *pt_at(const pt_parsed *p, og_loc loc);
/* "line:col-line:col": where `loc` begins and where it ends (exclusive). */
const char *pt_span(const pt_parsed *p, og_loc loc);

/* The diagnostics, one "file:line:col: severity: message" per line. */
void pt_expect_diags(const pt_parsed *p, const char *want);
void pt_expect_clean(const pt_parsed *p);

/* The i-th op of the file and the i-th item of an op (asserted to exist). */
og_ast_op *pt_op_at(const pt_parsed *p, size_t i);
size_t pt_op_count(const pt_parsed *p);
og_ast_item *pt_item_at(const og_ast_op *op, size_t i);
/* The default value of the first item of the first op (an attr). */
og_ast_value *pt_first_default(const pt_parsed *p);

/* Parses `op A { ITEM }` cleanly and returns that single item. */
og_ast_item *pt_parse_item(void **state, const char *item);
/* Parses `op A { attr a: TYPE = VALUE; }` cleanly; returns the default. */
og_ast_value *pt_parse_default(void **state, const char *type,
                               const char *value);

#endif
