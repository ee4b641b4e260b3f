/* spec_synth: version-2 statements (see spec_synth_v2.h): the scope of
 * names (lets, bound names), comprehensions and the statements. */
#include "spec_synth_v2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool op_name_used(const fz_op *op, const char *n) {
  for (size_t i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, n) == 0) return true;
  for (size_t i = 0; i < op->nins; i++)
    if (strcmp(op->ins[i].name, n) == 0) return true;
  for (size_t i = 0; i < op->nouts; i++)
    if (strcmp(op->outs[i].name, n) == 0) return true;
  return false;
}

/* The forms and keywords, which no let, parameter or bound name may be
 * (sema says so; kept out unless the statement is bad). */
static bool reserved(const char *n) {
  static const char *const words[] = {
      "value", "shape", "dim", "rank", "merge", "attr", "broadcast",
      "input", "output", "type", "tensor", "float", "int32", "string",
      "join", "min", "max", "sum", "product", "all", "any", "known",
      "same", "bit", "window", "reduce", "permute", "concat", "set",
      "insert", "remove", "unknown", "length", "size_of", "ceil_div",
      "let", "require", "shape_fn", "for", "if", "in", "op", "package",
      "true", "false", "list", "int", "bool", "func", "stateful"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strcmp(words[i], n) == 0) return true;
  return false;
}

static bool name_used(v2_gen *g, const char *n) {
  bool used = op_name_used(g->op, n);
  /* The let being defined (lets[nlets]) too: its body's names. */
  for (unsigned i = 0; i <= g->nlets && i < V2_MAX_LETS; i++)
    used |= strcmp(g->lets[i].name, n) == 0;
  for (unsigned i = 0; i < g->nbound; i++)
    used |= strcmp(g->bound[i], n) == 0;
  return used;
}

/* A name no input, attr, output, let or bound name in scope has: with
 * the names hazard now and then a hostile one (a C keyword, a runtime
 * name, a local of the generated code), else prefix + n. */
static void fresh_name(v2_gen *g, const char *prefix, char *out, size_t cap) {
  if (fz_hazard(g->r, FZ_H_NAMES)) {
    snprintf(out, cap, "%s", fz_pool_io_name(g->r));
    if (!name_used(g, out) && (!reserved(out) || (g->bad && fz_one_in(g->r, 4))))
      return;
  }
  do snprintf(out, cap, "%s%u", prefix, g->fresh++);
  while (name_used(g, out));
}

const char *v2_input(v2_gen *g) {
  if (!g->op->nins) return NULL;
  return g->op->ins[fz_pick(g->r, (uint32_t)g->op->nins)].name;
}

const char *v2_list_input(v2_gen *g) {
  size_t n = g->op->nins, start = n ? fz_pick(g->r, (uint32_t)n) : 0;
  for (size_t j = 0; j < n; j++) {
    const fz_io *io = &g->op->ins[(start + j) % n];
    if (io->list) return io->name;
  }
  return NULL;
}

void v2_nonneg_index(v2_gen *g) {
  if (g->nbound && fz_pick(g->r, 2))
    fz_puts(g->b, g->bound[fz_pick(g->r, g->nbound)]);
  else
    fz_printf(g->b, "%u", fz_pick(g->r, 3));
}

bool v2_value_arg(v2_gen *g) {
  size_t n = g->op->nins, start = n ? fz_pick(g->r, (uint32_t)n) : 0;
  bool any = g->bad && fz_one_in(g->r, 4);
  for (size_t j = 0; j < n; j++) {
    const fz_io *io = &g->op->ins[(start + j) % n];
    if (!io->ints && !any) continue;
    fz_puts(g->b, io->name);
    if (!io->list) return true;
    fz_puts(g->b, "[");
    if (g->out_index && fz_pick(g->r, 2)) fz_puts(g->b, g->out_index);
    else v2_nonneg_index(g);
    fz_puts(g->b, "]");
    return true;
  }
  return false;
}

const char *v2_attr(v2_gen *g, int kind, bool list) {
  size_t n = g->op->nattrs, start = n ? fz_pick(g->r, (uint32_t)n) : 0;
  for (size_t j = 0; j < n; j++) {
    const fz_attr *a = &g->op->attrs[(start + j) % n];
    if (a->kind == kind && a->list == list && !a->is_enum) return a->name;
  }
  return NULL;
}

