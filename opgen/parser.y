/* Grammar of the .op language. Builds the AST; semantic checks are the
 * job of sema. Recovers at ';' and '}' so one run reports many errors. */
%require "3.8"
%define api.pure full
%define api.prefix {og_yy}
%define api.location.type {og_loc}
%define parse.error custom
%locations
%expect 0
%param {void *scanner}
%parse-param {og_parse_ctx *ctx}

%code requires {
#include "parse_internal.h"
}

%code provides {
int og_yylex(OG_YYSTYPE *val, OG_YYLTYPE *loc, void *scanner);
}

%code {
#include "ast_build.h"
#include "suggest.h"

#include <string.h>

#define YYLLOC_DEFAULT(Cur, Rhs, N)                          \
  do {                                                       \
    if (N) {                                                 \
      (Cur).file = YYRHSLOC(Rhs, 1).file;                    \
      (Cur).begin = YYRHSLOC(Rhs, 1).begin;                  \
      (Cur).end = YYRHSLOC(Rhs, N).end;                      \
    } else {                                                 \
      (Cur).file = YYRHSLOC(Rhs, 0).file;                    \
      (Cur).begin = (Cur).end = YYRHSLOC(Rhs, 0).end;        \
    }                                                        \
  } while (0)

static void og_yyerror(const OG_YYLTYPE *loc, void *scanner,
                       og_parse_ctx *ctx, const char *msg);
static void warn_stray_doc(og_parse_ctx *ctx, const og_token *tok);
static bool report_lexical(og_parse_ctx *ctx, yysymbol_kind_t sym, og_loc loc);
static void open_op_body(og_parse_ctx *ctx, const og_loc *brace);
static bool starts_item(int tok);
static bool resume_after_missing_semicolon(og_parse_ctx *ctx);
}

%union {
  og_token tok;
  og_ast_op *op;
  og_ast_item *item;
  og_ast_attr_type *atype;
  og_ast_io_type *iotype;
  og_ast_value *value;
  og_ast_field *field;
  og_ast_expr *expr;
  struct { og_ast_value *head, **tail; } values;
  struct { og_ast_field *head, **tail; } fields;
  struct { og_ast_expr *head, **tail; } exprs;
  struct { og_ast_item *head, **tail; } items;
  struct { og_ast_param *head, **tail; } params;
}

%token <tok> IDENT "identifier" INT "integer" FLOAT "number"
%token <tok> STRING "string literal"
%token <tok> GE "'>='" LE "'<='" EQ "'=='" NE "'!='"
%token <tok> AND "'&&'" OR "'||'" CONCAT "'++'"
%token <tok> KW_PACKAGE "'package'" KW_OP "'op'" KW_ATTR "'attr'"
%token <tok> KW_INPUT "'input'" KW_OUTPUT "'output'"
%token <tok> KW_STATEFUL "'stateful'" KW_COMMUTATIVE "'commutative'"
%token <tok> KW_AGGREGATE "'aggregate'"
%token <tok> KW_ALLOWS_UNINITIALIZED_INPUT "'allows_uninitialized_input'"
%token <tok> KW_DISTRIBUTED_COMMUNICATION "'distributed_communication'"
%token <tok> KW_DEPRECATED "'deprecated'" KW_SHAPE "'shape'"
%token <tok> KW_REQUIRE "'require'" KW_SHAPE_FN "'shape_fn'" KW_IN "'in'"
%token <tok> KW_LET "'let'" KW_FOR "'for'" KW_IF "'if'"
%token <tok> KW_C_PREFIX "'c_prefix'"
/* Error tokens: the scanner's way of reporting what it cannot read. */
%token <tok> T_BAD_CHAR T_BAD_NUMBER T_FLOAT_RANGE T_BAD_ESCAPE
%token <tok> T_UNTERMINATED_STRING T_UNTERMINATED_COMMENT
%token <tok> '{' '}' '(' ')' '[' ']' ';' ':' ',' '=' '*' '+' '-' '/' '?' '<' '>'
%token <tok> '%' '!'

