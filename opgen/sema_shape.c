/* Shape statements: names resolved to input, output and attr indexes and
 * every expression checked to be a shape, a dim or a condition. */
#include "sema_internal.h"

#include "suggest.h"

#include <inttypes.h>
#include <string.h>

typedef enum expect { EXPECT_SHAPE, EXPECT_DIM, EXPECT_COND } expect;

static bool resolve(og_sema_op *s, const og_ast_expr *e, expect want,
                    og_sexpr *out);


/* What an expression is, in words: the "found ..." of a message. */
static const char *expr_text(og_sema_op *s, const og_ast_expr *e) {
  switch (e->kind) {
  case OG_EX_INT: return og_arena_printf(s->arena, "integer %" PRId64, e->i);
  case OG_EX_UNKNOWN: return "'?'";
  case OG_EX_NAME: return og_arena_printf(s->arena, "'%s'", e->name);
  case OG_EX_CALL: return og_arena_printf(s->arena, "%s(...)", e->name);
  case OG_EX_LIST: return "a list [...]";
  case OG_EX_BINARY:
    return strchr("+-*/", (int)e->op) ? "arithmetic" : "a comparison";
  case OG_EX_NEG: return "a negation";
  case OG_EX_IN: return "an 'in' test";
  }
  return "an expression";
}

static size_t count_args(const og_ast_expr *e) {
  size_t n = 0;
  for (const og_ast_expr *a = e->args; a; a = a->next) n++;
  return n;
}

static bool resolve_args(og_sema_op *s, const og_ast_expr *e, expect want,
                         og_sexpr *out) {
  out->nargs = count_args(e);
  out->args = og_arena_array(s->arena, out->nargs, sizeof *out->args);
  size_t i = 0;
  bool ok = true;
  for (const og_ast_expr *a = e->args; a; a = a->next)
    ok = resolve(s, a, want, &out->args[i++]) && ok;
  return ok;
}

static bool input_ref(og_sema_op *s, const og_ast_expr *e, og_sexpr *out) {
  if (e->kind != OG_EX_NAME) {
    og_error_at(s->diag, e->loc, "expected an input of op '%s', found %s",
                s->op->name, expr_text(s, e));
    return false;
  }
  long index = og_sema_find_input(s, e->name);
  if (index < 0) {
    og_suggest g;
    og_error_at(s->diag, e->loc, "'%s' is not an input of op '%s'%s", e->name,
                s->op->name, og_sema_hint(s, &g, e->name, OG_SG_INPUTS));
    return false;
  }
  out->kind = OG_SX_INPUT;
  out->index = (size_t)index;
  return true;
}

static bool wrong_arity(og_sema_op *s, const og_ast_expr *e, const char *form) {
  size_t n = count_args(e);
  og_error_at(s->diag, e->loc, "%s() takes %s, found %zu argument%s", e->name,
              form, n, n == 1 ? "" : "s");
  return false;
}

static bool attr_ref(og_sema_op *s, const og_ast_expr *e, expect want,
                     og_sexpr *out) {
  const og_ast_expr *a = e->args;
  if (count_args(e) != 1) return wrong_arity(s, e, "one attr name");
  if (a->kind != OG_EX_NAME) {
    og_error_at(s->diag, a->loc, "attr() takes the name of an attr, found %s",
                expr_text(s, a));
    return false;
  }
  long found = og_sema_find_attr(s, a->name);
  if (found < 0) {
    og_suggest g;
    og_error_at(s->diag, a->loc, "'%s' is not an attr of op '%s'%s", a->name,
                s->op->name, og_sema_hint(s, &g, a->name, OG_SG_ATTRS));
    return false;
  }
  const og_attr *attr = &s->op->attrs[found];
  if (s->attr_bad[found]) return false; /* its declaration was reported */
  og_attr_kind kind = want == EXPECT_SHAPE ? OG_ATTR_SHAPE : OG_ATTR_INT;
  if (attr->type.is_list || attr->type.kind != kind) {
    og_error_at(s->diag, a->loc, "attr '%s' has type %s, but %s is needed here",
                attr->name, og_attr_type_name(attr->type),
                want == EXPECT_SHAPE ? "a shape" : "an int");
    return false;
  }
  out->kind = OG_SX_ATTR;
  out->index = (size_t)found;
  return true;
}

static bool dim_call(og_sema_op *s, const og_ast_expr *e, og_sexpr *out) {
  bool is_dim = strcmp(e->name, "dim") == 0;
  size_t n = count_args(e);
  if (is_dim ? n != 2 : n != 1)
    return wrong_arity(s, e, is_dim ? "an input and a dimension index"
                                    : "one input");
  if (!input_ref(s, e->args, out)) return false;
  out->kind = is_dim ? OG_SX_DIM : OG_SX_RANK;
  if (!is_dim) return true;
  const og_ast_expr *k = e->args->next;
  bool neg = k->kind == OG_EX_NEG && k->lhs->kind == OG_EX_INT;
  if (k->kind != OG_EX_INT && !neg) {
    og_error_at(s->diag, k->loc,
                "the dimension index of dim() must be an integer literal, "
                "found %s",
                expr_text(s, k));
    return false;
  }
  out->i = neg ? -k->lhs->i : k->i;
  return true;
}

