/* og_compile: parse every file, then finalize and validate each op. */
#include "compile.h"

#include "ascii.h"
#include "parse.h"
#include "sema_internal.h"

#include <stdlib.h>
#include <string.h>

og_srcpos og_sema_pos(const og_sema_op *s, og_loc loc) {
  og_srcpos pos = og_sources_pos_near(s->sources, loc, s->line);
  pos.file = s->file;
  return pos;
}

/* "Zeroes all.\n\nMore." -> summary "Zeroes all.", description "More.".
 * The first paragraph is the summary (its lines joined by spaces). */
static void split_op_doc(og_arena *arena, const og_ast_doc *doc,
                         const char **summary, const char **description) {
  *summary = *description = "";
  if (!doc) return;
  const char *text = doc->text;
  while (*text == '\n') text++;
  const char *end = strstr(text, "\n\n");
  size_t n = end ? (size_t)(end - text) : strlen(text);
  while (n && text[n - 1] == '\n') n--; /* a last, blank `///` line */
  char *sum = og_arena_strndup(arena, text, n);
  for (char *p = sum; *p; p++)
    if (*p == '\n') *p = ' ';
  *summary = sum;
  if (!end) return;
  while (*end == '\n') end++;
  size_t len = strlen(end);
  while (len && end[len - 1] == '\n') len--;
  *description = og_arena_strndup(arena, end, len);
}

static const char *item_doc(og_arena *arena, const og_ast_item *item) {
  return item->doc ? og_arena_strdup(arena, item->doc->text) : "";
}

char *og_default_package(og_arena *arena, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strcspn(base, ".");
  bool prefix = n == 0 || og_is_digit((unsigned char)base[0]);
  char *p = og_arena_printf(arena, "%s%.*s", prefix ? "op_" : "", (int)n,
                            base);
  for (char *c = p; *c; c++)
    *c = og_is_alnum((unsigned char)*c) ? (char)og_to_lower((unsigned char)*c)
                                        : '_';
  return p;
}

/* The C prefix: the c_prefix, else the package, else the one the file's
 * name gives. */
static const char *file_prefix(og_arena *arena, const og_ast_file *file,
                               const char *path) {
  if (file->c_prefix) return og_arena_strdup(arena, file->c_prefix);
  if (file->package) return og_arena_strdup(arena, file->package);
  return og_default_package(arena, path);
}

static void count_items(const og_ast_op *ast, size_t counts[3]) {
  for (const og_ast_item *it = ast->items; it; it = it->next) {
    if (it->kind == OG_ITEM_ATTR) counts[0]++;
    if (it->kind == OG_ITEM_INPUT) counts[1]++;
    if (it->kind == OG_ITEM_OUTPUT) counts[2]++;
  }
}

static void collect_items(og_sema_op *s) {
  og_op *op = s->op;
  size_t counts[3] = {0};
  count_items(s->ast, counts);
  op->attrs = og_arena_array(s->arena, counts[0], sizeof *op->attrs);
  op->inputs = og_arena_array(s->arena, counts[1], sizeof *op->inputs);
  op->outputs = og_arena_array(s->arena, counts[2], sizeof *op->outputs);
  s->attr_items = og_arena_array(s->arena, counts[0], sizeof *s->attr_items);
  s->input_items = og_arena_array(s->arena, counts[1], sizeof *s->input_items);
  s->output_items = og_arena_array(s->arena, counts[2], sizeof *s->output_items);
  s->attr_bad = og_arena_array(s->arena, counts[0], sizeof *s->attr_bad);
  for (const og_ast_item *it = s->ast->items; it; it = it->next) {
    if (it->kind == OG_ITEM_ATTR) {
      op->attrs[op->nattrs].description = item_doc(s->arena, it);
      s->attr_items[op->nattrs++] = it;
    } else if (it->kind == OG_ITEM_INPUT) {
      op->inputs[op->ninputs].description = item_doc(s->arena, it);
      s->input_items[op->ninputs++] = it;
    } else if (it->kind == OG_ITEM_OUTPUT) {
      op->outputs[op->noutputs].description = item_doc(s->arena, it);
      s->output_items[op->noutputs++] = it;
    }
  }
}

static void set_flag(og_sema_op *s, const og_ast_item *it, bool *flag,
                     const char *name) {
  if (*flag && it->kind != OG_ITEM_STATEFUL)
    og_diag_at(s->diag, OG_SEV_WARNING, it->loc, "duplicate '%s' flag", name);
  *flag = true;
}

