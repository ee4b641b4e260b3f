/* spec_synth: version-2 expressions of each kind, every form of the
 * contract's tables; composites are parenthesized where the grammar
 * needs it (comparisons are not chained, ?: binds loosest). */
#include "spec_synth_v2.h"

#include <stdlib.h>

#define COUNT(a) (uint32_t)(sizeof(a) / sizeof *(a))

static const char *pick_of(v2_gen *g, const char *const *v, uint32_t n) {
  return v[fz_pick(g->r, n)];
}

/* value(x) of an input value() reads; false (nothing written) when the
 * op has none. */
static bool put_value(v2_gen *g) {
  fz_buf *b = g->b, t = {0};
  g->b = &t;
  bool ok = v2_value_arg(g);
  g->b = b;
  if (ok) fz_printf(b, "value(%s)", t.p);
  free(t.p);
  return ok;
}

/* A small index or axis, now and then one out of any range. */
static void put_index(v2_gen *g) {
  static const char *const v[] = {"0", "1", "-1", "0", "-1", "2", "-2", "3",
                                  "9223372036854775807", "-(9223372036854775807)"};
  uint32_t n = fz_one_in(g->r, 20) ? COUNT(v) : fz_one_in(g->r, 4) ? 8 : 5;
  if (g->nbound && fz_pick(g->r, 2)) {
    fz_puts(g->b, g->bound[fz_pick(g->r, g->nbound)]);
    return;
  }
  fz_puts(g->b, pick_of(g, v, n));
}

/* The shape an axis indexes: mostly a single input (a literal shape of
 * a known rank makes most literal axes an error at the spec; L[i] of a
 * list input is its tensor i, parenthesized or not). */
static void axis_base(v2_gen *g, int d) {
  const char *x = NULL;
  for (size_t i = 0; i < g->op->nins && !x; i++)
    if (!g->op->ins[i].list && fz_pick(g->r, 2)) x = g->op->ins[i].name;
  if (x && !g->bad && !fz_one_in(g->r, 3)) fz_puts(g->b, x);
  else v2_shape(g, d - 1);
}

/* ---- numbers ---- */

static bool num_leaf_of_op(v2_gen *g) {
  const char *x = v2_input(g), *a;
  switch (fz_pick(g->r, 9)) {
  case 0: if (x) { fz_printf(g->b, "rank(%s)", x); return true; } break;
  case 1:
    if (x) { fz_printf(g->b, "dim(%s, ", x); put_index(g); fz_puts(g->b, ")"); return true; }
    break;
  case 2: if ((a = v2_attr(g, FZ_INT, false))) { fz_printf(g->b, "attr(%s)", a); return true; } break;
  case 3:
    if ((a = v2_attr(g, FZ_INT, true))) {
      fz_printf(g->b, "attr(%s)[", a); if (g->bad) put_index(g); else v2_nonneg_index(g); fz_puts(g->b, "]");
      return true;
    }
    break;
  case 4: if ((a = v2_list_input(g))) { fz_printf(g->b, "length(%s)", a); return true; } break;
  case 5:
    for (size_t i = 0; i < g->op->nattrs; i++)
      if (g->op->attrs[i].list && fz_pick(g->r, 2)) {
        fz_printf(g->b, "length(attr(%s))", g->op->attrs[i].name);
        return true;
      }
    break;
  case 6: if ((a = v2_attr(g, FZ_TYPE, false))) { fz_printf(g->b, "size_of(%s)", a); return true; } break;
  case 7:
    if (put_value(g)) {
      fz_puts(g->b, "[");
      v2_nonneg_index(g);
      fz_puts(g->b, "]");
      return true;
    }
    break;
  default: if (put_value(g)) return true; break;
  }
  return false;
}

