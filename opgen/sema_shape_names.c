/* Names in shape statements: bound names, let parameters, lets; the
 * rules for new names (op-language.md, "Names"), and the messages for a
 * name that is not known where it is used. */
#include "sema_shape_internal.h"

#include "dtype.h"
#include "suggest.h"

#include <string.h>

long og_sx_find_bound(const og_sx *x, const char *name) {
  for (size_t i = x->nbound; i-- > 0;)
    if (strcmp(x->bound[i].name, name) == 0) return (long)i;
  return -1;
}

long og_sx_find_param(const og_sx *x, const char *name) {
  if (!x->let) return -1;
  long i = 0;
  for (const og_ast_param *p = x->let->params; p; p = p->next, i++)
    if (strcmp(p->name, name) == 0) return i;
  return -1;
}

sx_let *og_sx_find_let(og_sx *x, const char *name) {
  for (size_t i = 0; i < x->nlets; i++)
    if (strcmp(x->lets[i].item->name, name) == 0) return &x->lets[i];
  return NULL;
}

static bool is_keyword(const char *name) {
  static const char *const keywords[] = {
#define OG_KEYWORD(TOKEN, SPELLING) SPELLING,
#include "keywords.def"
#undef OG_KEYWORD
  };
  for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
    if (strcmp(keywords[i], name) == 0) return true;
  return false;
}

/* What `name` already is, in words, or NULL when it is free. */
static const char *taken_as(og_sx *x, const char *name, og_loc loc) {
  if (og_sema_find_input(x->s, name) >= 0) return "an input";
  if (og_sema_find_attr(x->s, name) >= 0) return "an attr";
  sx_let *let = og_sx_find_let(x, name);
  if (let && let->item->name_loc.begin < loc.begin) return "a let";
  if (og_sx_find_bound(x, name) >= 0) return "a bound name in scope";
  if (og_sx_find_param(x, name) >= 0) {
    /* the parameter itself, or one before it of the same name */
    for (const og_ast_param *p = x->let->params; p; p = p->next)
      if (strcmp(p->name, name) == 0) return p->loc.begin < loc.begin
                                                 ? "a parameter" : NULL;
  }
  if (og_sx_is_form(name)) return "a form";
  if (is_keyword(name)) return "a keyword";
  if (og_dtype_lookup(name, strlen(name)) != OG_DT_INVALID) return "a dtype";
  return NULL;
}

bool og_sx_check_new_name(og_sx *x, const char *name, og_loc loc,
                          const char *what) {
  const char *taken = taken_as(x, name, loc);
  if (!taken) return true;
  og_error_at(x->s->diag, loc, "%s '%s' is already %s", what, name, taken);
  return false;
}

bool og_sx_push_bound(og_sx *x, const char *name, og_loc loc, size_t *slot) {
  if (!og_sx_check_new_name(x, name, loc, "bound name")) return false;
  x->bound = og_xgrow(x->bound, &x->bound_cap, x->nbound + 1,
                      sizeof *x->bound);
  *slot = x->s->op->nbound++;
  x->bound[x->nbound++] = (sx_bound){name, *slot};
  return true;
}

void og_sx_pop_bound(og_sx *x) { x->nbound--; }

const char *og_sx_name_hint(og_sx *x, og_suggest *g, const char *name,
                            bool calls) {
  og_suggest_init(g, name);
  og_sema_suggest(x->s, g, OG_SG_INPUTS);
  for (size_t i = 0; i < x->nlets; i++)
    if (x->lets[i].defined && (x->lets[i].item->params != NULL) == calls)
      og_suggest_add(g, x->lets[i].item->name);
  if (calls) og_sx_suggest_forms(g);
  for (size_t i = 0; i < x->nbound && !calls; i++)
    og_suggest_add(g, x->bound[i].name);
  if (x->let && !calls)
    for (const og_ast_param *p = x->let->params; p; p = p->next)
      og_suggest_add(g, p->name);
  return og_suggest_hint(g);
}

bool og_sx_unknown_name(og_sx *x, const og_ast_expr *e, bool call) {
  const char *op = x->s->op->name;
  sx_let *let = og_sx_find_let(x, e->name);
  og_loc at = call ? e->name_loc : e->loc;
  if (let && !let->defined) {
    og_error_at(x->s->diag, at, "'%s' is used before its let", e->name);
    og_note_at(x->s->diag, let->item->name_loc, "'%s' is defined here",
               e->name);
    return false;
  }
  if (!call && og_sema_find_attr(x->s, e->name) >= 0) {
    og_error_at(x->s->diag, at,
                "'%s' is an attr of op '%s': read it with attr(%s)", e->name,
                op, e->name);
    return false;
  }
  og_suggest g;
  const char *hint = og_sx_name_hint(x, &g, e->name, call);
  if (call)
    og_error_at(x->s->diag, at,
                "'%s' is not a form of the shape language nor a let with "
                "parameters%s", e->name, hint);
  else
    og_error_at(x->s->diag, at,
                "'%s' is not an input of op '%s'%s", e->name, op, hint);
  return false;
}
