/* Shape functions: an op's `let`, `require` and `shape` statements
 * compiled to C on the runtime's expression API (opr/shape_expr.h). Each
 * used `let` becomes a static function of its parameters, called where
 * the name is used; the statements become one static shape function,
 * each under a comment quoting it. The expressions themselves are
 * compiled by emit_c_shape_expr.c and emit_c_shape_flow.c. */
#include "emit_c_shape_gen.h"

#include <string.h>

/* ---- which lets are used ---- */

static void mark_lets(const og_op *op, const og_sexpr *e, bool *used) {
  if (e->kind == OG_SX_LET && e->index < op->nshape_lets && !used[e->index]) {
    used[e->index] = true;
    mark_lets(op, &op->shape_lets[e->index].body, used);
  }
  for (size_t i = 0; i < e->nargs; i++) {
    const og_sexpr *a = &e->args[i];
    if (i == 1 && (e->kind == OG_SX_REDUCE || e->kind == OG_SX_PERMUTE))
      a = sx_ints_source(op, a); /* read as its definition written out */
    mark_lets(op, a, used);
  }
}

static bool *used_lets(const og_c_file *f, const og_op *op) {
  bool *used = og_arena_array(f->arena, op->nshape_lets + 1, sizeof *used);
  for (size_t i = 0; i < op->nshape_rules; i++)
    mark_lets(op, &op->shape_rules[i].expr, used);
  return used;
}

static bool uses_param(const og_sexpr *e, size_t param) {
  if (e->kind == OG_SX_PARAM && e->index == param) return true;
  for (size_t i = 0; i < e->nargs; i++)
    if (uses_param(&e->args[i], param)) return true;
  return false;
}

/* ---- statement texts ---- */

const char *og_c_shape_rule_text(const og_c_file *f, const og_op *op,
                                 const og_shape_rule *r) {
  const char *text = sx_text(f, op, &r->expr);
  if (r->is_require) return og_arena_printf(f->arena, "require %s;", text);
  const char *out = op->outputs[r->output].name;
  if (!r->per_tensor)
    return og_arena_printf(f->arena, "shape %s = %s;", out, text);
  return og_arena_printf(f->arena, "shape %s[%s] = %s;", out,
                         sx_bound_name(&r->expr, r->bound, "i"), text);
}

static const char *let_text(const og_c_file *f, const og_op *op,
                            const og_shape_let *let) {
  const char *params = "";
  for (size_t i = 0; i < let->nparams; i++)
    params = og_arena_printf(
        f->arena, "%s%s%s", params, i ? ", " : "",
        sx_param_name(&let->body, i, og_cn_shape_local(f, OG_CN_L_PARAM, i)));
  return og_arena_printf(f->arena, "let %s%s%s%s = %s;", let->name,
                         let->nparams ? "(" : "", params,
                         let->nparams ? ")" : "",
                         sx_text(f, op, &let->body));
}

/* ---- statements ---- */

static void require_statement(sx_gen *g, const og_sexpr *e) {
  static const char *const cmps[][2] = {
      {"e", "OPR_DIM_EQ"}, {"n", "OPR_DIM_NE"}, {"<", "OPR_DIM_LT"},
      {"l", "OPR_DIM_LE"}, {">", "OPR_DIM_GT"}, {"g", "OPR_DIM_GE"}};
  if (e->kind == OG_SX_BINARY)
    for (size_t i = 0; i < sizeof cmps / sizeof *cmps; i++) {
      if (e->op != cmps[i][0][0]) continue;
      const char *a = sx_expr(g, &e->args[0]);
      const char *b = sx_expr(g, &e->args[1]);
      sx_call(g, "opr_sx_require_compare", a, cmps[i][1], b, sx_what(g, e),
              NULL);
      return;
    }
  if (e->kind == OG_SX_IN) {
    const char *x = sx_expr(g, &e->args[0]);
    const char *lo = sx_expr(g, &e->args[1]);
    const char *hi = sx_expr(g, &e->args[2]);
    sx_call(g, "opr_sx_require_in", x, lo, hi, sx_what(g, e), NULL);
    return;
  }
  sx_call(g, "opr_sx_require", sx_expr(g, e), sx_what(g, e), "NULL", NULL);
}

static void shape_statement(sx_gen *g, const og_shape_rule *r) {
  const char *out = g->out_ix[r->output];
  if (!r->per_tensor) {
    sx_call(g, "opr_sx_set_output", out, sx_expr(g, &r->expr), NULL);
    return;
  }
  const char *k = sx_bound(g, r->bound);
  sx_line(g, "for (%s = 0; %s < (int64_t)opr_infer_num_outputs(%s, %s); %s++) {",
          k, k, sx_ctx(g), out, k);
  og_w_indent(g->w);
  g->depth++;
  const char *x = sx_expr(g, &r->expr);
  sx_call(g, "opr_infer_set_output_at", out, sx_printf(g, "(size_t)%s", k), x,
          NULL);
  g->depth--;
  og_w_dedent(g->w);
  sx_line(g, "}");
}

