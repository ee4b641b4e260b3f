/* Expressions: one runtime call (opr/shape_expr.h) per form, operands
 * first, the value in a temporary or an expression of temporaries
 * (emit_c_shape_gen.h). Forms that decide what runs (?:, && and ||,
 * comprehensions, folds, lets) are in emit_c_shape_flow.c. */
#include "emit_c_shape_gen.h"

#include "dtype.h"

#include <inttypes.h>
#include <string.h>

static const char *ref(const sx_gen *g, const char *lvalue) {
  return sx_printf(g, "&%s", lvalue);
}

static const char *index_c(const char **names, size_t i) { return names[i]; }

static const char *int_literal(const sx_gen *g, int64_t v) {
  if (v == INT64_MIN) return "opr_sx_int(INT64_MIN)";
  return sx_printf(g, "opr_sx_int(%" PRId64 ")", v);
}

static const char *unknown_of(og_sx_type t) {
  return t == OG_SXT_NUM    ? "opr_sx_unknown_num()"
         : t == OG_SXT_COND ? "OPR_COND_UNDECIDED"
                            : "opr_sx_unknown_shape()";
}

/* A node's result is the first temporary of its kind after its mark, or
 * an expression (of later ones, or of a local read once: in0, let0),
 * which is then copied there. */
const char *sx_expr_temp(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  const char *x = sx_expr(g, e);
  const char *r = sx_result(g, m, sx_kind(e->type));
  if (strcmp(x, r) != 0) sx_line(g, "%s = %s;", r, x);
  return r;
}

/* The opr_dim_cmp of a comparison operator; NULL for another. */
static const char *cmp_enum(int op) {
  switch (op) {
  case 'e': return "OPR_DIM_EQ";
  case 'n': return "OPR_DIM_NE";
  case 'l': return "OPR_DIM_LE";
  case 'g': return "OPR_DIM_GE";
  case '<': return "OPR_DIM_LT";
  case '>': return "OPR_DIM_GT";
  default: return NULL;
  }
}

/* A comparison of two literals, decided here. */
static const char *literal_compare(int op, int64_t a, int64_t b) {
  bool r = op == 'e' ? a == b : op == 'n' ? a != b : op == 'l' ? a <= b
           : op == 'g' ? a >= b : op == '<' ? a < b : a > b;
  return r ? "OPR_COND_TRUE" : "OPR_COND_FALSE";
}

static const char *arith_fn(int op) {
  switch (op) {
  case '+': return "opr_sx_add";
  case '-': return "opr_sx_sub";
  case '*': return "opr_sx_mul";
  case '/': return "opr_sx_div";
  default: return "opr_sx_mod";
  }
}

/* ---- inputs ---- */

/* The tensor of input `arg` that value(...) reads: 0, or i of x[i]
 * (checked like x[i]: negative or past the end is an error). */
static const char *tensor_index(sx_gen *g, const og_sexpr *e,
                                const og_sexpr *i) {
  if (!i) return "0";
  const char *n = sx_expr_temp(g, i);
  const char *sh = sx_temp(g, OG_CN_L_SHAPE);
  sx_call(g, "opr_sx_input_at", index_c(g->in_ix, e->index), n, sx_what(g, e),
          ref(g, sh), NULL);
  return sx_printf(g, "%s.known ? (size_t)%s.v : SIZE_MAX", n, n);
}

/* Whether index `i` is the k of a comprehension `for k < rank(x)` of
 * input `arg`, so that dim(x, k) is always in range: no check to make. */
static bool in_rank(const sx_gen *g, const og_sexpr *i, size_t arg) {
  return i->kind == OG_SX_BOUND && i->index < g->op->nbound &&
         g->rank_of[i->index] == arg + 1;
}

/* x: read once per function. */
static const char *input_shape(sx_gen *g, size_t arg) {
  const char *args[1] = {index_c(g->in_ix, arg)};
  return sx_read_once(g, OG_CN_L_INPUT, arg, "opr_sx_input", args, 1);
}

static const char *value_form(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  const char *arg = index_c(g->in_ix, e->index);
  if (e->kind == OG_SX_VALUE_KNOWN) {
    const char *t = tensor_index(g, e, e->nargs ? &e->args[0] : NULL);
    return sx_printf(g, "opr_sx_value_known(%s, %s, %s)", sx_ctx(g), arg, t);
  }
  if (e->kind == OG_SX_VALUE_AT) {
    const char *i = sx_expr(g, &e->args[0]);
    const char *t = tensor_index(g, e, e->nargs > 1 ? &e->args[1] : NULL);
    const char *r = sx_result(g, m, OG_CN_L_NUM);
    sx_call(g, "opr_sx_value_at", arg, t, i, sx_what(g, e), ref(g, r), NULL);
    return r;
  }
  const char *t = tensor_index(g, e, e->nargs ? &e->args[0] : NULL);
  const char *r = sx_result(g, m, sx_kind(e->type));
  sx_call(g, e->type == OG_SXT_NUM ? "opr_sx_value_num" : "opr_sx_value_shape",
          arg, t, sx_what(g, e), ref(g, r), NULL);
  return r;
}