%type <tok> name
%type <op> op
%type <items> items
%type <item> item flag
%type <atype> attr_type
%type <iotype> io_type io_base
%type <value> value signed_int set_elem opt_minimum opt_default
%type <values> set_elems opt_values values
%type <fields> fields
%type <field> field
%type <expr> expr comprehension opt_if
%type <exprs> opt_exprs exprs
%type <params> params

/* Loosest first, as in C. Comparisons are %left here; a chain of them
 * is refused in the action, with its own message. */
%right '?' ':'
%left OR
%left AND
%left EQ NE GE LE '<' '>' KW_IN
%left '+' '-' CONCAT
%left '*' '/' '%'
%precedence NEG '!'
%precedence '['

%%

file:
  %empty
| file decl
;

decl:
  KW_PACKAGE name ';'  { og_build_package(ctx, &@1, &$2, &@2); }
| KW_C_PREFIX name ';' { og_build_c_prefix(ctx, &@1, &$2, &@2, NULL, NULL); }
| KW_C_PREFIX name name ';' {
    og_build_c_prefix(ctx, &@1, &$2, &@2, &$3, &@3);
  }
| op                   { *ctx->ops_tail = $1; ctx->ops_tail = &$1->next;
                         ctx->saw_op = true;
                         if (ctx->on_op) ctx->on_op(ctx->on_op_arg, $1); }
| error ';'
| error '}'
| error  { if (resume_after_missing_semicolon(ctx)) yyerrok; }
;

op:
  KW_OP name '{' { open_op_body(ctx, &@3); } items '}' {
    $$ = og_build_op(ctx, &$1, &@1, &$2, &@2);
    $$->items = $5.head;
    $$->has_syntax_error = ctx->item_errors > 0;
  }
;

items:
  %empty      { $$.head = NULL; $$.tail = &$$.head; }
| items item  { $$ = $1; if ($2) { *$$.tail = $2; $$.tail = &$2->next; } }
;

item:
  KW_ATTR name ':' attr_type opt_minimum opt_default ';' {
    $$ = og_build_item(ctx, OG_ITEM_ATTR, &$1, &@1, &$2, &@2);
    $$->attr_type = $4;
    $$->minimum = $5;
    $$->default_value = $6;
  }
| KW_INPUT name ':' io_type ';' {
    $$ = og_build_item(ctx, OG_ITEM_INPUT, &$1, &@1, &$2, &@2);
    $$->io_type = $4;
  }
| KW_OUTPUT name ':' io_type ';' {
    $$ = og_build_item(ctx, OG_ITEM_OUTPUT, &$1, &@1, &$2, &@2);
    $$->io_type = $4;
  }
| flag ';'
| KW_DEPRECATED signed_int STRING ';' {
    $$ = og_build_item(ctx, OG_ITEM_DEPRECATED, &$1, &@1, NULL, NULL);
    $$->version = $2;
    $$->explanation = og_build_string(ctx, &$3, &@3);
  }
| KW_SHAPE name '=' expr ';' {
    $$ = og_build_item(ctx, OG_ITEM_SHAPE, &$1, &@1, &$2, &@2);
    $$->expr = $4;
  }
| KW_REQUIRE expr ';' {
    $$ = og_build_item(ctx, OG_ITEM_REQUIRE, &$1, &@1, NULL, NULL);
    $$->expr = $2;
  }
| KW_SHAPE name '[' name ']' '=' expr ';' {
    $$ = og_build_item(ctx, OG_ITEM_SHAPE, &$1, &@1, &$2, &@2);
    $$->index_name = $4.text;
    $$->index_loc = @4;
    $$->expr = $7;
  }
| KW_LET name '=' expr ';' {
    $$ = og_build_item(ctx, OG_ITEM_LET, &$1, &@1, &$2, &@2);
    $$->expr = $4;
  }
| KW_LET name '(' params ')' '=' expr ';' {
    $$ = og_build_item(ctx, OG_ITEM_LET, &$1, &@1, &$2, &@2);
    $$->params = $4.head;
    $$->expr = $7;
  }
| KW_SHAPE_FN name ';' {
    $$ = og_build_item(ctx, OG_ITEM_SHAPE_FN, &$1, &@1, &$2, &@2);
  }
