/* The C generation driver: groups ops by spec file, checks what only C
 * can get wrong (prefixes and identifiers that collide), and renders
 * three files per spec file, on three threads. */
#include "emit_c.h"

#include "emit_c_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* The spec files of the run, each with its ops (sorted by name). A spec
 * without ops still gets its three files, so build systems that expect
 * them find them. */
static size_t group_files(og_arena *arena, const og_model *m, og_c_file **out) {
  og_c_file *files =
      og_arena_array(arena, m->nfiles ? m->nfiles : 1, sizeof *files);
  for (size_t f = 0; f < m->nfiles; f++) {
    og_c_file *cf = &files[f];
    cf->arena = arena;
    cf->path = m->files[f].path;
    cf->spec = base_name(cf->path);
    const char *dot = strrchr(cf->spec, '.');
    cf->stem = dot && dot != cf->spec
                   ? og_arena_strndup(arena, cf->spec, (size_t)(dot - cf->spec))
                   : cf->spec;
    cf->prefix = m->files[f].package;
    cf->ops = og_arena_array(arena, m->nops ? m->nops : 1, sizeof *cf->ops);
    for (size_t i = 0; i < m->nops; i++)
      if (strcmp(m->ops[i]->pos.file, cf->path) == 0)
        cf->ops[cf->nops++] = m->ops[i];
    og_c_cache_init(cf);
  }
  *out = files;
  return m->nfiles;
}

/* Where to report a problem with a whole file. */
static og_srcpos file_pos(const og_c_file *f) {
  return f->nops ? f->ops[0]->pos : (og_srcpos){f->path, 0, 0, 0};
}

static bool check_prefixes(const og_c_file *files, size_t n, og_diag *diag) {
  bool ok = true;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < i; j++)
      if (strcmp(files[i].stem, files[j].stem) == 0) {
        og_diag_report(diag, OG_SEV_ERROR, file_pos(&files[i]),
                       "spec files '%s' and '%s' would both generate %s_ops.h; "
                       "generate them into different directories",
                       files[j].path, files[i].path, files[i].stem);
        ok = false;
      } else if (strcmp(files[i].prefix, files[j].prefix) == 0) {
        og_diag_report(diag, OG_SEV_ERROR, file_pos(&files[i]),
                       "spec files '%s' and '%s' both generate C names with "
                       "the prefix '%s'; give one of them another package",
                       files[j].path, files[i].path, files[i].prefix);
        ok = false;
      }
  return ok;
}

/* Generated identifiers seen so far: an open-addressing hash set, since a
 * corpus has tens of thousands of them. */
typedef struct name_set {
  const char **names;
  const og_op **owners;
  size_t count, cap; /* cap: a power of two, or 0 */
} name_set;

static uint64_t name_hash(const char *s) {
  uint64_t h = 14695981039346656037u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

static void set_grow(name_set *s) {
  name_set bigger = {NULL, NULL, 0, s->cap ? s->cap * 2 : 64};
  bigger.names = calloc(bigger.cap, sizeof *bigger.names);
  bigger.owners = calloc(bigger.cap, sizeof *bigger.owners);
  if (!bigger.names || !bigger.owners) abort();
  for (size_t i = 0; i < s->cap; i++) {
    if (!s->names[i]) continue;
    size_t j = name_hash(s->names[i]) & (bigger.cap - 1);
    while (bigger.names[j]) j = (j + 1) & (bigger.cap - 1);
    bigger.names[j] = s->names[i];
    bigger.owners[j] = s->owners[i];
  }
  bigger.count = s->count;
  free(s->names);
  free(s->owners);
  *s = bigger;
}

static void set_free(name_set *s) {
  free(s->names);
  free(s->owners);
}

/* Records a generated identifier; reports it if another op or argument
 * already produced it. */
static bool claim(name_set *s, og_diag *diag, const og_op *op,
                  const char *name) {
  if (2 * (s->count + 1) > s->cap) set_grow(s);
  size_t i = name_hash(name) & (s->cap - 1);
  for (; s->names[i]; i = (i + 1) & (s->cap - 1)) {
    if (strcmp(s->names[i], name) != 0) continue;
    og_diag_report(diag, OG_SEV_ERROR, op->pos,
                   "op '%s' would generate the C name '%s', which op '%s' "
                   "already uses; rename one of them",
                   op->name, name, s->owners[i]->name);
    return false;
  }
  s->names[i] = name;
  s->owners[i] = op;
  s->count++;
  return true;
}

static bool check_names(const og_c_file *f, og_diag *diag) {
  static const char *const suffixes[] = {"", "_attrs", "_def", "_kernel",
                                         "_register_kernel", "_check",
                                         "_state"};
  name_set global = {0};
  bool ok = true;
  for (size_t i = 0; i < f->nops; i++) {
    const og_op *op = f->ops[i];
    const char *name = og_c_op_name(f, op);
    for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; k++)
      ok = claim(&global, diag, op, og_arena_printf(f->arena, "%s%s", name,
                                                    suffixes[k])) && ok;
    name_set params = {0};
    og_c_params p = og_c_wrapper_params(f, op);
    for (size_t k = 0; k < p.count; k++)
      ok = claim(&params, diag, op, p.names[k]) && ok;
    set_free(&params);
  }
  set_free(&global);
  return ok;
}

