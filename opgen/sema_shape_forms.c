/* The forms of shape expressions (name(args)): their arity, the kinds of
 * their operands and of their result, and calls of parameterized lets. */
#include "sema_shape_internal.h"

#include "suggest.h"

#include <string.h>


/* Operands of the given kinds (a string: one letter each, s n c). */
static bool typed_args(og_sx *x, const og_ast_expr *const *argv,
                       const char *kinds, og_sexpr *out) {
  size_t n = strlen(kinds);
  og_sx_args(x, out, n);
  bool ok = true;
  for (size_t i = 0; i < n; i++) {
    int t = kinds[i] == 's' ? OG_SXT_SHAPE
            : kinds[i] == 'n' ? OG_SXT_NUM : OG_SXT_COND;
    ok = og_sx_resolve(x, argv[i], t, &out->args[i]) && ok;
  }
  return ok;
}

static bool form_unknown(og_sx *x, const og_ast_expr *e,
                         const og_ast_expr *const *argv, int want,
                         og_sexpr *out) {
  (void)e, (void)want;
  out->kind = OG_SX_UNKNOWN_RANK, out->type = OG_SXT_SHAPE;
  return typed_args(x, argv, "n", out) &&
         og_sx_check_min(x, &out->args[0], 0, "a rank");
}

static bool form_set(og_sx *x, const og_ast_expr *e,
                     const og_ast_expr *const *argv, int want, og_sexpr *out) {
  (void)want;
  bool insert = strcmp(e->name, "insert") == 0;
  bool remove = strcmp(e->name, "remove") == 0;
  out->kind = insert ? OG_SX_INSERT : remove ? OG_SX_REMOVE : OG_SX_SET;
  out->type = OG_SXT_SHAPE;
  return typed_args(x, argv, remove ? "sn" : "snn", out) &&
         og_sx_check_axis(x, &out->args[0], &out->args[1], insert);
}

static bool form_ceil_div(og_sx *x, const og_ast_expr *e,
                          const og_ast_expr *const *argv, int want,
                          og_sexpr *out) {
  (void)e, (void)want;
  out->kind = OG_SX_CEIL_DIV, out->type = OG_SXT_NUM;
  return typed_args(x, argv, "nn", out) &&
         og_sx_check_min(x, &out->args[1], 1, "a divisor");
}

static bool form_bit(og_sx *x, const og_ast_expr *e,
                     const og_ast_expr *const *argv, int want, og_sexpr *out) {
  (void)want;
  out->kind = OG_SX_BIT, out->type = OG_SXT_COND;
  if (!typed_args(x, argv, "nn", out)) return false;
  const og_sexpr *i = &out->args[1];
  if (i->kind == OG_SX_INT && (i->i < 0 || i->i >= 64)) {
    og_error_at(x->s->diag, e->args->next->loc,
                "bit %lld is outside [0, 64): the form is always an error",
                (long long)i->i);
    return false;
  }
  return true;
}

static bool form_product(og_sx *x, const og_ast_expr *e,
                         const og_ast_expr *const *argv, int want,
                         og_sexpr *out) {
  (void)e, (void)want;
  out->kind = OG_SX_PRODUCT, out->type = OG_SXT_NUM;
  return typed_args(x, argv, "s", out);
}

static bool form_same(og_sx *x, const og_ast_expr *e,
                      const og_ast_expr *const *argv, int want,
                      og_sexpr *out) {
  (void)want;
  size_t n = 0;
  for (const og_ast_expr *a = e->args; a; a = a->next) n++;
  out->kind = OG_SX_SAME, out->type = OG_SXT_COND;
  og_sx_args(x, out, n);
  bool ok = true;
  for (size_t i = 0; i < n; i++)
    ok = og_sx_resolve(x, argv[i], OG_SXT_SHAPE, &out->args[i]) && ok;
  return ok;
}

/* merge, join, broadcast, min, max with operands (no comprehension). */
static og_fold fold_of(const char *name) {
  static const struct { const char *name; og_fold fold; } folds[] = {
      {"merge", OG_FOLD_MERGE}, {"join", OG_FOLD_JOIN},
      {"broadcast", OG_FOLD_BROADCAST}, {"min", OG_FOLD_MIN},
      {"max", OG_FOLD_MAX}, {"sum", OG_FOLD_SUM},
      {"product", OG_FOLD_PRODUCT}, {"all", OG_FOLD_ALL},
      {"any", OG_FOLD_ANY}};
  for (size_t i = 0; i < sizeof folds / sizeof *folds; i++)
    if (strcmp(folds[i].name, name) == 0) return folds[i].fold;
  return OG_FOLD_NONE;
}

