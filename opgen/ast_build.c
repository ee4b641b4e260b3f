#include "ast_build.h"

#include <stdint.h>
#include <string.h>

void og_build_package(og_parse_ctx *ctx, const og_loc *kw_loc,
                      const og_token *name, const og_loc *name_loc) {
  og_ast_file *file = ctx->file;
  if (file->package) {
    og_error_at(ctx->diag, *kw_loc, "duplicate package statement");
    og_note_at(ctx->diag, file->package_loc, "package '%s' declared here",
               file->package);
    return;
  }
  if (ctx->saw_op)
    og_error_at(ctx->diag, *kw_loc,
                "package statement must come before the first op");
  file->package = name->text;
  file->package_loc = *name_loc;
}

void og_build_c_prefix(og_parse_ctx *ctx, const og_loc *kw_loc,
                       const og_token *name, const og_loc *name_loc,
                       const og_token *mode, const og_loc *mode_loc) {
  og_ast_file *file = ctx->file;
  if (mode && strcmp(mode->text, "strip") != 0) {
    og_error_at(ctx->diag, *mode_loc,
                "expected 'strip' or ';' after the C prefix, found '%s'",
                mode->text);
    return;
  }
  if (file->c_prefix) {
    og_error_at(ctx->diag, *kw_loc, "duplicate c_prefix statement");
    og_note_at(ctx->diag, file->c_prefix_loc, "c_prefix '%s' declared here",
               file->c_prefix);
    return;
  }
  if (ctx->saw_op)
    og_error_at(ctx->diag, *kw_loc,
                "c_prefix statement must come before the first op");
  file->c_prefix = name->text;
  file->c_prefix_loc = *name_loc;
  file->c_prefix_strip = mode != NULL;
}

og_ast_op *og_build_op(og_parse_ctx *ctx, const og_token *kw,
                       const og_loc *kw_loc, const og_token *name,
                       const og_loc *name_loc) {
  og_ast_op *op = og_arena_alloc(ctx->arena, sizeof *op);
  op->name = name->text;
  op->loc = *kw_loc;
  op->name_loc = *name_loc;
  op->doc = kw->doc;
  return op;
}

og_ast_item *og_build_item(og_parse_ctx *ctx, og_ast_item_kind kind,
                           const og_token *kw, const og_loc *kw_loc,
                           const og_token *name, const og_loc *name_loc) {
  og_ast_item *item = og_arena_alloc(ctx->arena, sizeof *item);
  item->kind = kind;
  item->loc = *kw_loc;
  item->doc = kw->doc;
  if (name) {
    item->name = name->text;
    item->name_loc = *name_loc;
  }
  return item;
}

og_ast_attr_type *og_build_type_name(og_parse_ctx *ctx, const og_token *name,
                                     const og_loc *loc) {
  og_ast_attr_type *t = og_arena_alloc(ctx->arena, sizeof *t);
  t->kind = OG_AT_NAME;
  t->loc = t->name_loc = *loc;
  t->name = name->text;
  return t;
}

og_ast_attr_type *og_build_type_list(og_parse_ctx *ctx, const og_token *name,
                                     const og_loc *name_loc,
                                     og_ast_attr_type *inner,
                                     const og_loc *loc) {
  og_ast_attr_type *t = og_arena_alloc(ctx->arena, sizeof *t);
  t->kind = OG_AT_LIST;
  t->loc = *loc;
  t->name = name->text;
  t->name_loc = *name_loc;
  t->inner = inner;
  return t;
}

og_ast_attr_type *og_build_type_set(og_parse_ctx *ctx, og_ast_value *elems,
                                    const og_loc *loc) {
  og_ast_attr_type *t = og_arena_alloc(ctx->arena, sizeof *t);
  t->kind = OG_AT_SET;
  t->loc = *loc;
  t->elems = elems;
  return t;
}

og_ast_io_type *og_build_io_type(og_parse_ctx *ctx, const og_token *number,
                                 const og_loc *number_loc,
                                 const og_token *type, const og_loc *type_loc,
                                 const og_loc *loc) {
  og_ast_io_type *t = og_arena_alloc(ctx->arena, sizeof *t);
  t->loc = *loc;
  if (number) {
    t->number = number->text;
    t->number_loc = *number_loc;
  }
  t->type = type->text;
  t->type_loc = *type_loc;
  return t;
}

