/* Forms on attrs: attr(a) by the attr's type, attr(a)[i], attr(s) ==
 * 'x', attr(t) == int32, size_of, window's padding, and the integer
 * lists read by reduce and permute. */
#include "sema_shape_internal.h"

#include "suggest.h"

#include <string.h>

long og_sx_attr_arg(og_sx *x, const og_ast_expr *e) {
  const og_ast_expr *a = e->args;
  if (!a || a->next) {
    size_t n = 0;
    for (; a; a = a->next) n++;
    og_error_at(x->s->diag, e->loc,
                "attr() takes one attr name, found %zu argument%s", n,
                n == 1 ? "" : "s");
    return -1;
  }
  if (a->kind != OG_EX_NAME) {
    og_error_at(x->s->diag, a->loc,
                "attr() takes the name of an attr, found %s",
                og_sx_quote(x, a->loc));
    return -1;
  }
  long i = og_sema_find_attr(x->s, a->name);
  if (i < 0) {
    og_suggest g;
    og_error_at(x->s->diag, a->loc, "'%s' is not an attr of op '%s'%s",
                a->name, x->s->op->name,
                og_sema_hint(x->s, &g, a->name, OG_SG_ATTRS));
    return -1;
  }
  return x->s->attr_bad[i] ? -1 : i; /* a bad declaration was reported */
}

/* The kind attr(a) has: int a number, bool a condition, shape, list(int)
 * and tensor a shape; SX_ANY for the others. */
static int attr_kind(const og_attr *a) {
  if (a->type.is_list) return a->type.kind == OG_ATTR_INT ? OG_SXT_SHAPE : SX_ANY;
  switch (a->type.kind) {
  case OG_ATTR_INT: return OG_SXT_NUM;
  case OG_ATTR_BOOL: return OG_SXT_COND;
  case OG_ATTR_SHAPE: case OG_ATTR_TENSOR: return OG_SXT_SHAPE;
  default: return SX_ANY;
  }
}

int og_sx_attr_hint(og_sx *x, const og_ast_expr *e) {
  if (!e->args || e->args->kind != OG_EX_NAME) return SX_ANY;
  long i = og_sema_find_attr(x->s, e->args->name);
  return i < 0 ? SX_ANY : attr_kind(&x->s->op->attrs[i]);
}

/* How an attr that attr(a) alone cannot read is read. */
static const char *attr_use(const og_attr *a) {
  if (a->type.is_list && a->type.kind == OG_ATTR_SHAPE)
    return ": read one shape with attr(%s)[i]";
  if (a->type.is_list) return ": read its length with length(attr(%s))";
  if (a->type.kind == OG_ATTR_STRING)
    return ": compare it with a literal, attr(%s) == 'text'";
  if (a->type.kind == OG_ATTR_TYPE)
    return ": compare it with a dtype, attr(%s) == int32, or read "
           "size_of(%s)";
  return ", which shape statements do not read%s";
}

bool og_sx_form_attr(og_sx *x, const og_ast_expr *e,
                     const og_ast_expr *const *argv, int want,
                     og_sexpr *out) {
  (void)argv;
  long i = og_sx_attr_arg(x, e);
  if (i < 0) return false;
  const og_attr *a = &x->s->op->attrs[i];
  int kind = attr_kind(a);
  if (kind == SX_ANY) {
    const char *use = og_arena_printf(x->arena, attr_use(a), a->name, a->name);
    og_error_at(x->s->diag, e->args->loc, "attr '%s' has type %s%s", a->name,
                og_attr_type_name(a->type), use);
    return false;
  }
  if (kind == OG_SXT_SHAPE && want == OG_SXT_NUM && a->type.is_list) {
    og_error_at(x->s->diag, e->loc,
                "attr '%s' has type list(int): a shape here, not a number "
                "(read an element with attr(%s)[i])",
                a->name, a->name);
    return false;
  }
  out->kind = OG_SX_ATTR, out->type = (og_sx_type)kind;
  out->index = (size_t)i;
  return true;
}

