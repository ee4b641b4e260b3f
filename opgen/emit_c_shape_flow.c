/* The forms that decide what is evaluated: C ? X : Y as a C `if` (both
 * branches when C is undecided, each with its own error), && and || as
 * ifs on the left side, comprehensions as `for` loops and folds through
 * the runtime's fold API, and calls of the let functions. */
#include "emit_c_shape_gen.h"

#include <string.h>

static const char *ref(const sx_gen *g, const char *lvalue) {
  return sx_printf(g, "&%s", lvalue);
}

/* ---- C ? X : Y ---- */

/* One branch, run when `cond` is not `skip`; its failure is stored in
 * `err` and jumps past it. */
static void branch(sx_gen *g, const char *cond, const char *skip,
                   const og_sexpr *e, const char *dest, const char *err) {
  sx_line(g, "if (%s != %s) {", cond, skip);
  og_w_indent(g->w);
  sx_fail fail = {err, sx_name(g, OG_CN_L_LABEL, g->labels++), false};
  sx_fail *outer = g->fail;
  g->fail = &fail;
  sx_mark m = sx_mark_get(g);
  g->depth++;
  sx_line(g, "%s = %s;", dest, sx_expr(g, e));
  g->depth--;
  sx_release(g, m);
  g->fail = outer;
  og_w_dedent(g->w);
  sx_line(g, "}");
  if (fail.used) { /* labels one level out, as by hand */
    og_w_dedent(g->w);
    sx_line(g, "%s:", fail.label);
    og_w_indent(g->w);
  }
}

static const char *unknown_of(og_sx_type t) {
  return t == OG_SXT_NUM    ? "opr_sx_unknown_num()"
         : t == OG_SXT_COND ? "OPR_COND_UNDECIDED"
                            : "opr_sx_unknown_shape()";
}

static const char *join_call(sx_gen *g, og_sx_type t, const char *ex,
                             const char *x, const char *ey, const char *y,
                             const char *r) {
  if (t == OG_SXT_SHAPE)
    return sx_printf(g, "opr_sx_join_branches_shape(%s, %s, %s, %s, %s, &%s)",
                     sx_ctx(g), ex, x, ey, y, r);
  return sx_printf(g, "opr_sx_join_branches_%s(%s, %s, %s, %s, &%s)",
                   t == OG_SXT_NUM ? "num" : "cond", ex, x, ey, y, r);
}

/* Whether `e` compiles to a C expression with no statements and cannot
 * fail: a literal, a bound name, a parameter, a value already read. */
static bool plain(const sx_gen *g, const og_sexpr *e) {
  switch (e->kind) {
  case OG_SX_INT: case OG_SX_UNKNOWN: case OG_SX_BOUND: case OG_SX_PARAM:
    return true;
  case OG_SX_LET:
    return !e->nargs && g->let_once[e->index] == SX_ONCE_DONE;
  default:
    return false;
  }
}

/* C ? X : Y of plain X and Y: nothing to run, nothing to fail. */
static const char *plain_cond_expr(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  og_cn_local kind = sx_kind(e->type);
  const char *r = sx_temp(g, kind);
  const char *b = sx_expr_temp(g, &e->args[0]);
  const char *x = sx_expr(g, &e->args[1]), *y = sx_expr(g, &e->args[2]);
  sx_line(g, "if (%s == OPR_COND_TRUE) {", b);
  og_w_indent(g->w);
  sx_line(g, "%s = %s;", r, x);
  og_w_dedent(g->w);
  sx_line(g, "} else if (%s == OPR_COND_FALSE) {", b);
  og_w_indent(g->w);
  sx_line(g, "%s = %s;", r, y);
  og_w_dedent(g->w);
  sx_line(g, "} else {");
  og_w_indent(g->w);
  bool shape = e->type == OG_SXT_SHAPE;
  const char *args[6] = {shape ? sx_ctx(g) : NULL, "OPR_OK", x, "OPR_OK", y,
                         ref(g, r)};
  sx_check_call(g, shape ? "opr_sx_join_branches_shape"
                   : e->type == OG_SXT_NUM ? "opr_sx_join_branches_num"
                                           : "opr_sx_join_branches_cond",
                shape ? args : args + 1, shape ? 6 : 5);
  og_w_dedent(g->w);
  sx_line(g, "}");
  return sx_result(g, m, kind);
}

