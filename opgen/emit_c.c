/* The C generation driver: groups ops by spec file, checks what only C
 * can get wrong (the name model, emit_c_names_check.c), and renders
 * three files per spec file, in four parts on four threads. */
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

/* One part of a file's outputs, rendered with its own scratch arena, so
 * that the parts can render on threads of their own (the per-op names
 * and wrapper parameters of f->cache are complete by then and only
 * read). */
typedef enum render_part {
  PART_HEADER,
  PART_SOURCE_HEAD,
  PART_SOURCE_TAIL,
  PART_KERNELS,
  NPARTS
} render_part;

typedef struct render_job {
  og_c_file file; /* a copy, with `arena` */
  og_arena arena;
  render_part part;
  size_t split; /* the source's first op in its tail */
  og_writer *w;
} render_job;

static void *render(void *arg) {
  render_job *j = arg;
  switch (j->part) {
  case PART_HEADER: og_emit_c_header(&j->file, j->w); break;
  case PART_SOURCE_HEAD: og_emit_c_source_head(&j->file, j->w, j->split); break;
  case PART_SOURCE_TAIL: og_emit_c_source_tail(&j->file, j->w, j->split); break;
  default: og_emit_c_kernels(&j->file, j->w); break;
  }
  return NULL;
}

size_t og_c_source_split_ops = 64;

/* Renders header, source and kernel header of f into w[0..2]. The source
 * (the largest) renders in two halves, the head on this thread, the tail
 * into a writer of its own that is appended after, so that four parts of
 * like sizes share the CPUs; the other parts on threads of their own.
 * Each output is the same bytes as rendered alone. Where a thread cannot
 * be started, its part renders here. */
static void render_file(const og_c_file *f, og_writer *const w[3]) {
  for (size_t i = 0; i < f->nops; i++) /* computed by the check already */
    og_c_wrapper_params(f, f->ops[i]);
  og_writer tail;
  og_writer_init(&tail);
  size_t split = f->nops >= og_c_source_split_ops ? f->nops / 2 : f->nops;
  og_w_reserve(&tail, 4096 * (f->nops - split + 1));
  og_writer *const into[NPARTS] = {w[0], w[1], &tail, w[2]};
  render_job jobs[NPARTS];
  pthread_t threads[NPARTS];
  bool started[NPARTS] = {false};
  for (int i = 0; i < NPARTS; i++) {
    jobs[i] = (render_job){
        .file = *f, .part = (render_part)i, .split = split, .w = into[i]};
    og_arena_init(&jobs[i].arena);
    jobs[i].file.arena = &jobs[i].arena;
  }
  for (int i = 0; i < NPARTS; i++)
    if (i != PART_SOURCE_HEAD)
      started[i] = pthread_create(&threads[i], NULL, render, &jobs[i]) == 0;
  render(&jobs[PART_SOURCE_HEAD]);
  for (int i = 0; i < NPARTS; i++) {
    if (started[i]) pthread_join(threads[i], NULL);
    else if (i != PART_SOURCE_HEAD) render(&jobs[i]);
  }
  og_w_append(w[1], &tail);
  og_writer_free(&tail);
  for (int i = 0; i < NPARTS; i++) og_arena_free(&jobs[i].arena);
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