bool og_sx_attr_index(og_sx *x, const og_ast_expr *e, og_sexpr *out) {
  long i = og_sx_attr_arg(x, e->lhs);
  if (i < 0) return false;
  const og_attr *a = &x->s->op->attrs[i];
  bool list_int = a->type.is_list && a->type.kind == OG_ATTR_INT;
  bool list_shape = a->type.is_list && a->type.kind == OG_ATTR_SHAPE;
  bool shape = !a->type.is_list && a->type.kind == OG_ATTR_SHAPE;
  if (!list_int && !list_shape && !shape) {
    og_error_at(x->s->diag, e->lhs->args->loc,
                "attr '%s' has type %s; [i] reads a list(int), a "
                "list(shape) or a shape attr",
                a->name, og_attr_type_name(a->type));
    return false;
  }
  out->kind = OG_SX_ATTR_AT, out->index = (size_t)i;
  out->type = list_shape ? OG_SXT_SHAPE : OG_SXT_NUM;
  og_sx_args(x, out, 1);
  if (!og_sx_resolve(x, e->rhs, OG_SXT_NUM, out->args)) return false;
  return shape || og_sx_check_nonneg(x, out->args, "a list index");
}

/* 'text' against a string attr: one of its allowed values, if listed. */
static bool string_literal(og_sx *x, const og_attr *a, const og_ast_expr *lit,
                           og_sexpr *out) {
  if (lit->kind != OG_EX_STRING) {
    og_error_at(x->s->diag, lit->loc,
                "attr '%s' is a string: compare it with a string literal, "
                "found %s", a->name, og_sx_quote(x, lit->loc));
    return false;
  }
  out->kind = OG_SX_STRING, out->type = OG_SXT_NUM;
  out->s = og_arena_strdup(x->arena, lit->name);
  if (!a->allowed) return true;
  og_suggest g;
  og_suggest_init(&g, lit->name);
  for (size_t k = 0; k < a->allowed->u.list.count; k++) {
    const og_bytes *v = &a->allowed->u.list.items[k].u.s;
    if (v->len == strlen(lit->name) && memcmp(v->ptr, lit->name, v->len) == 0)
      return true;
    og_suggest_add(&g, og_arena_strndup(x->arena, v->ptr, v->len));
  }
  og_error_at(x->s->diag, lit->loc,
              "attr '%s' is never '%s' (allowed: %s): the comparison is "
              "decided before any input%s",
              a->name, lit->name, og_sema_allowed_text(x->s, a->allowed),
              og_suggest_hint(&g));
  return false;
}

/* A dtype name against a type attr: one of its allowed types. */
static bool dtype_literal(og_sx *x, const og_attr *a, const og_ast_expr *lit,
                          og_sexpr *out) {
  og_dtype dt = lit->kind == OG_EX_NAME
                    ? og_dtype_lookup(lit->name, strlen(lit->name))
                    : OG_DT_INVALID;
  if (dt == OG_DT_INVALID) {
    og_suggest g;
    og_error_at(x->s->diag, lit->loc,
                "attr '%s' is a type: compare it with a dtype, found %s%s",
                a->name,
                lit->kind == OG_EX_STRING
                    ? og_arena_printf(x->arena, "the string '%s'", lit->name)
                    : og_sx_quote(x, lit->loc),
                lit->kind == OG_EX_NAME
                    ? og_sema_hint(x->s, &g, lit->name, OG_SG_DTYPES) : "");
    return false;
  }
  out->kind = OG_SX_DTYPE, out->type = OG_SXT_NUM, out->i = (int64_t)dt;
  if (!a->allowed_types || (a->allowed_types & OG_DTYPE_BIT(dt))) return true;
  og_error_at(x->s->diag, lit->loc,
              "attr '%s' is never %s (allowed: %s): the comparison is "
              "decided before any input",
              a->name, lit->name,
              og_sema_allowed_text(x->s, a->allowed));
  return false;
}