const char *v2_string_attr(v2_gen *g) {
  /* An enum's values are not known here: most literals are not one of
   * them (an error), so enums only in bad statements. */
  size_t n = g->op->nattrs, start = n ? fz_pick(g->r, (uint32_t)n) : 0;
  for (size_t j = 0; j < n; j++) {
    const fz_attr *a = &g->op->attrs[(start + j) % n];
    if (a->kind == FZ_STRING && !a->list && (!a->is_enum || g->bad))
      return a->name;
  }
  return NULL;
}

const v2_let *v2_find_let(v2_gen *g, v2_kind kind) {
  unsigned n = g->nlets, start = n ? fz_pick(g->r, n) : 0;
  for (unsigned j = 0; j < n; j++)
    if (g->lets[(start + j) % n].kind == kind) return &g->lets[(start + j) % n];
  return NULL;
}

bool v2_nest(v2_gen *g, int depth) {
  if (depth <= 0 || g->budget == 0 || fz_one_in(g->r, 4)) return false;
  g->budget--;
  return true;
}

bool v2_fault(v2_gen *g, v2_kind kind) {
  if (!g->bad || !fz_one_in(g->r, 10)) return false;
  const char *x = v2_input(g);
  switch (fz_pick(g->r, 5)) {
  case 0: fz_puts(g->b, kind == V2_SHAPE ? "rank(?)" : "[1, 2]"); break;
  case 1: fz_puts(g->b, kind == V2_COND ? "3" : "(1 < 2)"); break;
  case 2: fz_puts(g->b, "nowhere"); break;
  case 3: fz_printf(g->b, "dim(%s)", x ? x : "?"); break;
  default: fz_puts(g->b, kind == V2_NUM ? "value(1)" : "attr(nowhere)"); break;
  }
  return true;
}

bool v2_let_use(v2_gen *g, v2_kind kind, int depth) {
  const v2_let *l = v2_find_let(g, kind);
  if (!l) return false;
  unsigned n = l->nparams;
  if (g->bad && fz_one_in(g->r, 6)) n = (n + 1) % 3;
  fz_puts(g->b, l->name);
  if (n == 0 && l->nparams == 0) return true;
  fz_puts(g->b, "(");
  for (unsigned i = 0; i < n; i++) {
    fz_puts(g->b, i ? ", " : "");
    v2_num(g, depth - 1);
  }
  fz_puts(g->b, ")");
  return true;
}

/* The N of a comprehension: read at the level of `+`. */
static void bound_count(v2_gen *g, int depth) {
  const char *x = v2_input(g), *l = v2_list_input(g);
  switch (fz_pick(g->r, 7)) {
  case 0: if (x) { fz_printf(g->b, "rank(%s)", x); return; } break;
  case 1: if (l) { fz_printf(g->b, "length(%s)", l); return; } break;
  case 2: if (x) { fz_printf(g->b, "dim(%s, 0)", x); return; } break;
  case 3: fz_printf(g->b, "%u", fz_pick(g->r, 5)); return;
  case 4:
    if (fz_one_in(g->r, 30)) { fz_puts(g->b, "9223372036854775807"); return; }
    break;
  default: break;
  }
  /* Any number, now and then (often a negative one: an error). */
  if (!g->bad && !fz_one_in(g->r, 3)) {
    fz_printf(g->b, "%u", fz_pick(g->r, 4));
    return;
  }
  fz_puts(g->b, "(");
  v2_num(g, depth - 1);
  fz_puts(g->b, ")");
}

void v2_comprehension(v2_gen *g, v2_kind kind, int depth) {
  if (g->nbound == V2_MAX_BOUND) {
    fz_puts(g->b, kind == V2_COND ? "1 < 2" : kind == V2_NUM ? "1" : "[]");
    fz_puts(g->b, " for k_full < 1");
    return;
  }
  char k[24];
  /* A bound name that shadows an input or an outer bound name: bad. */
  const char *x = v2_input(g);
  if (g->bad && fz_one_in(g->r, 8) && (x || g->nbound))
    snprintf(k, sizeof k, "%s", x ? x : g->bound[0]);
  else
    fresh_name(g, "k", k, sizeof k);
  /* N is drawn before k is in scope (its folds use the slot too). */
  fz_buf *b = g->b, tail = {0};
  g->b = &tail;
  fz_printf(&tail, " for %s < ", k);
  bound_count(g, depth);
  snprintf(g->bound[g->nbound++], 24, "%s", k);
  bool cond = fz_one_in(g->r, 3);
  if (cond) {
    fz_puts(&tail, " if ");
    v2_cond(g, depth - 1);
  }
  g->b = b;
  if (kind == V2_SHAPE) v2_shape(g, depth - 1);
  else if (kind == V2_NUM) v2_num(g, depth - 1);
  else v2_cond(g, depth - 1);
  g->nbound--;
  fz_puts(g->b, tail.p);
  free(tail.p);
}

