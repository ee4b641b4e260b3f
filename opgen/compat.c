/* The compat driver: pairs old and new ops by name, runs the rules
 * (compat_attrs.c, compat_sig.c) and orders the findings. */
#include "compat_internal.h"

#include "emit_op.h"
#include "value_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rule_ids[OG_COMPAT_NRULES] = {
    [OG_COMPAT_OP_REMOVED] = "OP_REMOVED",
    [OG_COMPAT_ATTR_REMOVED] = "ATTR_REMOVED",
    [OG_COMPAT_ATTR_TYPE_CHANGED] = "ATTR_TYPE_CHANGED",
    [OG_COMPAT_ALLOWED_NARROWED] = "ALLOWED_NARROWED",
    [OG_COMPAT_MINIMUM_RAISED] = "MINIMUM_RAISED",
    [OG_COMPAT_ATTR_ADDED_WITHOUT_DEFAULT] = "ATTR_ADDED_WITHOUT_DEFAULT",
    [OG_COMPAT_DEFAULT_CHANGED] = "DEFAULT_CHANGED",
    [OG_COMPAT_INPUT_SIGNATURE_CHANGED] = "INPUT_SIGNATURE_CHANGED",
    [OG_COMPAT_OUTPUT_SIGNATURE_CHANGED] = "OUTPUT_SIGNATURE_CHANGED",
    [OG_COMPAT_INPUT_MADE_REF] = "INPUT_MADE_REF",
    [OG_COMPAT_OUTPUT_REF_REMOVED] = "OUTPUT_REF_REMOVED",
    [OG_COMPAT_REQUIRE_TIGHTENED] = "REQUIRE_TIGHTENED",
};

const char *og_compat_rule_id(og_compat_rule rule) {
  return (unsigned)rule < OG_COMPAT_NRULES ? rule_ids[rule] : "UNKNOWN";
}

/* ---- findings ---- */

static char *arena_vprintf(og_arena *a, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *s = og_arena_alloc(a, n > 0 ? (size_t)n + 1 : 1);
  if (n > 0) vsnprintf(s, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return s;
}

/* Positions are copied too: the finding outlives neither model's strings
 * otherwise. */
static og_srcpos copy_pos(og_arena *a, og_srcpos pos) {
  if (pos.file) pos.file = og_arena_strdup(a, pos.file);
  return pos;
}

void og_compat_add(const og_compat_pair *p, og_compat_rule rule,
                   og_srcpos pos, og_srcpos base_pos, const char *baseline,
                   const char *hint, const char *fmt, ...) {
  og_compat_result *r = p->out;
  r->items = og_xgrow(r->items, &r->cap, r->count + 1, sizeof *r->items);
  og_compat_finding *f = &r->items[r->count++];
  f->rule = rule;
  f->warning = rule == OG_COMPAT_REQUIRE_TIGHTENED && !p->strict;
  f->op = og_arena_strdup(&r->arena, p->old_op->name);
  f->pos = copy_pos(&r->arena, pos);
  f->base_pos = copy_pos(&r->arena, base_pos);
  f->baseline = og_arena_strdup(&r->arena, baseline);
  f->hint = og_arena_strdup(&r->arena, hint);
  va_list ap;
  va_start(ap, fmt);
  f->message = arena_vprintf(&r->arena, fmt, ap);
  va_end(ap);
}

/* ---- declarations as text, for the baseline notes ---- */

const char *og_compat_value_text(og_arena *a, const og_value *v) {
  og_writer w;
  og_writer_init(&w);
  og_value_write(&w, v);
  char *s = og_arena_strndup(a, w.buf ? w.buf : "", w.len);
  og_writer_free(&w);
  return s;
}

static void write_allowed(og_writer *w, const og_value *allowed) {
  og_w_puts(w, "{");
  for (size_t i = 0; i < allowed->u.list.count; i++) {
    if (i) og_w_puts(w, ", ");
    og_emit_op_value(&allowed->u.list.items[i], w);
  }
  og_w_puts(w, "}");
}

const char *og_compat_attr_decl(og_arena *a, const og_attr *attr) {
  og_writer w;
  og_writer_init(&w);
  og_w_printf(&w, "`attr %s: ", attr->name);
  if (attr->type.is_list) og_w_puts(&w, "list(");
  if (attr->allowed) write_allowed(&w, attr->allowed);
  else og_w_puts(&w, og_attr_kind_name(attr->type.kind));
  if (attr->type.is_list) og_w_puts(&w, ")");
  if (attr->has_minimum) og_w_printf(&w, " >= %lld", (long long)attr->minimum);
  if (attr->default_value) {
    og_w_puts(&w, " = ");
    og_emit_op_value(attr->default_value, &w);
  }
  og_w_puts(&w, ";`");
  char *s = og_arena_strndup(a, w.buf, w.len);
  og_writer_free(&w);
  return s;
}

const char *og_compat_arg_decl(og_arena *a, const char *kw, const og_arg *arg) {
  const char *type = arg->type != OG_DT_INVALID ? og_dtype_name(arg->type)
                     : arg->type_attr[0]        ? arg->type_attr
                                                : arg->type_list_attr;
  return og_arena_printf(a, "`%s %s: %s%s%s%s%s;`", kw, arg->name,
                         arg->is_ref ? "Ref(" : "", arg->number_attr,
                         arg->number_attr[0] ? " * " : "", type ? type : "?",
                         arg->is_ref ? ")" : "");
}

/* ---- removed ops ---- */

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Where a removed op is reported: the new file of the same path, else of
 * the same base name, else the first new file; line 0 (the whole file). */
static og_srcpos removed_pos(const og_model *newm, const og_op *old_op) {
  og_srcpos pos = {old_op->pos.file, 0, 0, 0};
  const char *want = old_op->pos.file ? old_op->pos.file : "";
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < newm->nfiles; i++) {
      const char *path = newm->files[i].path;
      if (pass == 0 ? strcmp(path, want) == 0
                    : strcmp(base_name(path), base_name(want)) == 0) {
        pos.file = path;
        return pos;
      }
    }
  if (newm->nfiles) pos.file = newm->files[0].path;
  return pos;
}