static void num_leaf(v2_gen *g) {
  /* The last ones now and then: negative, unknown, extreme. */
  static const char *const lits[] = {"0", "1", "2", "3", "5", "1", "-1",
                                     "?", "-(2)", "9223372036854775807"};
  uint32_t c = fz_pick(g->r, 6);
  if (c == 0 && g->nbound) {
    fz_puts(g->b, g->bound[fz_pick(g->r, g->nbound)]);
  } else if (c == 1 && v2_find_let(g, V2_NUM)) {
    v2_let_use(g, V2_NUM, 1);
  } else if (c >= 3 && num_leaf_of_op(g)) {
  } else {
    bool odd = fz_one_in(g->r, g->bad ? 3 : 10);
    uint32_t n = odd ? COUNT(lits) - !fz_one_in(g->r, 10) : 6;
    const char *lit = pick_of(g, lits, n);
    fz_puts(g->b, g->no_unknown && lit[0] == '?' ? "4" : lit);
  }
}

static void put_window(v2_gen *g, int depth) {
  static const char *const pads[] = {"'VALID'", "'SAME'", "'EXPLICIT'"};
  static const char *const steps[] = {"1", "2", "3"};
  fz_puts(g->b, "window(");
  for (int i = 0; i < 4; i++) {
    /* A stride or dilation below 1 now and then (an error). */
    if (i >= 2 && !fz_one_in(g->r, 6)) fz_puts(g->b, pick_of(g, steps, 3));
    else v2_num(g, i == 0 ? depth - 1 : 0);
    fz_puts(g->b, ", ");
  }
  const char *s = v2_string_attr(g);
  if (s && fz_pick(g->r, 2)) fz_printf(g->b, "attr(%s))", s);
  else fz_printf(g->b, "%s)", pick_of(g, pads, 2 + (g->bad && fz_one_in(g->r, 4))));
}

static void put_num_composite(v2_gen *g, int d) {
  static const char *const ops[] = {"+", "-", "*", "/", "%"};
  static const char *const vf[] = {"merge", "join", "min", "max"};
  static const char *const folds[] = {"sum", "product", "min", "max",
                                      "merge", "join"};
  const char *l;
  switch (fz_pick(g->r, 13)) {
  case 0: case 1:
    fz_puts(g->b, "(");
    v2_num(g, d - 1);
    const char *op = pick_of(g, ops, COUNT(ops));
    fz_printf(g->b, " %s ", op);
    /* A divisor: mostly a positive literal or any number. */
    if ((op[0] == '/' || op[0] == '%') && !fz_one_in(g->r, 3))
      fz_printf(g->b, "%u", 1 + fz_pick(g->r, 3));
    else
      v2_num(g, d - 1);
    fz_puts(g->b, ")");
    return;
  case 2: fz_puts(g->b, "-"); num_leaf(g); return;
  case 3:
    fz_puts(g->b, "ceil_div("); v2_num(g, d - 1); fz_puts(g->b, ", ");
    if (fz_one_in(g->r, 3)) v2_num(g, d - 1);
    else fz_printf(g->b, "%u", 1 + fz_pick(g->r, 3));
    fz_puts(g->b, ")");
    return;
  case 4:
    fz_printf(g->b, "%s(", pick_of(g, vf, COUNT(vf)));
    v2_num(g, d - 1);
    for (uint32_t i = fz_pick(g->r, 3); i > 0; i--) { fz_puts(g->b, ", "); v2_num(g, d - 1); }
    fz_puts(g->b, ")");
    return;
  case 5: fz_puts(g->b, "product("); v2_shape(g, d - 1); fz_puts(g->b, ")"); return;
  case 6:
    if ((l = v2_list_input(g))) {
      fz_printf(g->b, "sum(%s, ", l); put_index(g); fz_puts(g->b, ")");
      return;
    }
    break;
  case 7:
    fz_puts(g->b, "("); axis_base(g, d); fz_puts(g->b, ")[");
    put_index(g); fz_puts(g->b, "]");
    return;
  case 8: put_window(g, d); return;
  case 9:
    fz_puts(g->b, "("); v2_cond(g, d - 1); fz_puts(g->b, " ? ");
    v2_num(g, d - 1); fz_puts(g->b, " : "); v2_num(g, d - 1); fz_puts(g->b, ")");
    return;
  case 10: case 11:
    fz_printf(g->b, "%s(", pick_of(g, folds, COUNT(folds)));
    v2_comprehension(g, V2_NUM, d);
    fz_puts(g->b, ")");
    return;
  default: if (v2_let_use(g, V2_NUM, d)) return; break;
  }
  num_leaf(g);
}