/* ---- functions ---- */

static const char *type_of(og_sx_type t) {
  return t == OG_SXT_NUM ? "opr_num" : t == OG_SXT_COND ? "opr_cond"
                                                         : "opr_shape";
}


/* The members of the op's values struct (emit_c_shape_gen.h). */
typedef struct members {
  bool *input, *let, *attr, *attr_text;
} members;

static void gen_init(sx_gen *g, const og_c_file *f, const og_op *op,
                     og_writer *body, og_writer *statics, sx_fail *top,
                     const members *mem, bool is_let) {
  memset(g, 0, sizeof *g);
  g->f = f, g->op = op, g->w = body, g->statics = statics;
  og_writer_init(body);
  og_writer_init(statics);
  body->indent = 1; /* statics: indented where they are put */
  g->bound = og_arena_array(f->arena, op->nbound + 1, sizeof *g->bound);
  g->rank_of = og_arena_array(f->arena, op->nbound + 1, sizeof *g->rank_of);
  g->input_once =
      og_arena_array(f->arena, op->ninputs + 1, sizeof *g->input_once);
  g->let_once =
      og_arena_array(f->arena, op->nshape_lets + 1, sizeof *g->let_once);
  g->input_flag =
      og_arena_array(f->arena, op->ninputs + 1, sizeof *g->input_flag);
  g->let_flag =
      og_arena_array(f->arena, op->nshape_lets + 1, sizeof *g->let_flag);
  g->attr_once = og_arena_array(f->arena, op->nattrs + 1, sizeof *g->attr_once);
  g->attr_flag = og_arena_array(f->arena, op->nattrs + 1, sizeof *g->attr_flag);
  g->attr_text = og_arena_array(f->arena, op->nattrs + 1, sizeof *g->attr_text);
  g->attr_ix = og_cn_indexes(f, op, OG_CN_ATTR_INDEXES);
  g->in_ix = og_cn_indexes(f, op, OG_CN_INPUT_INDEXES);
  g->out_ix = og_cn_indexes(f, op, OG_CN_OUTPUT_INDEXES);
  *top = (sx_fail){og_cn_shape_local(f, OG_CN_L_STATUS, 0), NULL, false};
  g->fail = top;
  if (!mem) return;
  const char *l = og_cn_shape_local(f, OG_CN_L_VALS, 0);
  g->vals = og_arena_printf(f->arena, "%s%s", l, is_let ? "->" : ".");
  g->vals_arg = is_let ? l : og_arena_printf(f->arena, "&%s", l);
}

/* typedef struct <op>_shape_values {...}: the flags first. */
static void values_struct(og_writer *w, const og_c_file *f, const og_op *op,
                          const members *mem) {
  const char *name = og_cn_op(f, op, OG_CN_SHAPE_VALUES);
  og_c_comment(w, og_arena_printf(
                      f->arena,
                      "The values the shape function of %s and its lets "
                      "read once per inference: input shapes and lets "
                      "without parameters, each with its flag.",
                      op->name));
  og_w_line(w, "typedef struct %s {", name);
  og_w_indent(w);
  for (size_t i = 0; i < op->ninputs; i++)
    if (mem->input[i])
      og_w_line(w, "bool %s;", og_cn_shape_local(f, OG_CN_L_INPUT_SET, i));
  for (size_t i = 0; i < op->nshape_lets; i++)
    if (mem->let[i])
      og_w_line(w, "bool %s;", og_cn_shape_local(f, OG_CN_L_LET_SET, i));
  for (size_t i = 0; i < op->nattrs; i++)
    if (mem->attr[i])
      og_w_line(w, "bool %s;", og_cn_shape_local(f, OG_CN_L_ATTR_SET, i));
  for (size_t i = 0; i < op->ninputs; i++)
    if (mem->input[i])
      og_w_line(w, "opr_shape %s;", og_cn_shape_local(f, OG_CN_L_INPUT, i));
  for (size_t i = 0; i < op->nshape_lets; i++)
    if (mem->let[i])
      og_w_line(w, "%s %s;", type_of(op->shape_lets[i].body.type),
                og_cn_shape_local(f, OG_CN_L_LET, i));
  for (size_t i = 0; i < op->nattrs; i++) {
    const char *type = sx_attr_type(mem->attr_text[i]);
    if (mem->attr[i])
      og_w_line(w, "%s%s%s;", type, mem->attr_text[i] ? "" : " ",
                og_cn_shape_local(f, OG_CN_L_ATTR, i));
  }
  og_w_dedent(w);
  og_w_line(w, "} %s;", name);
  og_w_newline(w);
}

