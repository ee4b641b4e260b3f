/* Which global names a `gen` run claims: every file's, op's, attr's,
 * input's and output's, recorded in source order (a large file's later
 * ops on a second thread) for the check all at once (emit_c_names_dedup.c). */
#include "emit_c_names_check.h"

#include "ascii.h"
#include "pages.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const who *new_who(run *r, who w) {
  who *p = og_arena_alloc(r->arena, sizeof *p);
  *p = w;
  return p;
}

/* Why a global name cannot be used, or NULL (reserved_spelling: as
 * og_cn_name_scan found). */
static const char *global_problem(const char *name, bool reserved_spelling) {
  if (reserved_spelling)
    return "contains '__' or starts with '_', which C and C++ reserve";
  if (og_c_reserved(name) != OG_C_FREE)
    return "is a C or C++ keyword or a name of the standard headers";
  return NULL;
}

/* Room for `need` entries, doubling. */
static void grow(run *r, size_t need) {
  size_t cap = r->cap ? r->cap : 1024;
  while (cap < need) cap *= 2;
  r->entries = og_cn_table_move(r->entries, r->count, r->cap, cap,
                                sizeof *r->entries);
  r->cap = cap;
}

static void append(run *r, const entry *e) {
  if (r->count == r->cap) grow(r, r->count + 1);
  r->entries[r->count++] = *e;
}

/* Adds entries[0..n) (recorded on another thread), in one copy. */
static void append_all(run *r, const entry *entries, size_t n) {
  if (r->count + n > r->cap) grow(r, r->count + n);
  if (n) memcpy(r->entries + r->count, entries, n * sizeof *entries);
  r->count += n;
}

/* Adds e; a claim's name is hashed and checked here, on the thread that
 * records it (see name_ops). */
static void record(run *r, entry e) {
  if (e.kind != E_REPORT) {
    bool reserved;
    e.hash = og_cn_name_scan(e.c.name, &reserved);
    e.why = global_problem(e.c.name, reserved && e.kind == E_CLAIM);
  }
  append(r, &e);
}

/* Records a global name (spelling: checked for a reserved spelling). */
static void claim_name(run *r, claim c, bool spelling) {
  record(r, (entry){c, NULL, 0, -1,
                    spelling ? E_CLAIM : E_CLAIM_ANY_SPELLING, false});
}

/* Records a report: why, or a collision with entry `earlier`. */
static void record_report(run *r, claim c, const char *why, long earlier) {
  record(r, (entry){c, why, 0, (int32_t)earlier, E_REPORT, false});
}

/* The names of one op, attr, input, output or file: after its first
 * problem, the item's other names are recorded without a report (they
 * share the name that clashed, and one rename fixes all). */
typedef struct item_ctx {
  run *r;
  const who *at;
} item_ctx;

static item_ctx new_item(run *r, who w) {
  return (item_ctx){r, new_who(r, w)};
}

static void item_name(item_ctx *it, const char *what, const char *name) {
  record(it->r, (entry){{name, what, it->at}, NULL, 0, -1, E_CLAIM, true});
}

static bool has_items(const og_attr *a) {
  const og_value *v = a->default_value;
  return v && v->kind == OG_VAL_LIST && v->u.list.count > 0;
}

static void tensor_names(item_ctx *it, const og_c_file *f, const char *t) {
  item_name(it, "a default tensor", t);
  item_name(it, "a default tensor's dims", og_cn_tensor_dims(f, t));
  item_name(it, "a default tensor's data", og_cn_tensor_data(f, t));
}

