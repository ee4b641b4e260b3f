/* REQUIRE_TIGHTENED: a `require` of the new op that refuses inputs the
 * baseline accepted, where comparing the rules decides it (docs/compat.md,
 * "Tightened require"). Inputs and attrs are matched by name; anything
 * the comparison cannot decide gives no finding. */
#include "compat_internal.h"

#include "ast.h"

#include <stdint.h>
#include <string.h>

/* An integer interval; a missing end is unbounded. */
typedef struct interval {
  bool has_lo, has_hi;
  int64_t lo, hi;
} interval;

/* The name an input or attr index stands for, in `op`. */
static const char *input_name(const og_op *op, size_t i) {
  return i < op->ninputs ? op->inputs[i].name : "";
}

static const char *attr_name(const og_op *op, size_t i) {
  return i < op->nattrs ? op->attrs[i].name : "";
}

static bool uses_input(og_sexpr_kind k) {
  switch (k) {
  case OG_SX_INPUT: case OG_SX_INPUT_AT: case OG_SX_DIM: case OG_SX_RANK:
  case OG_SX_LENGTH: case OG_SX_VALUE: case OG_SX_VALUE_AT:
  case OG_SX_VALUE_KNOWN: case OG_SX_SUM_DIMS: case OG_SX_CONCAT:
    return true;
  default:
    return false;
  }
}

static bool uses_attr(og_sexpr_kind k) {
  return k == OG_SX_ATTR || k == OG_SX_ATTR_AT || k == OG_SX_ATTR_LENGTH ||
         k == OG_SX_ATTR_IS || k == OG_SX_SIZE_OF;
}

/* Bound-name slots paired while two expressions are compared: slots are
 * numbered per op, so equal comprehensions may use different ones. */
typedef struct slot_pairs {
  size_t n;
  size_t a[32], b[32];
} slot_pairs;

static bool same_in(const og_op *oa, const og_sexpr *a, const og_op *ob,
                    const og_sexpr *b, slot_pairs *slots);

/* The let a node calls, compared by name and definition. */
static bool same_let(const og_op *oa, const og_sexpr *a, const og_op *ob,
                     const og_sexpr *b) {
  if (a->index >= oa->nshape_lets || b->index >= ob->nshape_lets) return false;
  const og_shape_let *la = &oa->shape_lets[a->index];
  const og_shape_let *lb = &ob->shape_lets[b->index];
  slot_pairs fresh = {0};
  return strcmp(la->name, lb->name) == 0 && la->nparams == lb->nparams &&
         same_in(oa, &la->body, ob, &lb->body, &fresh);
}

static bool same_bound(const og_sexpr *a, const og_sexpr *b,
                       const slot_pairs *slots) {
  for (size_t i = slots->n; i-- > 0;)
    if (slots->a[i] == a->index) return slots->b[i] == b->index;
  return false;
}

/* The scalar fields of two nodes of the same kind. */
static bool same_fields(const og_op *oa, const og_sexpr *a, const og_op *ob,
                        const og_sexpr *b, const slot_pairs *slots) {
  if (a->kind != b->kind || a->type != b->type || a->op != b->op ||
      a->fold != b->fold || a->nargs != b->nargs)
    return false;
  switch (a->kind) {
  case OG_SX_INT: case OG_SX_DTYPE: case OG_SX_UNKNOWN:
    return a->i == b->i;
  case OG_SX_STRING: return strcmp(a->s ? a->s : "", b->s ? b->s : "") == 0;
  case OG_SX_PARAM: return a->index == b->index;
  case OG_SX_BOUND: return same_bound(a, b, slots);
  case OG_SX_LET: return same_let(oa, a, ob, b);
  default: break;
  }
  if (uses_input(a->kind))
    return strcmp(input_name(oa, a->index), input_name(ob, b->index)) == 0;
  if (uses_attr(a->kind))
    return strcmp(attr_name(oa, a->index), attr_name(ob, b->index)) == 0;
  return true;
}

