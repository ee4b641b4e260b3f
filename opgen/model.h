/* The finalized op model: the equivalent of TensorFlow's OpDef after
 * OpDefBuilder finalization and ValidateOpDef. Every emitter, the dump and
 * the compat lint read only this. An og_model owns all of its memory (one
 * arena); nothing in it points into an AST or a source buffer. */
#ifndef OPGEN_MODEL_H
#define OPGEN_MODEL_H

#include "arena.h"
#include "bytes.h"
#include "dtype.h"
#include "source.h"
#include "strmap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum og_attr_kind {
  OG_ATTR_STRING,
  OG_ATTR_INT,
  OG_ATTR_FLOAT,
  OG_ATTR_BOOL,
  OG_ATTR_TYPE,
  OG_ATTR_SHAPE,
  OG_ATTR_TENSOR,
  OG_ATTR_FUNC,
} og_attr_kind;

typedef struct og_attr_type {
  og_attr_kind kind;
  bool is_list;
} og_attr_type;

/* "int", "list(type)", ... as TensorFlow spells attr types. */
const char *og_attr_type_name(og_attr_type t);
const char *og_attr_kind_name(og_attr_kind k);
/* Inverse of og_attr_type_name; false if `s` is not an attr type. */
bool og_attr_type_parse(const char *s, og_attr_type *out);

typedef struct og_shape {
  bool unknown_rank;
  size_t rank;
  int64_t *dims; /* -1: unknown dim */
} og_shape;

typedef enum og_value_kind {
  OG_VAL_STRING,
  OG_VAL_INT,
  OG_VAL_FLOAT,
  OG_VAL_BOOL,
  OG_VAL_TYPE,
  OG_VAL_SHAPE,
  OG_VAL_TENSOR,
  OG_VAL_FUNC,
  OG_VAL_LIST,
} og_value_kind;

typedef struct og_value og_value;

/* A tensor literal: dtype, shape and the values as written (TensorFlow's
 * *_val fields: fewer values than elements repeat the last one). */
typedef struct og_tensor {
  og_dtype dtype;
  og_shape shape;
  size_t nvalues;
  og_value *values; /* scalars: INT, FLOAT, STRING or BOOL */
} og_tensor;

struct og_value {
  og_value_kind kind;
  union {
    og_bytes s;         /* STRING */
    int64_t i;          /* INT */
    double f;           /* FLOAT */
    bool b;             /* BOOL */
    og_dtype type;      /* TYPE */
    og_shape shape;     /* SHAPE */
    og_tensor tensor;   /* TENSOR */
    const char *func;   /* FUNC: function name */
    struct {
      size_t count;
      og_value *items;
    } list;             /* LIST: every item of one kind */
  } u;
};

typedef struct og_attr {
  const char *name;
  og_attr_type type;
  bool has_minimum;
  int64_t minimum;
  /* NULL, or a LIST of TYPE values (type attrs) or STRING values (string
   * attrs), in declaration order, shortcuts expanded, duplicates dropped. */
  const og_value *allowed;
  /* The same set as a mask (type attrs); 0 when unconstrained. */
  og_dtype_set allowed_types;
  const og_value *default_value; /* NULL: required */
  const char *description;       /* "" when undocumented */
  bool inferred; /* read off the inputs: callers never pass it */
  og_srcpos pos;
} og_attr;

typedef struct og_arg {
  const char *name;
  const char *description;
  og_dtype type;              /* OG_DT_INVALID when an attr gives the type */
  const char *type_attr;      /* "" when unused */
  const char *number_attr;    /* "" when unused */
  const char *type_list_attr; /* "" when unused */
  bool is_ref;
  og_srcpos pos;
} og_arg;

/* Shape rules (op-language.md, "Shape inference", version 2), resolved:
 * names became indexes and every node knows its kind. Produced by sema
 * (sema_shape*.c), compiled to C by emit_c_shape*.c, compared by the
 * compat lint. Each node's `type` is what it evaluates to. */
typedef enum og_sx_type {
  OG_SXT_SHAPE,
  OG_SXT_NUM,
  OG_SXT_COND,
} og_sx_type;

/* args[k] are the operands in source order unless a kind says
 * otherwise; "A" is args, "index" the resolved input/attr/let index. */
