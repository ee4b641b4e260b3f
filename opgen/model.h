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

/* Shape rules, resolved: names became indexes. Compiled by a later stage;
 * validated here. */
typedef enum og_sexpr_kind {
  OG_SX_INT,       /* i */
  OG_SX_UNKNOWN,   /* ? */
  OG_SX_INPUT,     /* the shape of input `index` */
  OG_SX_DIM,       /* dim(input `index`, args[0]) */
  OG_SX_RANK,      /* rank(input `index`) */
  OG_SX_ATTR,      /* the value of attr `index` (shape or int) */
  OG_SX_LIST,      /* [args...] */
  OG_SX_MERGE,     /* merge(inputs `args` as OG_SX_INPUT) */
  OG_SX_BROADCAST, /* broadcast(args) */
  OG_SX_NEG,       /* -args[0] */
  OG_SX_BINARY,    /* args[0] op args[1]; op is an og_ast_binop */
  OG_SX_IN,        /* args[0] in [args[1], args[2]] */
  OG_SX_SAME,      /* same(args...) */
} og_sexpr_kind;

typedef struct og_sexpr {
  og_sexpr_kind kind;
  int op; /* '+' '-' '*' '/' '<' '>', 'e' ==, 'n' !=, 'l' <=, 'g' >= */
  int64_t i;
  size_t index;
  size_t nargs;
  struct og_sexpr *args;
  og_srcpos pos;
} og_sexpr;

typedef struct og_shape_rule {
  bool is_require;   /* require COND; otherwise shape OUTPUT = EXPR */
  size_t output;     /* index of the output for shape rules */
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
  og_shape_rule *shape_rules;
  size_t nshape_rules;
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