void v2_num(v2_gen *g, int depth) {
  if (v2_fault(g, V2_NUM)) return;
  if (v2_nest(g, depth)) put_num_composite(g, depth);
  else num_leaf(g);
}

/* ---- shapes ---- */

static bool shape_leaf_of_op(v2_gen *g) {
  const char *x = v2_input(g), *a, *l = v2_list_input(g);
  switch (fz_pick(g->r, 7)) {
  case 0: case 1: if (x) { fz_puts(g->b, x); return true; } break;
  case 2: if (put_value(g)) return true; break;
  case 3:
    if ((a = v2_attr(g, FZ_SHAPE, false)) || (a = v2_attr(g, FZ_INT, true)) ||
        (a = v2_attr(g, FZ_TENSOR, false))) {
      fz_printf(g->b, "attr(%s)", a);
      return true;
    }
    break;
  case 4:
    if ((a = v2_attr(g, FZ_SHAPE, true))) {
      fz_printf(g->b, "attr(%s)[", a); if (g->bad) put_index(g); else v2_nonneg_index(g); fz_puts(g->b, "]");
      return true;
    }
    break;
  default:
    if (l) {
      fz_printf(g->b, "%s[", l);
      if (g->out_index && fz_pick(g->r, 2)) fz_puts(g->b, g->out_index);
      else if (g->bad) put_index(g);
      else v2_nonneg_index(g);
      fz_puts(g->b, "]");
      return true;
    }
    break;
  }
  return false;
}

static void shape_leaf(v2_gen *g) {
  uint32_t c = fz_pick(g->r, 8);
  if (c < 4 && shape_leaf_of_op(g)) return;
  if (c == 4 && v2_let_use(g, V2_SHAPE, 1)) return;
  switch (c % 4) {
  case 0:
    /* A scalar, now and then: most axes are out of its range. */
    if (fz_one_in(g->r, 3)) { fz_puts(g->b, "[]"); return; }
    fz_puts(g->b, "[");
    num_leaf(g);
    fz_puts(g->b, ", ");
    num_leaf(g);
    fz_puts(g->b, "]");
    return;
  case 1: fz_puts(g->b, g->no_unknown ? "[?]" : "?"); return;
  case 2: fz_puts(g->b, "unknown("); num_leaf(g); fz_puts(g->b, ")"); return;
  default:
    fz_puts(g->b, "[");
    for (uint32_t i = 0, n = fz_pick(g->r, 4); i < n; i++) {
      fz_puts(g->b, i ? ", " : "");
      num_leaf(g);
    }
    fz_puts(g->b, "]");
    return;
  }
}

static void put_slice(v2_gen *g, int d) {
  fz_puts(g->b, "(");
  v2_shape(g, d - 1);
  fz_puts(g->b, ")[");
  uint32_t form = fz_pick(g->r, 4);
  if (form & 1) put_index(g);
  fz_puts(g->b, ":");
  if (form & 2) put_index(g);
  fz_puts(g->b, "]");
}

/* reduce(S, axes, keep) and permute(S, perm): integers from a list(int)
 * attr, value(x) or (reduce) a number; false (nothing written) for a
 * permute without any (in bad mode: a number). */
