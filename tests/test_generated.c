/* generated/ is exactly what opgen makes of specs/ today, and opgen's
 * output is byte-identical from one run to the next. */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/opgen_generated_XXXXXX";

static const char *const specs[] = {"specs/demo.op", "specs/guide_attrs.op",
                                    "specs/guide_io.op",
                                    "specs/guide_shapes.op"};

static void gen_into(const char *dir) {
  char cmd[2048];
  int n = snprintf(cmd, sizeof cmd, "'%s' gen -o '%s'", getenv("OPGEN_BIN"),
                   dir);
  for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
    n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %s", specs[i]);
  assert_int_equal(system(cmd), 0);
}

/* Names of the generated C files in dir, sorted, newline-separated. */
static char *c_files(const char *dir) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "ls '%s' | grep -E '\\.(c|h)$' | sort", dir);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  static char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, p);
  buf[n] = '\0';
  pclose(p);
  return strdup(buf);
}

static void assert_same_files(const char *a, const char *b) {
  char *la = c_files(a), *lb = c_files(b);
  assert_string_equal(la, lb);
  assert_true(strlen(la) > 0);
  for (char *name = strtok(la, "\n"); name; name = strtok(NULL, "\n")) {
    char pa[1024], pb[1024];
    snprintf(pa, sizeof pa, "%s/%s", a, name);
    snprintf(pb, sizeof pb, "%s/%s", b, name);
    size_t na, nb;
    char *ca = tu_read_file(pa, &na), *cb = tu_read_file(pb, &nb);
    assert_non_null(ca);
    assert_non_null(cb);
    if (na != nb || memcmp(ca, cb, na) != 0)
      fail_msg("%s differs from %s: regenerate with "
               "'opgen gen -o generated specs/*.op'", pb, pa);
    free(ca);
    free(cb);
  }
  free(la);
  free(lb);
}

static void generated_matches_specs(void **state) {
  (void)state;
  gen_into(tmpdir);
  assert_same_files(tmpdir, "generated");
}

static void generation_is_byte_identical(void **state) {
  (void)state;
  char again[1100];
  snprintf(again, sizeof again, "%s/again", tmpdir);
  gen_into(tmpdir);
  gen_into(again);
  assert_same_files(tmpdir, again);
}

TU_TMPDIR_FIXTURES(tmpdir)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(generated_matches_specs),
      cmocka_unit_test(generation_is_byte_identical),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