og_ast_io_type *og_build_io_ref(og_parse_ctx *ctx, const og_token *ref,
                                const og_loc *ref_loc, og_ast_io_type *inner,
                                const og_loc *loc) {
  if (strcmp(ref->text, "Ref") != 0)
    og_error_at(ctx->diag, *ref_loc,
                "unknown type constructor '%s' (only Ref(...) wraps an "
                "input or output type)",
                ref->text);
  inner->is_ref = true;
  inner->loc = *loc;
  return inner;
}

og_ast_value *og_build_value(og_parse_ctx *ctx, og_ast_value_kind kind,
                             const og_loc *loc) {
  og_ast_value *v = og_arena_alloc(ctx->arena, sizeof *v);
  v->kind = kind;
  v->loc = *loc;
  return v;
}

/* Decimal digits to int64, negated if asked; false on overflow. */
static bool parse_int64(const char *digits, bool negative, int64_t *out) {
  uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  uint64_t v = 0;
  for (const char *p = digits; *p; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = negative ? (int64_t)(0 - v) : (int64_t)v;
  return true;
}

og_ast_value *og_build_int(og_parse_ctx *ctx, const og_token *digits,
                           const og_loc *digits_loc, bool negative,
                           const og_loc *loc) {
  og_ast_value *v = og_build_value(ctx, OG_AV_INT, loc);
  if (!parse_int64(digits->text, negative, &v->i)) {
    ctx->item_errors++; /* no semantic follow-ups on a placeholder 0 */
    og_error_at(ctx->diag, *digits_loc,
                "integer literal %s%s does not fit in a 64-bit signed integer",
                negative ? "-" : "", digits->text);
  }
  return v;
}

og_ast_value *og_build_float(og_parse_ctx *ctx, double f, const og_loc *loc) {
  og_ast_value *v = og_build_value(ctx, OG_AV_FLOAT, loc);
  v->f = f;
  return v;
}

og_ast_value *og_build_string(og_parse_ctx *ctx, const og_token *s,
                              const og_loc *loc) {
  og_ast_value *v = og_build_value(ctx, OG_AV_STRING, loc);
  v->s.ptr = s->text ? s->text : "";
  v->s.len = s->len;
  return v;
}

og_ast_value *og_build_name_value(og_parse_ctx *ctx, const og_token *name,
                                  const og_loc *loc, bool negated) {
  og_ast_value *v = og_build_value(ctx, OG_AV_NAME, loc);
  v->name = name->text;
  v->negated = negated;
  return v;
}

og_ast_field *og_build_field(og_parse_ctx *ctx, const og_token *name,
                             const og_loc *name_loc, og_ast_value *value) {
  og_ast_field *f = og_arena_alloc(ctx->arena, sizeof *f);
  f->name = name->text;
  f->name_loc = *name_loc;
  f->value = value;
  return f;
}

og_ast_expr *og_build_expr(og_parse_ctx *ctx, og_ast_expr_kind kind,
                           const og_loc *loc) {
  og_ast_expr *e = og_arena_alloc(ctx->arena, sizeof *e);
  e->kind = kind;
  e->depth = 1;
  e->loc = *loc;
  return e;
}

/* e's depth from a child's; the node where an expression first gets too
 * deep is an error (one per crossing, not one per node above it), and
 * the op is not checked further. */
static void note_child(og_parse_ctx *ctx, og_ast_expr *e,
                       const og_ast_expr *child) {
  if (!child || child->depth < e->depth) return;
  e->depth = child->depth + 1;
  if (e->depth != OG_MAX_EXPR_DEPTH + 1) return;
  ctx->item_errors++;
  og_error_at(ctx->diag, e->loc, "expression nested too deeply (more than "
              "%d levels)", OG_MAX_EXPR_DEPTH);
}

og_ast_expr *og_build_expr_int(og_parse_ctx *ctx, const og_token *digits,
                               const og_loc *loc) {
  og_ast_expr *e = og_build_expr(ctx, OG_EX_INT, loc);
  if (!parse_int64(digits->text, false, &e->i)) {
    ctx->item_errors++;
    og_error_at(ctx->diag, *loc,
                "integer literal %s does not fit in a 64-bit signed integer",
                digits->text);
  }
  return e;
}

og_ast_expr *og_build_expr_name(og_parse_ctx *ctx, og_ast_expr_kind kind,
                                const og_token *name, const og_loc *loc) {
  og_ast_expr *e = og_build_expr(ctx, kind, loc);
  e->name = name->text;
  e->name_loc = *loc;
  return e;
}

og_ast_expr *og_build_expr_op(og_parse_ctx *ctx, og_ast_expr_kind kind,
                              og_ast_binop op, og_ast_expr *lhs,
                              og_ast_expr *rhs, const og_loc *loc) {
  og_ast_expr *e = og_build_expr(ctx, kind, loc);
  e->op = op;
  e->lhs = lhs;
  e->rhs = rhs;
  note_child(ctx, e, lhs);
  for (const og_ast_expr *r = rhs; r; r = r->next) note_child(ctx, e, r);
  return e;
}

void og_build_expr_args(og_parse_ctx *ctx, og_ast_expr *e, og_ast_expr *args) {
  e->args = args;
  for (const og_ast_expr *a = args; a; a = a->next) note_child(ctx, e, a);
}

og_ast_expr *og_build_expr_string(og_parse_ctx *ctx, const og_token *s,
                                  const og_loc *loc) {
  og_ast_expr *e = og_build_expr(ctx, OG_EX_STRING, loc);
  e->name = s->text ? s->text : "";
  e->name_loc = *loc;
  return e;
}

og_ast_expr *og_build_expr_slice(og_parse_ctx *ctx, og_ast_expr *shape,
                                 og_ast_expr *lo, og_ast_expr *hi,
                                 const og_loc *loc) {
  og_ast_expr *e = og_build_expr_op(ctx, OG_EX_SLICE, 0, shape, lo, loc);
  e->third = hi;
  note_child(ctx, e, hi);
  return e;
}

og_ast_expr *og_build_expr_cond(og_parse_ctx *ctx, og_ast_expr *cond,
                                og_ast_expr *then, og_ast_expr *otherwise,
                                const og_loc *loc) {
  og_ast_expr *e = og_build_expr_op(ctx, OG_EX_COND, 0, cond, then, loc);
  e->third = otherwise;
  note_child(ctx, e, otherwise);
  return e;
}

static bool is_comparison(const og_ast_expr *e) {
  if (e->kind == OG_EX_IN) return true;
  return e->kind == OG_EX_BINARY && strchr("<>enlg", (int)e->op);
}

og_ast_expr *og_build_compare(og_parse_ctx *ctx, og_ast_binop op,
                              og_ast_expr *lhs, og_ast_expr *rhs,
                              const og_loc *op_loc, const og_loc *loc) {
  if (is_comparison(lhs) && !lhs->parens) {
    ctx->item_errors++;
    og_error_at(ctx->diag, *op_loc,
                "comparisons do not chain: parenthesize the comparison "
                "on the left ('%.*s')",
                (int)(lhs->loc.end - lhs->loc.begin > 60
                          ? 60 : lhs->loc.end - lhs->loc.begin),
                ctx->source->text + lhs->loc.begin);
  }
  return og_build_expr_op(ctx, op ? OG_EX_BINARY : OG_EX_IN, op, lhs, rhs,
                          loc);
}

/* Whether `e` binds more loosely than `+` without parentheses. */
static bool looser_than_add(const og_ast_expr *e) {
  if (e->parens) return false;
  if (e->kind == OG_EX_COND || is_comparison(e)) return true;
  return e->kind == OG_EX_BINARY && (e->op == OG_OP_AND || e->op == OG_OP_OR);
}

og_ast_expr *og_build_comprehension(og_parse_ctx *ctx, og_ast_expr *body,
                                    const og_token *bound,
                                    const og_loc *bound_loc,
                                    og_ast_expr *count, og_ast_expr *cond,
                                    const og_loc *loc) {
  og_ast_expr *e =
      og_build_expr_op(ctx, OG_EX_COMPREHENSION, 0, body, count, loc);
  e->third = cond;
  note_child(ctx, e, cond);
  e->bound = bound->text;
  e->bound_loc = *bound_loc;
  if (looser_than_add(count)) {
    ctx->item_errors++;
    og_error_at(ctx->diag, count->loc,
                "the N of 'for %s < N' is read at the level of '+': "
                "parenthesize it",
                bound->text);
  }
  return e;
}

og_ast_param *og_build_param(og_parse_ctx *ctx, const og_token *name,
                             const og_loc *loc) {
  og_ast_param *p = og_arena_alloc(ctx->arena, sizeof *p);
  p->name = name->text;
  p->loc = *loc;
  return p;
}