bool og_sx_attr_is(og_sx *x, const og_ast_expr *e, long attr,
                   const og_ast_expr *lit, og_sexpr *out) {
  const og_attr *a = &x->s->op->attrs[attr];
  if (x->s->attr_bad[attr]) return false;
  if (e->op != OG_OP_EQ && e->op != OG_OP_NE) {
    og_error_at(x->s->diag, e->loc,
                "attr '%s' is a %s: compare it only with == or !=", a->name,
                og_attr_type_name(a->type));
    return false;
  }
  out->kind = OG_SX_ATTR_IS, out->type = OG_SXT_COND;
  out->index = (size_t)attr;
  og_sx_args(x, out, 1);
  out->args[0].pos = og_sema_pos(x->s, lit->loc);
  out->args[0].text = og_sx_text(x, lit->loc);
  return a->type.kind == OG_ATTR_STRING
             ? string_literal(x, a, lit, out->args)
             : dtype_literal(x, a, lit, out->args);
}

bool og_sx_form_size_of(og_sx *x, const og_ast_expr *e,
                        const og_ast_expr *const *argv, int want,
                        og_sexpr *out) {
  (void)want;
  const og_ast_expr *a = argv[0];
  long i = -1;
  if (a->kind == OG_EX_CALL && strcmp(a->name, "attr") == 0) {
    if ((i = og_sx_attr_arg(x, a)) < 0) return false;
  } else if (a->kind == OG_EX_NAME) {
    i = og_sema_find_attr(x->s, a->name);
  }
  if (i < 0 || x->s->op->attrs[i].type.kind != OG_ATTR_TYPE ||
      x->s->op->attrs[i].type.is_list) {
    og_error_at(x->s->diag, a->loc, "%s() takes a type attr, found %s",
                e->name, og_sx_quote(x, a->loc));
    return false;
  }
  out->kind = OG_SX_SIZE_OF, out->type = OG_SXT_NUM, out->index = (size_t)i;
  return true;
}

/* window()'s padding: 'VALID', 'SAME', or attr(p) of a string attr. */
static bool padding(og_sx *x, const og_ast_expr *a, og_sexpr *out) {
  out->pos = og_sema_pos(x->s, a->loc);
  out->text = og_sx_text(x, a->loc);
  if (a->kind == OG_EX_STRING) {
    if (strcmp(a->name, "VALID") != 0 && strcmp(a->name, "SAME") != 0) {
      og_error_at(x->s->diag, a->loc,
                  "window() padding '%s' is always an error: write 'VALID', "
                  "'SAME', or explicit paddings with arithmetic", a->name);
      return false;
    }
    out->kind = OG_SX_STRING, out->type = OG_SXT_NUM;
    out->s = og_arena_strdup(x->arena, a->name);
    return true;
  }
  long i = a->kind == OG_EX_CALL && strcmp(a->name, "attr") == 0
               ? og_sx_attr_arg(x, a) : -2;
  if (i == -1) return false;
  if (i < 0 || x->s->op->attrs[i].type.kind != OG_ATTR_STRING ||
      x->s->op->attrs[i].type.is_list) {
    og_error_at(x->s->diag, a->loc,
                "window() padding is a string attr, attr(padding), or "
                "'VALID' or 'SAME', found %s", og_sx_quote(x, a->loc));
    return false;
  }
  out->kind = OG_SX_ATTR, out->type = OG_SXT_NUM, out->index = (size_t)i;
  return true;
}

bool og_sx_form_window(og_sx *x, const og_ast_expr *e,
                       const og_ast_expr *const *argv, int want,
                       og_sexpr *out) {
  (void)e, (void)want;
  out->kind = OG_SX_WINDOW, out->type = OG_SXT_NUM;
  og_sx_args(x, out, 5);
  bool ok = true;
  for (size_t i = 0; i < 4; i++)
    ok = og_sx_resolve(x, argv[i], OG_SXT_NUM, &out->args[i]) && ok;
  ok = padding(x, argv[4], &out->args[4]) && ok;
  return ok && og_sx_check_min(x, &out->args[2], 1, "a stride") &&
         og_sx_check_min(x, &out->args[3], 1, "a dilation");
}