/* Declarations, `prologue` (or NULL), then the body. */
static void put_body(og_writer *w, sx_gen *g, const char *prologue) {
  og_w_indent(w);
  sx_declare(w, g);
  if (prologue) og_w_puts(w, prologue);
  og_w_dedent(w);
  og_w_write(w, g->w->buf, g->w->len);
  og_writer_free(g->w);
  og_writer_free(g->statics);
}

static void let_fn(og_writer *w, const og_c_file *f, const og_op *op,
                   const og_shape_let *let, const members *mem) {
  og_writer body, statics;
  sx_fail top;
  sx_gen g;
  gen_init(&g, f, op, &body, &statics, &top, mem, true);
  g.let = let;
  const char *x = sx_expr(&g, &let->body);
  sx_line(&g, "*%s = %s;", og_cn_shape_local(f, OG_CN_L_OUT, 0), x);
  sx_line(&g, "return OPR_OK;");
  og_c_comment(w, let_text(f, op, let));
  const char *vals = og_cn_shape_local(f, OG_CN_L_VALS, 0);
  size_t k = 0, np = let->nparams + (mem ? 3 : 2);
  og_c_params p = {og_arena_array(f->arena, np, sizeof(char *)), NULL, np};
  p.decls[k++] = og_arena_printf(f->arena, "opr_infer_ctx *%s",
                                 og_cn_shape_local(f, OG_CN_L_CTX, 0));
  if (mem)
    p.decls[k++] = og_arena_printf(
        f->arena, "%s *%s", og_cn_op(f, op, OG_CN_SHAPE_VALUES), vals);
  for (size_t i = 0; i < let->nparams; i++)
    p.decls[k++] = og_arena_printf(f->arena, "opr_num %s",
                                   og_cn_shape_local(f, OG_CN_L_PARAM, i));
  p.decls[k] = og_arena_printf(f->arena, "%s *%s", type_of(let->body.type),
                               og_cn_shape_local(f, OG_CN_L_OUT, 0));
  og_c_signature(w, "static opr_status", og_cn_shape_let(f, op, let), &p,
                 " {");
  /* Parameters the body does not read. */
  const char *unused = "";
  if (!g.ctx_used)
    unused = og_arena_printf(f->arena, "(void)%s;\n",
                             og_cn_shape_local(f, OG_CN_L_CTX, 0));
  if (mem && !g.vals_used)
    unused = og_arena_printf(f->arena, "%s(void)%s;\n", unused, vals);
  for (size_t i = 0; i < let->nparams; i++)
    if (!uses_param(&let->body, i))
      unused = og_arena_printf(f->arena, "%s(void)%s;\n", unused,
                               og_cn_shape_local(f, OG_CN_L_PARAM, i));
  put_body(w, &g, unused);
  og_w_line(w, "}");
  og_w_newline(w);
}

const char *og_c_shape_fn_name(const og_c_file *f, const og_op *op) {
  if (op->shape_fn) return op->shape_fn;
  if (!op->nshape_rules) return NULL;
  return og_cn_op(f, op, OG_CN_SHAPE);
}

/* The values e reads once: input shapes (x, rank(x), dim(x, i)) and lets
 * without parameters; read like mark_lets. */
static void mark_members(const og_op *op, const og_sexpr *e, members *mem) {
  if ((e->kind == OG_SX_INPUT || e->kind == OG_SX_RANK ||
       e->kind == OG_SX_DIM) && e->index < op->ninputs)
    mem->input[e->index] = true;
  if (e->kind == OG_SX_LET && !e->nargs && e->index < op->nshape_lets)
    mem->let[e->index] = true;
  if (e->kind == OG_SX_ATTR && e->type == OG_SXT_COND &&
      e->index < op->nattrs)
    mem->attr[e->index] = true;
  const og_sexpr *pad = e->kind == OG_SX_WINDOW ? &e->args[4] : NULL;
  if (pad && pad->kind == OG_SX_ATTR && pad->index < op->nattrs)
    mem->attr[pad->index] = mem->attr_text[pad->index] = true;
  for (size_t i = 0; i < e->nargs; i++) {
    const og_sexpr *a = &e->args[i];
    if (i == 1 && (e->kind == OG_SX_REDUCE || e->kind == OG_SX_PERMUTE))
      a = sx_ints_source(op, a);
    mark_members(op, a, mem);
  }
}

