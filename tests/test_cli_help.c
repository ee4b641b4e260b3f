/* opgen help: `opgen help` lists every verb, `opgen help VERB` and
 * `opgen VERB --help` print the same usage and options (exit 0), an
 * unknown verb is a usage error (exit 2); `opgen --version` names the
 * version (test_package_version checks it against the package's). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char tmpdir[] = "/tmp/opgen_help_XXXXXX";

typedef struct ran {
  int status;
  char *out, *err;
} ran;

/* Runs `$OPGEN_BIN ARGS` (ARGS: shell words, no quoting needed). */
static ran run(const char *args) {
  const char *bin = getenv("OPGEN_BIN");
  assert_non_null(bin);
  char cmd[2048], out[256], err[256];
  snprintf(out, sizeof out, "%s/out", tmpdir);
  snprintf(err, sizeof err, "%s/err", tmpdir);
  snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", bin, args, out, err);
  int rc = system(cmd);
  ran r = {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, tu_read_file(out, NULL),
           tu_read_file(err, NULL)};
  assert_non_null(r.out);
  assert_non_null(r.err);
  return r;
}

static void ran_free(ran *r) {
  free(r->out);
  free(r->err);
}

static const char *const all_verbs[] = {"check", "dump", "gen", "compat",
                                        "import-tf", "help"};

static void help_lists_every_verb(void **state) {
  (void)state;
  ran r = run("help");
  assert_int_equal(r.status, 0);
  assert_string_equal(r.err, "");
  assert_memory_equal(r.out, "usage: opgen <command>", 22);
  for (size_t i = 0; i < sizeof all_verbs / sizeof *all_verbs; i++) {
    char line[64];
    snprintf(line, sizeof line, "\n  %-10s ", all_verbs[i]);
    if (!strstr(r.out, line)) fail_msg("'%s' is not listed", all_verbs[i]);
  }
  ran plain = run("--help");
  assert_string_equal(plain.out, r.out);
  ran_free(&plain);
  ran_free(&r);
}

static void help_verb_prints_usage_and_options(void **state) {
  (void)state;
  ran r = run("help gen");
  assert_int_equal(r.status, 0);
  assert_string_equal(r.err, "");
  const char *head = "usage: opgen gen [--max-errors=N] -o DIR FILES...\n\n"
                     "generate C wrappers, tables and kernel headers into "
                     "DIR\n\noptions:\n  -o DIR, --output=DIR\n";
  assert_memory_equal(r.out, head, strlen(head));
  assert_non_null(strstr(r.out, "  --max-errors=N "));
  assert_non_null(strstr(r.out, "  -h, --help "));
  ran_free(&r);
}

static void verb_help_option_is_help_verb(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof all_verbs / sizeof *all_verbs; i++) {
    char a[64], b[64];
    snprintf(a, sizeof a, "help %s", all_verbs[i]);
    snprintf(b, sizeof b, "%s x.op --help", all_verbs[i]);
    ran x = run(a), y = run(b);
    assert_int_equal(x.status, 0);
    assert_int_equal(y.status, 0);
    assert_string_equal(y.out, x.out);
    char want[64];
    snprintf(want, sizeof want, "usage: opgen %s ", all_verbs[i]);
    assert_memory_equal(x.out, want, strlen(want));
    ran_free(&x);
    ran_free(&y);
  }
}

static void help_of_an_unknown_verb_is_a_usage_error(void **state) {
  (void)state;
  ran r = run("help frobnicate");
  assert_int_equal(r.status, 2);
  assert_string_equal(r.out, "");
  const char *want = "opgen: error: unknown command 'frobnicate'\n"
                     "usage: opgen <command>";
  assert_memory_equal(r.err, want, strlen(want));
  ran_free(&r);
  r = run("help gen dump");
  assert_int_equal(r.status, 2);
  assert_string_equal(r.err, "opgen: error: help takes one command, not "
                             "'dump' too (usage: opgen help [VERB])\n");
  ran_free(&r);
}

static void version_names_opgen_and_a_version(void **state) {
  (void)state;
  ran r = run("--version");
  assert_int_equal(r.status, 0);
  assert_memory_equal(r.out, "opgen ", 6);
  unsigned major, minor, patch;
  assert_int_equal(sscanf(r.out, "opgen %u.%u.%u\n", &major, &minor, &patch),
                   3);
  ran_free(&r);
}

TU_TMPDIR_FIXTURES(tmpdir)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(help_lists_every_verb),
      cmocka_unit_test(help_verb_prints_usage_and_options),
      cmocka_unit_test(verb_help_option_is_help_verb),
      cmocka_unit_test(help_of_an_unknown_verb_is_a_usage_error),
      cmocka_unit_test(version_names_opgen_and_a_version),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