/* The definition of a parameterless let (through lets naming lets). */
static const og_sexpr *let_definition(og_sx *x, const og_ast_expr *a) {
  if (a->kind != OG_EX_NAME || og_sx_find_bound(x, a->name) >= 0 ||
      og_sx_find_param(x, a->name) >= 0)
    return NULL;
  sx_let *let = og_sx_find_let(x, a->name);
  if (!let || !let->defined || let->bad || let->item->params) return NULL;
  const og_sexpr *d = &x->s->op->shape_lets[let->index].body;
  while (d->kind == OG_SX_LET && d->nargs == 0)
    d = &x->s->op->shape_lets[d->index].body;
  return d;
}

/* Where integers are read (reduce's axes, permute's perm, concat's
 * axis): attr(l) of a list(int) and value(x) (also through a let, read
 * as its definition). `lists`: a whole list may stand here. *handled
 * false: none of these, resolve as a number. */
bool og_sx_integers(og_sx *x, const og_ast_expr *a, bool lists,
                    og_sexpr *out, bool *handled) {
  *handled = true;
  const og_sexpr *d = let_definition(x, a);
  if (d && (d->kind == OG_SX_VALUE ||
            (lists && d->kind == OG_SX_ATTR && d->type == OG_SXT_SHAPE))) {
    *out = *d; /* the definition, where the name stands */
    out->text = og_sx_text(x, a->loc);
    out->pos = og_sema_pos(x->s, a->loc);
    if (d->kind == OG_SX_VALUE) out->type = lists ? OG_SXT_SHAPE : OG_SXT_NUM;
    return true;
  }
  if (a->kind == OG_EX_CALL && strcmp(a->name, "value") == 0)
    return og_sx_resolve(x, a, lists ? OG_SXT_SHAPE : OG_SXT_NUM, out);
  if (lists && a->kind == OG_EX_CALL && strcmp(a->name, "attr") == 0 &&
      og_sx_attr_hint(x, a) == OG_SXT_SHAPE) {
    long i = og_sema_find_attr(x->s, a->args->name);
    if (x->s->op->attrs[i].type.is_list)
      return og_sx_resolve(x, a, OG_SXT_SHAPE, out);
  }
  *handled = false;
  return false;
}

bool og_sx_form_reduce(og_sx *x, const og_ast_expr *e,
                       const og_ast_expr *const *argv, int want,
                       og_sexpr *out) {
  (void)e, (void)want;
  out->kind = OG_SX_REDUCE, out->type = OG_SXT_SHAPE;
  og_sx_args(x, out, 3);
  bool ok = og_sx_resolve(x, argv[0], OG_SXT_SHAPE, &out->args[0]);
  bool handled = false;
  bool axes = og_sx_integers(x, argv[1], true, &out->args[1], &handled);
  if (!handled) {
    axes = og_sx_resolve(x, argv[1], OG_SXT_NUM, &out->args[1]) &&
           og_sx_check_axis(x, &out->args[0], &out->args[1], false);
  }
  ok = og_sx_resolve(x, argv[2], OG_SXT_COND, &out->args[2]) && ok;
  return ok && axes;
}

bool og_sx_form_permute(og_sx *x, const og_ast_expr *e,
                        const og_ast_expr *const *argv, int want,
                        og_sexpr *out) {
  (void)e, (void)want;
  out->kind = OG_SX_PERMUTE, out->type = OG_SXT_SHAPE;
  og_sx_args(x, out, 2);
  bool ok = og_sx_resolve(x, argv[0], OG_SXT_SHAPE, &out->args[0]);
  bool handled = false;
  bool perm = og_sx_integers(x, argv[1], true, &out->args[1], &handled);
  if (!handled) {
    og_error_at(x->s->diag, argv[1]->loc,
                "permute() takes a list(int) attr, attr(perm), or value(x), "
                "found %s", og_sx_quote(x, argv[1]->loc));
    return false;
  }
  return ok && perm;
}