| error ';'  { $$ = NULL; ctx->item_errors++; yyerrok; } /* resynchronised: report the next */
| error      { $$ = NULL; ctx->item_errors++;
               if (resume_after_missing_semicolon(ctx)) yyerrok; }
;

flag:
  KW_STATEFUL     { $$ = og_build_item(ctx, OG_ITEM_STATEFUL, &$1, &@1, NULL, NULL); }
| KW_COMMUTATIVE  { $$ = og_build_item(ctx, OG_ITEM_COMMUTATIVE, &$1, &@1, NULL, NULL); }
| KW_AGGREGATE    { $$ = og_build_item(ctx, OG_ITEM_AGGREGATE, &$1, &@1, NULL, NULL); }
| KW_ALLOWS_UNINITIALIZED_INPUT {
    $$ = og_build_item(ctx, OG_ITEM_ALLOWS_UNINITIALIZED_INPUT, &$1, &@1, NULL, NULL);
  }
| KW_DISTRIBUTED_COMMUNICATION {
    $$ = og_build_item(ctx, OG_ITEM_DISTRIBUTED_COMMUNICATION, &$1, &@1, NULL, NULL);
  }
;

/* Keywords are contextual: any of them can be a name. */
name:
  IDENT | KW_PACKAGE | KW_OP | KW_ATTR | KW_INPUT | KW_OUTPUT | KW_STATEFUL
| KW_COMMUTATIVE | KW_AGGREGATE | KW_ALLOWS_UNINITIALIZED_INPUT
| KW_DISTRIBUTED_COMMUNICATION | KW_DEPRECATED | KW_SHAPE | KW_REQUIRE | KW_SHAPE_FN | KW_IN
| KW_LET | KW_FOR | KW_IF | KW_C_PREFIX
;

params:
  name                { $$.head = og_build_param(ctx, &$1, &@1);
                        $$.tail = &$$.head->next; }
| params ',' name     { $$ = $1; *$$.tail = og_build_param(ctx, &$3, &@3);
                        $$.tail = &(*$$.tail)->next; }
;

attr_type:
  name                    { $$ = og_build_type_name(ctx, &$1, &@1); }
| name '(' attr_type ')'  { $$ = og_build_type_list(ctx, &$1, &@1, $3, &@$); }
| '{' set_elems opt_comma '}' { $$ = og_build_type_set(ctx, $2.head, &@$); }
;

io_type:
  io_base
| name '(' io_base ')'    { $$ = og_build_io_ref(ctx, &$1, &@1, $3, &@$); }
;

io_base:
  name            { $$ = og_build_io_type(ctx, NULL, NULL, &$1, &@1, &@$); }
| name '*' name   { $$ = og_build_io_type(ctx, &$1, &@1, &$3, &@3, &@$); }
;

set_elems:
  set_elem                { $$.head = $1; $$.tail = &$1->next; }
| set_elems ',' set_elem  { $$ = $1; *$$.tail = $3; $$.tail = &$3->next; }
;

set_elem:
  name    { $$ = og_build_name_value(ctx, &$1, &@1, false); }
| STRING  { $$ = og_build_string(ctx, &$1, &@1); }
;

opt_comma: %empty | ',' ;

opt_minimum:
  %empty         { $$ = NULL; }
| GE signed_int  { $$ = $2; }
;

opt_default:
  %empty     { $$ = NULL; }
| '=' value  { $$ = $2; }
;

signed_int:
  INT      { $$ = og_build_int(ctx, &$1, &@1, false, &@1); }
| '-' INT  { $$ = og_build_int(ctx, &$2, &@2, true, &@$); }
;

value:
  signed_int
| FLOAT                       { $$ = og_build_float(ctx, $1.f, &@$); }
| '-' FLOAT                   { $$ = og_build_float(ctx, -$2.f, &@$); }
| STRING                      { $$ = og_build_string(ctx, &$1, &@1); }
| name                        { $$ = og_build_name_value(ctx, &$1, &@1, false); }
| '-' name                    { $$ = og_build_name_value(ctx, &$2, &@$, true); }
| '?'                         { $$ = og_build_value(ctx, OG_AV_UNKNOWN, &@$); }
| '[' opt_values ']'          { $$ = og_build_value(ctx, OG_AV_LIST, &@$);
                                $$->items = $2.head; }
