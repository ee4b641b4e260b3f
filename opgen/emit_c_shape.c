/* Shape functions: an op's `shape` and `require` statements compiled to
 * one C function on the inference API of opr/shape.h. Each statement
 * becomes a few helper calls in source order, under a comment quoting
 * it; dims go through int64_t temporaries (d0, d1, ...), shapes through
 * opr_shape ones (sh0, ...), the dims of a [...] through an array (l0,
 * ...). The last call is returned; the others return on error. */
#include "emit_c_internal.h"

#include <stdarg.h>
#include <string.h>

/* Line width the calls are wrapped to. */
enum { SHAPE_WIDTH = 80 };

typedef struct shape_gen {
  const og_c_file *f;
  const og_op *op;
  og_writer *w;                 /* the body */
  size_t nd, nsh, nl;           /* temporaries in use in this statement */
  size_t max_d, max_sh;         /* and the most any statement used */
  size_t *list_len, list_cap;   /* the longest list in each array slot */
  size_t max_l;
  size_t checks;                /* calls written as if ((s = ...)) */
  /* The call written last, not yet put out: it becomes `return` when
   * nothing follows. */
  const char *pending_fn;
  const char **pending_args;
  size_t pending_n;
} shape_gen;

/* ---- source text, for comments and messages ---- */

static int precedence(const og_sexpr *e) {
  if (e->kind != OG_SX_BINARY) return 3;
  return strchr("+-", e->op) ? 1 : strchr("*/", e->op) ? 2 : 0;
}

/* The operators of og_sexpr.op (model.h). */
static const char *op_text(int op) {
  switch (op) {
  case 'e': return "==";
  case 'n': return "!=";
  case 'l': return "<=";
  case 'g': return ">=";
  case '<': return "<";
  case '>': return ">";
  case '+': return "+";
  case '-': return "-";
  case '*': return "*";
  default: return "/";
  }
}

/* The opr_dim_cmp of a comparison. */
static const char *cmp_enum(int op) {
  switch (op) {
  case 'e': return "OPR_DIM_EQ";
  case 'n': return "OPR_DIM_NE";
  case 'l': return "OPR_DIM_LE";
  case 'g': return "OPR_DIM_GE";
  case '<': return "OPR_DIM_LT";
  default: return "OPR_DIM_GT";
  }
}

/* The helper of an arithmetic operator. */
static const char *arith_fn(int op) {
  switch (op) {
  case '+': return "opr_infer_add";
  case '-': return "opr_infer_sub";
  case '*': return "opr_infer_mul";
  default: return "opr_infer_div";
  }
}

static void render(og_writer *t, const og_op *op, const og_sexpr *e, int min);

static void render_args(og_writer *t, const og_op *op, const og_sexpr *e,
                        const char *open, const char *close) {
  og_w_puts(t, open);
  for (size_t i = 0; i < e->nargs; i++) {
    if (i) og_w_puts(t, ", ");
    render(t, op, &e->args[i], 0);
  }
  og_w_puts(t, close);
}

/* `e` as the spec would write it, parenthesized where its precedence is
 * below `min`. */
static void render(og_writer *t, const og_op *op, const og_sexpr *e,
                   int min) {
  const char *in = e->index < op->ninputs ? op->inputs[e->index].name : "";
  switch (e->kind) {
  case OG_SX_INT: og_w_printf(t, "%lld", (long long)e->i); return;
  case OG_SX_UNKNOWN: og_w_puts(t, "?"); return;
  case OG_SX_INPUT: og_w_puts(t, in); return;
  case OG_SX_DIM: og_w_printf(t, "dim(%s, %lld)", in, (long long)e->i); return;
  case OG_SX_RANK: og_w_printf(t, "rank(%s)", in); return;
  case OG_SX_ATTR: og_w_printf(t, "attr(%s)", op->attrs[e->index].name); return;
  case OG_SX_LIST: render_args(t, op, e, "[", "]"); return;
  case OG_SX_MERGE: render_args(t, op, e, "merge(", ")"); return;
  case OG_SX_BROADCAST: render_args(t, op, e, "broadcast(", ")"); return;
  case OG_SX_SAME: render_args(t, op, e, "same(", ")"); return;
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
  case OG_SX_BINARY: break;
  default: return; /* version 2: the new code generator */
  }
  int p = precedence(e);
  if (p < min) og_w_puts(t, "(");
  render(t, op, &e->args[0], p ? p : 1);
  og_w_printf(t, " %s ", op_text(e->op));
  render(t, op, &e->args[1], p ? p + 1 : 1);
  if (p < min) og_w_puts(t, ")");
}

