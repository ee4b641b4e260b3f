/* The syntax tree of one .op file, as written. Lives in an arena; every
 * node carries its source range. Lists are singly linked in source order. */
#ifndef OPGEN_AST_H
#define OPGEN_AST_H

#include "arena.h"
#include "bytes.h"
#include "source.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct og_ast_doc {
  const char *text; /* "///" and one following space stripped, '\n'-joined */
  og_loc loc;
} og_ast_doc;

/* Literals: attr defaults, set elements, text-proto messages. */
typedef enum og_ast_value_kind {
  OG_AV_INT,
  OG_AV_FLOAT,
  OG_AV_STRING,
  OG_AV_NAME,    /* true, DT_INT32, int32, inf, nan, ... (negated: -inf) */
  OG_AV_UNKNOWN, /* ? */
  OG_AV_LIST,    /* [a, b] */
  OG_AV_MESSAGE, /* { field: value field { ... } } */
} og_ast_value_kind;

typedef struct og_ast_value og_ast_value;

typedef struct og_ast_field {
  const char *name;
  og_loc name_loc;
  og_ast_value *value;
  struct og_ast_field *next;
} og_ast_field;

struct og_ast_value {
  og_ast_value_kind kind;
  og_loc loc;
  bool negated;        /* OG_AV_NAME written as -name */
  int64_t i;           /* OG_AV_INT */
  double f;            /* OG_AV_FLOAT */
  og_bytes s;          /* OG_AV_STRING */
  const char *name;    /* OG_AV_NAME */
  og_ast_value *items; /* OG_AV_LIST */
  og_ast_field *fields; /* OG_AV_MESSAGE */
  og_ast_value *next;
};

typedef enum og_ast_type_kind {
  OG_AT_NAME, /* int, type, numbertype, ... */
  OG_AT_LIST, /* NAME(inner); NAME should be "list" */
  OG_AT_SET,  /* {elements} */
} og_ast_type_kind;

typedef struct og_ast_attr_type {
  og_ast_type_kind kind;
  og_loc loc;
  const char *name; /* OG_AT_NAME, OG_AT_LIST */
  og_loc name_loc;
  struct og_ast_attr_type *inner; /* OG_AT_LIST */
  og_ast_value *elems;            /* OG_AT_SET: names or strings */
} og_ast_attr_type;

typedef struct og_ast_io_type {
  og_loc loc;
  bool is_ref;
  const char *number; /* N of N * T, or NULL */
  og_loc number_loc;
  const char *type;   /* a dtype or an attr name */
  og_loc type_loc;
} og_ast_io_type;

/* Shape expressions and requirements. */
typedef enum og_ast_expr_kind {
  OG_EX_INT,
  OG_EX_UNKNOWN, /* ? */
  OG_EX_NAME,
  OG_EX_CALL,    /* name(args) */
  OG_EX_LIST,    /* [args] */
  OG_EX_BINARY,  /* lhs op rhs: + - * / % ++, comparisons, && || */
  OG_EX_NEG,     /* -lhs */
  OG_EX_IN,      /* lhs in [rhs, rhs->next] */
  OG_EX_STRING,  /* 'text': name holds the decoded text */
  OG_EX_NOT,     /* !lhs */
  OG_EX_COND,    /* lhs ? rhs : third */
  OG_EX_INDEX,   /* lhs[rhs] */
  OG_EX_SLICE,   /* lhs[rhs:third]; a bound left out is NULL */
  /* [lhs for bound < rhs if third] (name NULL), or the fold
   * name(lhs for bound < rhs if third); third NULL without `if` */
  OG_EX_COMPREHENSION,
} og_ast_expr_kind;

typedef enum og_ast_binop {
  OG_OP_ADD = '+',
  OG_OP_SUB = '-',
  OG_OP_MUL = '*',
  OG_OP_DIV = '/',
  OG_OP_MOD = '%',
  OG_OP_LT = '<',
  OG_OP_GT = '>',
  OG_OP_EQ = 'e',
  OG_OP_NE = 'n',
  OG_OP_LE = 'l',
  OG_OP_GE = 'g',
  OG_OP_AND = '&',
  OG_OP_OR = '|',
  OG_OP_CONCAT = '#', /* ++ */
} og_ast_binop;

/* Expressions deeper than this are an error (the passes over them
 * recurse): `a + a + ...` grows the tree without growing the parser's
 * stack, so YYMAXDEPTH alone does not bound it. The same bound as
 * YYMAXDEPTH, so that any nesting the parser takes is fine. */
#define OG_MAX_EXPR_DEPTH 10000

typedef struct og_ast_expr {
  og_ast_expr_kind kind;
  uint32_t depth; /* height of the tree below, this node included */
  og_loc loc;
  og_ast_binop op;
  bool parens; /* written in parentheses: (a < b) == c is no chain */
  int64_t i;
  const char *name; /* a name, a call's form, a fold's F, a string */
  og_loc name_loc;
  const char *bound; /* OG_EX_COMPREHENSION: k of `for k < N` */
  og_loc bound_loc;
  struct og_ast_expr *lhs, *rhs, *third;
  struct og_ast_expr *args; /* OG_EX_CALL, OG_EX_LIST */
  struct og_ast_expr *next;
} og_ast_expr;

typedef enum og_ast_item_kind {
  OG_ITEM_ATTR,
  OG_ITEM_INPUT,
  OG_ITEM_OUTPUT,
  OG_ITEM_STATEFUL,
  OG_ITEM_COMMUTATIVE,
  OG_ITEM_AGGREGATE,
  OG_ITEM_ALLOWS_UNINITIALIZED_INPUT,
  OG_ITEM_DISTRIBUTED_COMMUNICATION,
  OG_ITEM_DEPRECATED,
  OG_ITEM_SHAPE,
  OG_ITEM_REQUIRE,
  OG_ITEM_SHAPE_FN,
  OG_ITEM_LET, /* let name(params) = expr; */
} og_ast_item_kind;

/* A parameter of `let NAME(p, ...) = E;`. */
typedef struct og_ast_param {
  const char *name;
  og_loc loc;
  struct og_ast_param *next;
} og_ast_param;

typedef struct og_ast_item {
  og_ast_item_kind kind;
  og_loc loc; /* the keyword */
  og_ast_doc *doc;
  const char *name; /* attr/input/output name, shape target, shape_fn */
  og_loc name_loc;
  og_ast_attr_type *attr_type;
  og_ast_value *minimum; /* OG_AV_INT or NULL */
  og_ast_value *default_value;
  og_ast_io_type *io_type;
  og_ast_value *version; /* deprecated */
  og_ast_value *explanation;
  og_ast_expr *expr; /* shape value, require condition, let body */
  /* `shape out[i] = ...`: the bound name i (NULL otherwise). */
  const char *index_name;
  og_loc index_loc;
  og_ast_param *params; /* let NAME(p, ...): one or more; NULL: none */
  struct og_ast_item *next;
} og_ast_item;

typedef struct og_ast_op {
  const char *name;
  og_loc loc, name_loc;
  og_ast_doc *doc;
  og_ast_item *items;
  bool has_syntax_error; /* some item was dropped by error recovery */
  struct og_ast_op *next;
} og_ast_op;

typedef struct og_ast_file {
  uint32_t file; /* index in og_sources */
  const char *package; /* NULL if absent */
  og_loc package_loc;
  const char *c_prefix; /* `c_prefix NAME;`: NULL if absent */
  og_loc c_prefix_loc;  /* of NAME */
  bool c_prefix_strip;  /* `c_prefix NAME strip;` */
  og_ast_op *ops;
} og_ast_file;

#endif