| '{' fields '}'              { $$ = og_build_value(ctx, OG_AV_MESSAGE, &@$);
                                $$->fields = $2.head; }
;

opt_values:
  %empty              { $$.head = NULL; $$.tail = &$$.head; }
| values opt_comma
;

values:
  value               { $$.head = $1; $$.tail = &$1->next; }
| values ',' value    { $$ = $1; *$$.tail = $3; $$.tail = &$3->next; }
;

/* Text-proto message bodies: `name: value`, `name { ... }`, optionally
 * separated by commas. */
fields:
  %empty              { $$.head = NULL; $$.tail = &$$.head; }
| fields field opt_comma { $$ = $1; *$$.tail = $2; $$.tail = &$2->next; }
;

field:
  name ':' value      { $$ = og_build_field(ctx, &$1, &@1, $3); }
| name '{' fields '}' {
    og_ast_value *msg = og_build_value(ctx, OG_AV_MESSAGE, &@2);
    msg->loc.end = @4.end;
    msg->fields = $3.head;
    $$ = og_build_field(ctx, &$1, &@1, msg);
  }
;

/* Shape expressions (op-language.md, "Syntax"). `?` is the unknown
 * literal where an operand may stand and the conditional after one. */
expr:
  INT                       { $$ = og_build_expr_int(ctx, &$1, &@1); }
| '?'                       { $$ = og_build_expr(ctx, OG_EX_UNKNOWN, &@$); }
| STRING                    { $$ = og_build_expr_string(ctx, &$1, &@1); }
| name                      { $$ = og_build_expr_name(ctx, OG_EX_NAME, &$1, &@1); }
| name '(' opt_exprs ')'    { $$ = og_build_expr_name(ctx, OG_EX_CALL, &$1, &@1);
                              $$->loc = @$;
                              og_build_expr_args(ctx, $$, $3.head); }
| name '(' comprehension ')' { $$ = $3; $$->loc = @$;
                               $$->name = $1.text; $$->name_loc = @1; }
| '[' opt_exprs ']'         { $$ = og_build_expr(ctx, OG_EX_LIST, &@$);
                              og_build_expr_args(ctx, $$, $2.head); }
| '[' comprehension ']'     { $$ = $2; $$->loc = @$; }
| '(' expr ')'              { $$ = $2; $$->parens = true; }
| '-' expr %prec NEG        { $$ = og_build_expr_op(ctx, OG_EX_NEG, 0, $2, NULL, &@$); }
| '!' expr                  { $$ = og_build_expr_op(ctx, OG_EX_NOT, 0, $2, NULL, &@$); }
| expr '[' expr ']'         { $$ = og_build_expr_op(ctx, OG_EX_INDEX, 0, $1, $3, &@$); }
| expr '[' expr ':' expr ']' { $$ = og_build_expr_slice(ctx, $1, $3, $5, &@$); }
| expr '[' expr ':' ']'     { $$ = og_build_expr_slice(ctx, $1, $3, NULL, &@$); }
| expr '[' ':' expr ']'     { $$ = og_build_expr_slice(ctx, $1, NULL, $4, &@$); }
| expr '[' ':' ']'          { $$ = og_build_expr_slice(ctx, $1, NULL, NULL, &@$); }
| expr '+' expr             { $$ = og_build_expr_op(ctx, OG_EX_BINARY, OG_OP_ADD, $1, $3, &@$); }
| expr '-' expr             { $$ = og_build_expr_op(ctx, OG_EX_BINARY, OG_OP_SUB, $1, $3, &@$); }
| expr CONCAT expr          { $$ = og_build_expr_op(ctx, OG_EX_BINARY, OG_OP_CONCAT, $1, $3, &@$); }
| expr '*' expr             { $$ = og_build_expr_op(ctx, OG_EX_BINARY, OG_OP_MUL, $1, $3, &@$); }
| expr '/' expr             { $$ = og_build_expr_op(ctx, OG_EX_BINARY, OG_OP_DIV, $1, $3, &@$); }
| expr '%' expr             { $$ = og_build_expr_op(ctx, OG_EX_BINARY, OG_OP_MOD, $1, $3, &@$); }
| expr EQ expr              { $$ = og_build_compare(ctx, OG_OP_EQ, $1, $3, &@2, &@$); }
| expr NE expr              { $$ = og_build_compare(ctx, OG_OP_NE, $1, $3, &@2, &@$); }
| expr GE expr              { $$ = og_build_compare(ctx, OG_OP_GE, $1, $3, &@2, &@$); }
| expr LE expr              { $$ = og_build_compare(ctx, OG_OP_LE, $1, $3, &@2, &@$); }
| expr '<' expr             { $$ = og_build_compare(ctx, OG_OP_LT, $1, $3, &@2, &@$); }
| expr '>' expr             { $$ = og_build_compare(ctx, OG_OP_GT, $1, $3, &@2, &@$); }
| expr KW_IN '[' expr ',' expr ']' {
    $4->next = $6;
    $$ = og_build_compare(ctx, 0, $1, $4, &@2, &@$);
  }
