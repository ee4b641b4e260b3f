/* The shape-statement compiler's state, shared by emit_c_shape*.c.
 *
 * Each expression compiles to C statements on the runtime's expression
 * API (opr/shape_expr.h) that leave its value in a temporary (opr_num
 * n0, opr_cond b0, opr_shape sh0, ...) or an expression of temporaries;
 * sx_expr returns that C expression. Temporaries are taken in order and
 * given back once their parent has used them, so a statement needs about
 * as many as its expression is deep; all are declared at the top of the
 * function. A call that fails goes to the current failure: `return s;`
 * at the top, `goto doneN;` inside an undecided `?:` branch, whose error
 * is kept apart until both branches are known. docs/generated-code.md,
 * "How statements compile", shows the result. */
#ifndef OPGEN_EMIT_C_SHAPE_GEN_H
#define OPGEN_EMIT_C_SHAPE_GEN_H

#include "emit_c_internal.h"

/* Where a failing call's status goes. */
typedef struct sx_fail {
  const char *status; /* the variable it is stored in */
  const char *label;  /* NULL: returned */
  bool used;
} sx_fail;

/* How far a value read once has been read in the code written so far:
 * not yet; for sure (read where the code always runs: later uses just
 * name the local); or maybe (first read in a branch or a loop: each use
 * reads it unless its flag, inset0 or letset0, says it is there). */
typedef enum sx_once {
  SX_ONCE_NO,
  SX_ONCE_DONE,
  SX_ONCE_FLAG,
} sx_once;

typedef struct sx_gen {
  const og_c_file *f;
  const og_op *op;
  const og_shape_let *let; /* the let being compiled, or NULL */
  og_writer *w;            /* the body */
  og_writer *statics;      /* static arrays, declared first */
  size_t next[OG_CN_LOCALS]; /* numbered temporaries in use */
  size_t max[OG_CN_LOCALS];  /* the most in use at once */
  size_t *len[OG_CN_LOCALS]; /* arrays: the longest in each slot */
  size_t cap[OG_CN_LOCALS];
  bool *bound;             /* [op->nbound]: slots used here */
  /* Values read once per function, each in its own local: input shapes
   * (in0, [op->ninputs]) and lets without parameters (let0,
   * [op->nshape_lets]), which cannot differ from one use to the next. */
  sx_once *input_once, *let_once;
  bool *input_flag, *let_flag; /* their flags are used */
  /* Likewise bool attrs read as conditions and string attrs read as
   * text (av0, [op->nattrs]); attr_text: which ones are text. */
  sx_once *attr_once;
  bool *attr_flag, *attr_text;
  /* An op with let functions keeps those values, and their flags, in one
   * struct (<op>_shape_values) that the shape function owns and passes
   * to every let function, so each is read once per inference wherever
   * it is first needed: vals is then "l." or "l->" (NULL: locals),
   * vals_arg "&l" or "l". */
  const char *vals, *vals_arg;
  bool vals_used;
  /* [op->nbound]: 1 + the input x whose rank a comprehension over the
   * slot counts to (`k < rank(x)`), while its body compiles; else 0. */
  size_t *rank_of;
  int depth;               /* branches and loops around the code now */
  size_t labels, whats;    /* numbered once per function */
  sx_fail *fail;
  bool status_used;
  bool ctx_used;
  /* The index constants (DEMO_PAD_INPUT_PADDINGS, ...). */
  const char **attr_ix, **in_ix, **out_ix;
} sx_gen;

typedef struct sx_mark {
  size_t next[OG_CN_LOCALS];
} sx_mark;

/* ---- temporaries and lines (emit_c_shape_emit.c) ---- */

sx_mark sx_mark_get(const sx_gen *g);
void sx_release(sx_gen *g, sx_mark m);
const char *sx_temp(sx_gen *g, og_cn_local kind);
/* An array temporary of `len` elements (OG_CN_L_NUMS, OG_CN_L_SHAPES). */
const char *sx_array(sx_gen *g, og_cn_local kind, size_t len);
const char *sx_name(const sx_gen *g, og_cn_local kind, size_t n);
const char *sx_bound(sx_gen *g, size_t slot);
/* The context parameter, `c`. */
const char *sx_ctx(sx_gen *g);
/* The temporary family of a node's type. */
og_cn_local sx_kind(og_sx_type t);
/* Gives back the temporaries from `m` on, then takes one of `kind`: the
 * result of a node, written after its operands are used. */
const char *sx_result(sx_gen *g, sx_mark m, og_cn_local kind);
const char *sx_printf(const sx_gen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sx_line(sx_gen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* `if ((s = fn(c, args...))) <fail>`; args end with NULL. */
void sx_call(sx_gen *g, const char *fn, ...);
void sx_call_n(sx_gen *g, const char *fn, const char *const *args, size_t n);
/* `if ((s = fn(args...))) <fail>`, no context argument added. */
void sx_check_call(sx_gen *g, const char *fn, const char **args, size_t n);
/* `if ((s = <status expression>)) <fail>`. */
void sx_check(sx_gen *g, const char *status);
/* The C string literal of a node's source text. */
const char *sx_what(const sx_gen *g, const og_sexpr *e);
const char *sx_string(const sx_gen *g, const char *s);
/* The declarations of the temporaries used, into w. */
void sx_declare(og_writer *w, const sx_gen *g);

/* The C type of an attr read once: a string's text or a bool's opr_cond. */
const char *sx_attr_type(bool text);
/* The struct of values read once, as an argument (marks it used). */
const char *sx_vals_arg(sx_gen *g);
/* The local of a value read once (`kind` OG_CN_L_INPUT, OG_CN_L_LET or
 * OG_CN_L_ATTR, `index`), read by `fn(c, args..., &local)` where needed;
 * returns it. */
const char *sx_read_once(sx_gen *g, og_cn_local kind, size_t index,
                         const char *fn, const char *const *args, size_t n);

/* ---- expressions (emit_c_shape_expr.c, emit_c_shape_flow.c) ---- */

/* Compiles `e`; returns a C expression of its value (opr_num, opr_cond
 * or opr_shape as e->type says). */
const char *sx_expr(sx_gen *g, const og_sexpr *e);
/* The value in a temporary of its own (for code that updates it). */
const char *sx_expr_temp(sx_gen *g, const og_sexpr *e);
/* Lists of integers (reduce's axes, permute's perm) into an opr_sx_ints. */
const char *sx_ints(sx_gen *g, const og_sexpr *e);
/* Where integers are read, a let without parameters stands for its
 * definition written out: the attr(l) or value(x) node it names, else e. */
const og_sexpr *sx_ints_source(const og_op *op, const og_sexpr *e);
/* C ? X : Y, && and ||, comprehensions, folds, let calls. */
const char *sx_cond_expr(sx_gen *g, const og_sexpr *e);
const char *sx_logic(sx_gen *g, const og_sexpr *e);
const char *sx_comprehension(sx_gen *g, const og_sexpr *e);
const char *sx_fold(sx_gen *g, const og_sexpr *e);
const char *sx_let_call(sx_gen *g, const og_sexpr *e);

/* ---- source text (emit_c_shape_text.c) ---- */

/* A node's source text: the model's, else rendered (version-1 models
 * carry none). */
const char *sx_text(const og_c_file *f, const og_op *op, const og_sexpr *e);
/* The name sema gave bound slot `slot` or let parameter `param` (their
 * nodes' text), for comments; `fallback` when no node says. */
const char *sx_bound_name(const og_sexpr *e, size_t slot, const char *fallback);
const char *sx_param_name(const og_sexpr *e, size_t param,
                          const char *fallback);

#endif
