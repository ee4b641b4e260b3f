/* See gen_compile.h. The compilers run through system(), one process per
 * file, their output captured in DIR/fz_cc.log. */
#define _POSIX_C_SOURCE 200809L
#include "gen_compile.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 64

typedef struct names {
  char *items[MAX_FILES];
  size_t count;
} names;

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The generated sources and headers of `dir`, sorted. */
static void list_dir(const char *dir, names *srcs, names *hdrs) {
  srcs->count = hdrs->count = 0;
  DIR *d = opendir(dir);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    names *to = ends_with(e->d_name, "_ops.c")   ? srcs
                : ends_with(e->d_name, ".h")     ? hdrs
                                                 : NULL;
    char *copy = to ? strdup(e->d_name) : NULL;
    if (copy && to->count < MAX_FILES) to->items[to->count++] = copy;
    else free(copy);
  }
  closedir(d);
  qsort(srcs->items, srcs->count, sizeof(char *), by_name);
  qsort(hdrs->items, hdrs->count, sizeof(char *), by_name);
}

static void free_names(names *n) {
  for (size_t i = 0; i < n->count; i++) free(n->items[i]);
  n->count = 0;
}

static char *read_all(const char *path);

/* The `<prefix>_register_ops` each `*_ops.h` declares, referenced from
 * main: a header whose include guard another took declares nothing. */
static void put_register_refs(FILE *f, const char *dir, const names *hdrs) {
  fprintf(f, "  opr_status (*const fz_register[])(void) = {\n");
  for (size_t i = 0; i < hdrs->count; i++) {
    if (!ends_with(hdrs->items[i], "_ops.h")) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, hdrs->items[i]);
    char *text = read_all(path);
    const char *end = text ? strstr(text, "_register_ops(void);") : NULL;
    const char *start = end;
    while (start && start > text && start[-1] != ' ' && start[-1] != '\n')
      start--;
    if (start)
      fprintf(f, "    %.*s_register_ops,\n", (int)(end - start), start);
    free(text);
  }
  fprintf(f, "    NULL};\n  (void)fz_register;\n");
}

static const char *const std_headers[] = {
    "assert", "errno", "limits", "math", "stdio", "stdlib", "string",
};

/* A main that registers every op (a failure is no bug here: ops of one
 * name in two packages) and runs infer_driver.c's fz_infer_all. */
static void put_run_main(FILE *f, const char *dir, const names *hdrs,
                         unsigned long seed) {
  fprintf(f, "int fz_infer_all(uint64_t seed);\nint main(void) {\n");
  put_register_refs(f, dir, hdrs);
  fprintf(f, "  for (size_t i = 0; fz_register[i]; i++)\n"
             "    opr_status_free(fz_register[i]());\n"
             "  return fz_infer_all(%luu);\n}\n", seed);
}

/* Standard headers, every generated header, then (C only) the stubs and
 * main (with `run`, the main of the run stage). */
static bool write_main(const char *dir, const char *name, const names *hdrs,
                       bool c, char *const *fns, size_t nfns,
                       const unsigned long *run) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) return false;
  fprintf(f, "/* Written by tests/fuzz/gen_compile.c: a caller's file. */\n");
  /* A caller includes standard headers first: their macros (errno,
   * stderr, assert, NAN, EOF, ...) must not break generated code. */
  for (size_t i = 0; i < sizeof std_headers / sizeof *std_headers; i++)
    fprintf(f, "#include <%s%s%s>\n", c ? "" : "c", std_headers[i],
            c ? ".h" : "");
  for (size_t i = 0; i < hdrs->count; i++)
    fprintf(f, "#include \"%s\"\n", hdrs->items[i]);
  if (c) {
    for (size_t i = 0; i < nfns; i++)
      fprintf(f, "opr_status %s(opr_infer_ctx *c) {\n  (void)c;\n"
                 "  return OPR_OK;\n}\n", fns[i]);
    if (run) {
      put_run_main(f, dir, hdrs, *run);
    } else {
      fprintf(f, "int main(void) {\n");
      put_register_refs(f, dir, hdrs);
      fprintf(f, "  return 0;\n}\n");
    }
  }
  return fclose(f) == 0;
}