static bool same_in(const og_op *oa, const og_sexpr *a, const og_op *ob,
                    const og_sexpr *b, slot_pairs *slots) {
  if (!same_fields(oa, a, ob, b, slots)) return false;
  bool binds = a->kind == OG_SX_COMPREHENSION;
  if (binds) {
    if (slots->n == sizeof slots->a / sizeof *slots->a) return false;
    slots->a[slots->n] = a->index, slots->b[slots->n] = b->index;
  }
  bool same = true;
  size_t outer = slots->n;
  for (size_t i = 0; i < a->nargs && same; i++) {
    if (binds && i == 1) slots->n++; /* k: bound in the body and the if */
    same = same_in(oa, &a->args[i], ob, &b->args[i], slots);
  }
  slots->n = outer;
  return same;
}

/* Structural equality, inputs, attrs and lets by name. */
static bool same_expr(const og_op *oa, const og_sexpr *a, const og_op *ob,
                      const og_sexpr *b) {
  slot_pairs slots = {0};
  return same_in(oa, a, ob, b, &slots);
}

/* An integer literal, possibly negated. */
static bool constant(const og_sexpr *e, int64_t *v) {
  if (e->kind == OG_SX_INT) return *v = e->i, true;
  if (e->kind == OG_SX_NEG && e->args[0].kind == OG_SX_INT &&
      e->args[0].i != INT64_MIN)
    return *v = -e->args[0].i, true;
  return false;
}

/* rank(x), dim(x, K) (K an integer literal) or attr(a) of an int attr:
 * what an interval bounds. */
static bool is_term(const og_op *op, const og_sexpr *e) {
  if (e->kind == OG_SX_RANK) return true;
  if (e->kind == OG_SX_DIM)
    return e->nargs == 1 && e->args[0].kind == OG_SX_INT;
  return e->kind == OG_SX_ATTR && e->index < op->nattrs &&
         op->attrs[e->index].type.kind == OG_ATTR_INT &&
         !op->attrs[e->index].type.is_list;
}

/* `T OP c` as an interval on T (OP already mirrored for `c OP T`). */
static bool compare_interval(int op, int64_t c, interval *out) {
  *out = (interval){0};
  switch (op) {
  case OG_OP_EQ: *out = (interval){true, true, c, c}; return true;
  case OG_OP_GE: out->has_lo = true, out->lo = c; return true;
  case OG_OP_LE: out->has_hi = true, out->hi = c; return true;
  case OG_OP_GT:
    if (c == INT64_MAX) return false;
    out->has_lo = true, out->lo = c + 1;
    return true;
  case OG_OP_LT:
    if (c == INT64_MIN) return false;
    out->has_hi = true, out->hi = c - 1;
    return true;
  default: return false;
  }
}

static int mirror(int op) {
  switch (op) {
  case OG_OP_LT: return OG_OP_GT;
  case OG_OP_GT: return OG_OP_LT;
  case OG_OP_LE: return OG_OP_GE;
  case OG_OP_GE: return OG_OP_LE;
  default: return op;
  }
}

/* A require of the forms `T OP c`, `c OP T` (OP one of == < <= > >=) and
 * `T in [a, b]`: its term and interval. */
static const og_sexpr *as_interval(const og_op *op, const og_sexpr *e,
                                   interval *out) {
  int64_t a, b;
  if (e->kind == OG_SX_IN && is_term(op, &e->args[0]) &&
      constant(&e->args[1], &a) && constant(&e->args[2], &b)) {
    *out = (interval){true, true, a, b};
    return &e->args[0];
  }
  if (e->kind != OG_SX_BINARY) return NULL;
  if (is_term(op, &e->args[0]) && constant(&e->args[1], &a))
    return compare_interval(e->op, a, out) ? &e->args[0] : NULL;
  if (is_term(op, &e->args[1]) && constant(&e->args[0], &a))
    return compare_interval(mirror(e->op), a, out) ? &e->args[1] : NULL;
  return NULL;
}

