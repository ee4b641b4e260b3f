/* The caller-owned wrapper's name (demo_foo_into) is part of the name
 * model: an op whose own wrapper has that name is a clash, reported like
 * every other one, whichever op comes first. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char tmpdir[] = "/tmp/opgen_names_into_XXXXXX";

/* `opgen gen` of `text`: its exit status, and its stderr in *err. */
static int gen(const char *text, char **err) {
  char path[600], cmd[2048];
  snprintf(path, sizeof path, "%s/ops.op", tmpdir);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "cd '%s' && rm -rf out && '%s' gen -o out "
           "ops.op 2>err", tmpdir, getenv("OPGEN_BIN"));
  int rc = system(cmd);
  snprintf(path, sizeof path, "%s/err", tmpdir);
  *err = tu_read_file(path, NULL);
  assert_non_null(*err);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void an_op_named_like_an_into_form_clashes(void **state) {
  (void)state;
  char *err;
  assert_int_equal(gen("package demo;\n"
                       "op Example {\n  input x: float;\n  output y: float;\n}\n"
                       "op ExampleInto { }\n", &err), 1);
  assert_string_equal(err,
      "ops.op:6:4: error: 'demo_example_into' (the wrapper of op "
      "'ExampleInto') collides with 'demo_example_into' (the caller-owned "
      "wrapper of op 'Example'); rename one of them\n"
      "ops.op:2:4: note: 'demo_example_into' (the caller-owned wrapper of "
      "op 'Example') is generated here\n");
  free(err);
}

static void the_clash_is_reported_at_the_later_op(void **state) {
  (void)state;
  char *err;
  assert_int_equal(gen("package demo;\n"
                       "op ExampleInto { }\n"
                       "op Example {\n  input x: float;\n  output y: float;\n}\n",
                       &err), 1);
  assert_string_equal(err,
      "ops.op:3:4: error: 'demo_example_into' (the caller-owned wrapper of "
      "op 'Example') collides with 'demo_example_into' (the wrapper of op "
      "'ExampleInto'); rename one of them\n"
      "ops.op:2:4: note: 'demo_example_into' (the wrapper of op "
      "'ExampleInto') is generated here\n");
  free(err);
}

static void ops_whose_names_end_in_into_alone_are_fine(void **state) {
  (void)state;
  char *err;
  assert_int_equal(gen("package demo;\nop CopyInto { }\nop Into { }\n", &err),
                   0);
  assert_string_equal(err, "");
  free(err);
}

static int setup(void **state) {
  (void)state;
  return tu_tmpdir_make(tmpdir);
}

static int teardown(void **state) {
  (void)state;
  return tu_tmpdir_remove(tmpdir);
}

int main(void) {
  if (!getenv("OPGEN_BIN")) return 77;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(an_op_named_like_an_into_form_clashes),
      cmocka_unit_test(the_clash_is_reported_at_the_later_op),
      cmocka_unit_test(ops_whose_names_end_in_into_alone_are_fine),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