static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return strdup("(no output)");
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  for (size_t n; buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0;) {
    len += n;
    if (len + 1 == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (buf) buf[len] = '\0';
  return buf;
}

/* The first line of `out` from `from` on holding one of `keys`, and
 * (with `local`) naming a file of `dir` rather than the runtime's or the
 * system's (an absolute path); NULL when none. */
static const char *find_line(const char *from, const char *dir,
                             const char *const *keys, size_t nkeys,
                             bool local) {
  size_t dlen = strlen(dir);
  for (const char *line = from; *line;) {
    const char *end = strchr(line, '\n');
    size_t n = end ? (size_t)(end - line) : strlen(line);
    bool in_dir = strncmp(line, dir, dlen) == 0 && line[dlen] == '/';
    for (size_t k = 0; k < nkeys; k++) {
      const char *p = strstr(line, keys[k]);
      if (p && p < line + n && (!local || line[0] != '/' || in_dir))
        return line;
    }
    line = end ? end + 1 : line + n;
  }
  return NULL;
}

static size_t copy_line(char *dst, size_t cap, const char *line,
                        const char *dir) {
  size_t dlen = strlen(dir);
  if (strncmp(line, dir, dlen) == 0 && line[dlen] == '/') line += dlen + 1;
  size_t n = strcspn(line, "\n");
  if (n >= cap) n = cap - 1;
  memcpy(dst, line, n);
  dst[n] = '\0';
  return n;
}

/* The first line that says error (else the first line), without the
 * directory; when it is in a runtime or system header, followed by the
 * first error or note in a generated file (often "in expansion of"). */
static void first_error(const char *out, const char *dir, char *dst,
                        size_t cap) {
  static const char *const keys[] = {"error:", "undefined reference",
                                      "multiple definition"};
  static const char *const notes[] = {"error:", "note:"};
  const char *hit = find_line(out, dir, keys, 3, false);
  size_t n = copy_line(dst, cap, hit ? hit : out, dir);
  if (!hit || hit[0] != '/' || strncmp(hit, dir, strlen(dir)) == 0) return;
  const char *local = find_line(hit, dir, notes, 2, true);
  static const char sep[] = " [first in generated code: ";
  size_t k = sizeof sep - 1;
  if (local && n + k + 2 < cap) {
    memcpy(dst + n, sep, k);
    n += k + copy_line(dst + n + k, cap - n - k - 1, local, dir);
    dst[n++] = ']';
    dst[n] = '\0';
  }
}

static void append(char **log, const char *a, const char *b) {
  size_t old = *log ? strlen(*log) : 0;
  char *p = realloc(*log, old + strlen(a) + strlen(b) + 2);
  if (!p) return;
  p[old] = '\0';
  strcat(strcat(strcat(p, a), "\n"), b);
  *log = p;
}

/* Runs `cmd` in `dir`; on failure records it under stage/file. */
static bool run(const char *dir, const char *cmd, const char *stage,
                const char *file, fz_cc_result *res) {
  size_t n = strlen(dir) + strlen(cmd) + 64;
  char *full = malloc(n);
  if (!full) return false;
  snprintf(full, n, "cd '%s' && %s >fz_cc.log 2>&1", dir, cmd);
  int rc = system(full);
  free(full);
  if (rc == 0) return true;
  char logpath[4096];
  snprintf(logpath, sizeof logpath, "%s/fz_cc.log", dir);
  char *out = read_all(logpath);
  if (res->nfails < FZ_CC_MAX_FAILS) {
    fz_cc_fail *f = &res->fails[res->nfails++];
    snprintf(f->stage, sizeof f->stage, "%s", stage);
    snprintf(f->file, sizeof f->file, "%s", file);
    first_error(out ? out : "", dir, f->first_error, sizeof f->first_error);
  }
  append(&res->log, cmd, out ? out : "");
  free(out);
  return false;
}

#define C_FLAGS "-std=c11 -Wall -Wextra -Werror -pedantic"

static bool compile_c(const fz_cc *cfg, const char *dir, const char *file,
                      fz_cc_result *res) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' " C_FLAGS " -I'%s' -I. -c '%s' -o '%s.o'",
           cfg->cc, cfg->include, file, file);
  return run(dir, cmd, "c", file, res);
}