static void default_names(item_ctx *it, const og_c_file *f, const og_op *op,
                          const og_attr *a) {
  const og_value *v = a->default_value;
  if (!v) return;
  item_name(it, "the default", og_cn_attr(f, op, a, OG_CN_DEFAULT_VALUE));
  if (has_items(a)) {
    item_name(it, "the default list", og_cn_attr(f, op, a, OG_CN_DEFAULT));
    for (size_t i = 0; i < v->u.list.count; i++)
      if (a->type.kind == OG_ATTR_SHAPE)
        item_name(it, "a default's dims",
                  og_cn_default_item(f, op, a, false, i));
      else if (a->type.kind == OG_ATTR_TENSOR)
        tensor_names(it, f, og_cn_default_item(f, op, a, true, i));
  }
  if (!a->type.is_list && a->type.kind == OG_ATTR_SHAPE)
    item_name(it, "the default's dims",
              og_cn_attr(f, op, a, OG_CN_DEFAULT_DIMS));
  if (!a->type.is_list && a->type.kind == OG_ATTR_TENSOR)
    tensor_names(it, f, og_cn_attr(f, op, a, OG_CN_DEFAULT_TENSOR));
  og_bytes text;
  if (og_c_long_default_text(a, &text))
    item_name(it, "the default's text", og_cn_attr(f, op, a, OG_CN_DEFAULT_TEXT));
}

static void attr_names(run *r, const og_c_file *f, const og_op *op,
                       const og_attr *a, const char *index) {
  item_ctx it = new_item(r, (who){.item_kind = "attr", .item = a->name,
                                  .op = op, .file = f, .pos = &a->pos});
  if (og_c_attr_is_enum(a)) {
    item_name(&it, "the enum", og_cn_attr(f, op, a, OG_CN_ENUM));
    const char **enumerators = og_c_enumerators(f, op, a);
    for (size_t i = 0; i < a->allowed->u.list.count; i++)
      item_name(&it, "an enumerator", enumerators[i]);
  }
  if (a->allowed && a->type.kind == OG_ATTR_STRING)
    item_name(&it, "the allowed values", og_cn_attr(f, op, a, OG_CN_ALLOWED));
  default_names(&it, f, op, a);
  if (a->type.kind == OG_ATTR_TYPE && !a->type.is_list)
    item_name(&it, "the types macro", og_cn_attr(f, op, a, OG_CN_TYPES));
  item_name(&it, "the accessor", og_cn_attr(f, op, a, OG_CN_ACCESSOR));
  if (a->type.is_list)
    item_name(&it, "the count accessor",
              og_cn_attr(f, op, a, OG_CN_ACCESSOR_COUNT));
  item_name(&it, "the index constant", index);
}

static void arg_names(run *r, const og_c_file *f, const og_op *op,
                      const og_arg *arg, bool input, const char *index) {
  item_ctx it = new_item(r, (who){.item_kind = input ? "input" : "output",
                                  .item = arg->name, .op = op, .file = f,
                                  .pos = &arg->pos});
  bool list = og_c_arg_is_list(arg);
  item_name(&it, "the index constant", index);
  if (input) {
    item_name(&it, "the accessor", og_cn_arg(f, op, arg, OG_CN_INPUT));
    if (list)
      item_name(&it, "the count accessor",
                og_cn_arg(f, op, arg, OG_CN_INPUT_COUNT));
    return;
  }
  if (list)
    item_name(&it, "the count accessor",
              og_cn_arg(f, op, arg, OG_CN_OUTPUT_COUNT));
  item_name(&it, "the allocator", og_cn_arg(f, op, arg, OG_CN_ALLOC));
}

static void shape_fn_name(run *r, const og_c_file *f, const og_op *op) {
  claim c = {op->shape_fn, "the shape_fn",
             new_who(r, (who){.op = op, .file = f, .pos = &op->shape_fn_pos,
                              .shared = true})};
  if (og_c_in_runtime_namespace(op->shape_fn))
    record_report(r, c, "is in the runtime's namespace (opr_, OPR_)", -1);
  else
    claim_name(r, c, true);
}

/* Whether op has the og_cn_op name `p` (op_names claims it, and
 * og_cn_prepare computes it for the renders). */
bool og_cn_op_has_part(const og_c_file *f, const og_op *op, int p) {
  if ((p == OG_CN_ATTRS || p == OG_CN_ATTRS_DEFAULT) &&
      !og_c_has_attrs_struct(op))
    return false;
  if (p == OG_CN_SHAPE && (op->shape_fn || !op->nshape_rules)) return false;
  /* Wrappers of one runtime call share no body (emit_c_source.c). */
  if (p == OG_CN_CALL && og_c_has_exec_fast_path(op)) return false;
  if (p == OG_CN_SHAPE_VALUES && !og_c_shape_has_values(f, op)) return false;
  return !((p == OG_CN_INPUT_DEFS && !op->ninputs) ||
           (p == OG_CN_OUTPUT_DEFS && !op->noutputs) ||
           (p == OG_CN_ATTR_DEFS && !op->nattrs));
}