| expr AND expr             { $$ = og_build_expr_op(ctx, OG_EX_BINARY, OG_OP_AND, $1, $3, &@$); }
| expr OR expr              { $$ = og_build_expr_op(ctx, OG_EX_BINARY, OG_OP_OR, $1, $3, &@$); }
| expr '?' expr ':' expr    { $$ = og_build_expr_cond(ctx, $1, $3, $5, &@$); }
;

/* D for k < N if C: N at the level of `+` (checked in the action). */
comprehension:
  expr KW_FOR name '<' expr opt_if {
    $$ = og_build_comprehension(ctx, $1, &$3, &@3, $5, $6, &@$);
  }
;

opt_if:
  %empty       { $$ = NULL; }
| KW_IF expr   { $$ = $2; }
;

opt_exprs:
  %empty              { $$.head = NULL; $$.tail = &$$.head; }
| exprs opt_comma
;

exprs:
  expr                { $$.head = $1; $$.tail = &$1->next; }
| exprs ',' expr      { $$ = $1; *$$.tail = $3; $$.tail = &$3->next; }
;

%%


/* The scanner proper (flex's og_scan) wrapped so that a doc comment in front
 * of anything but op/attr/input/output gets a warning instead of vanishing,
 * lexical errors are reported even while the parser is recovering from an
 * earlier error, and end of input has its own location. */
int og_yylex(OG_YYSTYPE *val, OG_YYLTYPE *loc, void *scanner) {
  og_parse_ctx *ctx = og_scan_ctx(scanner);
  og_lex_state *lex = ctx->lex;
  /* flex leaves the value alone at end of input: no stale doc pointer. */
  memset(&val->tok, 0, sizeof val->tok);
  int tok = og_scan(val, loc, scanner);
  if (tok == OG_YYEOF) {
    loc->file = lex->file;
    loc->begin = loc->end = lex->offset;
    if (lex->has_doc) {
      og_ast_doc doc = {.loc = lex->doc_loc};
      og_token pending = {.doc = &doc};
      lex->has_doc = false;
      warn_stray_doc(ctx, &pending);
    }
    return tok;
  }
  if (val->tok.doc && tok != KW_OP && tok != KW_ATTR && tok != KW_INPUT &&
      tok != KW_OUTPUT)
    warn_stray_doc(ctx, &val->tok);
  /* A ';' ends an item or a package statement: any bracket opened since
   * the op body (or at the top level) was left unclosed by an error, and
   * must not be the one an end-of-input error says is open. */
  if (tok == ';')
    while (lex->nopen && !lex->open[lex->nopen - 1].op_body) lex->nopen--;
  /* The error tokens are declared in a row. */
  _Static_assert(T_UNTERMINATED_COMMENT - T_BAD_CHAR == 5, "error tokens");
  if (tok >= T_BAD_CHAR && tok <= T_UNTERMINATED_COMMENT)
    report_lexical(ctx, YYTRANSLATE(tok), *loc);
  ctx->prev_tok = ctx->last_tok;
  ctx->prev_loc = ctx->last_loc;
  ctx->last_tok = tok;
  ctx->last_loc = *loc;
  return tok;
}