static const char *const shape_functions[] = {"merge", "broadcast", "attr",
                                              NULL};
static const char *const dim_functions[] = {"dim", "rank", "attr", NULL};

/* "; did you mean 'merge'?" for a misspelt function of `names`. */
static const char *function_hint(og_suggest *g, const char *name,
                                 const char *const *names) {
  og_suggest_init(g, name);
  for (; *names; names++) og_suggest_add(g, *names);
  return og_suggest_hint(g);
}

static bool shape_call(og_sema_op *s, const og_ast_expr *e, og_sexpr *out) {
  if (strcmp(e->name, "attr") == 0) return attr_ref(s, e, EXPECT_SHAPE, out);
  bool merge = strcmp(e->name, "merge") == 0;
  if (!merge && strcmp(e->name, "broadcast") != 0) {
    og_suggest g;
    og_error_at(s->diag, e->loc,
                "unknown shape function '%s' (expected merge, broadcast or "
                "attr)%s",
                e->name, function_hint(&g, e->name, shape_functions));
    return false;
  }
  if (count_args(e) < (merge ? 1u : 2u))
    return wrong_arity(s, e,
                       merge ? "one or more inputs" : "two or more shapes");
  out->kind = merge ? OG_SX_MERGE : OG_SX_BROADCAST;
  if (!merge) return resolve_args(s, e, EXPECT_SHAPE, out);
  /* merge() unifies the shapes of inputs (all tensors of a list input). */
  out->nargs = count_args(e);
  out->args = og_arena_array(s->arena, out->nargs, sizeof *out->args);
  bool ok = true;
  size_t i = 0;
  for (const og_ast_expr *a = e->args; a; a = a->next, i++) {
    out->args[i].pos = og_sema_pos(s, a->loc);
    ok = input_ref(s, a, &out->args[i]) && ok;
  }
  return ok;
}

static bool resolve_shape(og_sema_op *s, const og_ast_expr *e, og_sexpr *out) {
  switch (e->kind) {
  case OG_EX_NAME: return input_ref(s, e, out);
  case OG_EX_UNKNOWN: out->kind = OG_SX_UNKNOWN; return true;
  case OG_EX_LIST:
    out->kind = OG_SX_LIST;
    return resolve_args(s, e, EXPECT_DIM, out);
  case OG_EX_CALL: return shape_call(s, e, out);
  default:
    og_error_at(s->diag, e->loc,
                "expected a shape: an input, [dims], ?, merge(...), "
                "broadcast(...) or attr(...), found %s",
                expr_text(s, e));
    return false;
  }
}

static bool resolve_dim(og_sema_op *s, const og_ast_expr *e, og_sexpr *out) {
  switch (e->kind) {
  case OG_EX_INT: out->kind = OG_SX_INT; out->i = e->i; return true;
  case OG_EX_UNKNOWN: out->kind = OG_SX_UNKNOWN; return true;
  case OG_EX_CALL:
    if (strcmp(e->name, "attr") == 0) return attr_ref(s, e, EXPECT_DIM, out);
    if (strcmp(e->name, "dim") == 0 || strcmp(e->name, "rank") == 0)
      return dim_call(s, e, out);
    og_suggest g;
    og_error_at(s->diag, e->loc,
                "unknown dim function '%s' (expected dim, rank or attr)%s",
                e->name, function_hint(&g, e->name, dim_functions));
    return false;
  case OG_EX_NEG:
    out->kind = OG_SX_NEG;
    out->nargs = 1;
    out->args = og_arena_alloc(s->arena, sizeof *out->args);
    return resolve(s, e->lhs, EXPECT_DIM, out->args);
  case OG_EX_BINARY:
    if (strchr("+-*/", (int)e->op)) break;
    og_error_at(s->diag, e->loc,
                "expected a dimension, found a comparison (conditions "
                "belong in require)");
    return false;
  default:
    og_error_at(s->diag, e->loc,
                "expected a dimension: an integer, ?, dim(x, i), rank(x), "
                "attr(n) or arithmetic on them, found %s",
                expr_text(s, e));
    return false;
  }
  out->kind = OG_SX_BINARY;
  out->op = e->op;
  out->nargs = 2;
  out->args = og_arena_array(s->arena, 2, sizeof *out->args);
  bool ok = resolve(s, e->lhs, EXPECT_DIM, &out->args[0]);
  return resolve(s, e->rhs, EXPECT_DIM, &out->args[1]) && ok;
}

