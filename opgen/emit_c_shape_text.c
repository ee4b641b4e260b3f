/* Source text of shape expressions, for comments and messages. Sema
 * keeps each node's text (og_sexpr.text); nodes without it (a version-1
 * model, a node built by hand) are rendered from the tree. */
#include "emit_c_shape_gen.h"

#include <inttypes.h>
#include <string.h>

static int precedence(const og_sexpr *e) {
  if (e->kind != OG_SX_BINARY) return 3;
  return strchr("+-", e->op) ? 1 : strchr("*/%", e->op) ? 2 : 0;
}

/* The operators of og_sexpr.op (model.h). */
static const char *op_text(int op) {
  switch (op) {
  case 'e': return "==";
  case 'n': return "!=";
  case 'l': return "<=";
  case 'g': return ">=";
  case '&': return "&&";
  case '|': return "||";
  default: {
    static const char ops[] = "<>+-*/%";
    const char *p = strchr(ops, op);
    static const char *const text[] = {"<", ">", "+", "-", "*", "/", "%"};
    return p && op ? text[p - ops] : "?";
  }
  }
}

static void render(og_writer *t, const og_op *op, const og_sexpr *e, int min);

static void render_args(og_writer *t, const og_op *op, const og_sexpr *e,
                        const char *open) {
  og_w_puts(t, open);
  for (size_t i = 0; i < e->nargs; i++) {
    if (i) og_w_puts(t, ", ");
    render(t, op, &e->args[i], 0);
  }
  og_w_puts(t, open[0] == '[' ? "]" : ")");
}

static void render(og_writer *t, const og_op *op, const og_sexpr *e,
                   int min) {
  if (e->text) {
    og_w_puts(t, e->text);
    return;
  }
  const char *in = e->index < op->ninputs ? op->inputs[e->index].name : "";
  switch (e->kind) {
  case OG_SX_INT: og_w_printf(t, "%" PRId64, e->i); return;
  case OG_SX_UNKNOWN: og_w_puts(t, "?"); return;
  case OG_SX_INPUT: og_w_puts(t, in); return;
  case OG_SX_DIM:
    if (e->nargs) break;
    og_w_printf(t, "dim(%s, %" PRId64 ")", in, e->i);
    return;
  case OG_SX_RANK: og_w_printf(t, "rank(%s)", in); return;
  case OG_SX_ATTR:
    og_w_printf(t, "attr(%s)",
                e->index < op->nattrs ? op->attrs[e->index].name : "");
    return;
  case OG_SX_LIST: render_args(t, op, e, "["); return;
  case OG_SX_MERGE: render_args(t, op, e, "merge("); return;
  case OG_SX_BROADCAST: render_args(t, op, e, "broadcast("); return;
  case OG_SX_SAME: render_args(t, op, e, "same("); return;
  case OG_SX_NEG:
    og_w_puts(t, "-");
    render(t, op, &e->args[0], 3);
    return;
  case OG_SX_IN:
    render(t, op, &e->args[0], 1);
    og_w_puts(t, " in [");
    render(t, op, &e->args[1], 0);
    og_w_puts(t, ", ");
    render(t, op, &e->args[2], 0);
    og_w_puts(t, "]");
    return;
  case OG_SX_BINARY: {
    int p = precedence(e);
    if (p < min) og_w_puts(t, "(");
    render(t, op, &e->args[0], p ? p : 1);
    og_w_printf(t, " %s ", op_text(e->op));
    render(t, op, &e->args[1], p ? p + 1 : 1);
    if (p < min) og_w_puts(t, ")");
    return;
  }
  default: break;
  }
  og_w_puts(t, "?"); /* version 2 forms always carry their text */
}

/* The text on one line: each run of spaces and line breaks outside a
 * string literal is one space (a statement may span lines). */
static void one_line(og_writer *t, const char *s) {
  char quote = 0;
  for (const char *p = s; *p; p++) {
    if (quote) {
      if (*p == quote) quote = 0;
    } else if (*p == '\'' || *p == '"') {
      quote = *p;
    } else if (strchr(" \t\r\n", *p)) {
      while (p[1] && strchr(" \t\r\n", p[1])) p++;
      og_w_write(t, " ", 1);
      continue;
    }
    og_w_write(t, p, 1);
  }
}

const char *sx_text(const og_c_file *f, const og_op *op, const og_sexpr *e) {
  og_writer t;
  og_writer_init(&t);
  if (e->text) one_line(&t, e->text);
  else render(&t, op, e, 0);
  const char *s = og_arena_strndup(f->arena, t.buf ? t.buf : "", t.len);
  og_writer_free(&t);
  return s;
}

/* The text of the first node of `kind` and `index` under e. */
static const char *find_name(const og_sexpr *e, og_sexpr_kind kind,
                             size_t index) {
  if (e->kind == kind && e->index == index && e->text) return e->text;
  for (size_t i = 0; i < e->nargs; i++) {
    const char *s = find_name(&e->args[i], kind, index);
    if (s) return s;
  }
  return NULL;
}

const char *sx_bound_name(const og_sexpr *e, size_t slot,
                          const char *fallback) {
  const char *s = find_name(e, OG_SX_BOUND, slot);
  return s ? s : fallback;
}

const char *sx_param_name(const og_sexpr *e, size_t param,
                          const char *fallback) {
  const char *s = find_name(e, OG_SX_PARAM, param);
  return s ? s : fallback;
}