static bool put_integers_form(v2_gen *g, int d, bool reduce) {
  const char *a = v2_attr(g, FZ_INT, true);
  fz_buf ints = {0}, *b = g->b;
  g->b = &ints;
  uint32_t c = fz_pick(g->r, 3);
  if (c == 0 && a) fz_printf(g->b, "attr(%s)", a);
  else if (c == 1 && put_value(g)) {
  } else if (reduce || g->bad) v2_num(g, d - 1);
  else if (a) fz_printf(g->b, "attr(%s)", a);
  else put_value(g);
  g->b = b;
  if (!ints.p) return false;
  fz_printf(g->b, "%s(", reduce ? "reduce" : "permute");
  v2_shape(g, d - 1);
  fz_printf(g->b, ", %s", ints.p);
  free(ints.p);
  if (reduce) {
    fz_puts(g->b, ", ");
    v2_cond(g, d - 1);
  }
  fz_puts(g->b, ")");
  return true;
}

static void put_shape_composite(v2_gen *g, int d) {
  static const char *const vf[] = {"merge", "join", "broadcast"};
  const char *l;
  switch (fz_pick(g->r, 14)) {
  case 0: put_slice(g, d); return;
  case 1:
    fz_puts(g->b, "("); v2_shape(g, d - 1); fz_puts(g->b, " ++ ");
    v2_shape(g, d - 1); fz_puts(g->b, ")");
    return;
  case 2:
    fz_printf(g->b, "%s(", pick_of(g, vf, COUNT(vf)));
    v2_shape(g, d - 1);
    for (uint32_t i = fz_pick(g->r, 3); i > 0; i--) { fz_puts(g->b, ", "); v2_shape(g, d - 1); }
    fz_puts(g->b, ")");
    return;
  case 3: case 4: {
    bool rm = fz_pick(g->r, 3) == 0;
    fz_printf(g->b, "%s(", rm ? "remove" : fz_pick(g->r, 2) ? "set" : "insert");
    axis_base(g, d); fz_puts(g->b, ", "); put_index(g);
    if (!rm) { fz_puts(g->b, ", "); v2_num(g, d - 1); }
    fz_puts(g->b, ")");
    return;
  }
  case 5: case 6:
    if (put_integers_form(g, d, fz_pick(g->r, 2))) return;
    break;
  case 7:
    if ((l = v2_list_input(g))) {
      fz_printf(g->b, "concat(%s, ", l); v2_num(g, d - 1); fz_puts(g->b, ")");
      return;
    }
    break;
  case 8: case 9:
    fz_puts(g->b, "["); v2_comprehension(g, V2_NUM, d); fz_puts(g->b, "]");
    return;
  case 10:
    fz_puts(g->b, "("); v2_cond(g, d - 1); fz_puts(g->b, " ? ");
    v2_shape(g, d - 1); fz_puts(g->b, " : "); v2_shape(g, d - 1); fz_puts(g->b, ")");
    return;
  case 11:
    fz_printf(g->b, "%s(", pick_of(g, vf, COUNT(vf)));
    v2_comprehension(g, V2_SHAPE, d);
    fz_puts(g->b, ")");
    return;
  case 12:
    fz_puts(g->b, "[");
    for (uint32_t i = 0, n = 1 + fz_pick(g->r, 3); i < n; i++) {
      fz_puts(g->b, i ? ", " : "");
      v2_num(g, d - 1);
    }
    fz_puts(g->b, "]");
    return;
  default: if (v2_let_use(g, V2_SHAPE, d)) return; break;
  }
  shape_leaf(g);
}

void v2_shape(v2_gen *g, int depth) {
  if (v2_fault(g, V2_SHAPE)) return;
  if (v2_nest(g, depth)) put_shape_composite(g, depth);
  else shape_leaf(g);
}

/* ---- conditions ---- */

static void put_compare(v2_gen *g, int d) {
  static const char *const cmp[] = {"==", "!=", "<", "<=", ">", ">="};
  fz_puts(g->b, "(");
  v2_num(g, d - 1);
  fz_printf(g->b, ") %s (", pick_of(g, cmp, COUNT(cmp)));
  v2_num(g, d - 1);
  fz_puts(g->b, ")");
}

