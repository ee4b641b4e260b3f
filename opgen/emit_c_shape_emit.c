/* The shape compiler's temporaries and lines: names from the name model,
 * calls wrapped to the line width, failures routed (emit_c_shape_gen.h). */
#include "emit_c_shape_gen.h"

#include <stdarg.h>
#include <string.h>

/* Line width the calls are wrapped to. */
enum { SX_WIDTH = 80 };

sx_mark sx_mark_get(const sx_gen *g) {
  sx_mark m;
  memcpy(m.next, g->next, sizeof m.next);
  return m;
}

void sx_release(sx_gen *g, sx_mark m) {
  memcpy(g->next, m.next, sizeof m.next);
}

const char *sx_name(const sx_gen *g, og_cn_local kind, size_t n) {
  return og_cn_shape_local(g->f, kind, n);
}

const char *sx_temp(sx_gen *g, og_cn_local kind) {
  size_t n = g->next[kind]++;
  if (g->next[kind] > g->max[kind]) g->max[kind] = g->next[kind];
  return sx_name(g, kind, n);
}

const char *sx_array(sx_gen *g, og_cn_local kind, size_t len) {
  size_t slot = g->next[kind];
  if (slot == g->cap[kind]) {
    size_t cap = slot ? slot * 2 : 4;
    size_t *l = og_arena_array(g->f->arena, cap, sizeof *l);
    if (slot) memcpy(l, g->len[kind], slot * sizeof *l);
    g->len[kind] = l, g->cap[kind] = cap;
  }
  if (len > g->len[kind][slot]) g->len[kind][slot] = len;
  return sx_temp(g, kind);
}

const char *sx_bound(sx_gen *g, size_t slot) {
  if (slot < g->op->nbound) g->bound[slot] = true;
  return sx_name(g, OG_CN_L_BOUND, slot);
}

const char *sx_ctx(sx_gen *g) {
  g->ctx_used = true;
  return sx_name(g, OG_CN_L_CTX, 0);
}

og_cn_local sx_kind(og_sx_type t) {
  return t == OG_SXT_NUM    ? OG_CN_L_NUM
         : t == OG_SXT_COND ? OG_CN_L_COND
                            : OG_CN_L_SHAPE;
}

const char *sx_result(sx_gen *g, sx_mark m, og_cn_local kind) {
  sx_release(g, m);
  return sx_temp(g, kind);
}

const char *sx_printf(const sx_gen *g, const char *fmt, ...) {
  og_writer t;
  og_writer_init(&t);
  va_list ap;
  va_start(ap, fmt);
  og_w_vprintf(&t, fmt, ap);
  va_end(ap);
  const char *s = og_arena_strndup(g->f->arena, t.buf ? t.buf : "", t.len);
  og_writer_free(&t);
  return s;
}

void sx_line(sx_gen *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  og_w_vprintf(g->w, fmt, ap);
  va_end(ap);
  og_w_newline(g->w);
}

const char *sx_string(const sx_gen *g, const char *s) {
  og_writer t;
  og_writer_init(&t);
  og_c_string(&t, s, strlen(s));
  const char *lit = og_arena_strndup(g->f->arena, t.buf, t.len);
  og_writer_free(&t);
  return lit;
}

const char *sx_what(const sx_gen *g, const og_sexpr *e) {
  return sx_string(g, sx_text(g->f, g->op, e));
}

/* What a failing call does: return its status, or store it and jump. */
static const char *fail_action(sx_gen *g) {
  g->fail->used = true;
  if (!g->fail->label) return sx_printf(g, "return %s;", g->fail->status);
  return sx_printf(g, "goto %s;", g->fail->label);
}

static const char *fail_status(sx_gen *g) {
  if (!g->fail->label) g->status_used = true;
  return g->fail->status;
}

/* `if ((s = <text>)) <fail>`, the fail on a line of its own when the
 * condition is long or wrapped. */
static void put_check(sx_gen *g, const char *text) {
  const char *action = fail_action(g);
  size_t col = (size_t)g->w->indent * 2;
  const char *nl = strrchr(text, '\n');
  size_t last = nl ? strlen(nl + 1) : col + strlen(text);
  if (nl || last + 1 + strlen(action) > SX_WIDTH) {
    sx_line(g, "%s", text);
    og_w_indent(g->w);
    sx_line(g, "%s", action);
    og_w_dedent(g->w);
    return;
  }
  sx_line(g, "%s %s", text, action);
}