/* dim(x, i), rank(x), x[i], length(L), sum(L, i), concat(L, axis). */
static const char *input_form(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  const char *arg = index_c(g->in_ix, e->index);
  const char *r, *a;
  switch (e->kind) {
  case OG_SX_INPUT:
    return input_shape(g, e->index);
  case OG_SX_RANK:
    return sx_printf(g, "opr_sx_rank(%s)", input_shape(g, e->index));
  case OG_SX_LENGTH:
    return sx_printf(g, "opr_sx_length(%s, %s)", sx_ctx(g), arg);
  case OG_SX_DIM: {
    const char *sh = input_shape(g, e->index);
    if (e->nargs && in_rank(g, &e->args[0], e->index))
      return sx_printf(g, "opr_sx_dim_num(%s.dims[%s])", sh,
                       sx_bound(g, e->args[0].index));
    a = e->nargs ? sx_expr(g, &e->args[0]) : int_literal(g, e->i);
    r = sx_result(g, m, OG_CN_L_NUM);
    sx_call(g, "opr_sx_dim", sh, a, sx_what(g, e), ref(g, r), NULL);
    return r;
  }
  default: break;
  }
  a = sx_expr(g, &e->args[0]);
  r = sx_result(g, m, sx_kind(e->type));
  const char *fn = e->kind == OG_SX_INPUT_AT  ? "opr_sx_input_at"
                   : e->kind == OG_SX_SUM_DIMS ? "opr_sx_sum_dims"
                                               : "opr_sx_concat";
  sx_call(g, fn, arg, a, sx_what(g, e), ref(g, r), NULL);
  return r;
}

/* ---- attrs ---- */

static const char *attr_is(sx_gen *g, const og_sexpr *e, const char *attr,
                           const char *r) {
  const og_sexpr *x = &e->args[0];
  if (x->kind == OG_SX_DTYPE)
    sx_call(g, "opr_sx_attr_is_type", attr,
            sx_printf(g, "OPR_DT_%s", og_dtype_enum_id((og_dtype)x->i)),
            sx_what(g, e), ref(g, r), NULL);
  else
    sx_call(g, "opr_sx_attr_is_string", attr, sx_string(g, x->s ? x->s : ""),
            sx_what(g, e), ref(g, r), NULL);
  return e->op == 'n' ? sx_printf(g, "opr_sx_not(%s)", r) : r;
}

/* A bool attr as a condition, a string attr as text: read once per
 * function (per inference with a values struct). */
static const char *attr_once(sx_gen *g, size_t attr, bool text,
                             const char *what) {
  const char *args[2] = {index_c(g->attr_ix, attr), what};
  g->attr_text[attr] = text;
  return sx_read_once(g, OG_CN_L_ATTR, attr,
                      text ? "opr_sx_attr_string" : "opr_sx_attr_cond", args,
                      2);
}

static const char *attr_form(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  const char *attr = index_c(g->attr_ix, e->index), *what = sx_what(g, e);
  const char *r, *fn;
  switch (e->kind) {
  case OG_SX_ATTR_AT: {
    const char *i = sx_expr(g, &e->args[0]);
    r = sx_result(g, m, sx_kind(e->type));
    fn = e->type == OG_SXT_SHAPE ? "opr_sx_attr_shape_at" : "opr_sx_attr_at";
    sx_call(g, fn, attr, i, what, ref(g, r), NULL);
    return r;
  }
  case OG_SX_ATTR_IS:
    return attr_is(g, e, attr, sx_temp(g, OG_CN_L_COND));
  case OG_SX_ATTR_LENGTH: fn = "opr_sx_attr_length"; break;
  case OG_SX_SIZE_OF: fn = "opr_sx_size_of"; break;
  default: /* OG_SX_ATTR */
    if (e->type == OG_SXT_COND) return attr_once(g, e->index, false, what);
    fn = e->type == OG_SXT_NUM    ? "opr_sx_attr_num"
         : e->type == OG_SXT_COND ? "opr_sx_attr_cond"
                                  : "opr_sx_attr_shape";
  }
  r = sx_temp(g, sx_kind(e->type));
  sx_call(g, fn, attr, what, ref(g, r), NULL);
  return r;
}

