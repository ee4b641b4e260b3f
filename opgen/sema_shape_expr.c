/* Shape expressions: operators, names, indexing and the conditional
 * resolved into og_sexpr nodes of a known kind. The forms (name(...))
 * are in sema_shape_forms.c, comprehensions in sema_shape_fold.c. */
#include "sema_shape_internal.h"

#include "suggest.h"

#include <string.h>

const char *og_sx_type_name(int t) {
  switch (t) {
  case OG_SXT_SHAPE: return "shape";
  case OG_SXT_NUM: return "number";
  case OG_SXT_COND: return "condition";
  default: return "shape, number or condition";
  }
}

const char *og_sx_text(og_sx *x, og_loc loc) {
  const og_source *src = x->s->sources->items[loc.file];
  return og_arena_strndup(x->arena, src->text + loc.begin,
                          loc.end - loc.begin);
}

const char *og_sx_quote(og_sx *x, og_loc loc) {
  const og_source *src = x->s->sources->items[loc.file];
  uint32_t len = loc.end - loc.begin;
  if (len <= 60)
    return og_arena_printf(x->arena, "'%.*s'", (int)len,
                           src->text + loc.begin);
  return og_arena_printf(x->arena, "'%.*s...'", 57, src->text + loc.begin);
}

void og_sx_args(og_sx *x, og_sexpr *out, size_t n) {
  out->nargs = n;
  out->args = n ? og_arena_array(x->arena, n, sizeof *out->args) : NULL;
}

static bool is_arith(og_ast_binop op) {
  return op == OG_OP_ADD || op == OG_OP_SUB || op == OG_OP_MUL ||
         op == OG_OP_DIV || op == OG_OP_MOD;
}

static int binary_hint(const og_ast_expr *e) {
  if (is_arith(e->op)) return OG_SXT_NUM;
  return e->op == OG_OP_CONCAT ? OG_SXT_SHAPE : OG_SXT_COND;
}

static int name_hint(og_sx *x, const og_ast_expr *e) {
  if (og_sx_find_bound(x, e->name) >= 0 || og_sx_find_param(x, e->name) >= 0)
    return OG_SXT_NUM;
  sx_let *let = og_sx_find_let(x, e->name);
  if (let) return let->defined ? (int)let->type : SX_ANY;
  return og_sema_find_input(x->s, e->name) >= 0 ? OG_SXT_SHAPE : SX_ANY;
}

/* x[i] of a list input and attr(l)[i] of a list(shape) are shapes. */
static int index_hint(og_sx *x, const og_ast_expr *e) {
  const og_ast_expr *s = e->lhs;
  if (s->kind == OG_EX_NAME && og_sx_list_input(x, s) >= 0)
    return OG_SXT_SHAPE;
  if (s->kind == OG_EX_CALL && strcmp(s->name, "attr") == 0 && s->args &&
      s->args->kind == OG_EX_NAME) {
    long a = og_sema_find_attr(x->s, s->args->name);
    if (a >= 0 && x->s->op->attrs[a].type.kind == OG_ATTR_SHAPE &&
        x->s->op->attrs[a].type.is_list)
      return OG_SXT_SHAPE;
  }
  return OG_SXT_NUM;
}

int og_sx_hint(og_sx *x, const og_ast_expr *e) {
  switch (e->kind) {
  case OG_EX_INT: case OG_EX_NEG: return OG_SXT_NUM;
  case OG_EX_UNKNOWN: case OG_EX_STRING: return SX_ANY;
  case OG_EX_NAME: return name_hint(x, e);
  case OG_EX_CALL: return og_sx_form_hint(x, e);
  case OG_EX_LIST: case OG_EX_SLICE: return OG_SXT_SHAPE;
  case OG_EX_BINARY: return binary_hint(e);
  case OG_EX_NOT: case OG_EX_IN: return OG_SXT_COND;
  case OG_EX_INDEX: return index_hint(x, e);
  case OG_EX_COMPREHENSION: return og_sx_comprehension_hint(x, e);
  case OG_EX_COND: {
    int t = og_sx_hint(x, e->rhs);
    return t != SX_ANY ? t : og_sx_hint(x, e->third);
  }
  }
  return SX_ANY;
}

/* ---- names ---- */

static bool resolve_name(og_sx *x, const og_ast_expr *e, og_sexpr *out) {
  long i = og_sx_find_bound(x, e->name);
  if (i >= 0) {
    out->kind = OG_SX_BOUND, out->type = OG_SXT_NUM;
    out->index = x->bound[i].slot;
    return true;
  }
  if ((i = og_sx_find_param(x, e->name)) >= 0) {
    out->kind = OG_SX_PARAM, out->type = OG_SXT_NUM, out->index = (size_t)i;
    return true;
  }
  sx_let *let = og_sx_find_let(x, e->name);
  if (let && let->defined) {
    if (let->bad) return false;
    if (let->item->params) {
      size_t n = 0;
      for (const og_ast_param *p = let->item->params; p; p = p->next) n++;
      og_error_at(x->s->diag, e->loc,
                  "'%s' takes %zu argument%s: write %s(...)", e->name, n,
                  n == 1 ? "" : "s", e->name);
      return false;
    }
    out->kind = OG_SX_LET, out->type = let->type, out->index = let->index;
    return true;
  }
  if ((i = og_sema_find_input(x->s, e->name)) >= 0) {
    out->kind = OG_SX_INPUT, out->type = OG_SXT_SHAPE, out->index = (size_t)i;
    return true;
  }
  return og_sx_unknown_name(x, e, false);
}

