/* The opgen command line end to end: exit statuses, diagnostics format,
 * dump output against a golden file, and no output on failure. */
#include "testutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct run_result {
  int status;
  char *out, *err;
} run_result;

static char tmpdir[] = "/tmp/opgen_cli_XXXXXX";

/* Runs $OPGEN_BIN with argv (NULL-terminated, without argv[0]). */
static run_result run_opgen(const char *const *args) {
  const char *bin = getenv("OPGEN_BIN");
  assert_non_null(bin);
  char out_path[512], err_path[512];
  snprintf(out_path, sizeof out_path, "%s/stdout", tmpdir);
  snprintf(err_path, sizeof err_path, "%s/stderr", tmpdir);
  const char *argv[32] = {bin};
  size_t n = 1;
  for (; args[n - 1]; n++) argv[n] = args[n - 1];
  argv[n] = NULL;
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    execv(bin, (char *const *)argv);
    _exit(127);
  }
  int wstatus;
  waitpid(pid, &wstatus, 0);
  run_result r = {WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1,
                  tu_read_file(out_path, NULL), tu_read_file(err_path, NULL)};
  return r;
}

static void run_free(run_result *r) {
  free(r->out);
  free(r->err);
}

static const char *write_tmp(const char *name, const char *text) {
  static char path[8][512];
  static int next;
  char *p = path[next++ % 8];
  snprintf(p, 512, "%s/%s", tmpdir, name);
  FILE *f = fopen(p, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  return p;
}

static void no_arguments_is_a_usage_error(void **state) {
  (void)state;
  run_result r = run_opgen((const char *[]){NULL});
  assert_int_equal(r.status, 2);
  assert_non_null(strstr(r.err, "usage: opgen"));
  run_free(&r);
}

static void unknown_command_is_a_usage_error(void **state) {
  (void)state;
  run_result r = run_opgen((const char *[]){"frobnicate", NULL});
  assert_int_equal(r.status, 2);
  assert_non_null(strstr(r.err, "opgen: error: unknown command 'frobnicate'"));
  run_free(&r);
}

static void help_and_version_succeed(void **state) {
  (void)state;
  run_result r = run_opgen((const char *[]){"--help", NULL});
  assert_int_equal(r.status, 0);
  assert_non_null(strstr(r.out, "\n  check      parse and validate"));
  run_free(&r);
  r = run_opgen((const char *[]){"--version", NULL});
  assert_int_equal(r.status, 0);
  assert_memory_equal(r.out, "opgen ", 6);
  run_free(&r);
}

static void check_without_files_is_a_usage_error(void **state) {
  (void)state;
  run_result r = run_opgen((const char *[]){"check", NULL});
  assert_int_equal(r.status, 2);
  assert_non_null(strstr(r.err, "no input files"));
  run_free(&r);
}

static void check_of_missing_file_is_an_io_error(void **state) {
  (void)state;
  run_result r = run_opgen((const char *[]){"check", "/nonexistent/x.op", NULL});
  assert_int_equal(r.status, 2);
  assert_string_equal(r.err, "opgen: error: cannot read '/nonexistent/x.op': "
                             "No such file or directory\n");
  run_free(&r);
}

static void check_of_valid_specs_is_silent(void **state) {
  (void)state;
  run_result r = run_opgen((const char *[]){"check", "specs/demo.op",
                                            "specs/guide_attrs.op",
                                            "specs/guide_io.op", NULL});
  assert_int_equal(r.status, 0);
  assert_string_equal(r.out, "");
  assert_string_equal(r.err, "");
  run_free(&r);
}

static void invalid_spec_prints_gcc_style_diagnostics(void **state) {
  (void)state;
  const char *path = write_tmp("bad.op", "op A {\n  attr T: {float} = int32;\n}\n");
  run_result r = run_opgen((const char *[]){"check", path, NULL});
  assert_int_equal(r.status, 1);
  char want[1024];
  snprintf(want, sizeof want,
           "%s:2:21: error: attr 'T': default int32 is not one of {float}\n"
           "    attr T: {float} = int32;\n"
           "                      ^~~~~\n"
           "1 error generated.\n",
           path);
  assert_string_equal(r.err, want);
  run_free(&r);
}

static void unclosed_op_notes_where_it_opened(void **state) {
  (void)state;
  const char *path = write_tmp("open.op", "op A {\n  attr a: int;\n");
  run_result r = run_opgen((const char *[]){"check", path, NULL});
  assert_int_equal(r.status, 1);
  char want[256];
  snprintf(want, sizeof want, "%s:1:6: note: to match this '{'", path);
  assert_non_null(strstr(r.err, "error: expected"));
  assert_non_null(strstr(r.err, "at end of input"));
  assert_non_null(strstr(r.err, want));
  run_free(&r);
}

static void dump_matches_golden(void **state) {
  (void)state;
  run_result r = run_opgen((const char *[]){"dump", "specs/demo.op",
                                            "specs/guide_attrs.op",
                                            "specs/guide_io.op", NULL});
  assert_int_equal(r.status, 0);
  char *golden = tu_read_file("tests/golden/specs.dump.json", NULL);
  assert_non_null(golden);
  assert_string_equal(r.out, golden);
  free(golden);
  run_free(&r);
}

static void dump_writes_file_only_on_success(void **state) {
  (void)state;
  const char *bad = write_tmp("bad2.op", "op A { attr x: nope; }\n");
  const char *out = write_tmp("out.json", "previous contents\n");
  run_result r = run_opgen((const char *[]){"dump", "-o", out, bad, NULL});
  assert_int_equal(r.status, 1);
  char *kept = tu_read_file(out, NULL);
  assert_string_equal(kept, "previous contents\n");
  free(kept);
  run_free(&r);
  char fresh[512];
  snprintf(fresh, sizeof fresh, "%s/fresh.json", tmpdir);
  r = run_opgen((const char *[]){"dump", "-o", fresh, bad, NULL});
  assert_int_equal(r.status, 1);
  assert_int_equal(access(fresh, F_OK), -1);
  run_free(&r);
  const char *good = write_tmp("good.op", "op A {}\n");
  r = run_opgen((const char *[]){"dump", "-o", out, good, NULL});
  assert_int_equal(r.status, 0);
  kept = tu_read_file(out, NULL);
  assert_non_null(strstr(kept, "\"name\": \"A\""));
  free(kept);
  run_free(&r);
}

static void dump_to_unwritable_path_is_an_io_error(void **state) {
  (void)state;
  const char *good = write_tmp("good2.op", "op A {}\n");
  run_result r = run_opgen((const char *[]){"dump", "-o", "/nonexistent/dir/x.json",
                                            good, NULL});
  assert_int_equal(r.status, 2);
  assert_non_null(strstr(r.err, "opgen: error: cannot write '/nonexistent/dir/x.json'"));
  run_free(&r);
}

static void op_defined_in_two_files_fails(void **state) {
  (void)state;
  const char *a = write_tmp("a.op", "op Same {}\n");
  const char *b = write_tmp("b.op", "op Same {}\n");
  run_result r = run_opgen((const char *[]){"check", a, b, NULL});
  assert_int_equal(r.status, 1);
  assert_non_null(strstr(r.err, "error: op 'Same' is already defined"));
  assert_non_null(strstr(r.err, "note: previous definition of 'Same' is here"));
  run_free(&r);
}

static void gen_failure_creates_and_changes_nothing(void **state) {
  (void)state;
  const char *bad = write_tmp("bad3.op", "op A { attr x: nope; }\n");
  char dir[512];
  snprintf(dir, sizeof dir, "%s/gen_out", tmpdir);
  run_result r = run_opgen((const char *[]){"gen", "-o", dir, bad, NULL});
  assert_int_equal(r.status, 1);
  assert_int_equal(access(dir, F_OK), -1); /* not even the directory */
  run_free(&r);
  const char *good = write_tmp("bad3.op", "package bad3;\nop A {}\n");
  r = run_opgen((const char *[]){"gen", "-o", dir, good, NULL});
  assert_int_equal(r.status, 0);
  run_free(&r);
  char header[600];
  snprintf(header, sizeof header, "%s/bad3_ops.h", dir);
  char *before = tu_read_file(header, NULL);
  assert_non_null(before);
  write_tmp("bad3.op", "package bad3;\nop A { input x: Q; }\n");
  r = run_opgen((const char *[]){"gen", "-o", dir, good, NULL});
  assert_int_equal(r.status, 1);
  char *after = tu_read_file(header, NULL);
  assert_string_equal(before, after);
  free(before);
  free(after);
  run_free(&r);
}

static void gen_usage_and_io_errors(void **state) {
  (void)state;
  const char *good = write_tmp("good4.op", "op A {}\n");
  run_result r = run_opgen((const char *[]){"gen", good, NULL});
  assert_int_equal(r.status, 2);
  assert_non_null(strstr(r.err, "gen needs an output directory: -o DIR"));
  run_free(&r);
  r = run_opgen((const char *[]){"gen", "-o", good, good, NULL});
  assert_int_equal(r.status, 2); /* the "directory" is a file */
  assert_non_null(strstr(r.err, "opgen: error: cannot create directory"));
  run_free(&r);
}

TU_TMPDIR_FIXTURES(tmpdir)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(no_arguments_is_a_usage_error),
      cmocka_unit_test(unknown_command_is_a_usage_error),
      cmocka_unit_test(help_and_version_succeed),
      cmocka_unit_test(check_without_files_is_a_usage_error),
      cmocka_unit_test(check_of_missing_file_is_an_io_error),
      cmocka_unit_test(check_of_valid_specs_is_silent),
      cmocka_unit_test(invalid_spec_prints_gcc_style_diagnostics),
      cmocka_unit_test(unclosed_op_notes_where_it_opened),
      cmocka_unit_test(dump_matches_golden),
      cmocka_unit_test(dump_writes_file_only_on_success),
      cmocka_unit_test(dump_to_unwritable_path_is_an_io_error),
      cmocka_unit_test(op_defined_in_two_files_fails),
      cmocka_unit_test(gen_failure_creates_and_changes_nothing),
      cmocka_unit_test(gen_usage_and_io_errors),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