/* After a missing ';' the lookahead begins the next statement: it is parsed
 * as new, its own errors reported (bison would otherwise stay silent for
 * three tokens). */
static bool resume_after_missing_semicolon(og_parse_ctx *ctx) {
  bool resume = ctx->missing_semicolon;
  ctx->missing_semicolon = false;
  return resume;
}

/* Tokens that begin an item or close the op body: where the parser resumes
 * after an item missing its ';'. */
static bool starts_item(int tok) {
  switch (tok) {
  case KW_ATTR: case KW_INPUT: case KW_OUTPUT: case KW_STATEFUL:
  case KW_COMMUTATIVE: case KW_AGGREGATE: case KW_ALLOWS_UNINITIALIZED_INPUT:
  case KW_DISTRIBUTED_COMMUNICATION: case KW_DEPRECATED: case KW_SHAPE: case KW_REQUIRE: case KW_SHAPE_FN:
  case KW_LET: case '}':
    return true;
  default:
    return false;
  }
}

/* A new op body: its '{' (found by location: bison may already hold the
 * next token) is marked on the scanner's bracket stack. */
static void open_op_body(og_parse_ctx *ctx, const og_loc *brace) {
  og_lex_state *lex = ctx->lex;
  ctx->item_errors = 0;
  for (size_t i = lex->nopen; i-- > 0;)
    if (lex->open[i].loc.begin == brace->begin) {
      lex->open[i].op_body = true;
      return;
    }
}

static void warn_stray_doc(og_parse_ctx *ctx, const og_token *tok) {
  og_diag_at(ctx->diag, OG_SEV_WARNING, tok->doc->loc,
             "doc comment documents nothing (it must precede an op, attr, "
             "input or output); ignored");
}

/* With parse.error custom, bison calls this only when its stack is full:
 * brackets or operators nested about YYMAXDEPTH deep. */
static void og_yyerror(const OG_YYLTYPE *loc, void *scanner,
                       og_parse_ctx *ctx, const char *msg) {
  (void)scanner;
  (void)msg;
  og_error_at(ctx->diag, *loc,
              "nested too deeply (parser stack limit of %d exceeded)",
              YYMAXDEPTH);
}

/* "'op'" -> 'op', "identifier" stays. */
static const char *symbol_display(yysymbol_kind_t sym, char *buf, size_t n) {
  const char *s = yysymbol_name(sym);
  size_t len = strlen(s);
  if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
    snprintf(buf, n, "%.*s", (int)(len - 2), s + 1);
    return buf;
  }
  return s;
}

/* What the offending token is, in words. */
static void describe_token(const og_parse_ctx *ctx, yysymbol_kind_t sym,
                           og_loc loc, char *buf, size_t n) {
  const char *text = ctx->source->text + loc.begin;
  int len = (int)(loc.end - loc.begin);
  if (len > 40) len = 40;
  switch (sym) {
  case YYSYMBOL_YYEOF: snprintf(buf, n, "end of input"); break;
  case YYSYMBOL_IDENT: snprintf(buf, n, "identifier '%.*s'", len, text); break;
  case YYSYMBOL_INT: case YYSYMBOL_FLOAT:
    snprintf(buf, n, "number '%.*s'", len, text); break;
  case YYSYMBOL_STRING: snprintf(buf, n, "string literal"); break;
  default: snprintf(buf, n, "'%.*s'", len, text); break;
  }
}