/* ---- statements ---- */

static void put_require(v2_gen *g, int depth) {
  fz_puts(g->b, "  require ");
  v2_cond(g, depth);
  fz_puts(g->b, ";\n");
}

static void put_let(v2_gen *g, int depth) {
  if (g->nlets == V2_MAX_LETS) return;
  v2_let *l = &g->lets[g->nlets];
  bool params = fz_one_in(g->r, 2);
  l->name[0] = '\0'; /* name_used looks at this slot */
  char name[sizeof l->name];
  fresh_name(g, params ? "f" : "l", name, sizeof name);
  memcpy(l->name, name, sizeof name);
  l->kind = (v2_kind)fz_pick(g->r, 3);
  l->nparams = params ? 1 + fz_pick(g->r, 2) : 0;
  fz_printf(g->b, "  let %s", l->name);
  unsigned saved = g->nbound;
  for (unsigned i = 0; i < l->nparams && g->nbound < V2_MAX_BOUND; i++) {
    fresh_name(g, "p", g->bound[g->nbound], 24);
    fz_printf(g->b, "%s%s", i ? ", " : "(", g->bound[g->nbound++]);
  }
  l->nparams = g->nbound - saved;
  fz_puts(g->b, l->nparams ? ") = " : " = ");
  g->no_unknown = true;
  if (g->bad && fz_one_in(g->r, 6)) fz_puts(g->b, "?"); /* no kind */
  else if (l->kind == V2_SHAPE) v2_shape(g, depth);
  else if (l->kind == V2_NUM) v2_num(g, depth);
  else v2_cond(g, depth);
  g->nbound = saved;
  g->no_unknown = false;
  fz_puts(g->b, ";\n");
  g->nlets++;
}

/* `shape out = S;` or, for a list output, often `shape out[i] = S;`. */
static void put_output(v2_gen *g, const fz_io *out, int depth) {
  bool indexed = (out->list || (g->bad && fz_one_in(g->r, 8))) &&
                 !fz_one_in(g->r, 3) && g->nbound < V2_MAX_BOUND;
  if (indexed) {
    char *i = g->bound[g->nbound];
    fresh_name(g, "i", i, 24);
    g->nbound++;
    g->out_index = i;
    fz_printf(g->b, "  shape %s[%s] = ", out->name, i);
  } else {
    fz_printf(g->b, "  shape %s = ", out->name);
  }
  v2_shape(g, depth);
  fz_puts(g->b, ";\n");
  if (indexed) g->nbound--;
  g->out_index = NULL;
}

static void start_statement(v2_gen *g, bool bad_op, bool deep) {
  g->budget = deep ? 30 + fz_pick(g->r, 30) : 4 + fz_pick(g->r, 14);
  g->bad = bad_op && fz_one_in(g->r, 2);
}

void fz_put_shape_v2(fz_rng *r, const fz_op *op, fz_buf *b) {
  v2_gen g = {.r = r, .op = op, .b = b};
  bool bad_op = fz_one_in(r, 8);
  /* Now and then deep nesting and many lets: the generated code's
   * temporaries and scopes under load. */
  bool deep = fz_one_in(r, 6);
  int depth = deep ? 6 + (int)fz_pick(r, 3) : 2 + (int)fz_pick(r, 3);
  uint32_t n = deep ? 4 + fz_pick(r, 8) : fz_pick(r, 6);
  for (uint32_t s = 0; s < n; s++) {
    start_statement(&g, bad_op, deep);
    /* A use before the let: names the let that comes next. */
    if (g.bad && fz_one_in(r, 10) && g.nlets < V2_MAX_LETS)
      fz_printf(b, "  require l%u > 0;\n", g.fresh);
    if (fz_pick(r, 3)) put_let(&g, depth);
    else put_require(&g, depth);
  }
  for (size_t i = 0; i < op->nouts; i++) {
    if (fz_one_in(r, 4)) continue;
    start_statement(&g, bad_op, deep);
    put_output(&g, &op->outs[i], depth);
    if (g.bad && fz_one_in(r, 10)) put_output(&g, &op->outs[i], 1);
  }
}
