/* The names the two wrappers of an op bring: the caller-owned form
 * (demo_foo_into) and the body both call (demo_foo_call) are part of
 * the name model: an op whose own wrapper has one of those names is a
 * clash, reported like every other one, whichever op comes first. The
 * body's `into` parameter is a fixed name of the wrapper scope: an
 * argument named `into` is renamed, as one named `ctx` is. */
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

static void an_op_named_like_a_wrappers_body_clashes(void **state) {
  (void)state;
  char *err;
  assert_int_equal(gen("package demo;\n"
                       "op Example {\n  input x: float;\n  output y: float;\n}\n"
                       "op ExampleCall { }\n", &err), 1);
  assert_string_equal(err,
      "ops.op:6:4: error: 'demo_example_call' (the wrapper of op "
      "'ExampleCall') collides with 'demo_example_call' (the wrappers' body "
      "of op 'Example'); rename one of them\n"
      "ops.op:2:4: note: 'demo_example_call' (the wrappers' body of op "
      "'Example') is generated here\n");
  free(err);
}

/* A wrapper of one runtime call (opr_invoke_unary) has no body, so the
 * name is free. */
static void a_one_call_wrapper_leaves_the_body_name_free(void **state) {
  (void)state;
  char *err;
  assert_int_equal(gen("package demo;\n"
                       "op Neg {\n  attr T: {float, double};\n  input x: T;\n"
                       "  output y: T;\n  shape y = x;\n}\n"
                       "op NegCall { }\n", &err), 0);
  assert_string_equal(err, "");
  free(err);
  char path[600];
  snprintf(path, sizeof path, "%s/out/ops_ops.c", tmpdir);
  char *c = tu_read_file(path, NULL);
  assert_non_null(c);
  assert_non_null(strstr(c, "return opr_invoke_unary(ctx, &demo_neg_def, x, y);"));
  assert_non_null(strstr(c, "opr_status demo_neg_call(opr_context *ctx"));
  free(c);
}

static void an_argument_named_into_is_renamed(void **state) {
  (void)state;
  char *err;
  assert_int_equal(gen("package demo;\n"
                       "op Example {\n  input into: float;\n  output y: float;\n}\n",
                       &err), 0);
  assert_string_equal(err, "");
  free(err);
  char path[600];
  snprintf(path, sizeof path, "%s/out/ops_ops.c", tmpdir);
  char *c = tu_read_file(path, NULL);
  assert_non_null(c);
  assert_non_null(strstr(c, "    const opr_tensor *into_,\n"
                            "    opr_tensor **y,\n"
                            "    bool into) {\n"));
  assert_non_null(strstr(c, "  return demo_example_call(ctx, into_, &y, true);\n"));
  free(c);
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
      cmocka_unit_test(an_op_named_like_a_wrappers_body_clashes),
      cmocka_unit_test(a_one_call_wrapper_leaves_the_body_name_free),
      cmocka_unit_test(an_argument_named_into_is_renamed),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