/* ---- operators ---- */

static bool resolve_pair(og_sx *x, const og_ast_expr *a, const og_ast_expr *b,
                         int want, og_sexpr *out) {
  og_sx_args(x, out, 2);
  bool ok = og_sx_resolve(x, a, want, &out->args[0]);
  return og_sx_resolve(x, b, want, &out->args[1]) && ok;
}

/* attr(a) of a string or type attr: the index, else -1 (no report). */
static long string_or_type_attr(og_sx *x, const og_ast_expr *e) {
  if (e->kind != OG_EX_CALL || strcmp(e->name, "attr") != 0 || !e->args ||
      e->args->next || e->args->kind != OG_EX_NAME)
    return -1;
  long a = og_sema_find_attr(x->s, e->args->name);
  if (a < 0) return -1;
  og_attr_type t = x->s->op->attrs[a].type;
  return !t.is_list && (t.kind == OG_ATTR_STRING || t.kind == OG_ATTR_TYPE)
             ? a : -1;
}

static bool resolve_binary(og_sx *x, const og_ast_expr *e, og_sexpr *out) {
  out->op = (int)e->op;
  out->kind = OG_SX_BINARY;
  if (is_arith(e->op)) {
    out->type = OG_SXT_NUM;
    if (!resolve_pair(x, e->lhs, e->rhs, OG_SXT_NUM, out)) return false;
    if (e->op == OG_OP_DIV || e->op == OG_OP_MOD)
      return og_sx_check_min(x, &out->args[1], 1, "a divisor");
    return true;
  }
  if (e->op == OG_OP_CONCAT) {
    out->kind = OG_SX_CONCAT_SHAPES, out->type = OG_SXT_SHAPE;
    return resolve_pair(x, e->lhs, e->rhs, OG_SXT_SHAPE, out);
  }
  out->type = OG_SXT_COND;
  if (e->op == OG_OP_AND || e->op == OG_OP_OR)
    return resolve_pair(x, e->lhs, e->rhs, OG_SXT_COND, out);
  long a = string_or_type_attr(x, e->lhs);
  if (a >= 0) return og_sx_attr_is(x, e, a, e->rhs, out);
  if ((a = string_or_type_attr(x, e->rhs)) >= 0)
    return og_sx_attr_is(x, e, a, e->lhs, out);
  return resolve_pair(x, e->lhs, e->rhs, OG_SXT_NUM, out);
}

static bool resolve_neg(og_sx *x, const og_ast_expr *e, og_sexpr *out) {
  if (e->lhs->kind == OG_EX_INT) { /* a negated literal is a literal */
    out->kind = OG_SX_INT, out->type = OG_SXT_NUM;
    out->i = -e->lhs->i;
    return true;
  }
  out->kind = OG_SX_NEG, out->type = OG_SXT_NUM;
  og_sx_args(x, out, 1);
  return og_sx_resolve(x, e->lhs, OG_SXT_NUM, out->args);
}

static bool resolve_in(og_sx *x, const og_ast_expr *e, og_sexpr *out) {
  out->kind = OG_SX_IN, out->type = OG_SXT_COND;
  og_sx_args(x, out, 3);
  bool ok = og_sx_resolve(x, e->lhs, OG_SXT_NUM, &out->args[0]);
  ok = og_sx_resolve(x, e->rhs, OG_SXT_NUM, &out->args[1]) && ok;
  ok = og_sx_resolve(x, e->rhs->next, OG_SXT_NUM, &out->args[2]) && ok;
  if (ok && out->args[1].kind == OG_SX_INT && out->args[2].kind == OG_SX_INT &&
      out->args[1].i > out->args[2].i) {
    og_error_at(x->s->diag, e->rhs->loc,
                "the range [%lld, %lld] is empty: the test never holds",
                (long long)out->args[1].i, (long long)out->args[2].i);
    return false;
  }
  return ok;
}

static bool resolve_cond(og_sx *x, const og_ast_expr *e, int want,
                         og_sexpr *out) {
  out->kind = OG_SX_COND, out->type = (og_sx_type)want;
  og_sx_args(x, out, 3);
  bool ok = og_sx_resolve(x, e->lhs, OG_SXT_COND, &out->args[0]);
  ok = og_sx_resolve(x, e->rhs, want, &out->args[1]) && ok;
  return og_sx_resolve(x, e->third, want, &out->args[2]) && ok;
}

/* ---- indexing ---- */