/* Lexical problems arrive as tokens; they get their own wording. */
static bool report_lexical(og_parse_ctx *ctx, yysymbol_kind_t sym,
                           og_loc loc) {
  const char *text = ctx->source->text + loc.begin;
  int len = (int)(loc.end - loc.begin);
  switch (sym) {
  case YYSYMBOL_T_BAD_CHAR:
    if ((unsigned char)text[0] < 0x20 || text[0] == 0x7f)
      og_error_at(ctx->diag, loc, "stray control character 0x%02x in spec",
                  (unsigned char)text[0]);
    else if ((unsigned char)text[0] >= 0x80 && len == 1)
      og_error_at(ctx->diag, loc, "stray byte 0x%02x (not UTF-8) in spec",
                  (unsigned char)text[0]);
    else
      og_error_at(ctx->diag, loc, "stray '%.*s' in spec", len, text);
    return true;
  case YYSYMBOL_T_BAD_NUMBER:
    og_error_at(ctx->diag, loc, "invalid number '%.*s'", len > 40 ? 40 : len,
                text);
    return true;
  case YYSYMBOL_T_FLOAT_RANGE:
    og_error_at(ctx->diag, loc, "number '%.*s' is out of range for a double",
                len > 40 ? 40 : len, text);
    return true;
  case YYSYMBOL_T_BAD_ESCAPE:
    og_error_at(ctx->diag, loc, "invalid escape sequence '%.*s' in string",
                len, text);
    return true;
  case YYSYMBOL_T_UNTERMINATED_STRING:
    loc.end = loc.begin + 1;
    og_error_at(ctx->diag, loc, "missing terminating %c character", text[0]);
    return true;
  case YYSYMBOL_T_UNTERMINATED_COMMENT:
    loc.end = loc.begin + 2;
    og_error_at(ctx->diag, loc, "unterminated comment");
    return true;
  default:
    return false;
  }
}

/* Whether sym is one of the scanner's error tokens, which og_yylex has
 * already reported. */
static bool is_lexical_error(yysymbol_kind_t sym) {
  return sym == YYSYMBOL_T_BAD_CHAR || sym == YYSYMBOL_T_BAD_NUMBER ||
         sym == YYSYMBOL_T_FLOAT_RANGE ||
         sym == YYSYMBOL_T_BAD_ESCAPE || sym == YYSYMBOL_T_UNTERMINATED_STRING ||
         sym == YYSYMBOL_T_UNTERMINATED_COMMENT;
}

/* The tokens the parser could have accepted, in a form worth printing:
 * keywords are names too, so where an identifier fits they are left out;
 * at end of input inside a bracket, only its closer when that would fit.
 * Returns the count, or 0 when there are too many to list. */
static int expected_tokens(const yypcontext_t *yyctx, const og_lex_state *lex,
                           yysymbol_kind_t *out, int max) {
  yysymbol_kind_t all[YYNTOKENS];
  int n = yypcontext_expected_tokens(yyctx, all, YYNTOKENS);
  bool ident = false, closer = false;
  yysymbol_kind_t close_sym = YYSYMBOL_YYEMPTY;
  if (lex->nopen) {
    char c = lex->open[lex->nopen - 1].kind;
    close_sym = YYTRANSLATE(c == '{' ? '}' : c == '(' ? ')' : ']');
  }
  for (int i = 0; i < n; i++) {
    ident |= all[i] == YYSYMBOL_IDENT;
    closer |= all[i] == close_sym;
  }
  int kept = 0;
  for (int i = 0; i < n; i++) {
    if (ident && all[i] >= YYSYMBOL_KW_PACKAGE &&
        all[i] <= YYSYMBOL_KW_C_PREFIX)
      continue; /* a keyword, covered by "identifier" */
    all[kept++] = all[i];
  }
  if (kept >= max && yypcontext_token(yyctx) == YYSYMBOL_YYEOF && closer) {
    out[0] = close_sym;
    return 1;
  }
  if (kept >= max) return 0;
  memcpy(out, all, (size_t)kept * sizeof *out);
  return kept;
}

/* Whether a newline separates the end of `a` from the start of `b`. */
static bool on_later_line(const og_parse_ctx *ctx, og_loc a, og_loc b) {
  return b.begin > a.end &&
         memchr(ctx->source->text + a.end, '\n', b.begin - a.end) != NULL;
}

/* A ';' fits here and the lookahead begins the next item (or line): the
 * ';' is what is missing, reported just after the token it should follow,
 * as compilers do. */
