/* Comprehensions [D for k < N if C] and folds F(E for k < N if C): the
 * bound name k gets a slot of its own, live in the body and the `if`. */
#include "sema_shape_internal.h"

#include "suggest.h"

#include <string.h>

static const struct {
  const char *name;
  og_fold fold;
  int type; /* of the elements and the result; SX_ANY: shape or number */
} folds[] = {
    {"sum", OG_FOLD_SUM, OG_SXT_NUM},
    {"product", OG_FOLD_PRODUCT, OG_SXT_NUM},
    {"min", OG_FOLD_MIN, OG_SXT_NUM},
    {"max", OG_FOLD_MAX, OG_SXT_NUM},
    {"merge", OG_FOLD_MERGE, SX_ANY},
    {"join", OG_FOLD_JOIN, SX_ANY},
    {"broadcast", OG_FOLD_BROADCAST, OG_SXT_SHAPE},
    {"all", OG_FOLD_ALL, OG_SXT_COND},
    {"any", OG_FOLD_ANY, OG_SXT_COND},
};

static long find_fold(const char *name) {
  for (size_t i = 0; i < sizeof folds / sizeof *folds; i++)
    if (strcmp(folds[i].name, name) == 0) return (long)i;
  return -1;
}

/* The kind of the body, with k in scope for names. */
static int body_hint(og_sx *x, const og_ast_expr *e) {
  sx_bound *saved = x->bound;
  size_t n = x->nbound;
  sx_bound tmp[1] = {{e->bound, 0}};
  /* a scratch scope: k is a number while the body is looked at */
  sx_bound *scope = og_arena_array(x->arena, n + 1, sizeof *scope);
  if (n) memcpy(scope, saved, n * sizeof *scope);
  scope[n] = tmp[0];
  x->bound = scope, x->nbound = n + 1;
  int t = og_sx_hint(x, e->lhs);
  x->bound = saved, x->nbound = n;
  return t;
}

int og_sx_comprehension_hint(og_sx *x, const og_ast_expr *e) {
  if (!e->name) return OG_SXT_SHAPE;
  long f = find_fold(e->name);
  if (f < 0) return SX_ANY;
  return folds[f].type != SX_ANY ? folds[f].type : body_hint(x, e);
}

static bool unknown_fold(og_sx *x, const og_ast_expr *e) {
  og_suggest g;
  og_suggest_init(&g, e->name);
  for (size_t i = 0; i < sizeof folds / sizeof *folds; i++)
    og_suggest_add(&g, folds[i].name);
  og_error_at(x->s->diag, e->name_loc,
              "'%s' is no fold: a comprehension folds with sum, product, "
              "min, max, merge, join, broadcast, all or any%s",
              e->name, og_suggest_hint(&g));
  return false;
}

bool og_sx_comprehension(og_sx *x, const og_ast_expr *e, int want,
                         og_sexpr *out) {
  int elem = OG_SXT_NUM;
  out->fold = OG_FOLD_DIMS, out->type = OG_SXT_SHAPE;
  if (e->name) {
    long f = find_fold(e->name);
    if (f < 0) return unknown_fold(x, e);
    out->fold = folds[f].fold;
    elem = folds[f].type != SX_ANY ? folds[f].type
           : want != SX_ANY ? want : body_hint(x, e);
    if (elem == OG_SXT_COND && folds[f].type == SX_ANY) {
      og_error_at(x->s->diag, e->loc,
                  "%s() folds shapes or numbers, not conditions", e->name);
      return false;
    }
    out->type = (og_sx_type)elem;
  }
  out->kind = OG_SX_COMPREHENSION;
  og_sx_args(x, out, e->third ? 3 : 2);
  bool ok = og_sx_resolve(x, e->rhs, OG_SXT_NUM, &out->args[0]) &&
            og_sx_check_min(x, &out->args[0], 0, "a comprehension's N");
  size_t slot;
  if (!og_sx_push_bound(x, e->bound, e->bound_loc, &slot)) return false;
  out->index = slot;
  ok = og_sx_resolve(x, e->lhs, elem, &out->args[1]) && ok;
  if (e->third)
    ok = og_sx_resolve(x, e->third, OG_SXT_COND, &out->args[2]) && ok;
  og_sx_pop_bound(x);
  return ok;
}
