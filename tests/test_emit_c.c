/* Generated C survives hostile specs: keywords of C and C++, standard and
 * runtime names, the kernel struct's members and the wrapper's locals as
 * spec names, comment terminators and trigraphs in docs and values, every
 * kind of default and argument (tests/emit/hostile.op, whose EveryHazard
 * holds every mangled kind at once). The output compiles with -std=c11
 * -Wall -Wextra -Werror -pedantic, links and runs, from C and C++. */
#include "testutil.h"

#include "source.h" /* og_utf8_check */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char tmpdir[] = "/tmp/opgen_emit_XXXXXX";

/* A caller of the hostile ops, as C and as C++: registers them, calls
 * EveryHazard with no inputs (the generated check answers) and reads its
 * defaults through the mangled names. */
static const char caller[] =
    "#include \"hostile_kernels.h\"\n"
    "#include <stdio.h>\n"
    "#include <string.h>\n"
    "int main(void) {\n"
    "  opr_status st = hostile_register_ops();\n"
    "  if (st) return 1;\n"
    "  hostile_every_hazard_attrs a = HOSTILE_EVERY_HAZARD_ATTRS_DEFAULT;\n"
    "  if (a.new_ != INT64_MIN || a.errno_ != INT64_MAX) return 2;\n"
    "  if (a.assert_ != HOSTILE_EVERY_HAZARD_ASSERT_A_B_1) return 3;\n"
    "  if (strcmp(a.template_, \"a*/b/*c\") != 0 || a.EOF_count != 2) return 4;\n"
    "  opr_tensor *out[4] = {0};\n"
    "  st = hostile_every_hazard(NULL, NULL, NULL, NULL, 0, NULL, NULL, \"l\",\n"
    "                            \"e\", &a, &out[0], &out[1], 0, &out[2],\n"
    "                            &out[3]);\n"
    "  if (!st) return 5;\n"
    "  puts(opr_status_message(st));\n"
    "  opr_status_free(st);\n"
    "  return 0;\n"
    "}\n";

static int write_caller(const char *name) {
  char path[600];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs(caller, f);
  return fclose(f);
}

static void hostile_spec_compiles_and_links(void **state) {
  (void)state;
  const char *cc = getenv("OPGEN_CC"), *inc = getenv("OPGEN_RUNTIME_INCLUDE");
  const char *link = getenv("OPGEN_RUNTIME_LINK");
  if (!cc || !inc || !link) skip();
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' gen -o '%s' tests/emit/hostile.op",
           getenv("OPGEN_BIN"), tmpdir);
  assert_int_equal(tu_run(cmd), 0);
  assert_int_equal(write_caller("main.c"), 0);
  snprintf(cmd, sizeof cmd,
           "cd '%s' && '%s' -std=c11 -Wall -Wextra -Werror -pedantic -I'%s' "
           "-I. -c hostile_ops.c main.c && '%s' -o prog hostile_ops.o main.o "
           "%s && ./prog",
           tmpdir, cc, inc, cc, link);
  assert_int_equal(tu_run(cmd), 0);
  /* The same caller as C++ (test_cxx_headers compiles the headers with
   * every C++ compiler and standard; this links one). */
  if (system("command -v g++ >/dev/null 2>&1") != 0) return;
  assert_int_equal(write_caller("main.cpp"), 0);
  snprintf(cmd, sizeof cmd,
           "cd '%s' && g++ -std=c++17 -Wall -Wextra -Werror -pedantic -I'%s' "
           "-I. -c main.cpp -o main_cxx.o && g++ -o prog_cxx hostile_ops.o "
           "main_cxx.o %s && ./prog_cxx",
           tmpdir, inc, link);
  assert_int_equal(tu_run(cmd), 0);
}

/* Strings that are not UTF-8 (\xff in a spec) are escaped in literals,
 * which clang refuses otherwise, and in comments: every generated file is
 * UTF-8 text. */
static void generated_files_are_utf8_that_clang_accepts(void **state) {
  (void)state;
  const char *files[] = {"hostile_ops.h", "hostile_ops.c",
                         "hostile_kernels.h"};
  for (size_t i = 0; i < 3; i++) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", tmpdir, files[i]);
    size_t len = 0;
    char *text = tu_read_file(path, &len);
    assert_non_null(text);
    assert_true(og_utf8_check(text, len) == (size_t)-1);
    free(text);
  }
  const char *inc = getenv("OPGEN_RUNTIME_INCLUDE");
  if (!inc || system("command -v clang >/dev/null 2>&1") != 0) return;
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && clang -std=c11 -Wall -Wextra -Werror -pedantic -I'%s' "
           "-I. -fsyntax-only hostile_ops.c main.c",
           tmpdir, inc);
  assert_int_equal(tu_run(cmd), 0);
}

static void keywords_and_collisions_get_safe_names(void **state) {
  (void)state;
  char path[512];
  snprintf(path, sizeof path, "%s/hostile_ops.h", tmpdir);
  char *h = tu_read_file(path, NULL);
  assert_non_null(h);
  assert_non_null(strstr(h, "const opr_tensor *default_"));
  assert_non_null(strstr(h, "const opr_tensor *attrs_"));
  assert_non_null(strstr(h, "opr_tensor **return_"));
  assert_non_null(strstr(h, "int64_t int_;"));
  assert_non_null(strstr(h, "HOSTILE_KEYWORDS_E_ONE_FISH_0,"));
  assert_non_null(strstr(h, "HOSTILE_KEYWORDS_E_ONE_FISH_1,"));
  assert_non_null(strstr(h, "HOSTILE_KEYWORDS_E_EMPTY,"));
  assert_null(strstr(h, "*/ b")); /* no doc text closed a comment */
  free(h);
}

TU_TMPDIR_FIXTURES(tmpdir)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hostile_spec_compiles_and_links),
      cmocka_unit_test(generated_files_are_utf8_that_clang_accepts),
      cmocka_unit_test(keywords_and_collisions_get_safe_names),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