/* One of a file's three outputs, rendered with its own scratch arena, so
 * that the three can render on threads of their own (the per-op names
 * and wrapper parameters of f->cache are complete by then and only
 * read). */
typedef struct render_job {
  og_c_file file; /* a copy, with `arena` */
  og_arena arena;
  void (*emit)(const og_c_file *f, og_writer *w);
  og_writer *w;
} render_job;

static void *render(void *arg) {
  render_job *j = arg;
  j->emit(&j->file, j->w);
  return NULL;
}

/* Renders header, source and kernel header of f into w[0..2]: the source
 * (the largest) on this thread, the other two on two more; each output is
 * the same bytes as rendered alone. Where a thread cannot be started, its
 * output renders here. */
static void render_file(const og_c_file *f, og_writer *const w[3]) {
  static void (*const emit[3])(const og_c_file *, og_writer *) = {
      og_emit_c_header, og_emit_c_source, og_emit_c_kernels};
  for (size_t i = 0; i < f->nops; i++) og_c_wrapper_params(f, f->ops[i]);
  render_job jobs[3];
  pthread_t threads[3];
  bool started[3] = {false, false, false};
  for (int i = 0; i < 3; i++) {
    jobs[i] = (render_job){.file = *f, .emit = emit[i], .w = w[i]};
    og_arena_init(&jobs[i].arena);
    jobs[i].file.arena = &jobs[i].arena;
  }
  for (int i = 0; i < 3; i += 2)
    started[i] = pthread_create(&threads[i], NULL, render, &jobs[i]) == 0;
  render(&jobs[1]);
  for (int i = 0; i < 3; i += 2) {
    if (started[i]) pthread_join(threads[i], NULL);
    else render(&jobs[i]);
  }
  for (int i = 0; i < 3; i++) og_arena_free(&jobs[i].arena);
}

bool og_emit_c(const og_model *m, const char *dir, og_outputs *out,
               og_diag *diag) {
  og_arena arena;
  og_arena_init(&arena);
  og_c_file *files;
  size_t n = group_files(&arena, m, &files);
  bool ok = check_prefixes(files, n, diag);
  for (size_t i = 0; i < n; i++) ok = check_names(&files[i], diag) && ok;
  for (size_t i = 0; ok && i < n; i++) {
    const og_c_file *f = &files[i];
    const char *sep = dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "";
    static const char *const suffixes[3] = {"_ops.h", "_ops.c",
                                            "_kernels.h"};
    size_t first = out->count;
    for (int k = 0; k < 3; k++)
      og_outputs_add(out, og_arena_printf(&arena, "%s%s%s%s", dir, sep,
                                          f->stem, suffixes[k]));
    /* Taken once all three are added: adding may move the array. */
    og_writer *const w[3] = {&out->items[first].w, &out->items[first + 1].w,
                             &out->items[first + 2].w};
    render_file(f, w);
  }
  og_arena_free(&arena);
  return ok;
}