typedef enum og_sexpr_kind {
  /* leaves */
  OG_SX_INT,       /* integer literal i (a negated literal folded in) */
  OG_SX_UNKNOWN,   /* ? : the unknown number, or the unknown shape */
  OG_SX_STRING,    /* 'text' in s: padding of window() and attr(s) ==
                      'text' only (type OG_SXT_NUM, unused) */
  OG_SX_DTYPE,     /* a dtype name, i = og_dtype: attr(t) == int32 (type
                      OG_SXT_NUM, unused) */
  /* inputs: index = the op's input index */
  OG_SX_INPUT,     /* shape of input index (a list input: its merge) */
  OG_SX_INPUT_AT,  /* x[A0]: tensor A0 of list input index (shape) */
  OG_SX_DIM,       /* dim(x, A0) of input index (number) */
  OG_SX_RANK,      /* rank(x) of input index (number) */
  OG_SX_LENGTH,    /* length(L) of list input index (number) */
  OG_SX_VALUE,     /* value(x), type shape or number; nargs 1: the tensor
                      A0 of list input x (value(x[i])) */
  OG_SX_VALUE_AT,  /* value(x)[A0] (number); nargs 2: value(x[A1])[A0] */
  OG_SX_VALUE_KNOWN, /* known(value(x)); nargs 1 as for OG_SX_VALUE */
  OG_SX_SUM_DIMS,  /* sum(L, A0) of list input index (number) */
  OG_SX_CONCAT,    /* concat(L, A0) of list input index (shape) */
  /* attrs: index = the op's attr index */
  OG_SX_ATTR,      /* attr(a): int -> number, bool -> condition, shape /
                      list(int) / tensor -> shape */
  OG_SX_ATTR_AT,   /* attr(a)[A0]: list(int) element or shape dim
                      (number); list(shape) element (shape) */
  OG_SX_ATTR_LENGTH, /* length(attr(a)) (number) */
  OG_SX_ATTR_IS,   /* attr(a) == A0 (op 'e') or != (op 'n'), A0 an
                      OG_SX_STRING or OG_SX_DTYPE (condition) */
  OG_SX_SIZE_OF,   /* size_of(t) of type attr index (number) */
  /* shapes */
  OG_SX_LIST,      /* [A...]: each a number */
  OG_SX_UNKNOWN_RANK, /* unknown(A0) */
  OG_SX_INDEX,     /* S[i]: A0 shape, A1 number (number) */
  OG_SX_SLICE,     /* S[a:b]: A0 shape, A1 lower, A2 upper; a bound left
                      out is OG_SX_UNKNOWN with i = 1 */
  OG_SX_CONCAT_SHAPES, /* A0 ++ A1 */
  OG_SX_SET,       /* set(S, i, D) */
  OG_SX_INSERT,    /* insert(S, i, D) */
  OG_SX_REMOVE,    /* remove(S, i) */
  OG_SX_REDUCE,    /* reduce(S, axes, keep): A1 an OG_SX_ATTR of a
                      list(int), an OG_SX_VALUE or a number */
  OG_SX_PERMUTE,   /* permute(S, perm): A1 an OG_SX_ATTR or OG_SX_VALUE */
  OG_SX_RANK_OF,   /* rank(S) of any shape A0 (number) */
  OG_SX_PRODUCT,   /* product(S) (number) */
  /* numbers */
  OG_SX_NEG,       /* -A0 */
  OG_SX_BINARY,    /* A0 op A1: + - * / % (numbers, result number),
                      == != < <= > >= (numbers, result condition),
                      && || (conditions) */
  OG_SX_CEIL_DIV,  /* ceil_div(A0, A1) */
  OG_SX_WINDOW,    /* window(D, size, stride, dilation, padding): A4 an
                      OG_SX_STRING or OG_SX_ATTR of a string attr (type
                      OG_SXT_NUM, unused) */
  OG_SX_BIT,       /* bit(n, i) (condition) */
  /* variadic forms, also the folds: merge, join (shapes or numbers),
   * broadcast (shapes), min, max (numbers), sum, product (folds only) */
  OG_SX_FOLD,      /* fold op `fold` over A... (no comprehension) */
  /* conditions */
  OG_SX_NOT,       /* !A0 */
  OG_SX_IN,        /* A0 in [A1, A2] */
  OG_SX_SAME,      /* same(A...) */
  OG_SX_KNOWN,     /* known(A0), A0 a shape or a number */
  /* any kind */
  OG_SX_COND,      /* A0 ? A1 : A2 */
  /* comprehensions: [body for k < N if C] (fold OG_FOLD_DIMS) and
   * F(body for k < N if C); index = the bound name's slot; A0 = N,
   * A1 = body, A2 = the if-condition (nargs 2 when absent) */
  OG_SX_COMPREHENSION,
  /* names */
  OG_SX_BOUND,     /* bound name in slot `index`: a comprehension's k or
                      the i of `shape out[i] = ...` (number, known) */
  OG_SX_LET,       /* let `index` of the op, called with A... */
  OG_SX_PARAM,     /* parameter `index` of the let being defined */
  /* version 1, until sema and the code generator move to OG_SX_FOLD */
  OG_SX_MERGE,     /* merge(inputs A... as OG_SX_INPUT) */
  OG_SX_BROADCAST, /* broadcast(A...) */
} og_sexpr_kind;