static bool resolve_cond(og_sema_op *s, const og_ast_expr *e, og_sexpr *out) {
  if (e->kind == OG_EX_CALL && strcmp(e->name, "same") == 0) {
    if (count_args(e) < 2) return wrong_arity(s, e, "two or more shapes");
    out->kind = OG_SX_SAME;
    return resolve_args(s, e, EXPECT_SHAPE, out);
  }
  bool compare = e->kind == OG_EX_BINARY && !strchr("+-*/", (int)e->op);
  if (!compare && e->kind != OG_EX_IN) {
    og_error_at(s->diag, e->loc,
                "expected a condition: a comparison of dims, x in [lo, hi], "
                "or same(a, b), found %s",
                expr_text(s, e));
    return false;
  }
  out->kind = compare ? OG_SX_BINARY : OG_SX_IN;
  out->op = e->op;
  out->nargs = compare ? 2 : 3;
  out->args = og_arena_array(s->arena, out->nargs, sizeof *out->args);
  bool ok = resolve(s, e->lhs, EXPECT_DIM, &out->args[0]);
  ok = resolve(s, e->rhs, EXPECT_DIM, &out->args[1]) && ok;
  if (!compare) ok = resolve(s, e->rhs->next, EXPECT_DIM, &out->args[2]) && ok;
  return ok;
}

static bool resolve(og_sema_op *s, const og_ast_expr *e, expect want,
                    og_sexpr *out) {
  out->pos = og_sema_pos(s, e->loc);
  switch (want) {
  case EXPECT_SHAPE: return resolve_shape(s, e, out);
  case EXPECT_DIM: return resolve_dim(s, e, out);
  case EXPECT_COND: return resolve_cond(s, e, out);
  }
  return false;
}

static size_t count_rules(const og_ast_op *ast) {
  size_t n = 0;
  for (const og_ast_item *it = ast->items; it; it = it->next)
    n += it->kind == OG_ITEM_SHAPE || it->kind == OG_ITEM_REQUIRE;
  return n;
}

static void shape_rule(og_sema_op *s, const og_ast_item *it,
                       const og_ast_item **by_output) {
  og_op *op = s->op;
  og_shape_rule *rule = &op->shape_rules[op->nshape_rules];
  rule->pos = og_sema_pos(s, it->loc);
  if (it->kind == OG_ITEM_REQUIRE) {
    rule->is_require = true;
    if (resolve(s, it->expr, EXPECT_COND, &rule->expr)) op->nshape_rules++;
    return;
  }
  long out = og_sema_find_output(s, it->name);
  if (out < 0) {
    og_suggest g;
    og_error_at(s->diag, it->name_loc, "'%s' is not an output of op '%s'%s",
                it->name, op->name,
                og_sema_hint(s, &g, it->name, OG_SG_OUTPUTS));
    return;
  }
  if (by_output[out]) {
    og_error_at(s->diag, it->name_loc, "output '%s' already has a shape",
                it->name);
    og_note_at(s->diag, by_output[out]->loc, "its shape is first given here");
    return;
  }
  by_output[out] = it;
  rule->output = (size_t)out;
  if (resolve(s, it->expr, EXPECT_SHAPE, &rule->expr)) op->nshape_rules++;
}

static void shape_fn(og_sema_op *s, const og_ast_item *it,
                     const og_ast_item **first) {
  if (*first) {
    og_error_at(s->diag, it->loc, "op '%s' has more than one shape_fn",
                s->op->name);
    og_note_at(s->diag, (*first)->loc, "first shape_fn is here");
    return;
  }
  *first = it;
  s->op->shape_fn = og_arena_strdup(s->arena, it->name);
  s->op->shape_fn_pos = og_sema_pos(s, it->name_loc);
}

void og_sema_shapes(og_sema_op *s) {
  og_op *op = s->op;
  op->shape_rules = og_arena_array(s->arena, count_rules(s->ast),
                                   sizeof *op->shape_rules);
  const og_ast_item **by_output =
      og_arena_array(s->arena, op->noutputs, sizeof *by_output);
  const og_ast_item *fn = NULL, *declarative = NULL;
  for (const og_ast_item *it = s->ast->items; it; it = it->next) {
    if (it->kind == OG_ITEM_SHAPE_FN) shape_fn(s, it, &fn);
    if (it->kind != OG_ITEM_SHAPE && it->kind != OG_ITEM_REQUIRE) continue;
    if (!declarative) declarative = it;
    shape_rule(s, it, by_output);
  }
  if (fn && declarative) {
    og_error_at(s->diag, declarative->loc,
                "op '%s' has both shape_fn and shape statements; shape_fn "
                "replaces them, so keep one or the other",
                op->name);
    og_note_at(s->diag, fn->loc, "shape_fn is here");
  }
}