void sx_check(sx_gen *g, const char *status) {
  put_check(g, sx_printf(g, "if ((%s = %s))", fail_status(g), status));
}

/* `prefix fn(args...)suffix`, wrapped after commas past SX_WIDTH with the
 * arguments aligned after the parenthesis. */
static const char *format_call(const sx_gen *g, const char *prefix,
                               const char *fn, const char **args, size_t n,
                               const char *suffix) {
  og_writer t;
  og_writer_init(&t);
  og_w_printf(&t, "%s%s(", prefix, fn);
  size_t align = t.len, indent = (size_t)g->w->indent * 2;
  size_t col = t.len + indent;
  for (size_t i = 0; i < n; i++) {
    const char *tail = i + 1 < n ? "," : ")";
    size_t need = strlen(args[i]) + strlen(tail) +
                  (i + 1 == n ? strlen(suffix) : 0);
    if (i && col + 1 + need > SX_WIDTH) {
      og_w_printf(&t, "\n%*s", (int)align, "");
      col = align + indent;
    } else if (i) {
      og_w_puts(&t, " ");
      col++;
    }
    og_w_printf(&t, "%s%s", args[i], tail);
    col += strlen(args[i]) + strlen(tail);
  }
  og_w_puts(&t, suffix);
  const char *s = og_arena_strndup(g->f->arena, t.buf, t.len);
  og_writer_free(&t);
  return s;
}

void sx_check_call(sx_gen *g, const char *fn, const char **args, size_t n) {
  const char *prefix = sx_printf(g, "if ((%s = ", fail_status(g));
  put_check(g, format_call(g, prefix, fn, args, n, "))"));
}

void sx_call_n(sx_gen *g, const char *fn, const char *const *args,
               size_t n) {
  const char **all = og_arena_array(g->f->arena, n + 1, sizeof *all);
  all[0] = sx_ctx(g);
  for (size_t i = 0; i < n; i++) all[i + 1] = args[i];
  sx_check_call(g, fn, all, n + 1);
}

void sx_call(sx_gen *g, const char *fn, ...) {
  const char *args[8];
  size_t n = 0;
  va_list ap;
  va_start(ap, fn);
  for (const char *a; (a = va_arg(ap, const char *)) && n < 8;) args[n++] = a;
  va_end(ap);
  sx_call_n(g, fn, args, n);
}

/* The flag family of a family of values read once. */
static og_cn_local flag_of(og_cn_local kind) {
  return kind == OG_CN_L_INPUT ? OG_CN_L_INPUT_SET
         : kind == OG_CN_L_LET ? OG_CN_L_LET_SET
                               : OG_CN_L_ATTR_SET;
}

const char *sx_vals_arg(sx_gen *g) {
  g->vals_used = true;
  return g->vals_arg;
}

const char *sx_read_once(sx_gen *g, og_cn_local kind, size_t index,
                         const char *fn, const char *const *args, size_t n) {
  sx_once *once = kind == OG_CN_L_INPUT ? &g->input_once[index]
                  : kind == OG_CN_L_LET ? &g->let_once[index]
                                        : &g->attr_once[index];
  const char *local = sx_name(g, kind, index);
  if (g->vals) { /* a member: another function may have read it */
    g->vals_used = true;
    local = sx_printf(g, "%s%s", g->vals, local);
  }
  if (*once == SX_ONCE_DONE) return local;
  const char **all = og_arena_array(g->f->arena, n + 1, sizeof *all);
  for (size_t i = 0; i < n; i++) all[i] = args[i];
  all[n] = sx_printf(g, "&%s", local);
  if (g->depth == 0 && *once == SX_ONCE_NO && !g->vals) { /* always runs */
    sx_call_n(g, fn, all, n + 1);
    *once = SX_ONCE_DONE;
    return local;
  }
  const char *flag = sx_name(g, flag_of(kind), index);
  if (g->vals) flag = sx_printf(g, "%s%s", g->vals, flag);
  sx_line(g, "if (!%s) {", flag);
  og_w_indent(g->w);
  sx_call_n(g, fn, all, n + 1);
  sx_line(g, "%s = true;", flag);
  og_w_dedent(g->w);
  sx_line(g, "}");
  *once = g->depth == 0 ? SX_ONCE_DONE : SX_ONCE_FLAG;
  (kind == OG_CN_L_INPUT ? g->input_flag
   : kind == OG_CN_L_LET ? g->let_flag
                         : g->attr_flag)[index] = true;
  return local;
}

