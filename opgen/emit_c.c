/* The C generation driver: groups ops by spec file, checks what only C
 * can get wrong (the name model, emit_c_names_check.c), and renders
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
    cf->package_pos = m->files[f].package_pos;
    cf->c_prefix = m->files[f].c_prefix;
    cf->prefix_strip = m->files[f].prefix_strip;
    cf->ops = og_arena_array(arena, m->nops ? m->nops : 1, sizeof *cf->ops);
    for (size_t i = 0; i < m->nops; i++)
      if (strcmp(m->ops[i]->pos.file, cf->path) == 0)
        cf->ops[cf->nops++] = m->ops[i];
    og_c_cache_init(cf);
  }
  *out = files;
  return m->nfiles;
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
  for (size_t i = 0; i < f->nops; i++) /* computed by the check already */
    og_c_wrapper_params(f, f->ops[i]);
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

bool og_emit_c_check(const og_model *m, og_diag *diag) {
  og_arena arena;
  og_arena_init(&arena);
  og_c_file *files;
  size_t n = group_files(&arena, m, &files);
  bool ok = og_cn_check_run(files, n, false, diag);
  og_arena_free(&arena);
  return ok;
}

bool og_emit_c(const og_model *m, const char *dir, og_outputs *out,
               og_diag *diag) {
  og_arena arena;
  og_arena_init(&arena);
  og_c_file *files;
  size_t n = group_files(&arena, m, &files);
  bool ok = og_cn_check_run(files, n, true, diag);
  for (size_t i = 0; ok && i < n; i++) {
    const og_c_file *f = &files[i];
    const char *sep = dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "";
    static const og_cn_file_part parts[3] = {OG_CN_OPS_H, OG_CN_OPS_C,
                                             OG_CN_KERNELS_H};
    size_t first = out->count;
    for (int k = 0; k < 3; k++)
      og_outputs_add(out, og_arena_printf(&arena, "%s%s%s", dir, sep,
                                          og_cn_file(f, parts[k])));
    /* Taken once all three are added: adding may move the array. */
    og_writer *const w[3] = {&out->items[first].w, &out->items[first + 1].w,
                             &out->items[first + 2].w};
    /* Each output takes about 3 KiB an op: sized once (pages that stay
     * unused cost nothing), not doubled a dozen times. */
    for (int k = 0; k < 3; k++) og_w_reserve(w[k], 4096 * (f->nops + 1));
    render_file(f, w);
  }
  og_arena_free(&arena);
  return ok;
}