/* The op's names, from its cache slot (og_cn_prepare filled it: only
 * read here, as the renders may run meanwhile). */
static void op_names(run *r, const og_c_file *f, const og_op *op) {
  static const char *const what[OG_CN_OP_PARTS] = {
      "the wrapper", "the attrs struct", "the attrs default macro",
      "the op table", "the op state", "the check", "the shape function",
      "the shape values struct",
      "the input table", "the output table", "the attr table",
      "the kernel struct", "the kernel registration",
      "the caller-owned wrapper", "the wrappers' body"};
  item_ctx it = new_item(r, (who){.op = op, .file = f, .pos = &op->pos});
  for (int p = 0; p < OG_CN_OP_PARTS; p++)
    if (og_cn_op_has_part(f, op, p))
      item_name(&it, what[p], og_cn_op(f, op, (og_cn_op_part)p));
  if (op->shape_fn) shape_fn_name(r, f, op);
  else if (op->nshape_rules)
    for (size_t i = 0; i < op->nshape_lets; i++) {
      const og_shape_let *let = &op->shape_lets[i];
      claim c = {og_cn_shape_let(f, op, let), "the function",
                 new_who(r, (who){.item_kind = "let", .item = let->name,
                                  .op = op, .file = f, .pos = &let->pos})};
      claim_name(r, c, true);
    }
  const char **ix[3];
  for (int k = 0; k < 3; k++) ix[k] = og_cn_indexes(f, op, (og_cn_index_kind)k);
  const char **attr_ix = ix[OG_CN_ATTR_INDEXES];
  const char **in_ix = ix[OG_CN_INPUT_INDEXES];
  const char **out_ix = ix[OG_CN_OUTPUT_INDEXES];
  for (size_t i = 0; i < op->nattrs; i++)
    attr_names(r, f, op, &op->attrs[i], attr_ix[i]);
  for (size_t i = 0; i < op->ninputs; i++)
    arg_names(r, f, op, &op->inputs[i], true, in_ix[i]);
  for (size_t i = 0; i < op->noutputs; i++)
    arg_names(r, f, op, &op->outputs[i], false, out_ix[i]);
}

/* About as many global names as ops[0..n) will claim. */
size_t og_cn_estimate_names(const og_op *const *ops, size_t n) {
  size_t names = 8;
  /* Over, not under: a table that grows rehashes every name (a corpus
   * run claims some 27 names an op). */
  for (size_t i = 0; i < n; i++) {
    const og_op *op = ops[i];
    names += 14 + 3 * (op->ninputs + op->noutputs) + 4 * op->nattrs;
    for (size_t k = 0; k < op->nattrs; k++) {
      const og_attr *a = &op->attrs[k];
      names += og_c_attr_is_enum(a) ? a->allowed->u.list.count : 0;
    }
  }
  return names;
}

/* The later ops of a file, named on a thread of their own: into their
 * own run and a copy of the file with its own arena, both merged into
 * the caller's after (the names and entries are the same as if named
 * in one go; each op's cache slot is written by one thread). */
typedef struct half {
  run r;
  og_arena whos, names;
  og_c_file f; /* kept till the run ends: the whos point at it */
  const og_op *const *ops;
  size_t n;
} half;

static void *name_half(void *arg) {
  half *h = arg;
  for (size_t i = 0; i < h->n; i++) op_names(&h->r, &h->f, h->ops[i]);
  return NULL;
}

/* Ops enough for two threads: starting one costs some 50 us. */
size_t og_cn_split_ops = 256;