static int variadic_hint(og_sx *x, const og_ast_expr *e) {
  og_fold f = fold_of(e->name);
  if (f == OG_FOLD_BROADCAST) return OG_SXT_SHAPE;
  if (f == OG_FOLD_MIN || f == OG_FOLD_MAX) return OG_SXT_NUM;
  for (const og_ast_expr *a = e->args; a; a = a->next) {
    int t = og_sx_hint(x, a);
    if (t != SX_ANY) return t;
  }
  return SX_ANY;
}

static bool form_variadic(og_sx *x, const og_ast_expr *e,
                          const og_ast_expr *const *argv, int want,
                          og_sexpr *out) {
  og_fold f = fold_of(e->name);
  if (f == OG_FOLD_BROADCAST) want = OG_SXT_SHAPE;
  else if (f == OG_FOLD_MIN || f == OG_FOLD_MAX) want = OG_SXT_NUM;
  else if (want == SX_ANY) want = variadic_hint(x, e);
  if (want == SX_ANY || want == OG_SXT_COND) {
    og_error_at(x->s->diag, e->loc,
                want == SX_ANY ? "nothing fixes the kind of %s here: it "
                                 "could be a shape or a number"
                               : "%s merges shapes or numbers, not "
                                 "conditions",
                og_sx_quote(x, e->loc));
    return false;
  }
  size_t n = 0;
  for (const og_ast_expr *a = e->args; a; a = a->next) n++;
  out->kind = OG_SX_FOLD, out->fold = f, out->type = (og_sx_type)want;
  og_sx_args(x, out, n);
  bool ok = true;
  for (size_t i = 0; i < n; i++)
    ok = og_sx_resolve(x, argv[i], want, &out->args[i]) && ok;
  return ok;
}

static bool form_fold_only(og_sx *x, const og_ast_expr *e,
                           const og_ast_expr *const *argv, int want,
                           og_sexpr *out) {
  (void)argv, (void)want, (void)out;
  og_error_at(x->s->diag, e->loc,
              "%s() takes a comprehension: %s(C for k < N)", e->name,
              e->name);
  return false;
}

typedef struct form {
  const char *name;
  size_t min, max; /* operand count; max 0: no limit */
  const char *takes;
  int type;        /* the result's kind; SX_ANY: by the operands */
  form_fn *fn;
} form;

static const form forms[] = {
    {"dim", 2, 2, "an input and a dimension index", OG_SXT_NUM, og_sx_form_dim},
    {"rank", 1, 1, "one shape", OG_SXT_NUM, og_sx_form_rank},
    {"length", 1, 1, "a list input or attr(l) of a list attr", OG_SXT_NUM,
     og_sx_form_length},
    {"value", 1, 1, "one input", OG_SXT_SHAPE, og_sx_form_value},
    {"attr", 1, 1, "one attr name", SX_ANY, og_sx_form_attr},
    {"unknown", 1, 1, "one rank", OG_SXT_SHAPE, form_unknown},
    {"merge", 1, 0, "one or more operands", SX_ANY, form_variadic},
    {"join", 1, 0, "one or more operands", SX_ANY, form_variadic},
    {"broadcast", 1, 0, "one or more shapes", OG_SXT_SHAPE, form_variadic},
    {"min", 1, 0, "one or more numbers", OG_SXT_NUM, form_variadic},
    {"max", 1, 0, "one or more numbers", OG_SXT_NUM, form_variadic},
    {"set", 3, 3, "a shape, an axis and a dim", OG_SXT_SHAPE, form_set},
    {"insert", 3, 3, "a shape, an axis and a dim", OG_SXT_SHAPE, form_set},
    {"remove", 2, 2, "a shape and an axis", OG_SXT_SHAPE, form_set},
    {"reduce", 3, 3, "a shape, the axes and keep", OG_SXT_SHAPE,
     og_sx_form_reduce},
    {"permute", 2, 2, "a shape and a permutation", OG_SXT_SHAPE,
     og_sx_form_permute},
    {"concat", 2, 2, "a list input and an axis", OG_SXT_SHAPE,
     og_sx_form_concat},
    {"size_of", 1, 1, "a type attr", OG_SXT_NUM, og_sx_form_size_of},
    {"ceil_div", 2, 2, "two numbers", OG_SXT_NUM, form_ceil_div},
    {"product", 1, 1, "one shape", OG_SXT_NUM, form_product},
    {"sum", 2, 2, "a list input and an axis", OG_SXT_NUM, og_sx_form_sum},
    {"window", 5, 5, "a dim, a size, a stride, a dilation and a padding",
     OG_SXT_NUM, og_sx_form_window},
    {"same", 2, 0, "two or more shapes", OG_SXT_COND, form_same},
    {"known", 1, 1, "one shape or number", OG_SXT_COND, og_sx_form_known},
    {"bit", 2, 2, "a number and a bit index", OG_SXT_COND, form_bit},
    {"all", 0, 0, "a comprehension", OG_SXT_COND, form_fold_only},
    {"any", 0, 0, "a comprehension", OG_SXT_COND, form_fold_only},
};

