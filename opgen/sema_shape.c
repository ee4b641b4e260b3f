/* Shape statements (op-language.md, "Shape inference", version 2): the
 * statements of an op in source order, each expression resolved by
 * sema_shape_expr.c into the model's og_sexpr; lets and bound names get
 * their indexes and slots here. */
#include "sema_shape_internal.h"

#include "suggest.h"

#include <stdlib.h>
#include <string.h>

static void count_items(const og_ast_op *ast, size_t *rules, size_t *lets) {
  *rules = *lets = 0;
  for (const og_ast_item *it = ast->items; it; it = it->next) {
    *rules += it->kind == OG_ITEM_SHAPE || it->kind == OG_ITEM_REQUIRE;
    *lets += it->kind == OG_ITEM_LET;
  }
}

/* `shape out = E;` or `shape out[i] = E;`: the output, once. */
static bool shape_target(og_sx *x, const og_ast_item *it,
                         const og_ast_item **by_output, og_shape_rule *rule) {
  og_sema_op *s = x->s;
  long out = og_sema_find_output(s, it->name);
  if (out < 0) {
    og_suggest g;
    og_error_at(s->diag, it->name_loc, "'%s' is not an output of op '%s'%s",
                it->name, s->op->name,
                og_sema_hint(s, &g, it->name, OG_SG_OUTPUTS));
    return false;
  }
  if (by_output[out]) {
    og_error_at(s->diag, it->name_loc, "output '%s' already has a shape",
                it->name);
    og_note_at(s->diag, by_output[out]->loc, "its shape is first given here");
    return false;
  }
  by_output[out] = it;
  rule->output = (size_t)out;
  if (!it->index_name) return true;
  if (!og_sx_is_list_arg(&s->op->outputs[out])) {
    og_error_at(s->diag, it->index_loc,
                "output '%s' is a single tensor: 'shape %s[%s]' is for list "
                "outputs (write 'shape %s = ...')",
                it->name, it->name, it->index_name, it->name);
    return false;
  }
  rule->per_tensor = true;
  return og_sx_push_bound(x, it->index_name, it->index_loc, &rule->bound);
}

static void shape_rule(og_sx *x, const og_ast_item *it,
                       const og_ast_item **by_output) {
  og_op *op = x->s->op;
  og_shape_rule *rule = &op->shape_rules[op->nshape_rules];
  /* The slot of a statement that failed is reused: start clean. */
  memset(rule, 0, sizeof *rule);
  rule->pos = og_sema_pos(x->s, it->loc);
  if (it->kind == OG_ITEM_REQUIRE) {
    rule->is_require = true;
    if (og_sx_resolve(x, it->expr, OG_SXT_COND, &rule->expr))
      op->nshape_rules++;
    return;
  }
  if (!shape_target(x, it, by_output, rule)) return;
  bool ok = og_sx_resolve(x, it->expr, OG_SXT_SHAPE, &rule->expr);
  if (rule->per_tensor) og_sx_pop_bound(x);
  if (ok) op->nshape_rules++;
}

/* `let NAME(p, ...) = E;`: usable by the statements after it. */
static void let_statement(og_sx *x, sx_let *let) {
  const og_ast_item *it = let->item;
  og_op *op = x->s->op;
  bool ok = og_sx_check_new_name(x, it->name, it->name_loc, "let");
  x->let = it;
  og_shape_let *l = &op->shape_lets[op->nshape_lets];
  l->name = og_arena_strdup(x->arena, it->name);
  l->pos = og_sema_pos(x->s, it->name_loc);
  for (const og_ast_param *p = it->params; p; p = p->next, l->nparams++)
    ok = og_sx_check_new_name(x, p->name, p->loc, "parameter") && ok;
  bool body = og_sx_resolve(x, it->expr, SX_ANY, &l->body);
  x->let = NULL;
  let->defined = true;
  let->index = op->nshape_lets++;
  let->bad = !ok || !body;
  let->type = body ? l->body.type : OG_SXT_SHAPE;
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
  size_t nrules, nlets;
  count_items(s->ast, &nrules, &nlets);
  op->shape_rules = og_arena_array(s->arena, nrules, sizeof *op->shape_rules);
  op->shape_lets = og_arena_array(s->arena, nlets, sizeof *op->shape_lets);
  og_sx x = {.s = s, .arena = s->arena};
  x.lets = og_arena_array(s->arena, nlets, sizeof *x.lets);
  for (const og_ast_item *it = s->ast->items; it; it = it->next)
    if (it->kind == OG_ITEM_LET) x.lets[x.nlets++].item = it;
  const og_ast_item **by_output =
      og_arena_array(s->arena, op->noutputs, sizeof *by_output);
  const og_ast_item *fn = NULL, *declarative = NULL;
  size_t next_let = 0;
  for (const og_ast_item *it = s->ast->items; it; it = it->next) {
    if (it->kind == OG_ITEM_SHAPE_FN) shape_fn(s, it, &fn);
    if (it->kind != OG_ITEM_SHAPE && it->kind != OG_ITEM_REQUIRE &&
        it->kind != OG_ITEM_LET)
      continue;
    if (!declarative) declarative = it;
    if (it->kind == OG_ITEM_LET) let_statement(&x, &x.lets[next_let++]);
    else shape_rule(&x, it, by_output);
  }
  free(x.bound);
  if (fn && declarative) {
    og_error_at(s->diag, declarative->loc,
                "op '%s' has both shape_fn and shape statements; shape_fn "
                "replaces them, so keep one or the other",
                op->name);
    og_note_at(s->diag, fn->loc, "shape_fn is here");
  }
}
