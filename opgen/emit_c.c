/* The C generation driver: groups ops by spec file, checks what only C
 * can get wrong (the name model, emit_c_names_check.c) while it renders
 * three files per spec file, in four parts, on a pool of threads. */
#include "emit_c.h"

#include "emit_c_internal.h"

#include <pthread.h>
#include <stdatomic.h>
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
 * read, by the renders and the name check alike). */
typedef enum render_part {
  PART_HEADER,
  PART_KERNELS,
  PART_SOURCE_TAIL,
  PART_SOURCE_HEAD,
  NPARTS
} render_part;

/* A file's outputs: the source renders in two parts, the tail into the
 * output's second writer (og_output.more: not appended, which would copy
 * megabytes); the part that completes an output compares it with the
 * file it replaces. */
typedef struct file_out {
  og_output *items[3]; /* header, source, kernels */
  atomic_int source_parts; /* not yet rendered */
} file_out;

typedef struct render_job {
  og_c_file file; /* a copy, with `arena` */
  og_arena arena;
  render_part part;
  size_t split; /* the source's first op in its tail */
  file_out *out;
} render_job;

static void render(render_job *j) {
  og_output *const *items = j->out->items;
  og_output *done = NULL;
  switch (j->part) {
  case PART_HEADER:
    og_emit_c_header(&j->file, &items[0]->w);
    done = items[0];
    break;
  case PART_KERNELS:
    og_emit_c_kernels(&j->file, &items[2]->w);
    done = items[2];
    break;
  case PART_SOURCE_HEAD:
    og_emit_c_source_head(&j->file, &items[1]->w, j->split);
    break;
  default: og_emit_c_source_tail(&j->file, &items[1]->more, j->split); break;
  }
  if (!done && atomic_fetch_sub(&j->out->source_parts, 1) == 1)
    done = items[1];
  if (done) og_output_compare(done);
}

/* The jobs of a run, pulled in order by the threads of the pool. */
typedef struct renders {
  render_job *jobs;
  file_out *outs;
  size_t count;
  atomic_size_t next;
  pthread_t threads[NPARTS];
  bool started[NPARTS];
} renders;

static void *work(void *arg) {
  renders *r = arg;
  for (size_t i; (i = atomic_fetch_add(&r->next, 1)) < r->count;)
    render(&r->jobs[i]);
  return NULL;
}

size_t og_c_source_split_ops = 64;

/* Starts rendering files[0..n) into items (three a file: header,
 * source, kernels) on up to NPARTS threads: a corpus file's four parts
 * at once, beside the caller's name check. The source renders in two
 * halves of like sizes when large. Each output is the same bytes as
 * rendered alone, on any number of threads. */
static renders *renders_start(const og_c_file *files, size_t n,
                              og_output *items) {
  renders *r = og_xmalloc(sizeof *r);
  memset(r, 0, sizeof *r);
  r->count = n * NPARTS;
  r->jobs = og_xmalloc((r->count ? r->count : 1) * sizeof *r->jobs);
  r->outs = og_xmalloc((n ? n : 1) * sizeof *r->outs);
  atomic_init(&r->next, 0);
  for (size_t i = 0; i < n; i++) {
    const og_c_file *f = &files[i];
    file_out *o = &r->outs[i];
    for (int k = 0; k < 3; k++) o->items[k] = &items[3 * i + k];
    atomic_init(&o->source_parts, 2);
    size_t split = f->nops >= og_c_source_split_ops ? f->nops / 2 : f->nops;
    /* Sized once, a little over what the corpus takes an op (2.2, 4.1
     * and 2.9 KiB): a buffer that grows is copied, and the reserved
     * pages that stay unused are faulted in all the same where `gen`
     * prefaults (og_pages_prefault). */
    og_w_reserve(&o->items[0]->w, 3072 * (f->nops + 1));
    og_w_reserve(&o->items[1]->w, 5120 * (split + 1));
    og_w_reserve(&o->items[1]->more, 5120 * (f->nops - split + 1));
    og_w_reserve(&o->items[2]->w, 4096 * (f->nops + 1));
    for (int k = 0; k < NPARTS; k++) {
      render_job *j = &r->jobs[i * NPARTS + (size_t)k];
      *j = (render_job){.file = *f, .part = (render_part)k, .split = split,
                        .out = o};
      og_arena_init(&j->arena);
      j->file.arena = &j->arena;
    }
  }
  for (size_t t = 0; t < NPARTS && t < r->count; t++)
    r->started[t] = pthread_create(&r->threads[t], NULL, work, r) == 0;
  return r;
}

/* Renders on this thread what no thread took, waits for the threads,
 * frees the run. */
static void renders_end(renders *r) {
  work(r);
  for (size_t t = 0; t < NPARTS; t++)
    if (r->started[t]) pthread_join(r->threads[t], NULL);
  for (size_t i = 0; i < r->count; i++) og_arena_free(&r->jobs[i].arena);
  free(r->jobs);
  free(r->outs);
  free(r);
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

/* Three empty outputs a file: header, source, kernels. */
static void add_outputs(og_arena *arena, const og_c_file *files, size_t n,
                        const char *dir, og_outputs *out) {
  static const og_cn_file_part parts[3] = {OG_CN_OPS_H, OG_CN_OPS_C,
                                           OG_CN_KERNELS_H};
  const char *sep = dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "";
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      og_outputs_add(out, og_arena_printf(arena, "%s%s%s", dir, sep,
                                          og_cn_file(&files[i], parts[k])));
}

/* Empties outputs [first, count): dropped, or (`keep`) to render anew. */
static void clear_outputs(og_outputs *out, size_t first, bool keep) {
  for (size_t i = first; i < out->count; i++) {
    og_writer_free(&out->items[i].w);
    og_writer_free(&out->items[i].more);
    out->items[i].same = OG_SAME_UNKNOWN;
    if (!keep) free(out->items[i].path);
  }
  if (!keep) out->count = first;
}

/* The renders run beside the name check (they only read the names
 * og_cn_prepare gave each op); nothing is kept unless it passes, and
 * where the check renamed a scoped name, all render again. */
bool og_emit_c(const og_model *m, const char *dir, og_outputs *out,
               og_diag *diag) {
  og_arena arena;
  og_arena_init(&arena);
  og_c_file *files;
  size_t n = group_files(&arena, m, &files);
  og_cn_run *names = og_cn_prepare(files, n, true);
  size_t first = out->count;
  add_outputs(&arena, files, n, dir, out);
  renders *r = renders_start(files, n, out->items + first);
  bool ok = og_cn_check(names, diag);
  renders_end(r);
  bool renamed;
  ok = og_cn_finish(names, diag, &renamed) && ok;
  if (ok && renamed) {
    clear_outputs(out, first, true);
    renders_end(renders_start(files, n, out->items + first));
  }
  if (!ok) clear_outputs(out, first, false);
  og_arena_free(&arena);
  return ok;
}