const og_sexpr *sx_ints_source(const og_op *op, const og_sexpr *e) {
  const og_sexpr *d = e;
  while (d->kind == OG_SX_LET && d->nargs == 0 && d->index < op->nshape_lets)
    d = &op->shape_lets[d->index].body;
  return d->kind == OG_SX_ATTR || d->kind == OG_SX_VALUE ? d : e;
}

const char *sx_ints(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  const og_sexpr *d = sx_ints_source(g->op, e);
  if (d->kind == OG_SX_ATTR) {
    const char *q = sx_temp(g, OG_CN_L_INTS);
    sx_call(g, "opr_sx_attr_ints", index_c(g->attr_ix, d->index),
            sx_what(g, e), ref(g, q), NULL);
    return q;
  }
  if (d->kind == OG_SX_VALUE) {
    const char *t = tensor_index(g, d, d->nargs ? &d->args[0] : NULL);
    const char *q = sx_result(g, m, OG_CN_L_INTS);
    sx_call(g, "opr_sx_value_ints", index_c(g->in_ix, d->index), t,
            sx_what(g, e), ref(g, q), NULL);
    return q;
  }
  const char *n = sx_expr(g, e);
  const char *q = sx_result(g, m, OG_CN_L_INTS);
  sx_call(g, "opr_sx_num_ints", n, ref(g, q), NULL);
  return q;
}

/* ---- shapes ---- */

/* The D, ... of [D, ...] (at least one): the numbers into an array
 * (returned), their texts into a static one (*whats). */
static const char *literal_dims(sx_gen *g, const og_sexpr *e,
                                const char **whats) {
  const char *a = sx_array(g, OG_CN_L_NUMS, e->nargs);
  const char *w = sx_name(g, OG_CN_L_WHATS, g->whats++);
  /* A text too long for a string literal is a compound literal, which a
   * static array cannot hold. */
  bool fits = true;
  for (size_t i = 0; i < e->nargs; i++)
    fits &= og_c_string_fits(strlen(sx_text(g->f, g->op, &e->args[i])));
  const char *texts = "";
  for (size_t i = 0; i < e->nargs; i++) {
    sx_mark mi = sx_mark_get(g);
    sx_line(g, "%s[%zu] = %s;", a, i, sx_expr(g, &e->args[i]));
    sx_release(g, mi);
    texts = sx_printf(g, "%s%s%s", texts, i ? ", " : "",
                      sx_what(g, &e->args[i]));
  }
  const char *decl = sx_printf(g, "%sconst char *const %s[] = {",
                               fits ? "static " : "", w);
  if (strlen(decl) + strlen(texts) + 4 <= 78) {
    og_w_line(g->statics, "%s%s};", decl, texts);
  } else { /* one text a line */
    og_w_line(g->statics, "%s", decl);
    for (size_t i = 0; i < e->nargs; i++)
      og_w_line(g->statics, "    %s%s", sx_what(g, &e->args[i]),
                i + 1 < e->nargs ? "," : "");
    og_w_line(g->statics, "};");
  }
  *whats = w;
  return a;
}

/* [D, ...]. */
static const char *literal_shape(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  if (!e->nargs) {
    const char *r = sx_temp(g, OG_CN_L_SHAPE);
    sx_call(g, "opr_sx_shape", "NULL", "0", "NULL", ref(g, r), NULL);
    return r;
  }
  const char *w, *a = literal_dims(g, e, &w);
  const char *r = sx_result(g, m, OG_CN_L_SHAPE);
  sx_call(g, "opr_sx_shape", a, sx_printf(g, "%zu", e->nargs), w, ref(g, r),
          NULL);
  return r;
}

/* S ++ [D, ...]: one step, without the literal's own shape. */
static const char *append_dims(sx_gen *g, const og_sexpr *e, sx_mark m,
                               const char *s) {
  const og_sexpr *l = &e->args[1];
  const char *w, *a = literal_dims(g, l, &w);
  const char *r = sx_result(g, m, OG_CN_L_SHAPE);
  sx_call(g, "opr_sx_append_dims", s, a, sx_printf(g, "%zu", l->nargs), w,
          ref(g, r), NULL);
  return r;
}

/* A slice bound: "true, n0", or "false, opr_sx_unknown_num()" when left
 * out. */
static const char *slice_bound(sx_gen *g, const og_sexpr *b) {
  if (b->kind == OG_SX_UNKNOWN && b->i == 1)
    return "false, opr_sx_unknown_num()";
  return sx_printf(g, "true, %s", sx_expr(g, b));
}