/* Whether `e` names the input or attr called `name` (kind: 'i' or 'a'). */
static bool mentions(const og_op *op, const og_sexpr *e, char kind,
                     const char *name) {
  if (kind == 'i' && uses_input(e->kind) &&
      strcmp(input_name(op, e->index), name) == 0)
    return true;
  if (kind == 'a' && uses_attr(e->kind) &&
      strcmp(attr_name(op, e->index), name) == 0)
    return true;
  if (e->kind == OG_SX_LET && e->index < op->nshape_lets &&
      mentions(op, &op->shape_lets[e->index].body, kind, name))
    return true;
  for (size_t i = 0; i < e->nargs; i++)
    if (mentions(op, &e->args[i], kind, name)) return true;
  return false;
}

/* Calls fn for each input and attr name that `e` mentions; false as soon
 * as fn does. */
typedef bool (*name_fn)(void *ctx, char kind, const char *name);
static bool each_name(const og_op *op, const og_sexpr *e, name_fn fn,
                      void *ctx) {
  if (uses_input(e->kind) && !fn(ctx, 'i', input_name(op, e->index)))
    return false;
  if (uses_attr(e->kind) && !fn(ctx, 'a', attr_name(op, e->index)))
    return false;
  if (e->kind == OG_SX_LET && e->index < op->nshape_lets &&
      !each_name(op, &op->shape_lets[e->index].body, fn, ctx))
    return false;
  for (size_t i = 0; i < e->nargs; i++)
    if (!each_name(op, &e->args[i], fn, ctx)) return false;
  return true;
}

static bool old_has_name(const og_op *old, char kind, const char *name) {
  if (kind == 'a') return og_op_find_attr(old, name) != NULL;
  for (size_t i = 0; i < old->ninputs; i++)
    if (strcmp(old->inputs[i].name, name) == 0) return true;
  return false;
}

/* A name is free when the baseline op has it and none of its shape
 * rules (require or shape, which can fail too) mentions it. */
static bool name_is_free(void *ctx, char kind, const char *name) {
  const og_op *old = ctx;
  if (!old_has_name(old, kind, name)) return false;
  for (size_t i = 0; i < old->nshape_rules; i++)
    if (mentions(old, &old->shape_rules[i].expr, kind, name)) return false;
  return true;
}

static bool name_exists(void *ctx, char kind, const char *name) {
  return old_has_name(ctx, kind, name);
}

/* The name a term stands on, as each_name sees it. */
static char term_name(const og_op *op, const og_sexpr *t, const char **name) {
  bool attr = t->kind == OG_SX_ATTR;
  *name = attr ? attr_name(op, t->index) : input_name(op, t->index);
  return attr ? 'a' : 'i';
}

/* ---- intervals ---- */

static void intersect(interval *a, const interval *b) {
  if (b->has_lo && (!a->has_lo || b->lo > a->lo)) a->has_lo = true, a->lo = b->lo;
  if (b->has_hi && (!a->has_hi || b->hi < a->hi)) a->has_hi = true, a->hi = b->hi;
}

/* Whether `outer` holds every value of `inner` (an empty inner: yes). */
static bool contains(const interval *outer, const interval *inner) {
  if (inner->has_lo && inner->has_hi && inner->lo > inner->hi) return true;
  if (outer->has_lo && (!inner->has_lo || inner->lo < outer->lo)) return false;
  if (outer->has_hi && (!inner->has_hi || inner->hi > outer->hi)) return false;
  return true;
}

/* The values a term can take at all: ranks and dims are >= 0, an int
 * attr is >= its minimum. */
static interval domain(const og_op *op, const og_sexpr *t) {
  interval d = {0};
  if (t->kind != OG_SX_ATTR) return (interval){true, false, 0, 0};
  const og_attr *a = &op->attrs[t->index];
  if (a->has_minimum) d.has_lo = true, d.lo = a->minimum;
  return d;
}

static const char *term_text(og_arena *a, const og_op *op, const og_sexpr *t) {
  if (t->kind == OG_SX_RANK)
    return og_arena_printf(a, "rank(%s)", input_name(op, t->index));
  if (t->kind == OG_SX_DIM)
    return og_arena_printf(a, "dim(%s, %lld)", input_name(op, t->index),
                           (long long)t->args[0].i);
  return og_arena_printf(a, "attr(%s)", attr_name(op, t->index));
}