static bool report_missing_semicolon(const yypcontext_t *yyctx,
                                     og_parse_ctx *ctx, yysymbol_kind_t sym,
                                     og_loc loc) {
  if (sym == YYSYMBOL_YYEOF || !ctx->prev_tok || ctx->prev_loc.end > loc.begin)
    return false;
  int tok = ctx->last_tok;
  if (!starts_item(tok) && tok != KW_OP && tok != KW_PACKAGE &&
      !on_later_line(ctx, ctx->prev_loc, loc))
    return false;
  yysymbol_kind_t all[YYNTOKENS];
  int n = yypcontext_expected_tokens(yyctx, all, YYNTOKENS);
  bool semi = false;
  for (int i = 0; i < n; i++) semi |= all[i] == YYTRANSLATE(';');
  if (!semi) return false;
  og_loc at = {ctx->prev_loc.file, ctx->prev_loc.end, ctx->prev_loc.end};
  ctx->missing_semicolon = true;
  if (ctx->prev_tok == STRING) {
    og_error_at(ctx->diag, at, "expected ';' after string literal");
  } else {
    int len = (int)(ctx->prev_loc.end - ctx->prev_loc.begin);
    og_error_at(ctx->diag, at, "expected ';' after '%.*s'", len > 40 ? 40 : len,
                ctx->source->text + ctx->prev_loc.begin);
  }
  return true;
}

/* An identifier where keywords were expected may be a misspelt one
 * (`atr`, `ouput`): "; did you mean 'attr'?" or "". */
static const char *keyword_hint(const yypcontext_t *yyctx,
                                const og_parse_ctx *ctx, og_loc loc,
                                og_suggest *g, char *name, size_t n) {
  static const struct { int tok; const char *spelling; } keywords[] = {
#define OG_KEYWORD(TOKEN, SPELLING) {TOKEN, SPELLING},
#include "keywords.def"
#undef OG_KEYWORD
  };
  snprintf(name, n, "%.*s", (int)(loc.end - loc.begin),
           ctx->source->text + loc.begin);
  og_suggest_init(g, name);
  yysymbol_kind_t all[YYNTOKENS];
  int count = yypcontext_expected_tokens(yyctx, all, YYNTOKENS);
  for (int i = 0; i < count; i++)
    for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++)
      if (all[i] == YYTRANSLATE(keywords[k].tok))
        og_suggest_add(g, keywords[k].spelling);
  return og_suggest_hint(g);
}

static int yyreport_syntax_error(const yypcontext_t *yyctx, void *scanner,
                                 og_parse_ctx *ctx) {
  (void)scanner;
  yysymbol_kind_t sym = yypcontext_token(yyctx);
  og_loc loc = *yypcontext_location(yyctx);
  if (is_lexical_error(sym)) return 0; /* og_yylex reported it */
  ctx->missing_semicolon = false;
  if (report_missing_semicolon(yyctx, ctx, sym, loc)) return 0;

  enum { MAX_EXPECTED = 6 };
  const og_lex_state *lex = ctx->lex;
  yysymbol_kind_t expected[MAX_EXPECTED];
  int n = expected_tokens(yyctx, lex, expected, MAX_EXPECTED);
  char found[96], msg[512], name[64];
  describe_token(ctx, sym, loc, found, sizeof found);
  size_t used = 0;
  if (n <= 0) {
    used = (size_t)snprintf(msg, sizeof msg, "unexpected %s", found);
  } else {
    used = (size_t)snprintf(msg, sizeof msg, "expected ");
    for (int i = 0; i < n && used < sizeof msg; i++)
      used += (size_t)snprintf(msg + used, sizeof msg - used, "%s%s",
                               i == 0 ? "" : i == n - 1 ? " or " : ", ",
                               symbol_display(expected[i], name, sizeof name));
    if (used < sizeof msg)
      snprintf(msg + used, sizeof msg - used, " %s %s",
               sym == YYSYMBOL_YYEOF ? "at" : "before", found);
  }
  og_suggest g;
  char ident[OG_SUGGEST_MAX_LEN + 2];
  og_error_at(ctx->diag, loc, "%s%s", msg,
              sym == YYSYMBOL_IDENT
                  ? keyword_hint(yyctx, ctx, loc, &g, ident, sizeof ident)
                  : "");
  if (sym == YYSYMBOL_YYEOF && lex->nopen) {
    const og_open_bracket *open = &lex->open[lex->nopen - 1];
    og_note_at(ctx->diag, open->loc, "to match this '%c'", open->kind);
  }
  return 0;
}
