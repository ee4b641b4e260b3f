#include "cli.h"

#include "compile.h"
#include "dump.h"
#include "emit_c.h"
#include "outputs.h"
#include "writer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    if (files[i][0] == '-' && files[i][1])
      status = og_cli_fail("unknown option '%s'", files[i]);
    int idx = status ? -1 : og_sources_load(&sources, files[i]);
    if (!status && idx < 0)
      status = og_cli_fail("cannot read '%s': %s", files[i], strerror(errno));
    if (idx >= 0) indexes[i] = (uint32_t)idx;
  }
  if (status == OG_EXIT_OK) {
    og_diag_printer printer = {stderr, &sources};
    og_diag diag;
    og_diag_init(&diag, &sources, og_diag_print_sink, &printer);
    *model = og_compile(&sources, indexes, (size_t)nfiles, &diag);
    if (!*model) {
      fprintf(stderr, "%zu error%s generated.\n", diag.errors,
              diag.errors == 1 ? "" : "s");
      status = OG_EXIT_INVALID;
    }
  }
  free(indexes);
  og_sources_free(&sources);
  return status;
}

int og_cmd_check(int argc, char **argv) {
  og_model *m;
  int status = og_cli_compile(argv + 1, argc - 1, &m);
  og_model_free(m);
  return status;
}

/* opgen dump [-o FILE] FILES... */
int og_cmd_dump(int argc, char **argv) {
  const char *out = NULL;
  int first = 1;
  if (argc > 2 && strcmp(argv[1], "-o") == 0) {
    out = argv[2];
    first = 3;
  }
  og_model *m;
  int status = og_cli_compile(argv + first, argc - first, &m);
  if (status != OG_EXIT_OK) return status;
  og_writer w;
  og_writer_init(&w);
  og_dump_json(m, &w);
  if (out ? !og_write_file_atomic(out, w.buf, w.len)
          : fwrite(w.buf, 1, w.len, stdout) != w.len || fflush(stdout) != 0)
    status = og_cli_fail("cannot write '%s': %s", out ? out : "<stdout>",
                         strerror(errno));
  og_writer_free(&w);
  og_model_free(m);
  return status;
}

/* opgen gen -o DIR FILES... */
int og_cmd_gen(int argc, char **argv) {
  const char *dir = NULL;
  int first = 1;
  while (first < argc && argv[first][0] == '-' && argv[first][1]) {
    if (strcmp(argv[first], "-o") == 0 && first + 1 < argc) {
      dir = argv[first + 1];
      first += 2;
    } else if (strncmp(argv[first], "-o", 2) == 0) {
      dir = argv[first++] + 2;
    } else if (strcmp(argv[first], "--") == 0) {
      first++;
      break;
    } else {
      return og_cli_fail("unknown option '%s' for gen", argv[first]);
    }
  }
  if (!dir || !dir[0]) return og_cli_fail("gen needs an output directory: -o DIR");
  og_model *m;
  int status = og_cli_compile(argv + first, argc - first, &m);
  if (status != OG_EXIT_OK) return status;
  og_diag_printer printer = {stderr, NULL};
  og_diag diag;
  og_diag_init(&diag, NULL, og_diag_print_sink, &printer);
  og_outputs out;
  og_outputs_init(&out);
  const char *failed;
  if (!og_emit_c(m, dir, &out, &diag))
    status = OG_EXIT_INVALID;
  else if (!og_outputs_commit(&out, dir, &failed))
    status = og_cli_fail("cannot write '%s': %s", failed, strerror(errno));
  og_outputs_free(&out);
  og_model_free(m);
  return status;
}
