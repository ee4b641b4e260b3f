#include "cli.h"

#include "cli_help.h"
#include "cli_limits.h"
#include "compile.h"
#include "dump.h"
#include "emit_c.h"
#include "outputs.h"
#include "pages.h"
#include "writer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int og_cli_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("opgen: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return OG_EXIT_USAGE;
}

int og_cli_compile(char **files, int nfiles, og_model **model) {
  *model = NULL;
  if (nfiles == 0) return og_cli_fail("no input files (try 'opgen --help')");
  og_sources sources;
  og_sources_init(&sources);
  uint32_t *indexes = og_xmalloc((size_t)nfiles * sizeof *indexes);
  int status = OG_EXIT_OK;
  for (int i = 0; i < nfiles && status == OG_EXIT_OK; i++) {
    int idx = og_sources_load(&sources, files[i]);
    if (idx < 0)
      status = og_cli_fail("cannot read '%s': %s", files[i], strerror(errno));
    else
      indexes[i] = (uint32_t)idx;
  }
  if (status == OG_EXIT_OK) {
    og_diag_printer printer = {stderr, &sources};
    og_diag diag;
    og_cli_diag_init(&diag, &sources, og_diag_print_sink, &printer);
    *model = og_compile(&sources, indexes, (size_t)nfiles, &diag);
    if (!*model) {
      og_cli_count_errors(&diag);
      status = OG_EXIT_INVALID;
    }
  }
  free(indexes);
  og_sources_free(&sources);
  return status;
}

/* The arguments of check, dump and gen. */
typedef struct verb_args {
  const char *verb, *usage;
  const char *out_kind; /* "file", "directory", or NULL: no -o */
  const char *out;
  char **files; /* points into argv: the arguments after the options */
  int nfiles;
} verb_args;

/* "opgen: error: ..." and the verb's usage line on stderr. */
static int __attribute__((format(printf, 2, 3)))
verb_usage_error(const verb_args *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("opgen: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nusage: %s\n", a->usage);
  return OG_EXIT_USAGE;
}

/* Sets a->out from `value` (the argument of -o). */
static int take_output(verb_args *a, const char *value) {
  if (a->out)
    return verb_usage_error(a, "more than one output %s ('%s' and '%s')",
                            a->out_kind, a->out, value);
  if (!*value) return verb_usage_error(a, "empty output %s name", a->out_kind);
  a->out = value;
  return OG_EXIT_OK;
}

/* Options anywhere among the files: -o PATH, -oPATH, --output PATH,
 * --output=PATH (dump and gen); --max-errors=N; -h, --help; `--` ends the options ("-"
 * alone is a file name). Files keep their order. 0: run; -1: help
 * printed; else the exit status. */
static int parse_verb_args(int argc, char **argv, verb_args *a) {
  a->files = argv + 1;
  a->nfiles = 0;
  bool only_files = false;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    int rc = OG_EXIT_OK;
    if (only_files || arg[0] != '-' || arg[1] == '\0') {
      a->files[a->nfiles++] = argv[i]; /* never ahead of i */
    } else if (strcmp(arg, "--") == 0) {
      only_files = true;
    } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      og_cli_print_help(stdout, a->verb);
      return -1;
    } else if (og_cli_is_max_errors(arg)) {
      if (!og_cli_take_max_errors(arg))
        return verb_usage_error(a, "option '%s' needs a count: "
                                "--max-errors=N (0: no limit)", arg);
    } else if (a->out_kind &&
               (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0)) {
      if (i + 1 == argc)
        return verb_usage_error(a, "option '%s' needs a %s", arg,
                                a->out_kind);
      rc = take_output(a, argv[++i]);
    } else if (a->out_kind && strncmp(arg, "--output=", 9) == 0) {
      rc = take_output(a, arg + 9);
    } else if (a->out_kind && strncmp(arg, "-o", 2) == 0) {
      rc = take_output(a, arg + 2);
    } else {
      return verb_usage_error(a, "unknown option '%s' for %s", arg, a->verb);
    }
    if (rc) return rc;
  }
  return OG_EXIT_OK;
}

