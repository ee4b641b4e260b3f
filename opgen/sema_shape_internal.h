/* Shape statements, version 2 (op-language.md, "The full expression
 * language"): the state shared by the files that resolve them. An
 * expression is resolved against what it must be (a shape, a number, a
 * condition, or any of them when nothing around it says). */
#ifndef OPGEN_SEMA_SHAPE_INTERNAL_H
#define OPGEN_SEMA_SHAPE_INTERNAL_H

#include "sema_internal.h"

/* What an expression must be: an og_sx_type, or SX_ANY where its own
 * form decides (a let's body, the branches of ?: there). */
enum { SX_ANY = 3 };

/* A bound name in scope: a comprehension's k, the i of shape out[i]. */
typedef struct sx_bound {
  const char *name;
  size_t slot;
} sx_bound;

/* A let of the op, declared or not yet reached. */
typedef struct sx_let {
  const og_ast_item *item;
  bool defined; /* its statement has been read: later ones may use it */
  bool bad;     /* its body was reported: uses stay quiet */
  size_t index; /* in op->shape_lets, once defined */
  og_sx_type type;
} sx_let;

typedef struct og_sx {
  og_sema_op *s;
  og_arena *arena;
  sx_let *lets; /* every let of the op, in source order */
  size_t nlets;
  const og_ast_item *let; /* the let being defined, or NULL */
  sx_bound *bound;        /* innermost last */
  size_t nbound, bound_cap;
} og_sx;

/* sema_shape_expr.c: resolves `e` into `out` as `want`; false after
 * reporting. */
bool og_sx_resolve(og_sx *x, const og_ast_expr *e, int want, og_sexpr *out);
/* The kind `e` has by its own form, or SX_ANY (a `?`, a name not
 * known). A value(x) is a shape here. */
int og_sx_hint(og_sx *x, const og_ast_expr *e);
/* Allocates out->args for n operands. */
void og_sx_args(og_sx *x, og_sexpr *out, size_t n);
/* "number", "shape", "condition". */
const char *og_sx_type_name(int t);
/* The source text of loc, for messages and the model. */
const char *og_sx_text(og_sx *x, og_loc loc);
/* "'dim(x, 0)'", shortened past 60 bytes. */
const char *og_sx_quote(og_sx *x, og_loc loc);

/* sema_shape_names.c */
long og_sx_find_bound(const og_sx *x, const char *name);
long og_sx_find_param(const og_sx *x, const char *name);
/* The let named `name`, defined or not; NULL if none. */
sx_let *og_sx_find_let(og_sx *x, const char *name);
bool og_sx_is_form(const char *name);
/* Checks a new let, parameter or bound name; false after reporting. */
bool og_sx_check_new_name(og_sx *x, const char *name, og_loc loc,
                          const char *what);
/* Pushes a bound name (checked first) into a new slot; false after
 * reporting. */
bool og_sx_push_bound(og_sx *x, const char *name, og_loc loc, size_t *slot);
void og_sx_pop_bound(og_sx *x);
/* "; did you mean 'x'?" among the names an expression may use. */
const char *og_sx_name_hint(og_sx *x, struct og_suggest *g, const char *name,
                            bool calls);
/* Reports a name used where it is not known (before its let, an attr
 * written bare, nothing at all). */
bool og_sx_unknown_name(og_sx *x, const og_ast_expr *e, bool call);

/* sema_shape_forms.c: name(args) of a form; false after reporting. */
bool og_sx_form(og_sx *x, const og_ast_expr *e, int want, og_sexpr *out);
int og_sx_form_hint(og_sx *x, const og_ast_expr *e);
/* Adds the form names to g (for "did you mean"). */
void og_sx_suggest_forms(struct og_suggest *g);

/* A form's resolver: argv holds its operands (their count checked). */
typedef bool form_fn(og_sx *x, const og_ast_expr *e,
                     const og_ast_expr *const *argv, int want,
                     og_sexpr *out);
/* sema_shape_inputs.c */
form_fn og_sx_form_dim, og_sx_form_rank, og_sx_form_length, og_sx_form_value,
    og_sx_form_sum, og_sx_form_concat, og_sx_form_known;
/* x[i] of a list input, attr(a)[i], value(x)[i]; *handled false for an
 * ordinary S[i]. */
bool og_sx_index_form(og_sx *x, const og_ast_expr *e, int want,
                      og_sexpr *out, bool *handled);
/* sema_shape_attr.c */
form_fn og_sx_form_attr, og_sx_form_size_of, og_sx_form_window,
    og_sx_form_reduce, og_sx_form_permute;
int og_sx_attr_hint(og_sx *x, const og_ast_expr *e);
/* attr(a) OP lit, a a string or type attr: OG_SX_ATTR_IS. */
bool og_sx_attr_is(og_sx *x, const og_ast_expr *e, long attr,
                   const og_ast_expr *lit, og_sexpr *out);
bool og_sx_attr_index(og_sx *x, const og_ast_expr *e, og_sexpr *out);
/* Where integers are read: attr(l) of a list(int), value(x), or a let
 * naming one, written out; *handled false: an ordinary number. */
bool og_sx_integers(og_sx *x, const og_ast_expr *a, bool lists,
                    og_sexpr *out, bool *handled);
/* attr(a) as the operand of a form: the attr's index, or -1 after
 * reporting. */
long og_sx_attr_arg(og_sx *x, const og_ast_expr *e);
/* The list input `e` names (a bare name), or -1 without reporting. */
long og_sx_list_input(og_sx *x, const og_ast_expr *e);
bool og_sx_is_list_arg(const og_arg *a);

/* sema_shape_fold.c: comprehensions and folds. */
bool og_sx_comprehension(og_sx *x, const og_ast_expr *e, int want,
                         og_sexpr *out);
int og_sx_comprehension_hint(og_sx *x, const og_ast_expr *e);

/* sema_shape_check.c: statements that can never hold. */
/* A literal index `i` of a literal shape `s` out of range (insert:
 * [-n-1, n]); false after reporting. */
bool og_sx_check_axis(og_sx *x, const og_sexpr *s, const og_sexpr *i,
                      bool insert);
/* A literal index that is negative where it may not be. */
bool og_sx_check_nonneg(og_sx *x, const og_sexpr *i, const char *what);
/* A literal that must be at least `min` (a divisor, a stride). */
bool og_sx_check_min(og_sx *x, const og_sexpr *v, int64_t min,
                     const char *what);

#endif