static const char *interval_text(og_arena *a, const interval *v) {
  if (v->has_lo && v->has_hi && v->lo == v->hi)
    return og_arena_printf(a, "== %lld", (long long)v->lo);
  if (v->has_lo && v->has_hi)
    return og_arena_printf(a, "in [%lld, %lld]", (long long)v->lo,
                           (long long)v->hi);
  if (v->has_lo) return og_arena_printf(a, ">= %lld", (long long)v->lo);
  if (v->has_hi) return og_arena_printf(a, "<= %lld", (long long)v->hi);
  return "any value";
}

/* ---- the rule ---- */

static const char *hint(const og_compat_pair *p) {
  return og_arena_printf(&p->out->arena,
                         "accept every input the baseline accepted, or add "
                         "a new op (e.g. '%sV2') with the stricter rule",
                         p->old_op->name);
}

/* A require `T in I`: compared with what the baseline's rules on T
 * accepted, when they are all intervals on T. */
static void check_interval(const og_compat_pair *p, const og_shape_rule *r,
                           const og_sexpr *t, const interval *now) {
  const og_op *old = p->old_op, *newm = p->new_op;
  const char *name;
  char kind = term_name(newm, t, &name);
  if (!old_has_name(old, kind, name)) return;
  const og_sexpr *old_t = NULL;
  interval before = {0};
  og_srcpos base_pos = old->pos;
  for (size_t i = 0; i < old->nshape_rules; i++) {
    const og_shape_rule *o = &old->shape_rules[i];
    if (!mentions(old, &o->expr, kind, name)) continue;
    interval v;
    const og_sexpr *ot = o->is_require ? as_interval(old, &o->expr, &v) : NULL;
    if (!ot || !same_expr(old, ot, newm, t)) return; /* undecidable */
    if (!old_t) base_pos = o->pos;
    old_t = ot;
    intersect(&before, &v);
  }
  interval dom = domain(old_t ? old : newm, old_t ? old_t : t);
  intersect(&before, &dom);
  if (contains(now, &before)) return;
  og_arena *a = &p->out->arena;
  const char *term = term_text(a, newm, t);
  const char *was = interval_text(a, &before);
  og_compat_add(
      p, OG_COMPAT_REQUIRE_TIGHTENED, r->pos, base_pos,
      old_t ? og_arena_printf(a, "the baseline accepts %s %s", term, was)
            : og_arena_printf(a, "the baseline has no rule on %s", term),
      hint(p), "op '%s': `require` accepts only %s %s; the baseline "
      "accepted %s %s", newm->name, term, interval_text(a, now), term, was);
}

/* Any other new require: tightened when the baseline has no shape rule
 * on anything it mentions. */
static void check_other(const og_compat_pair *p, const og_shape_rule *r) {
  if (!each_name(p->new_op, &r->expr, name_is_free, (void *)p->old_op))
    return;
  og_compat_add(p, OG_COMPAT_REQUIRE_TIGHTENED, r->pos, p->old_op->pos,
                "the baseline has no rule on the shapes or attrs it names",
                hint(p), "op '%s': new `require` refuses inputs the "
                "baseline accepted", p->new_op->name);
}

static bool has_same_rule(const og_op *old, const og_op *newm,
                          const og_shape_rule *r) {
  for (size_t i = 0; i < old->nshape_rules; i++)
    if (old->shape_rules[i].is_require &&
        same_expr(old, &old->shape_rules[i].expr, newm, &r->expr))
      return true;
  return false;
}

void og_compat_check_requires(const og_compat_pair *p) {
  const og_op *old = p->old_op, *newm = p->new_op;
  if (old->shape_fn || newm->shape_fn) return; /* C code decides */
  for (size_t i = 0; i < newm->nshape_rules; i++) {
    const og_shape_rule *r = &newm->shape_rules[i];
    if (!r->is_require || has_same_rule(old, newm, r)) continue;
    if (!each_name(newm, &r->expr, name_exists, (void *)old)) continue;
    interval now;
    const og_sexpr *t = as_interval(newm, &r->expr, &now);
    if (t) check_interval(p, r, t, &now);
    else check_other(p, r);
  }
}
