#include "testutil.h"

#include "dump.h"
#include "sema_internal.h"
#include "writer.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tu_diags_free(tu_diags *d) {
  for (size_t i = 0; i < d->count; i++) free(d->lines[i]);
  free(d->lines);
  memset(d, 0, sizeof *d);
}

void tu_diags_sink(void *ctx, const og_diagnostic *d) {
  tu_diags *out = ctx;
  static const char *const sev[] = {"error", "warning", "note"};
  char buf[2048];
  if (d->pos.file)
    snprintf(buf, sizeof buf, "%s:%u:%u: %s: %s", d->pos.file,
             (unsigned)d->pos.line, (unsigned)d->pos.col, sev[d->severity],
             d->message);
  else
    snprintf(buf, sizeof buf, "%s: %s", sev[d->severity], d->message);
  out->lines = og_xgrow(out->lines, &out->cap, out->count + 1,
                        sizeof *out->lines);
  size_t n = strlen(buf) + 1;
  out->lines[out->count++] = memcpy(og_xmalloc(n), buf, n);
}

const char *tu_diags_text(const tu_diags *d) {
  static char buf[65536];
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < d->count && used < sizeof buf; i++)
    used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s",
                             i ? "\n" : "", d->lines[i]);
  return buf;
}

og_model *tu_compile(const char *path, const char *text, tu_diags *out) {
  og_sources sources;
  og_sources_init(&sources);
  og_diag diag;
  og_diag_init(&diag, &sources, tu_diags_sink, out);
  og_model *m = og_compile_text(&sources, path, text, &diag);
  og_sources_free(&sources);
  return m;
}

void tu_expect_error_at(const char *file, int line, const char *text,
                        const char *expected) {
  tu_diags d = {0};
  og_model *m = tu_compile("t.op", text, &d);
  char want[1024];
  snprintf(want, sizeof want, "t.op:%s", expected);
  size_t errors = 0;
  const char *first = NULL;
  for (size_t i = 0; i < d.count; i++)
    if (strstr(d.lines[i], ": error: ")) {
      errors++;
      if (!first) first = d.lines[i];
    }
  if (m || errors != 1 || strcmp(first, want) != 0) {
    print_error("%s:%d: expected exactly\n  %s\ngot:\n%s\n", file, line, want,
                tu_diags_text(&d));
    og_model_free(m);
    tu_diags_free(&d);
    _fail(file, line);
  }
  tu_diags_free(&d);
}

og_model *tu_expect_ok(const char *text) {
  tu_diags d = {0};
  og_model *m = tu_compile("t.op", text, &d);
  if (!m) print_error("unexpected diagnostics:\n%s\n", tu_diags_text(&d));
  tu_diags_free(&d);
  assert_non_null(m);
  return m;
}

char *tu_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = og_xmalloc(cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n < 2) buf = og_xrealloc(buf, cap *= 2);
  }
  fclose(f);
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

const char *tu_corpus(const char *name) {
  static char path[4096];
  const char *dir = getenv("OPGEN_CORPUS_DIR");
  snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "../shared/corpus",
           name);
  return access(path, R_OK) == 0 ? path : NULL;
}

static bool try_locale(int category, const char *const *names) {
  for (; *names; names++)
    if (setlocale(category, *names)) return true;
  setlocale(category, "C");
  return false;
}

bool tu_comma_locale(void) {
  static const char *const names[] = {
      "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8",
      "nl_NL.UTF-8", "ru_RU.UTF-8", "de_DE",      "fr_FR",
      NULL};
  return try_locale(LC_NUMERIC, names);
}

bool tu_latin1_locale(void) {
  static const char *const names[] = {
      "de_DE.ISO-8859-1", "de_DE.iso88591", "en_US.ISO-8859-1",
      "en_US.iso88591",   "fr_FR.ISO-8859-1", "de_DE", NULL};
  return try_locale(LC_CTYPE, names);
}

bool tu_turkish_locale(void) {
  static const char *const names[] = {"tr_TR.ISO-8859-9", "tr_TR.iso88599",
                                      "tr_TR", NULL};
  return try_locale(LC_CTYPE, names);
}

void tu_c_locale(void) { setlocale(LC_ALL, "C"); }

int tu_run(const char *cmd) {
  int rc = system(cmd);
  if (rc != 0) print_error("command failed (%d): %s\n", rc, cmd);
  return rc;
}

int tu_tmpdir_make(char *tmpl) {
  return mkdtemp(tmpl) ? 0 : -1;
}

int tu_tmpdir_remove(const char *dir) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

char *tu_model_json(og_model *m) {
  if (!m) return NULL;
  og_writer w;
  og_writer_init(&w);
  og_dump_json(m, &w);
  og_model_free(m);
  char *json = strdup(w.buf ? w.buf : "");
  og_writer_free(&w);
  return json;
}

tu_compiled tu_compile_threaded(const char *text, tu_threads t) {
  tu_compiled r = {0};
  og_sources sources;
  og_sources_init(&sources);
  og_diag diag;
  og_diag_init(&diag, &sources, tu_diags_sink, &r.diags);
  diag.max_errors = t.max_errors;
  size_t saved[3] = {og_sema_stream_bytes, og_sema_split_bytes,
                     og_sema_split_pieces};
  og_sema_stream_bytes = t.stream_bytes;
  og_sema_split_bytes = t.split_bytes;
  og_sema_split_pieces = t.pieces;
  og_model *m = og_compile_text(&sources, "big.op", text, &diag);
  og_sema_stream_bytes = saved[0];
  og_sema_split_bytes = saved[1];
  og_sema_split_pieces = saved[2];
  r.errors = diag.errors;
  r.warnings = diag.warnings;
  r.suppressed = diag.suppressed_errors;
  r.json = tu_model_json(m);
  og_sources_free(&sources);
  return r;
}

void tu_compiled_free(tu_compiled *r) {
  tu_diags_free(&r->diags);
  free(r->json);
}