static const char *shape_form(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  const char *what = sx_what(g, e);
  if (e->kind == OG_SX_PRODUCT || e->kind == OG_SX_UNKNOWN_RANK) {
    const char *x = sx_expr(g, &e->args[0]);
    const char *r = sx_result(g, m, sx_kind(e->type));
    sx_call(g, e->kind == OG_SX_PRODUCT ? "opr_sx_product" : "opr_sx_unknown_rank",
            x, what, ref(g, r), NULL);
    return r;
  }
  const char *s = sx_expr(g, &e->args[0]);
  if (e->kind == OG_SX_RANK_OF) return sx_printf(g, "opr_sx_rank(%s)", s);
  if (e->kind == OG_SX_INDEX && e->args[0].kind == OG_SX_INPUT &&
      in_rank(g, &e->args[1], e->args[0].index)) /* x[k], k < rank(x) */
    return sx_printf(g, "opr_sx_dim_num(%s.dims[%s])", s,
                     sx_bound(g, e->args[1].index));
  const char *a = NULL, *b = NULL;
  if (e->kind == OG_SX_SLICE) {
    a = slice_bound(g, &e->args[1]);
    b = slice_bound(g, &e->args[2]);
    const char *r = sx_result(g, m, OG_CN_L_SHAPE);
    sx_call(g, "opr_sx_slice", s, a, b, ref(g, r), NULL);
    return r;
  }
  if (e->kind == OG_SX_CONCAT_SHAPES && e->args[1].kind == OG_SX_LIST &&
      e->args[1].nargs > 0)
    return append_dims(g, e, m, s);
  if (e->kind == OG_SX_REDUCE || e->kind == OG_SX_PERMUTE)
    a = sx_ints(g, &e->args[1]);
  else
    a = sx_expr(g, &e->args[1]);
  if (e->nargs > 2) b = sx_expr(g, &e->args[2]);
  const char *r = sx_result(g, m, sx_kind(e->type));
  switch (e->kind) {
  case OG_SX_INDEX: sx_call(g, "opr_sx_dim", s, a, what, ref(g, r), NULL); break;
  case OG_SX_CONCAT_SHAPES: sx_call(g, "opr_sx_append", s, a, ref(g, r), NULL); break;
  case OG_SX_SET: sx_call(g, "opr_sx_set", s, a, b, what, ref(g, r), NULL); break;
  case OG_SX_INSERT: sx_call(g, "opr_sx_insert", s, a, b, what, ref(g, r), NULL); break;
  case OG_SX_REMOVE: sx_call(g, "opr_sx_remove", s, a, what, ref(g, r), NULL); break;
  case OG_SX_REDUCE: sx_call(g, "opr_sx_reduce", s, a, b, what, ref(g, r), NULL); break;
  default: sx_call(g, "opr_sx_permute", s, a, what, ref(g, r), NULL); break;
  }
  return r;
}

/* ---- numbers and conditions ---- */

static const char *window(sx_gen *g, const og_sexpr *e, sx_mark m) {
  const char *x[4];
  for (int i = 0; i < 4; i++) x[i] = sx_expr(g, &e->args[i]);
  const og_sexpr *p = &e->args[4];
  const char *pad;
  if (p->kind == OG_SX_ATTR) {
    pad = attr_once(g, p->index, true, sx_what(g, p));
  } else {
    pad = sx_string(g, p->s ? p->s : "");
  }
  const char *r = sx_result(g, m, OG_CN_L_NUM);
  sx_call(g, "opr_sx_window", x[0], x[1], x[2], x[3], pad, sx_what(g, e),
          ref(g, r), NULL);
  return r;
}

