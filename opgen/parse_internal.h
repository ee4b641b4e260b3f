/* State shared by the flex scanner and the bison parser. */
#ifndef OPGEN_PARSE_INTERNAL_H
#define OPGEN_PARSE_INTERNAL_H

#include "ast.h"
#include "diag.h"

#include <stdbool.h>

/* The semantic value of every token. */
typedef struct og_token {
  const char *text; /* identifier, integer digits, or decoded string */
  size_t len;
  double f;         /* FLOAT */
  og_ast_doc *doc;  /* doc comment lines just before this token */
} og_token;

typedef struct og_open_bracket {
  char kind; /* '{', '(' or '[' */
  og_loc loc;
  bool op_body; /* the '{' of `op NAME {`: the only one that holds ';' */
} og_open_bracket;

typedef struct og_lex_state {
  struct og_parse_ctx *ctx;
  og_arena *arena;
  uint32_t file;
  uint32_t offset; /* of the next byte the scanner reads */
  char *pool, *pool_end; /* where tokens' texts are copied (lexer.l) */
  /* Doc comment lines waiting for the next token. */
  char *doc;
  size_t doc_len, doc_cap;
  og_loc doc_loc;
  bool has_doc;
  /* Unclosed brackets, innermost last: for "opened here" notes. A ';'
   * closes those above the innermost op body (error recovery skipped
   * their closers). */
  og_open_bracket *open;
  size_t nopen, open_cap;
} og_lex_state;

typedef struct og_parse_ctx {
  og_arena *arena;
  const og_source *source;
  og_diag *diag;
  og_lex_state *lex;
  og_ast_file *file;
  og_ast_op **ops_tail;
  void (*on_op)(void *arg, og_ast_op *op); /* og_parse_each; or NULL */
  void *on_op_arg;
  bool saw_op; /* for "package must come first" */
  size_t item_errors; /* items dropped by recovery in the current op */
  /* The last two tokens read: a missing ';' is reported after the one
   * before the lookahead. */
  int last_tok, prev_tok;
  og_loc last_loc, prev_loc;
  bool missing_semicolon; /* the last syntax error was a missing ';' */
} og_parse_ctx;

/* The flex scanner, and the parse context it was started for. */
union OG_YYSTYPE;
int og_scan(union OG_YYSTYPE *val, og_loc *loc, void *scanner);
og_parse_ctx *og_scan_ctx(void *scanner);

#endif