static void apply_deprecation(og_sema_op *s, const og_ast_item *it,
                              const og_ast_item **seen) {
  og_op *op = s->op;
  if (*seen) {
    og_error_at(s->diag, it->loc, "op '%s' is deprecated twice", op->name);
    og_note_at(s->diag, (*seen)->loc, "first deprecation is here");
    return;
  }
  *seen = it;
  int64_t v = it->version->i;
  if (v < 0 || v > INT32_MAX) {
    og_error_at(s->diag, it->version->loc,
                "deprecation version must be between 0 and %d, found %lld",
                INT32_MAX, (long long)v);
    return;
  }
  op->deprecated = true;
  op->deprecation_version = (int32_t)v;
  op->deprecation_explanation = og_arena_strndup(
      s->arena, it->explanation->s.ptr, it->explanation->s.len);
}

static void apply_flags(og_sema_op *s) {
  og_op *op = s->op;
  const og_ast_item *deprecated = NULL;
  for (const og_ast_item *it = s->ast->items; it; it = it->next) {
    switch (it->kind) {
    case OG_ITEM_STATEFUL: set_flag(s, it, &op->is_stateful, "stateful"); break;
    case OG_ITEM_COMMUTATIVE:
      set_flag(s, it, &op->is_commutative, "commutative"); break;
    case OG_ITEM_AGGREGATE: set_flag(s, it, &op->is_aggregate, "aggregate"); break;
    case OG_ITEM_ALLOWS_UNINITIALIZED_INPUT:
      set_flag(s, it, &op->allows_uninitialized_input,
               "allows_uninitialized_input");
      break;
    case OG_ITEM_DISTRIBUTED_COMMUNICATION:
      set_flag(s, it, &op->is_distributed_communication,
               "distributed_communication");
      break;
    case OG_ITEM_DEPRECATED: apply_deprecation(s, it, &deprecated); break;
    default: break;
    }
  }
}

/* Builds and validates one op; NULL-free: the op always exists, errors are
 * counted in the diag. */
static og_op *finalize_op(og_arena *arena, og_diag *diag,
                          const og_sources *sources, const char *file,
                          const og_ast_op *ast) {
  og_op *op = og_arena_alloc(arena, sizeof *op);
  og_sema_op s = {.arena = arena, .diag = diag, .sources = sources,
                  .file = file, .ast = ast, .op = op};
  op->name = og_arena_strdup(arena, ast->name);
  op->pos = og_sema_pos(&s, ast->name_loc);
  s.line = op->pos.line - 1; /* where its items' searches start */
  split_op_doc(arena, ast->doc, &op->summary, &op->description);
  op->deprecation_explanation = "";
  og_sema_check_op_name(&s);
  collect_items(&s);
  og_sema_check_names(&s);
  apply_flags(&s);
  for (size_t i = 0; i < op->nattrs; i++) og_sema_attr(&s, i);
  for (size_t i = 0; i < op->ninputs; i++) og_sema_arg(&s, true, i);
  for (size_t i = 0; i < op->noutputs; i++) og_sema_arg(&s, false, i);
  for (size_t i = 0; i < op->nattrs; i++) og_sema_attr_default(&s, i);
  og_sema_shapes(&s);
  og_op_index_attrs(arena, op);
  return op;
}

typedef struct op_entry {
  const og_op *op;
  const og_ast_op *ast;
  uint32_t file;
} op_entry;

static int compare_entries(const void *a, const void *b) {
  const op_entry *x = a, *y = b;
  int c = strcmp(x->op->name, y->op->name);
  if (c) return c;
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  return x->ast->loc.begin < y->ast->loc.begin ? -1 : 1;
}

/* An op name may be defined once across all files of a run. */
static void check_duplicates(og_model *m, og_diag *diag, op_entry *entries) {
  /* With no op, entries is NULL, which qsort may not be given. */
  if (m->nops > 1) qsort(entries, m->nops, sizeof *entries, compare_entries);
  for (size_t i = 1; i < m->nops; i++) {
    if (strcmp(entries[i].op->name, entries[i - 1].op->name) != 0) continue;
    size_t first = i - 1;
    while (first > 0 && strcmp(entries[first - 1].op->name,
                               entries[i].op->name) == 0)
      first--;
    og_error_at(diag, entries[i].ast->name_loc, "op '%s' is already defined",
                entries[i].op->name);
    og_note_at(diag, entries[first].ast->name_loc,
               "previous definition of '%s' is here", entries[i].op->name);
  }
}