static bool resolve_index(og_sx *x, const og_ast_expr *e, int want,
                          og_sexpr *out) {
  bool handled = false;
  bool ok = og_sx_index_form(x, e, want, out, &handled);
  if (handled) return ok;
  out->kind = OG_SX_INDEX, out->type = OG_SXT_NUM;
  og_sx_args(x, out, 2);
  ok = og_sx_resolve(x, e->lhs, OG_SXT_SHAPE, &out->args[0]);
  ok = og_sx_resolve(x, e->rhs, OG_SXT_NUM, &out->args[1]) && ok;
  return ok && og_sx_check_axis(x, &out->args[0], &out->args[1], false);
}

/* A slice bound, or the missing one: OG_SX_UNKNOWN with i = 1. */
static bool slice_bound(og_sx *x, const og_ast_expr *b, og_sexpr *out,
                        og_loc at) {
  if (b) return og_sx_resolve(x, b, OG_SXT_NUM, out);
  out->kind = OG_SX_UNKNOWN, out->type = OG_SXT_NUM, out->i = 1;
  out->text = "";
  out->pos = og_sema_pos(x->s, at);
  return true;
}

static bool resolve_slice(og_sx *x, const og_ast_expr *e, og_sexpr *out) {
  out->kind = OG_SX_SLICE, out->type = OG_SXT_SHAPE;
  og_sx_args(x, out, 3);
  bool ok = og_sx_resolve(x, e->lhs, OG_SXT_SHAPE, &out->args[0]);
  og_loc end = {e->loc.file, e->loc.end - 1, e->loc.end - 1};
  ok = slice_bound(x, e->rhs, &out->args[1], end) && ok;
  return slice_bound(x, e->third, &out->args[2], end) && ok;
}

/* ---- the dispatch ---- */

static bool resolve_list(og_sx *x, const og_ast_expr *e, og_sexpr *out) {
  size_t n = 0;
  for (const og_ast_expr *a = e->args; a; a = a->next) n++;
  out->kind = OG_SX_LIST, out->type = OG_SXT_SHAPE;
  og_sx_args(x, out, n);
  bool ok = true;
  size_t i = 0;
  for (const og_ast_expr *a = e->args; a; a = a->next)
    ok = og_sx_resolve(x, a, OG_SXT_NUM, &out->args[i++]) && ok;
  return ok;
}

static bool resolve_kind(og_sx *x, const og_ast_expr *e, int want,
                         og_sexpr *out) {
  switch (e->kind) {
  case OG_EX_INT:
    out->kind = OG_SX_INT, out->type = OG_SXT_NUM, out->i = e->i;
    return true;
  case OG_EX_UNKNOWN:
    out->kind = OG_SX_UNKNOWN, out->type = (og_sx_type)want;
    if (want != OG_SXT_COND) return true;
    og_error_at(x->s->diag, e->loc,
                "'?' is the unknown shape or number, but a condition is "
                "needed here");
    return false;
  case OG_EX_STRING:
    og_error_at(x->s->diag, e->loc,
                "a string literal stands only beside a string attr "
                "(attr(s) == 'x') or as window()'s padding");
    return false;
  case OG_EX_NAME: return resolve_name(x, e, out);
  case OG_EX_CALL: return og_sx_form(x, e, want, out);
  case OG_EX_LIST: return resolve_list(x, e, out);
  case OG_EX_BINARY: return resolve_binary(x, e, out);
  case OG_EX_NEG: return resolve_neg(x, e, out);
  case OG_EX_NOT:
    out->kind = OG_SX_NOT, out->type = OG_SXT_COND;
    og_sx_args(x, out, 1);
    return og_sx_resolve(x, e->lhs, OG_SXT_COND, out->args);
  case OG_EX_IN: return resolve_in(x, e, out);
  case OG_EX_COND: return resolve_cond(x, e, want, out);
  case OG_EX_INDEX: return resolve_index(x, e, want, out);
  case OG_EX_SLICE: return resolve_slice(x, e, out);
  case OG_EX_COMPREHENSION: return og_sx_comprehension(x, e, want, out);
  }
  return false;
}

bool og_sx_resolve(og_sx *x, const og_ast_expr *e, int want, og_sexpr *out) {
  out->pos = og_sema_pos(x->s, e->loc);
  out->text = og_sx_text(x, e->loc);
  if (want == SX_ANY) want = og_sx_hint(x, e);
  if (want == SX_ANY && e->kind != OG_EX_NAME && e->kind != OG_EX_CALL &&
      e->kind != OG_EX_STRING) {
    og_error_at(x->s->diag, e->loc,
                "nothing fixes the kind of %s here: it could be a shape or "
                "a number",
                og_sx_quote(x, e->loc));
    return false;
  }
  if (!resolve_kind(x, e, want, out)) return false;
  if (want == SX_ANY || (int)out->type == want) return true;
  og_error_at(x->s->diag, e->loc, "%s is a %s, but a %s is needed here",
              og_sx_quote(x, e->loc), og_sx_type_name(out->type),
              og_sx_type_name(want));
  return false;
}