typedef enum og_fold {
  OG_FOLD_NONE,
  OG_FOLD_DIMS,      /* [D for k < N]: a shape */
  OG_FOLD_SUM,       /* numbers */
  OG_FOLD_PRODUCT,
  OG_FOLD_MIN,
  OG_FOLD_MAX,
  OG_FOLD_MERGE,     /* numbers or shapes (the node's type says) */
  OG_FOLD_JOIN,
  OG_FOLD_BROADCAST, /* shapes */
  OG_FOLD_ALL,       /* conditions */
  OG_FOLD_ANY,
} og_fold;

typedef struct og_sexpr {
  og_sexpr_kind kind;
  og_sx_type type;
  int op; /* OG_SX_BINARY, OG_SX_ATTR_IS: '+' '-' '*' '/' '%' '<' '>',
            'e' ==, 'n' !=, 'l' <=, 'g' >=, '&' &&, '|' || (og_ast_binop) */
  og_fold fold;    /* OG_SX_FOLD, OG_SX_COMPREHENSION */
  int64_t i;
  const char *s;   /* OG_SX_STRING */
  size_t index;
  size_t nargs;
  struct og_sexpr *args;
  const char *text; /* the source text of this node, for messages */
  og_srcpos pos;
} og_sexpr;

/* `let name(params) = body;` */
typedef struct og_shape_let {
  const char *name;
  size_t nparams;
  og_sexpr body;
  og_srcpos pos;
} og_shape_let;

typedef struct og_shape_rule {
  bool is_require;   /* require COND; otherwise shape OUTPUT = EXPR */
  size_t output;     /* index of the output for shape rules */
  bool per_tensor;   /* shape out[i] = ...: `i` is bound slot `bound` */
  size_t bound;
  og_sexpr expr;
  og_srcpos pos;
} og_shape_rule;

typedef struct og_op {
  const char *name;
  const char *summary, *description; /* "" when undocumented */
  const char *package;               /* C prefix of generated names */
  og_srcpos pos;                     /* of the op's name */
  og_arg *inputs, *outputs;
  size_t ninputs, noutputs;
  og_attr *attrs;
  size_t nattrs;
  bool is_stateful, is_commutative, is_aggregate;
  bool allows_uninitialized_input;
  bool is_distributed_communication; /* TensorFlow OpDef flag */
  bool deprecated;
  int32_t deprecation_version;
  const char *deprecation_explanation;
  og_shape_rule *shape_rules; /* in source order */
  size_t nshape_rules;
  og_shape_let *shape_lets;   /* OG_SX_LET's index: in source order */
  size_t nshape_lets;
  size_t nbound; /* bound-name slots of the rules and lets (see og_sexpr) */
  const char *shape_fn; /* NULL unless `shape_fn NAME;` */
  /* Attr name -> index (og_op_index_attrs, once the attrs are final;
   * og_compile and og_dump_read build it), so that lookups by name stay
   * linear overall for ops with thousands of attrs; keys NULL: not
   * built, og_op_find_attr searches. */
  og_strmap attr_index;
  og_srcpos shape_fn_pos; /* of NAME in `shape_fn NAME;` */
} og_op;

/* A spec file of the run, with or without ops. */
typedef struct og_model_file {
  const char *path;
  const char *package; /* C prefix of its generated names */
  /* The name in the statement that set the prefix (`c_prefix`, else
   * `package`); line 0 when the file has neither. */
  og_srcpos package_pos;
  bool c_prefix;       /* the prefix is a `c_prefix` statement's */
  bool prefix_strip;   /* `c_prefix NAME strip;` */
} og_model_file;

typedef struct og_model {
  og_arena arena; /* owns the ops and everything they point to */
  og_op **ops;    /* sorted by name; the array itself is malloc'd */
  size_t nops;
  og_model_file *files; /* in command-line order (arena); none when read
                           from a dump */
  size_t nfiles;
} og_model;

og_model *og_model_new(void);
void og_model_free(og_model *m);

const og_op *og_model_find(const og_model *m, const char *name);
const og_attr *og_op_find_attr(const og_op *op, const char *name);
/* Builds op->attr_index from op->attrs (the first of a name wins). */
void og_op_index_attrs(og_arena *arena, og_op *op);
/* Sorts m->ops by name (byte order). */
void og_model_sort(og_model *m);

/* Deep equality of the OpDef fields, what the dump round trip and the
 * corpus tests assert. Not compared: source positions, package, shape
 * rules and shape_fn (the dump does not carry them), and the derived
 * `inferred` and `allowed_types`. */
bool og_value_equal(const og_value *a, const og_value *b);
bool og_op_equal(const og_op *a, const og_op *b);

#endif
