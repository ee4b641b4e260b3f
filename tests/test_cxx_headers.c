/* C++ sees the same API as C: every public runtime header, alone and all
 * together, and every generated header of specs/, tests/emit/hostile.op
 * and tests/cxx/cxx.op (each <OP>_ATTRS_DEFAULT expanded) compile as
 * C++17 and C++20 with each of g++ and clang++ that is installed, at
 * -Wall -Wextra -Werror -pedantic; the runtime headers stay valid C11.
 * Skips (77) when neither C++ compiler is installed. */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FLAGS "-Wall -Wextra -Werror -pedantic"

static char tmpdir[] = "/tmp/opgen_cxx_XXXXXX";
static const char *compilers[2]; /* found on PATH: "g++", "clang++" */
static size_t ncompilers;
static const char *const standards[] = {"c++17", "c++20"};

static bool on_path(const char *tool) {
  const char *path = getenv("PATH");
  char dir[4096], file[4200];
  while (path && *path) {
    size_t n = strcspn(path, ":");
    snprintf(dir, sizeof dir, "%.*s", (int)n, path);
    snprintf(file, sizeof file, "%s/%s", n ? dir : ".", tool);
    if (access(file, X_OK) == 0) return true;
    path += n + (path[n] == ':');
  }
  return false;
}

/* Names in `dir` ending with `suffix`, sorted; NULL-terminated. */
static char **list_dir(const char *dir, const char *suffix, size_t *count) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  char **names = NULL;
  size_t n = 0, slen = strlen(suffix);
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len <= slen || strcmp(e->d_name + len - slen, suffix) != 0) continue;
    names = realloc(names, (n + 2) * sizeof *names);
    assert_non_null(names);
    names[n++] = strdup(e->d_name);
    names[n] = NULL;
  }
  closedir(d);
  for (size_t i = 1; i < n; i++) /* insertion sort: a handful of names */
    for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char *t = names[j];
      names[j] = names[j - 1];
      names[j - 1] = t;
    }
  *count = n;
  return names;
}

static void free_list(char **names) {
  for (size_t i = 0; names && names[i]; i++) free(names[i]);
  free(names);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

/* Compiles `file` as each standard with each compiler found. */
static void compile_cxx(const char *file, const char *mode) {
  char cmd[8192];
  for (size_t c = 0; c < ncompilers; c++)
    for (size_t s = 0; s < 2; s++) {
      snprintf(cmd, sizeof cmd,
               "%s -std=%s " FLAGS " %s -I'%s' -I'%s' '%s' -o '%s/out.o'",
               compilers[c], standards[s], mode,
               getenv("OPGEN_RUNTIME_INCLUDE"), tmpdir, file, tmpdir);
      assert_int_equal(tu_run(cmd), 0);
    }
}

static void runtime_headers_compile_alone_as_cxx(void **state) {
  (void)state;
  char dir[4096], src[4200], text[512];
  snprintf(dir, sizeof dir, "%s/opr", getenv("OPGEN_RUNTIME_INCLUDE"));
  size_t n;
  char **headers = list_dir(dir, ".h", &n);
  assert_true(n >= 12); /* opr.h and the headers it gathers */
  snprintf(src, sizeof src, "%s/one.cpp", tmpdir);
  for (size_t i = 0; i < n; i++) {
    snprintf(text, sizeof text, "#include \"opr/%s\"\n", headers[i]);
    write_file(src, text);
    compile_cxx(src, "-fsyntax-only");
  }
  free_list(headers);
}

static void runtime_headers_compile_alone_as_c11(void **state) {
  (void)state;
  const char *cc = getenv("OPGEN_CC");
  if (!cc) skip();
  char dir[4096], src[4200], text[512], cmd[8192];
  snprintf(dir, sizeof dir, "%s/opr", getenv("OPGEN_RUNTIME_INCLUDE"));
  size_t n;
  char **headers = list_dir(dir, ".h", &n);
  snprintf(src, sizeof src, "%s/one.c", tmpdir);
  for (size_t i = 0; i < n; i++) {
    snprintf(text, sizeof text, "#include \"opr/%s\"\n", headers[i]);
    write_file(src, text);
    snprintf(cmd, sizeof cmd, "'%s' -std=c11 " FLAGS " -fsyntax-only -I'%s' '%s'",
             cc, getenv("OPGEN_RUNTIME_INCLUDE"), src);
    assert_int_equal(tu_run(cmd), 0);
  }
  free_list(headers);
}

/* One definition per <OP>_ATTRS_DEFAULT of a generated header, typed by
 * the attrs struct declared just before it. */
static void expand_defaults(FILE *out, const char *header_path) {
  char *h = tu_read_file(header_path, NULL);
  assert_non_null(h);
  char type[512] = "", macro[512];
  for (char *line = h; line && *line;) {
    char *end = strchr(line, '\n');
    if (end) *end = '\0';
    if (sscanf(line, "} %511[A-Za-z0-9_];", type) != 1 &&
        sscanf(line, "#define %511[A-Za-z0-9_]", macro) == 1 &&
        strlen(macro) > 15 &&
        strcmp(macro + strlen(macro) - 15, "_ATTRS_DEFAULT") == 0) {
      assert_true(type[0]);
      fprintf(out, "%s %s_value = %s;\n", type, macro, macro);
    }
    line = end ? end + 1 : NULL;
  }
  free(h);
}

static void generated_headers_compile_as_cxx(void **state) {
  (void)state;
  char path[4200];
  snprintf(path, sizeof path, "%s/all.cpp", tmpdir);
  FILE *out = fopen(path, "w");
  assert_non_null(out);
  fprintf(out, "#include \"opr/opr.h\"\n#include \"opr/parallel.h\"\n");
  size_t nops, nkernels;
  char **ops = list_dir(tmpdir, "_ops.h", &nops);
  char **kernels = list_dir(tmpdir, "_kernels.h", &nkernels);
  assert_true(nops >= 6); /* specs/ (4), hostile.op and cxx.op */
  assert_int_equal(nkernels, nops);
  for (size_t i = 0; i < nops; i++)
    fprintf(out, "#include \"%s\"\n#include \"%s\"\n", ops[i], kernels[i]);
  for (size_t i = 0; i < nops; i++) {
    char header[4300];
    snprintf(header, sizeof header, "%s/%s", tmpdir, ops[i]);
    expand_defaults(out, header);
  }
  fprintf(out, "int main() { return 0; }\n");
  assert_int_equal(fclose(out), 0);
  free_list(ops);
  free_list(kernels);
  compile_cxx(path, "-c");
}

static int setup(void **state) {
  (void)state;
  if (!getenv("OPGEN_BIN") || !getenv("OPGEN_RUNTIME_INCLUDE") ||
      !mkdtemp(tmpdir))
    return -1;
  char cmd[8192];
  snprintf(cmd, sizeof cmd,
           "'%s' gen -o '%s' specs/*.op tests/emit/hostile.op tests/cxx/cxx.op",
           getenv("OPGEN_BIN"), tmpdir);
  return tu_run(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
  static const char *const wanted[] = {"g++", "clang++"};
  for (size_t i = 0; i < 2; i++)
    if (on_path(wanted[i])) compilers[ncompilers++] = wanted[i];
  if (!ncompilers) {
    printf("skipped: neither g++ nor clang++ is installed\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(runtime_headers_compile_alone_as_cxx),
      cmocka_unit_test(runtime_headers_compile_alone_as_c11),
      cmocka_unit_test(generated_headers_compile_as_cxx),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
