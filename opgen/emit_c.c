/* The C generation driver: groups ops by spec file, checks what only C
 * can get wrong (prefixes and identifiers that collide), and renders
 * three files per spec file. */
#include "emit_c.h"

#include "emit_c_internal.h"

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

typedef struct name_set {
  const char **names;
  const og_op **owners;
  size_t count, cap;
} name_set;

/* Records a generated identifier; reports it if another op or argument
 * already produced it. */
static bool claim(name_set *s, og_diag *diag, const og_op *op,
                  const char *name) {
  for (size_t i = 0; i < s->count; i++) {
    if (strcmp(s->names[i], name) != 0) continue;
    og_diag_report(diag, OG_SEV_ERROR, op->pos,
                   "op '%s' would generate the C name '%s', which op '%s' "
                   "already uses; rename one of them",
                   op->name, name, s->owners[i]->name);
    return false;
  }
  s->names = og_xgrow(s->names, &s->cap, s->count + 1, sizeof *s->names);
  s->owners = realloc(s->owners, s->cap * sizeof *s->owners);
  if (!s->owners) abort();
  s->names[s->count] = name;
  s->owners[s->count++] = op;
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
    free(params.names);
    free(params.owners);
  }
  free(global.names);
  free(global.owners);
  return ok;
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
    og_emit_c_header(f, og_outputs_add(out, og_arena_printf(
                            &arena, "%s%s%s_ops.h", dir, sep, f->stem)));
    og_emit_c_source(f, og_outputs_add(out, og_arena_printf(
                            &arena, "%s%s%s_ops.c", dir, sep, f->stem)));
    og_emit_c_kernels(f, og_outputs_add(out, og_arena_printf(
                             &arena, "%s%s%s_kernels.h", dir, sep, f->stem)));
  }
  og_arena_free(&arena);
  return ok;
}