/* The sources again with cfg->run_flags, the driver, the run. */
static void run_stage(const fz_cc *cfg, const char *dir, const names *srcs,
                      const names *hdrs, char *const *fns, size_t nfns,
                      fz_cc_result *res) {
  if (!write_main(dir, "fz_run.c", hdrs, true, fns, nfns, &cfg->run_seed))
    return;
  size_t cap = 4096 + 128 * (srcs->count + 2);
  char *cmd = malloc(cap);
  if (!cmd) return;
  int n = snprintf(cmd, cap, "'%s' -std=c11 -g %s -I'%s' -I. -o fz_run "
                   "fz_run.c '%s'", cfg->cc, cfg->run_flags, cfg->include,
                   cfg->driver);
  for (size_t i = 0; i < srcs->count && n > 0 && (size_t)n < cap; i++)
    n += snprintf(cmd + n, cap - (size_t)n, " '%s'", srcs->items[i]);
  if (n > 0 && (size_t)n < cap)
    snprintf(cmd + n, cap - (size_t)n, " %s %s", cfg->link, cfg->run_flags);
  bool ok = run(dir, cmd, "run", "fz_run.c", res);
  snprintf(cmd, cap, "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "
           "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "
           "timeout 20 ./fz_run");
  if (ok) run(dir, cmd, "run", "fz_run", res);
  free(cmd);
}

bool fz_cc_check(const fz_cc *cfg, const char *dir, char *const *shape_fns,
                 size_t nshape_fns, fz_cc_result *res) {
  memset(res, 0, sizeof *res);
  names srcs, hdrs;
  list_dir(dir, &srcs, &hdrs);
  bool c_ok = write_main(dir, "fz_main.c", &hdrs, true, shape_fns, nshape_fns,
                         NULL);
  bool cxx_ok = write_main(dir, "fz_cxx.cpp", &hdrs, false, NULL, 0, NULL);
  for (size_t i = 0; i < srcs.count; i++)
    c_ok &= compile_c(cfg, dir, srcs.items[i], res);
  c_ok &= compile_c(cfg, dir, "fz_main.c", res);
  char cmd[8192];
  if (c_ok) {
    snprintf(cmd, sizeof cmd, "'%s' -o fz_main *.o %s", cfg->cc, cfg->link);
    c_ok = run(dir, cmd, "link", "*.o", res);
  }
  if (c_ok && cfg->run_flags)
    run_stage(cfg, dir, &srcs, &hdrs, shape_fns, nshape_fns, res);
  if (cfg->cxx && cxx_ok) {
    snprintf(cmd, sizeof cmd,
             "'%s' -std=c++17 -Wall -Wextra -Werror -pedantic -fsyntax-only "
             "-I'%s' -I. fz_cxx.cpp", cfg->cxx, cfg->include);
    run(dir, cmd, "c++", "fz_cxx.cpp", res);
  }
  free_names(&srcs);
  free_names(&hdrs);
  return res->nfails == 0 && c_ok && cxx_ok;
}

const char *fz_find_cxx(void) {
  const char *env = getenv("OPGEN_CXX");
  if (env && *env) return env;
  static const char *const cands[] = {"g++", "clang++"};
  static char found[4096];
  for (size_t i = 0; i < 2; i++) {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s", cands[i]);
    FILE *p = popen(cmd, "r");
    if (!p) continue;
    bool ok = fgets(found, sizeof found, p) != NULL;
    pclose(p);
    if (ok) {
      found[strcspn(found, "\n")] = '\0';
      return found;
    }
  }
  return NULL;
}

void fz_remove_dir(const char *dir) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "gen_compile: cannot remove %s\n", dir);
}