const char *sx_cond_expr(sx_gen *g, const og_sexpr *e) {
  if (plain(g, &e->args[1]) && plain(g, &e->args[2]))
    return plain_cond_expr(g, e);
  sx_mark m = sx_mark_get(g);
  og_cn_local kind = sx_kind(e->type);
  const char *r = sx_temp(g, kind);
  const char *b = sx_expr_temp(g, &e->args[0]);
  const char *x = sx_temp(g, kind), *y = sx_temp(g, kind);
  const char *ex = sx_temp(g, OG_CN_L_ERR), *ey = sx_temp(g, OG_CN_L_ERR);
  sx_line(g, "%s = %s = OPR_OK;", ex, ey);
  sx_line(g, "%s = %s = %s;", x, y, unknown_of(e->type));
  branch(g, b, "OPR_COND_FALSE", &e->args[1], x, ex);
  branch(g, b, "OPR_COND_TRUE", &e->args[2], y, ey);
  sx_line(g, "if (%s == OPR_COND_TRUE) {", b);
  og_w_indent(g->w);
  sx_check(g, ex);
  sx_line(g, "%s = %s;", r, x);
  og_w_dedent(g->w);
  sx_line(g, "} else if (%s == OPR_COND_FALSE) {", b);
  og_w_indent(g->w);
  sx_check(g, ey);
  sx_line(g, "%s = %s;", r, y);
  og_w_dedent(g->w);
  sx_line(g, "} else {");
  og_w_indent(g->w);
  sx_check(g, join_call(g, e->type, ex, x, ey, y, r));
  og_w_dedent(g->w);
  sx_line(g, "}");
  return sx_result(g, m, kind);
}

/* ---- && and || ---- */

/* The right side runs unless the left decides: `false && ...` is false,
 * `true || ...` true. Then the right side decides unless the left is
 * undecided and the right does not decide either. */
const char *sx_logic(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  bool and_ = e->op == '&';
  const char *decides = and_ ? "OPR_COND_FALSE" : "OPR_COND_TRUE";
  const char *neutral = and_ ? "OPR_COND_TRUE" : "OPR_COND_FALSE";
  const char *b = sx_expr_temp(g, &e->args[0]);
  sx_line(g, "if (%s != %s) {", b, decides);
  og_w_indent(g->w);
  g->depth++;
  const char *y = sx_expr_temp(g, &e->args[1]);
  g->depth--;
  sx_line(g, "if (%s == %s || %s == %s) %s = %s;", b, neutral, y, decides, b,
          y);
  og_w_dedent(g->w);
  sx_line(g, "}");
  return sx_result(g, m, OG_CN_L_COND);
}

/* ---- folds and comprehensions ---- */

static const char *fold_op(og_fold f) {
  switch (f) {
  case OG_FOLD_DIMS: return "OPR_FOLD_DIMS";
  case OG_FOLD_SUM: return "OPR_FOLD_SUM";
  case OG_FOLD_PRODUCT: return "OPR_FOLD_PRODUCT";
  case OG_FOLD_MIN: return "OPR_FOLD_MIN";
  case OG_FOLD_MAX: return "OPR_FOLD_MAX";
  case OG_FOLD_JOIN: return "OPR_FOLD_JOIN";
  case OG_FOLD_BROADCAST: return "OPR_FOLD_BROADCAST";
  case OG_FOLD_ALL: return "OPR_FOLD_ALL";
  case OG_FOLD_ANY: return "OPR_FOLD_ANY";
  default: return "OPR_FOLD_MERGE";
  }
}

/* One element into fold `f` of node `e`. Messages name the element of a
 * shape comprehension (a dim that is negative), else the whole fold
 * ("merge(a, b): [2] and [3] do not merge"). */
static void fold_step(sx_gen *g, const char *f, const og_sexpr *e,
                      const og_sexpr *x) {
  sx_mark m = sx_mark_get(g);
  const char *v = sx_expr(g, x);
  const og_sexpr *named = e->fold == OG_FOLD_DIMS ? x : e;
  if (x->type == OG_SXT_COND)
    sx_line(g, "opr_sx_fold_cond(&%s, %s);", f, v);
  else
    sx_call(g, x->type == OG_SXT_NUM ? "opr_sx_fold_num" : "opr_sx_fold_shape",
            ref(g, f), v, sx_what(g, named), NULL);
  sx_release(g, m);
}

static void fold_end(sx_gen *g, const og_sexpr *e, const char *f,
                     const char *r) {
  if (e->type == OG_SXT_COND) {
    sx_line(g, "%s = opr_sx_fold_end_cond(&%s);", r, f);
    return;
  }
  sx_call(g, e->type == OG_SXT_NUM ? "opr_sx_fold_end_num"
                                   : "opr_sx_fold_end_shape",
          ref(g, f), sx_what(g, e), ref(g, r), NULL);
}