/* Spec files are UTF-8 text; anything else is rejected up front rather
 * than producing a cascade of confusing syntax errors. */
static bool check_encoding(const og_sources *sources, uint32_t file,
                           og_diag *diag) {
  const og_source *src = sources->items[file];
  size_t bad = og_utf8_check(src->text, src->len);
  if (bad == (size_t)-1) return true;
  og_loc loc = {file, (uint32_t)bad, (uint32_t)bad + 1};
  unsigned char byte = (unsigned char)src->text[bad];
  if (byte == 0)
    og_error_at(diag, loc, "NUL byte in spec; spec files are UTF-8 text");
  else
    og_error_at(diag, loc,
                "invalid UTF-8 byte 0x%02x; spec files are UTF-8 text", byte);
  return false;
}

/* One file's ops as the parse completes them (og_sema_parse_each). */
typedef struct file_ops {
  const og_sources *sources;
  const char *file;
} file_ops;

static void *finalize_each(void *arg, const og_ast_op *op, og_diag *diag,
                           og_arena *arena) {
  const file_ops *fo = arg;
  if (op->has_syntax_error) return NULL; /* avoid follow-on errors */
  /* The prefix may be declared after an op (an error): set after. */
  return finalize_op(arena, diag, fo->sources, fo->file, op);
}

static void add_entries(og_model *m, const og_sema_ops *ops, uint32_t file,
                        op_entry **entries, size_t *cap) {
  *entries = og_xgrow(*entries, cap, m->nops + ops->count, sizeof **entries);
  for (size_t i = 0; i < ops->count; i++)
    (*entries)[m->nops++] =
        (op_entry){ops->items[i].result, ops->items[i].ast, file};
}

og_model *og_compile(const og_sources *sources, const uint32_t *files,
                     size_t nfiles, og_diag *diag) {
  size_t errors_before = diag->errors;
  og_model *m = og_model_new();
  m->files = og_arena_array(&m->arena, nfiles, sizeof *m->files);
  og_arena ast_arena;
  og_arena_init(&ast_arena);
  size_t cap = 0;
  op_entry *entries = NULL;
  for (size_t f = 0; f < nfiles; f++) {
    const og_source *src = sources->items[files[f]];
    if (!check_encoding(sources, files[f], diag)) continue;
    const char *file = og_arena_strdup(&m->arena, src->path);
    size_t first = m->nops;
    file_ops fo = {sources, file};
    og_sema_ops ops = {.each = finalize_each, .arg = &fo, .arena = &m->arena};
    og_ast_file *ast = og_sema_parse_each(&ast_arena, sources, files[f], diag,
                                          &ops);
    add_entries(m, &ops, files[f], &entries, &cap);
    free(ops.items);
    const char *prefix = file_prefix(&m->arena, ast, src->path);
    for (size_t i = first; i < m->nops; i++)
      ((og_op *)entries[i].op)->package = prefix;
    og_srcpos ppos = {file, 0, 0, 0};
    if (ast->package || ast->c_prefix) {
      ppos = og_sources_pos(sources, ast->c_prefix ? ast->c_prefix_loc
                                                   : ast->package_loc);
      ppos.file = file;
    }
    m->files[m->nfiles++] = (og_model_file){file, prefix, ppos,
                                            ast->c_prefix != NULL,
                                            ast->c_prefix_strip};
  }
  check_duplicates(m, diag, entries);
  m->ops = og_xmalloc((m->nops ? m->nops : 1) * sizeof *m->ops);
  for (size_t i = 0; i < m->nops; i++) m->ops[i] = (og_op *)entries[i].op;
  free(entries);
  og_arena_free(&ast_arena);
  if (diag->errors > errors_before) {
    og_model_free(m);
    return NULL;
  }
  return m; /* sorted by the duplicate check */
}

og_model *og_compile_text(og_sources *sources, const char *path,
                          const char *text, og_diag *diag) {
  uint32_t file = og_sources_add(sources, path, text, strlen(text));
  return og_compile(sources, &file, 1, diag);
}