static const form *find_form(const char *name) {
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
    if (strcmp(forms[i].name, name) == 0) return &forms[i];
  return NULL;
}

bool og_sx_is_form(const char *name) { return find_form(name) != NULL; }

/* Adds the form names to g (for "did you mean"). */
void og_sx_suggest_forms(struct og_suggest *g) {
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
    og_suggest_add(g, forms[i].name);
}

int og_sx_form_hint(og_sx *x, const og_ast_expr *e) {
  const form *f = find_form(e->name);
  if (!f) {
    sx_let *let = og_sx_find_let(x, e->name);
    return let && let->defined ? (int)let->type : SX_ANY;
  }
  if (strcmp(f->name, "attr") == 0) return og_sx_attr_hint(x, e);
  return f->type == SX_ANY ? variadic_hint(x, e) : f->type;
}

/* NAME(args) of a let with parameters: each argument a number. */
static bool let_call(og_sx *x, const og_ast_expr *e, sx_let *let,
                     og_sexpr *out) {
  size_t want = 0, n = 0;
  for (const og_ast_param *p = let->item->params; p; p = p->next) want++;
  for (const og_ast_expr *a = e->args; a; a = a->next) n++;
  if (n != want) {
    og_error_at(x->s->diag, e->loc,
                "'%s' takes %zu argument%s, found %zu", e->name, want,
                want == 1 ? "" : "s", n);
    return false;
  }
  if (let->bad) return false;
  out->kind = OG_SX_LET, out->type = let->type, out->index = let->index;
  og_sx_args(x, out, n);
  bool ok = true;
  size_t i = 0;
  for (const og_ast_expr *a = e->args; a; a = a->next)
    ok = og_sx_resolve(x, a, OG_SXT_NUM, &out->args[i++]) && ok;
  return ok;
}

bool og_sx_form(og_sx *x, const og_ast_expr *e, int want, og_sexpr *out) {
  const form *f = find_form(e->name);
  if (!f) {
    sx_let *let = og_sx_find_let(x, e->name);
    if (let && let->defined) return let_call(x, e, let, out);
    return og_sx_unknown_name(x, e, true);
  }
  enum { MAX_ARGS = 8 };
  const og_ast_expr *argv[MAX_ARGS];
  size_t n = 0;
  for (const og_ast_expr *a = e->args; a; a = a->next, n++)
    if (n < MAX_ARGS) argv[n] = a;
  if (n < f->min || (f->max && n > f->max)) {
    og_error_at(x->s->diag, e->loc, "%s() takes %s, found %zu argument%s",
                e->name, f->takes, n, n == 1 ? "" : "s");
    return false;
  }
  if (n > MAX_ARGS) { /* variadic: resolve them in a list */
    const og_ast_expr **all = og_arena_array(x->arena, n, sizeof *all);
    n = 0;
    for (const og_ast_expr *a = e->args; a; a = a->next) all[n++] = a;
    return f->fn(x, e, all, want, out);
  }
  return f->fn(x, e, argv, want, out);
}