/* `type x0, x1;` for a family of temporaries. */
static void declare_family(og_writer *w, const sx_gen *g, og_cn_local kind,
                           const char *type) {
  if (!g->max[kind]) return;
  og_w_puts(w, type);
  for (size_t i = 0; i < g->max[kind]; i++) {
    og_w_printf(w, "%s %s%s", i ? "," : "", kind == OG_CN_L_TEXT ? "*" : "",
                sx_name(g, kind, i));
    if (kind == OG_CN_L_NUMS || kind == OG_CN_L_SHAPES)
      og_w_printf(w, "[%zu]", g->len[kind][i] ? g->len[kind][i] : 1);
  }
  og_w_line(w, ";");
}

static const char *type_of(og_sx_type t) {
  return t == OG_SXT_NUM ? "opr_num" : t == OG_SXT_COND ? "opr_cond"
                                                         : "opr_shape";
}

static const char *unknown_of(og_sx_type t) {
  return t == OG_SXT_NUM    ? "opr_sx_unknown_num()"
         : t == OG_SXT_COND ? "OPR_COND_UNDECIDED"
                            : "opr_sx_unknown_shape()";
}

/* The local of a value read once; one first read in a branch or a loop
 * starts unknown (compilers cannot tell that its flag guards it), and
 * its flag false. */
static void declare_one(og_writer *w, const sx_gen *g, const char *type,
                        const char *unknown, og_cn_local kind, size_t i,
                        bool flagged) {
  const char *star = type[strlen(type) - 1] == '*' ? "" : " ";
  if (!flagged) {
    og_w_line(w, "%s%s%s;", type, star, sx_name(g, kind, i));
    return;
  }
  og_w_line(w, "%s%s%s = %s;", type, star, sx_name(g, kind, i), unknown);
  og_w_line(w, "bool %s = false;", sx_name(g, flag_of(kind), i));
}

const char *sx_attr_type(bool text) {
  return text ? "const char *" : "opr_cond";
}

static void declare_once(og_writer *w, const sx_gen *g) {
  const og_op *op = g->op;
  if (g->vals) return; /* members */
  for (size_t i = 0; i < op->ninputs; i++)
    if (g->input_once[i] != SX_ONCE_NO)
      declare_one(w, g, type_of(OG_SXT_SHAPE), unknown_of(OG_SXT_SHAPE),
                  OG_CN_L_INPUT, i, g->input_flag[i]);
  for (size_t i = 0; i < op->nshape_lets; i++) {
    og_sx_type t = op->shape_lets[i].body.type;
    if (g->let_once[i] != SX_ONCE_NO)
      declare_one(w, g, type_of(t), unknown_of(t), OG_CN_L_LET, i,
                  g->let_flag[i]);
  }
  for (size_t i = 0; i < op->nattrs; i++)
    if (g->attr_once[i] != SX_ONCE_NO)
      declare_one(w, g, sx_attr_type(g->attr_text[i]),
                  g->attr_text[i] ? "NULL" : "OPR_COND_UNDECIDED",
                  OG_CN_L_ATTR, i, g->attr_flag[i]);
}

void sx_declare(og_writer *w, const sx_gen *g) {
  if (g->statics->len) og_w_write(w, g->statics->buf, g->statics->len);
  if (g->status_used)
    og_w_line(w, "opr_status %s;", sx_name(g, OG_CN_L_STATUS, 0));
  declare_family(w, g, OG_CN_L_ERR, "opr_status");
  declare_family(w, g, OG_CN_L_NUM, "opr_num");
  declare_family(w, g, OG_CN_L_NUMS, "opr_num");
  declare_family(w, g, OG_CN_L_COND, "opr_cond");
  declare_family(w, g, OG_CN_L_SHAPE, "opr_shape");
  declare_family(w, g, OG_CN_L_SHAPES, "opr_shape");
  declare_once(w, g);
  declare_family(w, g, OG_CN_L_FOLD, "opr_sx_fold");
  declare_family(w, g, OG_CN_L_INTS, "opr_sx_ints");
  declare_family(w, g, OG_CN_L_TEXT, "const char");
  declare_family(w, g, OG_CN_L_COUNT, "size_t");
  declare_family(w, g, OG_CN_L_KNOWN, "bool");
  bool any = false;
  for (size_t i = 0; i < g->op->nbound; i++) {
    if (!g->bound[i]) continue;
    og_w_printf(w, "%s %s", any ? "," : "int64_t", sx_name(g, OG_CN_L_BOUND, i));
    any = true;
  }
  if (any) og_w_line(w, ";");
}