static void name_ops(run *r, const og_c_file *f, const og_op *const *ops,
                     size_t n) {
  size_t k = n / 2;
  if (n < og_cn_split_ops || n < 2) {
    for (size_t i = 0; i < n; i++) op_names(r, f, ops[i]);
    return;
  }
  half *h = og_arena_alloc(r->arena, sizeof *h);
  og_arena_init(&h->whos);
  og_arena_init(&h->names);
  h->r = (run){.arena = &h->whos};
  /* Sized once, as the caller's. */
  h->r.cap = og_cn_estimate_names(ops + k, n - k);
  h->r.entries = og_cn_table(h->r.cap * sizeof *h->r.entries);
  h->f = *f;
  h->f.arena = &h->names;
  h->ops = ops + k;
  h->n = n - k;
  pthread_t thread;
  bool started = pthread_create(&thread, NULL, name_half, h) == 0;
  for (size_t i = 0; i < k; i++) op_names(r, f, ops[i]);
  if (started) pthread_join(thread, NULL);
  else name_half(h);
  append_all(r, h->r.entries, h->r.count);
  og_pages_free(h->r.entries, h->r.cap * sizeof *h->r.entries);
  og_arena_adopt(r->arena, &h->whos);
  og_arena_adopt(f->arena, &h->names);
}

/* The package itself: the runtime's prefix, or one that makes every name
 * reserved. False when the file's names need not be looked at. */
static bool check_package(run *r, const og_c_file *f) {
  const char *p = f->prefix;
  bool opr = strlen(p) >= 3 && og_ascii_ieq(p, 3, "opr") &&
             (!p[3] || p[3] == '_');
  bool reserved = p[0] == '_' || p[strlen(p) - 1] == '_' || strstr(p, "__");
  if (!opr && !reserved) return true;
  claim c = {og_cn_file(f, OG_CN_REGISTER_OPS), "the register function",
             new_who(r, (who){.file = f, .pos = &f->package_pos})};
  const char *stmt = f->c_prefix ? "c_prefix" : "package";
  record_report(r, c,
         og_arena_printf(f->arena,
                         opr ? "is in the runtime's namespace (opr_, OPR_); "
                               "choose another %s"
                             : "contains '__' or starts with '_', which C "
                               "and C++ reserve; choose another %s",
                         stmt),
         -1);
  return false;
}

static void file_names(run *r, const og_c_file *f) {
  static const og_cn_file_part files[] = {OG_CN_OPS_H, OG_CN_OPS_C,
                                          OG_CN_KERNELS_H};
  const who *at = new_who(r, (who){.file = f, .pos = &f->package_pos});
  for (size_t k = 0; k < 3; k++) {
    claim c = {og_cn_file(f, files[k]), "an output file", at};
    /* Folded: x_ops.h and X_ops.h are one file on some file systems. */
    char *folded = og_arena_strdup(f->arena, c.name);
    for (char *p = folded; *p; p++) *p = (char)og_to_lower((unsigned char)*p);
    size_t before = r->files.count;
    size_t id = og_cn_set_add(&r->files, folded);
    if (id != before) {
      record_report(r, c, NULL, (long)r->file_claims[id]);
      return; /* its guards would only say so again */
    }
    r->file_claims = og_xgrow(r->file_claims, &r->file_cap, id + 1,
                              sizeof *r->file_claims);
    r->file_claims[id] = r->count;
    claim_name(r, c, false); /* no identifier has a '.': cannot fail */
  }
  item_ctx it = {r, at};
  item_name(&it, "the include guard", og_cn_file(f, OG_CN_OPS_H_GUARD));
  item_name(&it, "the include guard", og_cn_file(f, OG_CN_KERNELS_H_GUARD));
}

static int by_position(const void *a, const void *b) {
  const og_op *x = *(const og_op *const *)a, *y = *(const og_op *const *)b;
  if (x->pos.line != y->pos.line) return x->pos.line < y->pos.line ? -1 : 1;
  return x->pos.col < y->pos.col ? -1 : x->pos.col > y->pos.col;
}

void og_cn_check_file(run *r, const og_c_file *f) {
  file_names(r, f);
  if (!check_package(r, f)) return;
  claim c = {og_cn_file(f, OG_CN_REGISTER_OPS), "the register function",
             new_who(r, (who){.file = f, .pos = &f->package_pos})};
  claim_name(r, c, true);
  /* In source order, so that a clash is reported at the later name. */
  const og_op **ops = og_arena_array(f->arena, f->nops + 1, sizeof *ops);
  memcpy(ops, f->ops, f->nops * sizeof *ops);
  qsort(ops, f->nops, sizeof *ops, by_position);
  name_ops(r, f, ops, f->nops);
}