static const char *source(const shape_gen *g, const og_sexpr *e) {
  og_writer t;
  og_writer_init(&t);
  render(&t, g->op, e, 0);
  const char *s = og_arena_strndup(g->f->arena, t.buf ? t.buf : "", t.len);
  og_writer_free(&t);
  return s;
}

/* A C string literal of `s`. */
static const char *c_string(const shape_gen *g, const char *s) {
  og_writer t;
  og_writer_init(&t);
  og_c_string(&t, s, strlen(s));
  const char *lit = og_arena_strndup(g->f->arena, t.buf, t.len);
  og_writer_free(&t);
  return lit;
}

/* How messages name a shape operand: "'x'", "attr 's'", or its text. */
static const char *shape_what(const shape_gen *g, const og_sexpr *e) {
  if (e->kind == OG_SX_INPUT)
    return og_arena_printf(g->f->arena, "'%s'", g->op->inputs[e->index].name);
  if (e->kind == OG_SX_ATTR)
    return og_arena_printf(g->f->arena, "attr '%s'",
                           g->op->attrs[e->index].name);
  return source(g, e);
}

/* The operands of merge, broadcast or same: "'a' and 'b'", "'a', 'b'
 * and 'c'". */
static const char *operands_what(const shape_gen *g, const og_sexpr *e) {
  const char *s = "";
  for (size_t i = 0; i < e->nargs; i++)
    s = og_arena_printf(g->f->arena, "%s%s%s", s,
                        i == 0 ? "" : i + 1 == e->nargs ? " and " : ", ",
                        shape_what(g, &e->args[i]));
  return s;
}

/* The value of a literal dim, or false when `e` is computed. -1 (as in
 * shape attrs) and ? are the unknown dim. */
static bool literal_dim(const og_sexpr *e, const char **text, og_arena *a) {
  int64_t v;
  if (e->kind == OG_SX_UNKNOWN) v = -1;
  else if (e->kind == OG_SX_INT) v = e->i;
  else if (e->kind == OG_SX_NEG && e->args[0].kind == OG_SX_INT &&
           e->args[0].i <= 1)
    v = -e->args[0].i;
  else return false;
  *text = v < 0 ? "OPR_UNKNOWN_DIM" : og_arena_printf(a, "%lld", (long long)v);
  return true;
}

/* How a require message names a dim operand: NULL for a literal. */
static const char *dim_what(const shape_gen *g, const og_sexpr *e) {
  const char *lit;
  const char *in = e->index < g->op->ninputs ? g->op->inputs[e->index].name : "";
  if (literal_dim(e, &lit, g->f->arena)) return "NULL";
  if (e->kind == OG_SX_DIM)
    return c_string(g, og_arena_printf(g->f->arena, "dim %lld of '%s'",
                                       (long long)e->i, in));
  if (e->kind == OG_SX_RANK)
    return c_string(g, og_arena_printf(g->f->arena, "rank of '%s'", in));
  if (e->kind == OG_SX_ATTR)
    return c_string(g, og_arena_printf(g->f->arena, "attr '%s'",
                                       g->op->attrs[e->index].name));
  return c_string(g, source(g, e));
}

/* ---- calls and lines ---- */

/* `prefix fn(args...)suffix`, wrapped after commas past SHAPE_WIDTH with
 * the arguments aligned after the parenthesis. */