static bool any_member(const og_op *op, const members *mem) {
  bool any = false;
  for (size_t i = 0; i < op->ninputs; i++) any |= mem->input[i];
  for (size_t i = 0; i < op->nshape_lets; i++) any |= mem->let[i];
  for (size_t i = 0; i < op->nattrs; i++) any |= mem->attr[i];
  return any;
}

/* The op's values struct: its members when a let function reads a value
 * once (else NULL: each function keeps its own locals). Decided from the
 * statements, so that the name model knows. */
static members *values_members(const og_c_file *f, const og_op *op,
                               const bool *used) {
  members *mem = og_arena_array(f->arena, 1, sizeof *mem);
  mem->input = og_arena_array(f->arena, op->ninputs + 1, sizeof(bool));
  mem->let = og_arena_array(f->arena, op->nshape_lets + 1, sizeof(bool));
  mem->attr = og_arena_array(f->arena, op->nattrs + 1, sizeof(bool));
  mem->attr_text = og_arena_array(f->arena, op->nattrs + 1, sizeof(bool));
  for (size_t i = 0; i < op->nshape_lets; i++)
    if (used[i]) mark_members(op, &op->shape_lets[i].body, mem);
  if (!any_member(op, mem)) return NULL;
  for (size_t i = 0; i < op->nshape_rules; i++)
    mark_members(op, &op->shape_rules[i].expr, mem);
  return mem;
}

/* The shape function's values struct, its flags cleared (only they
 * need a value before the first read):
 *   demo_foo_shape_values l;
 *   l.inset0 = l.letset0 = ... = false; */
static const char *values_local(const og_c_file *f, const og_op *op,
                                const members *mem) {
  const char *l = og_cn_shape_local(f, OG_CN_L_VALS, 0);
  const char *text = og_arena_printf(
      f->arena, "%s %s;\n", og_cn_op(f, op, OG_CN_SHAPE_VALUES), l);
  size_t col = 2;
  bool first = true;
  const bool *set[3] = {mem->input, mem->let, mem->attr};
  const size_t n[3] = {op->ninputs, op->nshape_lets, op->nattrs};
  const og_cn_local kind[3] = {OG_CN_L_INPUT_SET, OG_CN_L_LET_SET,
                               OG_CN_L_ATTR_SET};
  for (int k = 0; k < 3; k++)
    for (size_t i = 0; i < n[k]; i++) {
      if (!set[k][i]) continue;
      const char *flag = og_arena_printf(
          f->arena, "%s.%s =", l, og_cn_shape_local(f, kind[k], i));
      bool wrap = !first && col + 1 + strlen(flag) > 72;
      text = og_arena_printf(f->arena, "%s%s%s", text,
                             first ? "" : wrap ? "\n    " : " ", flag);
      col = (first ? 2 : wrap ? 6 : col + 1) + strlen(flag);
      first = false;
    }
  return og_arena_printf(f->arena, "%s false;\n", text);
}

bool og_c_shape_has_values(const og_c_file *f, const og_op *op) {
  if (op->shape_fn || !op->nshape_rules) return false;
  return values_members(f, op, used_lets(f, op)) != NULL;
}

void og_c_shape_fn(og_writer *w, const og_c_file *f, const og_op *op) {
  if (op->shape_fn || !op->nshape_rules) return;
  bool *used = used_lets(f, op);
  const members *mem = values_members(f, op, used);
  og_writer lets;
  og_writer_init(&lets);
  for (size_t i = 0; i < op->nshape_lets; i++)
    if (used[i]) let_fn(&lets, f, op, &op->shape_lets[i], mem);
  og_writer body, statics;
  sx_fail top;
  sx_gen g;
  gen_init(&g, f, op, &body, &statics, &top, mem, false);
  for (size_t i = 0; i < op->nshape_rules; i++) {
    const og_shape_rule *r = &op->shape_rules[i];
    memset(g.next, 0, sizeof g.next);
    og_c_comment(g.w, og_c_shape_rule_text(f, op, r));
    if (r->is_require) require_statement(&g, &r->expr);
    else shape_statement(&g, r);
  }
  sx_line(&g, "return OPR_OK;");
  if (mem) values_struct(w, f, op, mem);
  if (lets.len) og_w_write(w, lets.buf, lets.len);
  og_writer_free(&lets);
  og_c_comment(w, og_arena_printf(f->arena, "The shape function of %s: "
                                              "its spec's statements in C.",
                                   op->name));
  og_w_line(w, "static opr_status %s(opr_infer_ctx *%s) {",
            og_c_shape_fn_name(f, op), og_cn_shape_local(f, OG_CN_L_CTX, 0));
  put_body(w, &g, mem ? values_local(f, op, mem) : NULL);
  og_w_line(w, "}");
}