static bool cond_leaf_of_op(v2_gen *g) {
  static const char *const strs[] = {"'NCHW'", "'VALID'", "'a'", "''"};
  const char *a, *x = v2_input(g);
  switch (fz_pick(g->r, 5)) {
  case 0: if ((a = v2_attr(g, FZ_BOOL, false))) { fz_printf(g->b, "attr(%s)", a); return true; } break;
  case 1:
    if ((a = v2_string_attr(g))) {
      fz_printf(g->b, "attr(%s) %s %s", a, fz_pick(g->r, 2) ? "==" : "!=",
                pick_of(g, strs, COUNT(strs)));
      return true;
    }
    break;
  case 2:
    if ((a = v2_attr(g, FZ_TYPE, false))) {
      fz_printf(g->b, "attr(%s) %s %s", a, fz_pick(g->r, 2) ? "==" : "!=",
                fz_pick(g->r, 2) ? "int32" : "float");
      return true;
    }
    break;
  case 3:
    fz_puts(g->b, "known(");
    if (!put_value(g)) fz_puts(g->b, x ? x : "[]");
    fz_puts(g->b, ")");
    return true;
  default:
    if (x) {
      uint32_t lo = fz_pick(g->r, 3);
      fz_printf(g->b, "rank(%s) in [%u, %u]", x, lo, lo + fz_pick(g->r, 3));
      return true;
    }
    break;
  }
  return false;
}

static void cond_leaf(v2_gen *g, int d) {
  switch (fz_pick(g->r, 7)) {
  case 0: case 1: if (cond_leaf_of_op(g)) return; break;
  case 2: if (v2_let_use(g, V2_COND, 1)) return; break;
  case 3:
    fz_puts(g->b, "known(");
    bool saved = g->no_unknown;
    g->no_unknown = true; /* known(?) is of no kind */
    if (fz_pick(g->r, 2)) v2_shape(g, 0); else v2_num(g, 0);
    g->no_unknown = saved;
    fz_puts(g->b, ")");
    return;
  case 4:
    fz_puts(g->b, "bit(");
    num_leaf(g);
    fz_puts(g->b, ", ");
    if (g->bad && fz_one_in(g->r, 3)) put_index(g);
    else v2_nonneg_index(g);
    fz_puts(g->b, ")");
    return;
  default: break;
  }
  put_compare(g, d > 1 ? 1 : d);
}

static void put_cond_composite(v2_gen *g, int d) {
  switch (fz_pick(g->r, 9)) {
  case 0: case 1:
    fz_puts(g->b, "("); v2_cond(g, d - 1);
    fz_puts(g->b, fz_pick(g->r, 2) ? " && " : " || ");
    v2_cond(g, d - 1); fz_puts(g->b, ")");
    return;
  case 2: fz_puts(g->b, "!("); v2_cond(g, d - 1); fz_puts(g->b, ")"); return;
  case 3:
    fz_printf(g->b, "%s(", fz_pick(g->r, 2) ? "all" : "any");
    v2_comprehension(g, V2_COND, d);
    fz_puts(g->b, ")");
    return;
  case 4:
    fz_puts(g->b, "same("); v2_shape(g, d - 1); fz_puts(g->b, ", ");
    v2_shape(g, d - 1); fz_puts(g->b, ")");
    return;
  case 5:
    fz_puts(g->b, "("); v2_cond(g, d - 1); fz_puts(g->b, " ? ");
    v2_cond(g, d - 1); fz_puts(g->b, " : "); v2_cond(g, d - 1); fz_puts(g->b, ")");
    return;
  case 6:
    fz_puts(g->b, "rank("); v2_shape(g, d - 1);
    uint32_t lo = fz_pick(g->r, 3);
    fz_printf(g->b, ") in [%u, %u]", lo, lo + fz_pick(g->r, 3));
    return;
  case 7: if (v2_let_use(g, V2_COND, d)) return; break;
  default: put_compare(g, d); return;
  }
  cond_leaf(g, d);
}

void v2_cond(v2_gen *g, int depth) {
  if (v2_fault(g, V2_COND)) return;
  if (v2_nest(g, depth)) put_cond_composite(g, depth);
  else cond_leaf(g, depth);
}
