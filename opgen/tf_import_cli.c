/* The import-tf verb: read, import, render every output in memory, and only
 * then create the directory and write the files (no partial output when
 * the input is bad). */
#include "tf_import_cli.h"

#include "diag.h"
#include "emit_op.h"
#include "source.h"
#include "tf_import.h"
#include "writer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define USAGE "usage: opgen import-tf OPS.pbtxt -o DIR [--split]\n"

typedef struct opts {
  const char *input, *outdir;
  bool split;
} opts;

typedef struct out_file {
  const char *path; /* arena */
  og_writer w;
} out_file;

static int __attribute__((format(printf, 1, 2))) usage_error(const char *fmt,
                                                             ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("opgen: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputs("\n" USAGE, stderr);
  va_end(ap);
  return 2;
}

static int io_error(const char *what, const char *path, int err) {
  fprintf(stderr, "opgen: error: cannot %s '%s': %s\n", what, path,
          strerror(err));
  return 2;
}

/* 0: run; 2: usage error (reported); -1: --help (printed). */
static int parse_args(int argc, char **argv, opts *o) {
  bool only_files = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *dir = NULL;
    if (only_files || a[0] != '-' || a[1] == '\0') {
      if (o->input)
        return usage_error("more than one input file ('%s' and '%s')",
                           o->input, a);
      o->input = a;
    } else if (strcmp(a, "--") == 0) {
      only_files = true;
    } else if (strcmp(a, "--split") == 0) {
      o->split = true;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(USAGE, stdout);
      return -1;
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
      if (i + 1 == argc) return usage_error("option '%s' needs a directory", a);
      dir = argv[++i];
    } else if (strncmp(a, "-o", 2) == 0) {
      dir = a + 2;
    } else if (strncmp(a, "--output=", 9) == 0) {
      dir = a + 9;
    } else {
      return usage_error("unknown option '%s'", a);
    }
    if (dir && o->outdir)
      return usage_error("more than one output directory ('%s' and '%s')",
                         o->outdir, dir);
    if (dir && !*dir) return usage_error("empty output directory name");
    if (dir) o->outdir = dir;
  }
  if (!o->input) return usage_error("no input file");
  if (!o->outdir) return usage_error("no output directory (-o DIR)");
  return 0;
}

/* mkdir -p: every missing component, then check it is a directory. */
static bool make_dirs(const char *path) {
  size_t len = strlen(path);
  char *p = malloc(len + 1);
  if (!p) return false;
  memcpy(p, path, len + 1);
  bool ok = true;
  for (size_t i = 1; i <= len && ok; i++) {
    if (p[i] != '/' && p[i] != '\0') continue;
    char saved = p[i];
    p[i] = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) ok = false;
    p[i] = saved;
  }
  struct stat st;
  if (ok && stat(path, &st) != 0) ok = false;
  else if (ok && !S_ISDIR(st.st_mode)) ok = false, errno = ENOTDIR;
  int err = errno;
  free(p);
  errno = err;
  return ok;
}

static const char *join(og_arena *a, const char *dir, const char *name) {
  size_t n = strlen(dir);
  return og_arena_printf(a, "%s%s%s.op", dir,
                         n && dir[n - 1] == '/' ? "" : "/", name);
}

/* --split: two op names with the same snake_case would share a file. */
static bool check_collisions(og_diag *diag, const og_model *m,
                             out_file *files) {
  for (size_t i = 0; i < m->nops; i++)
    for (size_t j = 0; j < i; j++)
      if (strcmp(files[i].path, files[j].path) == 0) {
        og_diag_report(diag, OG_SEV_ERROR, m->ops[i]->pos,
                       "op '%s' would be written to '%s', as op '%s' is",
                       m->ops[i]->name, files[i].path, m->ops[j]->name);
        return false;
      }
  return true;
}

/* Every output in memory; *count files. */
static out_file *render(const og_model *m, const opts *o, og_arena *a,
                        size_t *count) {
  *count = o->split ? m->nops : 1;
  out_file *files = calloc(*count ? *count : 1, sizeof *files);
  if (!files) abort();
  for (size_t i = 0; i < *count; i++) og_writer_init(&files[i].w);
  if (!o->split) {
    const char *package = og_tf_package_name(a, o->input);
    files[0].path = join(a, o->outdir, package);
    og_emit_op_source(m, package, &files[0].w);
    return files;
  }
  for (size_t i = 0; i < m->nops; i++) {
    files[i].path = join(a, o->outdir, og_tf_snake_case(a, m->ops[i]->name));
    og_emit_op_def(m->ops[i], &files[i].w);
  }
  return files;
}

static int write_all(const opts *o, out_file *files, size_t count) {
  if (!make_dirs(o->outdir))
    return io_error("create directory", o->outdir, errno);
  for (size_t i = 0; i < count; i++)
    if (!og_write_file_atomic(files[i].path, files[i].w.buf, files[i].w.len))
      return io_error("write", files[i].path, errno);
  return 0;
}

static int import_and_write(const opts *o, og_sources *sources, int index) {
  og_diag_printer printer = {stderr, sources};
  og_diag diag;
  og_diag_init(&diag, sources, og_diag_print_sink, &printer);
  const og_source *src = sources->items[index];
  og_model *m = og_tf_import(o->input, src->text, src->len, &diag);
  if (!m) return 1;
  og_arena a;
  og_arena_init(&a);
  size_t count = 0;
  out_file *files = render(m, o, &a, &count);
  int rc = o->split && !check_collisions(&diag, m, files)
               ? 1
               : write_all(o, files, count);
  for (size_t i = 0; i < count; i++) og_writer_free(&files[i].w);
  free(files);
  og_arena_free(&a);
  og_model_free(m);
  return rc;
}

int og_cmd_import_tf(int argc, char **argv) {
  opts o = {0};
  int rc = parse_args(argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  og_sources sources;
  og_sources_init(&sources);
  int index = og_sources_load(&sources, o.input);
  if (index < 0) rc = io_error("read", o.input, errno);
  else rc = import_and_write(&o, &sources, index);
  og_sources_free(&sources);
  return rc;
}