int og_cmd_check(int argc, char **argv) {
  verb_args a = {"check", og_cli_synopsis("check"), NULL, NULL, NULL, 0};
  int status = parse_verb_args(argc, argv, &a);
  if (status) return status < 0 ? OG_EXIT_OK : status;
  og_model *m;
  status = og_cli_compile(a.files, a.nfiles, &m);
  if (status == OG_EXIT_OK) {
    og_diag_printer printer = {stderr, NULL};
    og_diag diag;
    og_diag_init(&diag, NULL, og_diag_print_sink, &printer);
    if (!og_emit_c_check(m, &diag)) status = OG_EXIT_INVALID;
  }
  og_model_free(m);
  return status;
}

/* opgen dump [-o FILE] FILES... */
int og_cmd_dump(int argc, char **argv) {
  verb_args a = {"dump", og_cli_synopsis("dump"), "file", NULL, NULL, 0};
  int status = parse_verb_args(argc, argv, &a);
  if (status) return status < 0 ? OG_EXIT_OK : status;
  og_model *m;
  status = og_cli_compile(a.files, a.nfiles, &m);
  if (status != OG_EXIT_OK) return status;
  og_writer w;
  og_writer_init(&w);
  og_dump_json(m, &w);
  const char *out = a.out;
  if (out ? !og_write_output_file(out, w.buf, w.len)
          : fwrite(w.buf, 1, w.len, stdout) != w.len || fflush(stdout) != 0)
    status = og_cli_fail("cannot write '%s': %s", out ? out : "<stdout>",
                         out ? og_output_problem(out, errno)
                             : strerror(errno));
  og_writer_free(&w);
  og_model_free(m);
  return status;
}

/* A corpus `gen` takes some 120 bytes of the page region (pages.h: its
 * arenas and outputs) a byte of spec: 100 of them faulted in beside the
 * compile. */
static void prefault(char **files, int nfiles) {
  size_t bytes = 0;
  for (int i = 0; i < nfiles; i++) {
    struct stat st;
    if (stat(files[i], &st) == 0 && S_ISREG(st.st_mode))
      bytes += (size_t)st.st_size;
  }
  if (bytes >= 64 * 1024) og_pages_prefault(100 * bytes);
}

/* opgen gen -o DIR FILES... */
int og_cmd_gen(int argc, char **argv) {
  verb_args a = {"gen", og_cli_synopsis("gen"), "directory", NULL, NULL,
                 0};
  int status = parse_verb_args(argc, argv, &a);
  if (status) return status < 0 ? OG_EXIT_OK : status;
  const char *dir = a.out;
  if (!dir)
    return verb_usage_error(&a, "gen needs an output directory: -o DIR");
  og_model *m;
  prefault(a.files, a.nfiles);
  status = og_cli_compile(a.files, a.nfiles, &m);
  if (status != OG_EXIT_OK) {
    og_pages_prefault_stop();
    return status;
  }
  og_diag_printer printer = {stderr, NULL};
  og_diag diag;
  og_cli_diag_init(&diag, NULL, og_diag_print_sink, &printer);
  og_outputs out;
  og_outputs_init(&out);
  const char *failed;
  bool valid = og_emit_c(m, dir, &out, &diag);
  og_pages_prefault_stop(); /* all it serves is rendered */
  if (!valid)
    status = OG_EXIT_INVALID;
  else if (!og_outputs_commit(&out, dir, &failed))
    status = og_cli_fail("cannot %s '%s': %s",
                         failed == dir ? "create directory" : "write",
                         failed, failed == dir ? strerror(errno)
                                               : og_output_problem(failed,
                                                                   errno));
  og_outputs_free(&out);
  og_model_free(m);
  return status;
}
