/* Generated C survives hostile specs: keywords as names, comment
 * terminators and trigraphs in docs and values, every kind of default and
 * argument. The output must compile with -std=c11 -Wall -Wextra -Werror
 * -pedantic. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char tmpdir[] = "/tmp/opgen_emit_XXXXXX";

static int run(const char *cmd) {
  int rc = system(cmd);
  if (rc != 0) print_error("command failed (%d): %s\n", rc, cmd);
  return rc;
}

static void hostile_spec_compiles_cleanly(void **state) {
  (void)state;
  const char *cc = getenv("OPGEN_CC"), *inc = getenv("OPGEN_RUNTIME_INCLUDE");
  if (!cc || !inc) skip();
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' gen -o '%s' tests/emit/hostile.op",
           getenv("OPGEN_BIN"), tmpdir);
  assert_int_equal(run(cmd), 0);
  snprintf(cmd, sizeof cmd, "printf '#include \"hostile_kernels.h\"\\n' > '%s/k.c'",
           tmpdir);
  assert_int_equal(run(cmd), 0);
  const char *files[] = {"hostile_ops.c", "k.c"};
  for (size_t i = 0; i < 2; i++) {
    snprintf(cmd, sizeof cmd,
             "'%s' -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only "
             "-I'%s' -I'%s' '%s/%s'",
             cc, inc, tmpdir, tmpdir, files[i]);
    assert_int_equal(run(cmd), 0);
  }
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

static int setup(void **state) {
  (void)state;
  return getenv("OPGEN_BIN") && mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hostile_spec_compiles_cleanly),
      cmocka_unit_test(keywords_and_collisions_get_safe_names),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