/* merge(a, b, ...) and the other folds written with operands. */
const char *sx_fold(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  og_fold op = e->kind == OG_SX_MERGE       ? OG_FOLD_MERGE
               : e->kind == OG_SX_BROADCAST ? OG_FOLD_BROADCAST
                                            : e->fold;
  if (op == OG_FOLD_BROADCAST && e->nargs == 2) { /* no fold state */
    const char *a = sx_expr(g, &e->args[0]);
    const char *b = sx_expr(g, &e->args[1]);
    const char *r = sx_result(g, m, OG_CN_L_SHAPE);
    sx_call(g, "opr_sx_broadcast", a, b, sx_what(g, e), ref(g, r), NULL);
    return r;
  }
  const char *r = sx_temp(g, sx_kind(e->type));
  const char *f = sx_temp(g, OG_CN_L_FOLD);
  sx_call(g, "opr_sx_fold_init", ref(g, f), fold_op(op), "0", NULL);
  for (size_t i = 0; i < e->nargs; i++) fold_step(g, f, e, &e->args[i]);
  fold_end(g, e, f, r);
  return sx_result(g, m, sx_kind(e->type));
}

/* [D for k < N if C] and F(E for k < N if C): a loop over the bound
 * slot. N unknown: the fold's unknown result, the body never run; an
 * undecided `if`: the same, the other elements still run. */
const char *sx_comprehension(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  const char *r = sx_temp(g, sx_kind(e->type));
  const char *f = sx_temp(g, OG_CN_L_FOLD);
  const char *n = sx_temp(g, OG_CN_L_COUNT);
  const char *known = sx_temp(g, OG_CN_L_KNOWN);
  const char *k = sx_bound(g, e->index);
  sx_mark mn = sx_mark_get(g);
  const char *count = sx_expr(g, &e->args[0]);
  sx_call(g, "opr_sx_count", count, sx_what(g, &e->args[0]), ref(g, n),
          ref(g, known), NULL);
  sx_release(g, mn);
  sx_call(g, "opr_sx_fold_init", ref(g, f), fold_op(e->fold),
          e->fold == OG_FOLD_DIMS ? n : "0", NULL);
  sx_line(g, "if (!%s) opr_sx_fold_unknown(&%s);", known, f);
  /* Only all, any and product can end early (opr_sx_fold_done). */
  if (e->fold == OG_FOLD_ALL || e->fold == OG_FOLD_ANY ||
      e->fold == OG_FOLD_PRODUCT)
    sx_line(g, "for (%s = 0; %s < (int64_t)%s && !opr_sx_fold_done(&%s); %s++) {",
            k, k, n, f, k);
  else
    sx_line(g, "for (%s = 0; %s < (int64_t)%s; %s++) {", k, k, n, k);
  og_w_indent(g->w);
  g->depth++;
  const og_sexpr *num = &e->args[0];
  bool slot = e->index < g->op->nbound; /* a nested k of the slot hides it */
  size_t outer = slot ? g->rank_of[e->index] : 0;
  if (slot) g->rank_of[e->index] = num->kind == OG_SX_RANK ? num->index + 1 : 0;
  if (e->nargs > 2) {
    sx_mark mc = sx_mark_get(g);
    const char *keep = sx_expr_temp(g, &e->args[2]);
    sx_line(g, "if (%s == OPR_COND_UNDECIDED) opr_sx_fold_unknown(&%s);", keep,
            f);
    sx_line(g, "if (%s != OPR_COND_TRUE) continue;", keep);
    sx_release(g, mc);
  }
  fold_step(g, f, e, &e->args[1]);
  if (slot) g->rank_of[e->index] = outer;
  g->depth--;
  og_w_dedent(g->w);
  sx_line(g, "}");
  fold_end(g, e, f, r);
  return sx_result(g, m, sx_kind(e->type));
}

/* ---- lets ---- */

/* NAME(D, ...): the arguments first, then the let's function. A NAME
 * without parameters is evaluated once per function: its value cannot
 * differ from one use to the next. */
const char *sx_let_call(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  const og_shape_let *let = &g->op->shape_lets[e->index];
  size_t n = e->nargs;
  size_t v = g->vals ? 1 : 0; /* the values struct, first */
  const char **args = og_arena_array(g->f->arena, n + 2, sizeof *args);
  if (v) args[0] = sx_vals_arg(g);
  if (!n)
    return sx_read_once(g, OG_CN_L_LET, e->index,
                        og_cn_shape_let(g->f, g->op, let), args, v);
  for (size_t i = 0; i < n; i++) args[v + i] = sx_expr(g, &e->args[i]);
  const char *r = sx_result(g, m, sx_kind(e->type));
  args[v + n] = ref(g, r);
  sx_call_n(g, og_cn_shape_let(g->f, g->op, let), args, v + n + 1);
  return r;
}