static void report_removed_op(og_compat_result *out, const og_model *newm,
                              const og_op *old_op) {
  og_compat_pair p = {out, old_op, NULL, false};
  og_arena *a = &out->arena;
  og_compat_add(&p, OG_COMPAT_OP_REMOVED, removed_pos(newm, old_op),
                old_op->pos,
                og_arena_printf(a, "the baseline defines op '%s' here",
                                old_op->name),
                og_arena_printf(a,
                                "keep op '%s'; to retire it, mark it "
                                "`deprecated VERSION \"why\";` instead",
                                old_op->name),
                "op '%s' was removed", old_op->name);
}

/* ---- ordering ---- */

typedef struct sort_item {
  size_t file_rank, seq;
  og_compat_finding f;
} sort_item;

static int compare_items(const void *x, const void *y) {
  const sort_item *a = x, *b = y;
  if (a->file_rank != b->file_rank) return a->file_rank < b->file_rank ? -1 : 1;
  if (a->file_rank == (size_t)-1) {
    int c = strcmp(a->f.pos.file ? a->f.pos.file : "",
                   b->f.pos.file ? b->f.pos.file : "");
    if (c) return c;
  }
  const og_srcpos *pa = &a->f.pos, *pb = &b->f.pos;
  if (pa->line != pb->line) return pa->line < pb->line ? -1 : 1;
  if (pa->col != pb->col) return pa->col < pb->col ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static size_t file_rank(const og_model *newm, const char *file) {
  for (size_t i = 0; file && i < newm->nfiles; i++)
    if (strcmp(newm->files[i].path, file) == 0) return i;
  return (size_t)-1;
}

static void sort_findings(og_compat_result *r, const og_model *newm) {
  if (r->count < 2) return;
  sort_item *items = og_xmalloc(r->count * sizeof *items);
  for (size_t i = 0; i < r->count; i++)
    items[i] =
        (sort_item){file_rank(newm, r->items[i].pos.file), i, r->items[i]};
  qsort(items, r->count, sizeof *items, compare_items);
  for (size_t i = 0; i < r->count; i++) r->items[i] = items[i].f;
  free(items);
}

/* ---- the driver ---- */

void og_compat_check(const og_model *old, const og_model *newm,
                     og_compat_result *out) {
  og_compat_options opts = {0};
  og_compat_check_with(old, newm, &opts, out);
}

size_t og_compat_errors(const og_compat_result *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->count; i++) n += !r->items[i].warning;
  return n;
}

void og_compat_check_with(const og_model *old, const og_model *newm,
                          const og_compat_options *opts,
                          og_compat_result *out) {
  memset(out, 0, sizeof *out);
  og_arena_init(&out->arena);
  for (size_t i = 0; i < old->nops; i++) {
    const og_op *old_op = old->ops[i];
    const og_op *new_op = og_model_find(newm, old_op->name);
    if (!new_op) {
      report_removed_op(out, newm, old_op);
      continue;
    }
    og_compat_pair p = {out, old_op, new_op, opts->strict};
    og_compat_check_attrs(&p);
    og_compat_check_signatures(&p);
    if (opts->requires) og_compat_check_requires(&p);
  }
  sort_findings(out, newm);
}

void og_compat_result_free(og_compat_result *r) {
  og_arena_free(&r->arena);
  free(r->items);
  memset(r, 0, sizeof *r);
}
