/* Checks the names of a whole `gen` run before anything is written: every
 * global name once (one namespace for all files and packages), file
 * names case-insensitively, each against the reserved names; and gives
 * each op's parameters and members their mangled names. These come
 * first (og_cn_prepare), as if no global name took one, so that the
 * renders can start and the global check run beside them; the check
 * then looks them up among the global names, and og_cn_finish names
 * again the rare scope where one was taken. This file runs those
 * steps; the names claimed, their check and the scopes are in
 * emit_c_names_claims.c, emit_c_names_dedup.c and emit_c_names_scope.c. */
#include "emit_c_names_check.h"

#include "pages.h"

#include <stdlib.h>

/* A file's scopes as og_cn_prepare named them. */
typedef struct file_scopes {
  chosen chosen[2];
  bool reserved; /* a scoped name is spelled as C++ reserves */
  bool taken;    /* a global name of the run is among the chosen */
} file_scopes;

struct og_cn_run {
  og_c_file *files;
  size_t n;
  bool params;
  file_scopes *scopes; /* by file */
  run r;
  og_arena whos;
};

og_cn_run *og_cn_prepare(og_c_file *files, size_t n, bool params) {
  og_cn_run *c = og_xmalloc(sizeof *c);
  *c = (og_cn_run){.files = files, .n = n, .params = params};
  c->scopes = og_xmalloc((n ? n : 1) * sizeof *c->scopes);
  for (size_t i = 0; i < n; i++) {
    file_scopes *fs = &c->scopes[i];
    *fs = (file_scopes){0};
    fs->reserved =
        !og_cn_scope_names(&files[i], NULL, params, NULL, fs->chosen);
  }
  return c;
}

/* Whether a name of `c` is a global name of the run. */
static bool any_taken(const global_set *g, const chosen *c) {
  for (size_t i = 0; i < c->count; i++)
    if (og_cn_global_has(g, c->items[i].name, c->items[i].hash)) return true;
  return false;
}

bool og_cn_check(og_cn_run *c, og_diag *diag) {
  og_arena_init(&c->whos);
  run *r = &c->r;
  *r = (run){.diag = diag, .arena = &c->whos, .ok = true};
  /* Sized once: growing tables touch fresh memory. */
  size_t estimate = 64;
  for (size_t i = 0; i < c->n; i++)
    estimate += og_cn_estimate_names(c->files[i].ops, c->files[i].nops);
  r->cap = estimate;
  r->entries = og_cn_table(r->cap * sizeof *r->entries);
  for (size_t i = 0; i < c->n; i++) og_cn_check_file(r, &c->files[i]);
  og_cn_dedup(r);
  og_cn_report_all(r);
  for (size_t i = 0; i < c->n; i++) {
    file_scopes *fs = &c->scopes[i];
    fs->taken = any_taken(&r->global, &fs->chosen[0]) ||
                any_taken(&r->global, &fs->chosen[1]);
  }
  return r->ok;
}

bool og_cn_finish(og_cn_run *c, og_diag *diag, bool *renamed) {
  run *r = &c->r;
  *renamed = false;
  for (size_t i = 0; i < c->n; i++) {
    file_scopes *fs = &c->scopes[i];
    /* Named anew with the global names, reporting (the same names
     * unless `taken`). */
    if (fs->taken || fs->reserved)
      r->ok = og_cn_scope_names(&c->files[i], &r->global, c->params, diag,
                                NULL) &&
              r->ok;
    *renamed = *renamed || fs->taken;
    for (int k = 0; k < 2; k++)
      og_pages_free(fs->chosen[k].items,
                    fs->chosen[k].cap * sizeof *fs->chosen[k].items);
  }
  bool ok = r->ok;
  og_pages_free(r->global.slots, r->global.cap * sizeof *r->global.slots);
  og_cn_set_free(&r->files);
  og_pages_free(r->entries, r->cap * sizeof *r->entries);
  free(r->file_claims);
  og_arena_free(&c->whos);
  free(c->scopes);
  free(c);
  return ok;
}

bool og_cn_check_run(og_c_file *files, size_t n, bool params,
                     og_diag *diag) {
  og_cn_run *c = og_cn_prepare(files, n, params);
  bool ok = og_cn_check(c, diag);
  bool renamed;
  return og_cn_finish(c, diag, &renamed) && ok;
}