static const char *number_form(sx_gen *g, const og_sexpr *e) {
  sx_mark m = sx_mark_get(g);
  if (e->kind == OG_SX_WINDOW) return window(g, e, m);
  const char *a = sx_expr(g, &e->args[0]);
  if (e->kind == OG_SX_NOT) return sx_printf(g, "opr_sx_not(%s)", a);
  if (e->kind == OG_SX_KNOWN)
    return sx_printf(g, e->args[0].type == OG_SXT_SHAPE
                            ? "opr_sx_known_shape(%s)" : "opr_sx_known_num(%s)",
                     a);
  if (e->kind == OG_SX_NEG) {
    const char *r = sx_result(g, m, OG_CN_L_NUM);
    sx_call(g, "opr_sx_neg", a, sx_what(g, e), ref(g, r), NULL);
    return r;
  }
  const char *b = sx_expr(g, &e->args[1]);
  if (e->kind == OG_SX_IN)
    return sx_printf(g, "opr_sx_in(%s, %s, %s)", a, b, sx_expr(g, &e->args[2]));
  if (e->kind == OG_SX_BINARY && cmp_enum(e->op)) {
    if (e->args[0].kind == OG_SX_INT && e->args[1].kind == OG_SX_INT)
      return literal_compare(e->op, e->args[0].i, e->args[1].i);
    return sx_printf(g, "opr_sx_compare(%s, %s, %s)", a, cmp_enum(e->op), b);
  }
  const char *r = sx_result(g, m, sx_kind(e->type));
  const char *fn = e->kind == OG_SX_CEIL_DIV ? "opr_sx_ceil_div"
                   : e->kind == OG_SX_BIT    ? "opr_sx_bit"
                                             : arith_fn(e->op);
  sx_call(g, fn, a, b, sx_what(g, e), ref(g, r), NULL);
  return r;
}

/* same(S, ...): the shapes into an array. */
static const char *same(sx_gen *g, const og_sexpr *e) {
  const char *v = sx_array(g, OG_CN_L_SHAPES, e->nargs);
  for (size_t i = 0; i < e->nargs; i++) {
    sx_mark mi = sx_mark_get(g);
    sx_line(g, "%s[%zu] = %s;", v, i, sx_expr(g, &e->args[i]));
    sx_release(g, mi);
  }
  return sx_printf(g, "opr_sx_same(%s, %s, %zu)", sx_ctx(g), v, e->nargs);
}

static const char *leaf(sx_gen *g, const og_sexpr *e) {
  switch (e->kind) {
  case OG_SX_INT: return int_literal(g, e->i);
  case OG_SX_UNKNOWN: return unknown_of(e->type);
  case OG_SX_STRING: return sx_string(g, e->s ? e->s : "");
  case OG_SX_DTYPE:
    return sx_printf(g, "OPR_DT_%s", og_dtype_enum_id((og_dtype)e->i));
  case OG_SX_BOUND:
    return sx_printf(g, "opr_sx_dim_num(%s)", sx_bound(g, e->index));
  default: /* OG_SX_PARAM */
    return sx_printf(g, "opr_sx_computed(%s)",
                     sx_name(g, OG_CN_L_PARAM, e->index));
  }
}

const char *sx_expr(sx_gen *g, const og_sexpr *e) {
  switch (e->kind) {
  case OG_SX_INT: case OG_SX_UNKNOWN: case OG_SX_STRING: case OG_SX_DTYPE:
  case OG_SX_BOUND: case OG_SX_PARAM:
    return leaf(g, e);
  case OG_SX_INPUT: case OG_SX_INPUT_AT: case OG_SX_DIM: case OG_SX_RANK:
  case OG_SX_LENGTH: case OG_SX_SUM_DIMS: case OG_SX_CONCAT:
    return input_form(g, e);
  case OG_SX_VALUE: case OG_SX_VALUE_AT: case OG_SX_VALUE_KNOWN:
    return value_form(g, e);
  case OG_SX_ATTR: case OG_SX_ATTR_AT: case OG_SX_ATTR_LENGTH:
  case OG_SX_ATTR_IS: case OG_SX_SIZE_OF:
    return attr_form(g, e);
  case OG_SX_LIST: return literal_shape(g, e);
  case OG_SX_UNKNOWN_RANK: case OG_SX_INDEX: case OG_SX_SLICE:
  case OG_SX_CONCAT_SHAPES: case OG_SX_SET: case OG_SX_INSERT:
  case OG_SX_REMOVE: case OG_SX_REDUCE: case OG_SX_PERMUTE:
  case OG_SX_RANK_OF: case OG_SX_PRODUCT:
    return shape_form(g, e);
  case OG_SX_BINARY:
    if (e->op == '&' || e->op == '|') return sx_logic(g, e);
    return number_form(g, e);
  case OG_SX_NEG: case OG_SX_CEIL_DIV: case OG_SX_WINDOW: case OG_SX_BIT:
  case OG_SX_NOT: case OG_SX_IN: case OG_SX_KNOWN:
    return number_form(g, e);
  case OG_SX_SAME: return same(g, e);
  case OG_SX_COND: return sx_cond_expr(g, e);
  case OG_SX_COMPREHENSION: return sx_comprehension(g, e);
  case OG_SX_FOLD: case OG_SX_MERGE: case OG_SX_BROADCAST:
    return sx_fold(g, e);
  case OG_SX_LET: return sx_let_call(g, e);
  }
  return unknown_of(e->type);
}