static const char *format_call(const shape_gen *g, const char *prefix,
                               const char *fn, const char **args, size_t n,
                               const char *suffix) {
  og_writer t;
  og_writer_init(&t);
  og_w_printf(&t, "%s%s(", prefix, fn);
  size_t align = t.len, col = t.len + (size_t)g->w->indent * 2;
  for (size_t i = 0; i < n; i++) {
    const char *tail = i + 1 < n ? "," : ")";
    size_t need = strlen(args[i]) + strlen(tail) +
                  (i + 1 == n ? strlen(suffix) : 0);
    if (i && col + 1 + need > SHAPE_WIDTH) {
      og_w_printf(&t, "\n%*s", (int)align, "");
      col = align + (size_t)g->w->indent * 2;
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

/* Puts out the pending call as `if ((s = call)) return s;`. */
static void flush(shape_gen *g) {
  if (!g->pending_fn) return;
  const char *text = format_call(g, "if ((s = ", g->pending_fn,
                                 g->pending_args, g->pending_n, "))");
  if (strchr(text, '\n') || strlen(text) + 10 + (size_t)g->w->indent * 2 >
                                SHAPE_WIDTH) {
    og_w_line(g->w, "%s", text);
    og_w_indent(g->w);
    og_w_line(g->w, "return s;");
    og_w_dedent(g->w);
  } else {
    og_w_line(g->w, "%s return s;", text);
  }
  g->checks++;
  g->pending_fn = NULL;
}

/* A helper call that returns a status; args end with NULL. */
static void call(shape_gen *g, const char *fn, ...) {
  flush(g);
  va_list ap;
  size_t n = 0;
  va_start(ap, fn);
  while (va_arg(ap, const char *)) n++;
  va_end(ap);
  const char **args = og_arena_array(g->f->arena, n + 1, sizeof *args);
  args[0] = "c";
  va_start(ap, fn);
  for (size_t i = 1; i <= n; i++) args[i] = va_arg(ap, const char *);
  va_end(ap);
  g->pending_fn = fn;
  g->pending_args = args;
  g->pending_n = n + 1;
}

/* A plain line of the body. */
static void line(shape_gen *g, const char *text) {
  flush(g);
  og_w_line(g->w, "%s", text);
}

static const char *dim_temp(shape_gen *g) {
  if (++g->nd > g->max_d) g->max_d = g->nd;
  return og_arena_printf(g->f->arena, "d%zu", g->nd - 1);
}

static const char *shape_temp(shape_gen *g) {
  if (++g->nsh > g->max_sh) g->max_sh = g->nsh;
  return og_arena_printf(g->f->arena, "sh%zu", g->nsh - 1);
}

/* An array for the n dims of a list. */
static const char *list_array(shape_gen *g, size_t n) {
  size_t slot = g->nl++;
  if (slot == g->list_cap) {
    size_t cap = g->list_cap ? g->list_cap * 2 : 4;
    size_t *len = og_arena_array(g->f->arena, cap, sizeof *len);
    if (g->list_cap) memcpy(len, g->list_len, g->list_cap * sizeof *len);
    g->list_len = len, g->list_cap = cap;
  }
  if (n > g->list_len[slot]) g->list_len[slot] = n;
  if (g->nl > g->max_l) g->max_l = g->nl;
  return og_arena_printf(g->f->arena, "l%zu", slot);
}

static const char *num(const shape_gen *g, long long v) {
  return og_arena_printf(g->f->arena, "%lld", v);
}

static const char *addr(const shape_gen *g, const char *lvalue) {
  return og_arena_printf(g->f->arena, "&%s", lvalue);
}

/* ---- expressions ---- */

static const char *eval_dim(shape_gen *g, const og_sexpr *e, const char *dest);

/* Arithmetic: both sides, then the helper of the operator. */
static const char *eval_arith(shape_gen *g, const og_sexpr *e,
                              const char *dest) {
  size_t mark = g->nd;
  const og_sexpr *lhs = e->kind == OG_SX_NEG ? NULL : &e->args[0];
  const og_sexpr *rhs = e->kind == OG_SX_NEG ? &e->args[0] : &e->args[1];
  const char *a = lhs ? eval_dim(g, lhs, NULL) : "0";
  const char *b = eval_dim(g, rhs, NULL);
  g->nd = mark; /* the result may reuse the first operand's temporary */
  const char *target = dest ? dest : dim_temp(g);
  const char *fn = arith_fn(e->kind == OG_SX_NEG ? '-' : e->op);
  call(g, fn, a, b, c_string(g, source(g, e)), addr(g, target), NULL);
  return target;
}

/* Evaluates dim `e`; returns a C expression of its value. `dest`, when
 * given, is the lvalue the value goes to. */
static const char *eval_dim(shape_gen *g, const og_sexpr *e, const char *dest) {
  const char *lit;
  if (literal_dim(e, &lit, g->f->arena)) {
    if (!dest) return lit;
    line(g, og_arena_printf(g->f->arena, "%s = %s;", dest, lit));
    return dest;
  }
  if (e->kind == OG_SX_NEG || e->kind == OG_SX_BINARY)
    return eval_arith(g, e, dest);
  const char *target = dest ? dest : dim_temp(g);
  if (e->kind == OG_SX_DIM)
    call(g, "opr_infer_input_dim", num(g, (long long)e->index),
         num(g, (long long)e->i), addr(g, target), NULL);
  else if (e->kind == OG_SX_RANK)
    call(g, "opr_infer_input_rank", num(g, (long long)e->index),
         addr(g, target), NULL);
  else /* OG_SX_ATTR */
    call(g, "opr_infer_attr_dim", num(g, (long long)e->index),
         addr(g, target), NULL);
  return target;
}

/* The dims of a list: a literal array when every element is one, else
 * an array filled element by element. NULL for []. */
static const char *eval_list(shape_gen *g, const og_sexpr *e) {
  if (e->nargs == 0) return "NULL";
  const char *lits = "";
  bool literal = true;
  for (size_t i = 0; i < e->nargs && literal; i++) {
    const char *lit;
    literal = literal_dim(&e->args[i], &lit, g->f->arena);
    if (literal) lits = og_arena_printf(g->f->arena, "%s%s%s", lits,
                                        i ? ", " : "", lit);
  }
  if (literal) return og_arena_printf(g->f->arena, "(const int64_t[]){%s}", lits);
  const char *array = list_array(g, e->nargs);
  for (size_t i = 0; i < e->nargs; i++) {
    size_t mark = g->nd;
    eval_dim(g, &e->args[i], og_arena_printf(g->f->arena, "%s[%zu]", array, i));
    g->nd = mark;
  }
  return array;
}

static const char *eval_shape(shape_gen *g, const og_sexpr *e);

/* merge(...), broadcast(...) and same(...): the operands folded pairwise
 * into the first one's temporary. */
static const char *eval_fold(shape_gen *g, const og_sexpr *e, const char *fn) {
  const char *what = c_string(g, operands_what(g, e));
  const char *acc = eval_shape(g, &e->args[0]);
  if (strncmp(acc, "sh", 2) != 0) { /* a literal: fold into a temporary */
    const char *t = shape_temp(g);
    line(g, og_arena_printf(g->f->arena, "%s = %s;", t, acc));
    acc = t;
  }
  for (size_t i = 1; i < e->nargs; i++) {
    size_t mark = g->nsh;
    const char *next = eval_shape(g, &e->args[i]);
    call(g, fn, acc, next, what, addr(g, acc), NULL);
    g->nsh = mark;
  }
  return acc;
}

/* Evaluates shape `e`; returns a C expression of its value. */
static const char *eval_shape(shape_gen *g, const og_sexpr *e) {
  if (e->kind == OG_SX_UNKNOWN) return "opr_shape_unknown()";
  if (e->kind == OG_SX_LIST && e->nargs == 0) return "(opr_shape){0, NULL}";
  if (e->kind == OG_SX_MERGE) return eval_fold(g, e, "opr_infer_merge");
  if (e->kind == OG_SX_BROADCAST) return eval_fold(g, e, "opr_infer_broadcast");
  if (e->kind == OG_SX_LIST) {
    const char *dims = eval_list(g, e);
    const char *t = shape_temp(g);
    call(g, "opr_infer_make_shape", num(g, (long long)e->nargs), dims,
         addr(g, t), NULL);
    return t;
  }
  const char *t = shape_temp(g);
  if (e->kind == OG_SX_INPUT)
    call(g, "opr_infer_input_shape", num(g, (long long)e->index), addr(g, t),
         NULL);
  else /* OG_SX_ATTR */
    call(g, "opr_infer_attr_shape", num(g, (long long)e->index), addr(g, t),
         NULL);
  return t;
}

/* ---- statements ---- */

static void shape_statement(shape_gen *g, const og_shape_rule *r) {
  const og_sexpr *e = &r->expr;
  const char *out = num(g, (long long)r->output);
  if (e->kind == OG_SX_LIST) {
    const char *dims = eval_list(g, e);
    call(g, "opr_infer_set_output_dims", out, num(g, (long long)e->nargs),
         dims, NULL);
    return;
  }
  call(g, "opr_infer_set_output", out, eval_shape(g, e), NULL);
}

static void require_statement(shape_gen *g, const og_sexpr *e) {
  if (e->kind == OG_SX_SAME) {
    eval_fold(g, e, "opr_infer_merge");
    return;
  }
  if (e->kind == OG_SX_IN) {
    const char *x = eval_dim(g, &e->args[0], NULL);
    const char *lo = eval_dim(g, &e->args[1], NULL);
    const char *hi = eval_dim(g, &e->args[2], NULL);
    call(g, "opr_infer_require_in", x, lo, hi, dim_what(g, &e->args[0]),
         dim_what(g, &e->args[1]), dim_what(g, &e->args[2]), NULL);
    return;
  }
  const char *a = eval_dim(g, &e->args[0], NULL);
  const char *b = eval_dim(g, &e->args[1], NULL);
  call(g, "opr_infer_require", a, cmp_enum(e->op), b, dim_what(g, &e->args[0]),
       dim_what(g, &e->args[1]), NULL);
}

/* The statement as written in the spec, for its comment. */
static const char *statement_text(const shape_gen *g, const og_shape_rule *r) {
  return og_c_shape_rule_text(g->f, g->op, r);
}

const char *og_c_shape_rule_text(const og_c_file *f, const og_op *op,
                                 const og_shape_rule *r) {
  const shape_gen g = {.f = f, .op = op};
  if (r->is_require)
    return og_arena_printf(f->arena, "require %s;", source(&g, &r->expr));
  return og_arena_printf(f->arena, "shape %s = %s;",
                         op->outputs[r->output].name, source(&g, &r->expr));
}

/* The body, statement by statement, into g->w. */
static void body(shape_gen *g) {
  for (size_t i = 0; i < g->op->nshape_rules; i++) {
    const og_shape_rule *r = &g->op->shape_rules[i];
    g->nd = g->nsh = g->nl = 0;
    flush(g);
    og_c_comment(g->w, statement_text(g, r));
    if (r->is_require) require_statement(g, &r->expr);
    else shape_statement(g, r);
  }
  if (!g->pending_fn) {
    og_w_line(g->w, "return OPR_OK;");
    return;
  }
  og_w_line(g->w, "%s", format_call(g, "return ", g->pending_fn,
                                    g->pending_args, g->pending_n, ";"));
}

/* The temporaries the body uses. */
static void declarations(og_writer *w, const shape_gen *g) {
  if (g->checks) og_w_line(w, "opr_status s;");
  if (g->max_d) {
    og_w_puts(w, "int64_t");
    for (size_t i = 0; i < g->max_d; i++)
      og_w_printf(w, "%s d%zu", i ? "," : "", i);
    og_w_line(w, ";");
  }
  if (g->max_l) {
    og_w_puts(w, "int64_t");
    for (size_t i = 0; i < g->max_l; i++)
      og_w_printf(w, "%s l%zu[%zu]", i ? "," : "", i, g->list_len[i]);
    og_w_line(w, ";");
  }
  if (g->max_sh) {
    og_w_puts(w, "opr_shape");
    for (size_t i = 0; i < g->max_sh; i++)
      og_w_printf(w, "%s sh%zu", i ? "," : "", i);
    og_w_line(w, ";");
  }
}

const char *og_c_shape_fn_name(const og_c_file *f, const og_op *op) {
  if (op->shape_fn) return op->shape_fn;
  if (!op->nshape_rules) return NULL;
  return og_cn_op(f, op, OG_CN_SHAPE);
}

void og_c_shape_fn(og_writer *w, const og_c_file *f, const og_op *op) {
  if (op->shape_fn || !op->nshape_rules) return;
  og_writer text;
  og_writer_init(&text);
  text.indent = 1;
  shape_gen g = {.f = f, .op = op, .w = &text};
  body(&g);
  og_c_comment(w, og_arena_printf(f->arena, "The shape function of %s: "
                                              "its spec's statements in C.",
                                   op->name));
  og_w_line(w, "static opr_status %s(opr_infer_ctx *c) {",
            og_c_shape_fn_name(f, op));
  og_w_indent(w);
  declarations(w, &g);
  og_w_dedent(w);
  og_w_write(w, text.buf, text.len);
  og_w_line(w, "}");
  og_writer_free(&text);
}
