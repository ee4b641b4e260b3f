/* spec_synth: shape statements of version 2 (op-language.md, "The full
 * expression language"): `require`, `let` with and without parameters,
 * `shape out = ...` and `shape out[i] = ...`, with expressions of every
 * form drawn by kind (shape, number, condition) over the op's inputs and
 * attrs. Most are well-kinded; a statement in "bad" mode now and then
 * puts a wrong kind, an unknown name, a wrong argument count, a shadowing
 * bound name or a use before the `let`, which sema must reject. */
#ifndef OPGEN_FUZZ_SPEC_SYNTH_V2_H
#define OPGEN_FUZZ_SPEC_SYNTH_V2_H

#include "spec_synth_attr.h"

typedef enum v2_kind { V2_SHAPE, V2_NUM, V2_COND } v2_kind;

#define V2_MAX_LETS 8
#define V2_MAX_BOUND 8

typedef struct v2_let {
  char name[24];
  v2_kind kind;
  unsigned nparams;
} v2_let;

/* The generator's state for one op's statements. */
typedef struct v2_gen {
  fz_rng *r;
  const fz_op *op;
  fz_buf *b;
  char bound[V2_MAX_BOUND][24]; /* k of comprehensions, let parameters */
  unsigned nbound;
  const char *out_index; /* the i of `shape out[i]`, or NULL */
  v2_let lets[V2_MAX_LETS];
  unsigned nlets;
  unsigned fresh;
  unsigned budget; /* composite nodes left in this statement */
  bool bad;        /* this statement may be ill-kinded */
  bool no_unknown; /* no bare `?` (a let's body, where nothing fixes it) */
} v2_gen;

/* The op's statements, into `b`. */
void fz_put_shape_v2(fz_rng *r, const fz_op *op, fz_buf *b);

/* Expressions of each kind (spec_synth_v2_expr.c), nesting up to
 * `depth` composite levels. */
void v2_shape(v2_gen *g, int depth);
void v2_num(v2_gen *g, int depth);
void v2_cond(v2_gen *g, int depth);

/* Shared helpers (spec_synth_v2.c). */
const char *v2_input(v2_gen *g);         /* any input, or NULL */
const char *v2_list_input(v2_gen *g);    /* a list input, or NULL */
/* Writes what value() reads: an int32/int64 input, or L[i] of a list of
 * them (in bad mode now and then any input); false when there is none. */
bool v2_value_arg(v2_gen *g);
/* A non-negative index: a literal or a bound name. */
void v2_nonneg_index(v2_gen *g);
/* A non-list, non-enum attr of `kind` (list: a list one), or NULL. */
const char *v2_attr(v2_gen *g, int kind, bool list);
const char *v2_string_attr(v2_gen *g); /* enum or not, not a list */
/* A let of `kind` in scope, or NULL. */
const v2_let *v2_find_let(v2_gen *g, v2_kind kind);
/* Writes `[D for k < N if C]`'s tail " for k < N if C" around a body of
 * `kind` (a fresh k in scope for the body and the condition). */
void v2_comprehension(v2_gen *g, v2_kind kind, int depth);
/* True (and counts a node) when a composite may be drawn. */
bool v2_nest(v2_gen *g, int depth);
/* In bad mode, now and then: writes an expression of another kind than
 * `kind` or a name that is nowhere, and returns true. */
bool v2_fault(v2_gen *g, v2_kind kind);
/* A let call or name of `kind` (arguments of the right count unless
 * bad); false when there is none. */
bool v2_let_use(v2_gen *g, v2_kind kind, int depth);

#endif
