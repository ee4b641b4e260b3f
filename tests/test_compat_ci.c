/* opgen compat in CI: REQUIRE_TIGHTENED (each decidable case, the
 * loosened, unchanged and undecidable ones), the summary line, --strict,
 * --format=json as one JSON document whatever goes wrong (parsed back
 * with opgen's JSON reader) and --format=github annotations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "compat.h"
#include "json.h"
#include "testutil.h"
#include "writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* ---- the rule, in memory ---- */

static void line_sink(void *ctx, const og_diagnostic *d) {
  og_writer *w = ctx;
  static const char *const sev[] = {"error", "warning", "note"};
  if (w->len) og_w_puts(w, "\n");
  og_w_printf(w, "%s:%u:%u: %s: %s", d->pos.file, (unsigned)d->pos.line,
              (unsigned)d->pos.col, sev[d->severity], d->message);
}

/* The findings of old -> new with requires compared, as lines. */
static char *lint(const char *old_text, const char *new_text, bool strict) {
  tu_diags d = {0};
  og_model *old = tu_compile("old.op", old_text, &d);
  og_model *newm = tu_compile("new.op", new_text, &d);
  if (!old || !newm) print_error("%s\n", tu_diags_text(&d));
  assert_non_null(old);
  assert_non_null(newm);
  tu_diags_free(&d);
  og_compat_options opts = {.requires = true, .strict = strict};
  og_compat_result r;
  og_compat_check_with(old, newm, &opts, &r);
  og_writer w;
  og_writer_init(&w);
  og_diag diag;
  og_diag_init(&diag, NULL, line_sink, &w);
  og_compat_report(&r, &diag);
  og_w_write(&w, "", 1);
  og_compat_result_free(&r);
  og_model_free(old);
  og_model_free(newm);
  return w.buf;
}

#define OP(rules) \
  "op A {\n  input x: float;\n  input y: float;\n  output z: float;\n" \
  rules "}\n"

static void expect(const char *old, const char *new_text, bool strict,
                   const char *expected) {
  char *got = lint(old, new_text, strict);
  if (strcmp(got, expected) != 0)
    print_error("expected\n%s\ngot\n%s\n", expected, got);
  assert_string_equal(got, expected);
  free(got);
}

static const char hint_a[] =
    "accept every input the baseline accepted, or add a new op (e.g. "
    "'AV2') with the stricter rule";

static void narrowed_range_is_a_warning(void **state) {
  (void)state;
  char want[1024];
  snprintf(want, sizeof want,
           "new.op:5:3: warning: [REQUIRE_TIGHTENED] op 'A': `require` "
           "accepts only rank(x) == 2; the baseline accepted rank(x) in "
           "[1, 3]\nold.op:5:3: note: the baseline accepts rank(x) in "
           "[1, 3]\nnew.op:5:3: note: %s", hint_a);
  expect(OP("  require rank(x) in [1, 3];\n"),
         OP("  require rank(x) == 2;\n"), false, want);
}

static void raised_minimum_is_an_error_with_strict(void **state) {
  (void)state;
  char want[1024];
  snprintf(want, sizeof want,
           "new.op:5:3: error: [REQUIRE_TIGHTENED] op 'A': `require` "
           "accepts only dim(y, 0) >= 3; the baseline accepted dim(y, 0) "
           ">= 2\nold.op:5:3: note: the baseline accepts dim(y, 0) >= 2\n"
           "new.op:5:3: note: %s", hint_a);
  expect(OP("  require dim(y, 0) >= 2;\n"), OP("  require 2 < dim(y, 0);\n"),
         true, want);
}

static void new_require_is_a_warning(void **state) {
  (void)state;
  char want[1024];
  snprintf(want, sizeof want,
           "new.op:5:3: warning: [REQUIRE_TIGHTENED] op 'A': new `require` "
           "refuses inputs the baseline accepted\nold.op:1:4: note: the "
           "baseline has no rule on the shapes or attrs it names\n"
           "new.op:5:3: note: %s", hint_a);
  expect(OP(""), OP("  require same(x, y);\n"), false, want);
  snprintf(want, sizeof want,
           "new.op:5:3: warning: [REQUIRE_TIGHTENED] op 'A': `require` "
           "accepts only rank(x) <= 4; the baseline accepted rank(x) >= 0\n"
           "old.op:1:4: note: the baseline has no rule on rank(x)\n"
           "new.op:5:3: note: %s", hint_a);
  expect(OP(""), OP("  require rank(x) <= 4;\n"), false, want);
}

static void loosened_require_is_compatible(void **state) {
  (void)state;
  expect(OP("  require rank(x) == 2;\n"), OP("  require rank(x) in [1, 3];\n"),
         true, "");
  expect(OP("  require rank(x) >= 2;\n  require rank(x) <= 3;\n"),
         OP("  require rank(x) >= 1;\n"), true, "");
  expect(OP("  require same(x, y);\n"), OP(""), true, "");
  expect(OP(""), OP("  require rank(x) >= 0;\n"), true, "");
}

static void unchanged_require_is_compatible(void **state) {
  (void)state;
  expect(OP("  require dim(x, 1) == dim(y, 0);\n  require rank(x) != 3;\n"),
         OP("  require rank(x) != 3;\n  require dim(x, 1) == dim(y, 0);\n"),
         true, "");
}

/* Version-2 forms compare structurally: comprehensions whose bound
 * names sit in other slots, lets by name and definition. */
static void unchanged_v2_require_is_compatible(void **state) {
  (void)state;
  expect(OP("  require all(dim(x, k) >= 1 for k < rank(x));\n"
            "  require any(dim(y, j) == 2 for j < rank(y));\n"),
         OP("  require any(dim(y, k) == 2 for k < rank(y));\n"
            "  require all(dim(x, i) >= 1 for i < rank(x));\n"),
         true, "");
  expect(OP("  let n = rank(x);\n  require n >= 1 || known(y);\n"),
         OP("  let n = rank(x);\n  require n >= 1 || known(y);\n"),
         true, "");
}

/* A new v2 require on an input the baseline never constrained. */
static void new_v2_require_is_a_warning(void **state) {
  (void)state;
  char want[1024];
  snprintf(want, sizeof want,
           "new.op:6:3: warning: [REQUIRE_TIGHTENED] op 'A': new `require` "
           "refuses inputs the baseline accepted\nold.op:1:4: note: the "
           "baseline has no rule on the shapes or attrs it names\n"
           "new.op:6:3: note: %s", hint_a);
  expect(OP(""),
         OP("  let big(k) = dim(x, k) > 4;\n"
            "  require !any(big(k) for k < rank(x));\n"),
         false, want);
  /* the let's body names y, which the baseline constrains: undecided */
  expect(OP("  require rank(y) == 1;\n"),
         OP("  let r = rank(y);\n  require r == 1 || rank(x) == 0;\n"),
         false, "");
}

static void undecidable_require_gives_no_finding(void **state) {
  (void)state;
  /* rank(x) was bound to another shape: not an interval */
  expect(OP("  require rank(x) == rank(y);\n"), OP("  require rank(x) == 2;\n"),
         true, "");
  /* a new form on a shape the baseline already constrained */
  expect(OP("  require rank(x) >= 1;\n"), OP("  require rank(x) != 3;\n"),
         true, "");
  /* an attr the baseline does not have */
  expect(OP(""), OP("  attr k: int = 1;\n  require attr(k) >= 1;\n"), true,
         "");
  /* the baseline's shape function decided in C */
  expect("op A {\n  input x: float;\n  output z: float;\n  shape_fn f;\n}\n",
         "op A {\n  input x: float;\n  output z: float;\n"
         "  require rank(x) == 1;\n}\n",
         true, "");
}

/* ---- the command line ---- */

static char tmpdir[] = "/tmp/opgen_compat_ci_XXXXXX";

typedef struct run_result {
  int status;
  char *out, *err;
} run_result;

/* `opgen ARGS` in tmpdir. */
static run_result run_opgen(const char *args) {
  const char *bin = getenv("OPGEN_BIN");
  if (!bin) skip();
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "cd %s && '%s' %s >stdout 2>stderr", tmpdir, bin,
           args);
  int rc = system(cmd);
  char path[600];
  run_result r = {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, NULL, NULL};
  snprintf(path, sizeof path, "%s/stdout", tmpdir);
  r.out = tu_read_file(path, NULL);
  snprintf(path, sizeof path, "%s/stderr", tmpdir);
  r.err = tu_read_file(path, NULL);
  return r;
}

static void run_free(run_result *r) {
  free(r->out);
  free(r->err);
}

static void write_tmp(const char *name, const char *text) {
  char path[600];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static int setup(void **state) {
  (void)state;
  if (tu_tmpdir_make(tmpdir)) return -1;
  write_tmp("old.op", OP("  require rank(x) in [1, 3];\n"));
  write_tmp("same.op", OP("  require rank(x) in [1, 3];\n"));
  write_tmp("tight.op", OP("  require rank(x) == 2;\n"));
  write_tmp("bad,name.op", "op A {\n  input x float;\n}\n");
  write_tmp("bad.json", "{\"format_version\": 99, \"ops\": []}\n");
  return 0;
}

static int teardown(void **state) {
  (void)state;
  return tu_tmpdir_remove(tmpdir);
}

static void compatible_run_prints_one_line(void **state) {
  (void)state;
  run_result r = run_opgen("compat --baseline old.op same.op");
  assert_int_equal(r.status, 0);
  assert_string_equal(r.out, "compatible: 1 op checked against old.op\n");
  assert_string_equal(r.err, "");
  run_free(&r);
}

static void tightened_require_warns_and_strict_fails(void **state) {
  (void)state;
  run_result r = run_opgen("compat --baseline old.op tight.op");
  assert_int_equal(r.status, 0);
  assert_string_equal(r.out, "compatible: 1 op checked against old.op\n");
  assert_non_null(strstr(r.err, "tight.op:5:3: warning: [REQUIRE_TIGHTENED]"));
  assert_non_null(strstr(r.err, "\ncompatible, with 1 warning.\n"));
  run_free(&r);
  r = run_opgen("compat --strict --baseline old.op tight.op");
  assert_int_equal(r.status, 1);
  assert_string_equal(r.out, "");
  assert_non_null(strstr(r.err, "tight.op:5:3: error: [REQUIRE_TIGHTENED]"));
  assert_non_null(strstr(r.err, "\n1 incompatible change found.\n"));
  run_free(&r);
}

/* A dump carries no shape rules: nothing is compared. */
static void dump_baseline_compares_no_requires(void **state) {
  (void)state;
  run_result r = run_opgen("dump -o base.json old.op");
  assert_int_equal(r.status, 0);
  run_free(&r);
  r = run_opgen("compat --strict --baseline base.json tight.op");
  assert_int_equal(r.status, 0);
  assert_string_equal(r.out, "compatible: 1 op checked against base.json\n");
  run_free(&r);
}

/* stdout parsed as JSON; its exit member and first diagnostic. */
static void expect_json(const char *args, int status, const char *id,
                        const char *file, unsigned line) {
  run_result r = run_opgen(args);
  og_arena arena;
  og_arena_init(&arena);
  tu_diags d = {0};
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, &d);
  const og_json *doc = og_json_parse(&arena, "stdout", r.out,
                                     strlen(r.out), &diag);
  if (!doc || r.status != status)
    print_error("%s: exit %d\n%s%s\n", args, r.status, r.out,
                tu_diags_text(&d));
  assert_non_null(doc);
  assert_int_equal(r.status, status);
  assert_int_equal(og_json_get(doc, "exit")->u.num.i, status);
  assert_int_equal(og_json_get(doc, "findings")->kind, OG_JSON_ARRAY);
  const og_json *diags = og_json_get(doc, "diagnostics");
  if (id) {
    assert_true(diags->u.arr.count >= 1);
    const og_json *first = &diags->u.arr.items[0];
    assert_string_equal(og_json_get(first, "id")->u.str.ptr, id);
    assert_string_equal(og_json_get(first, "severity")->u.str.ptr, "error");
    assert_string_equal(og_json_get(first, "file")->u.str.ptr, file);
    assert_int_equal(og_json_get(first, "line")->u.num.i, line);
    assert_non_null(og_json_get(first, "col"));
    assert_non_null(og_json_get(first, "message"));
  } else {
    assert_int_equal(diags->u.arr.count, 0);
  }
  tu_diags_free(&d);
  og_arena_free(&arena);
  run_free(&r);
}

static void json_is_one_document_in_every_case(void **state) {
  (void)state;
  expect_json("compat --format=json --baseline old.op same.op", 0, NULL, "",
              0);
  expect_json("compat --format=json --strict --baseline old.op tight.op", 1,
              NULL, "", 0);
  expect_json("compat --format=json --baseline old.op 'bad,name.op'", 1,
              "SPEC", "bad,name.op", 2);
  expect_json("compat --format=json --baseline bad.json same.op", 2,
              "BASELINE", "bad.json", 1);
  expect_json("compat --format=json --baseline missing.op same.op", 2, "IO",
              "", 0);
  expect_json("compat --format json --frob", 2, "USAGE", "", 0);
  expect_json("compat --format=json --baseline old.op", 2, "USAGE", "", 0);
}

static void github_prints_escaped_annotations(void **state) {
  (void)state;
  run_result r = run_opgen("compat --format=github --baseline old.op "
                           "'bad,name.op'");
  assert_int_equal(r.status, 1);
  assert_string_equal(r.out, "::error file=bad%2Cname.op,line=2,col=11,"
                             "title=SPEC::expected ':' before identifier "
                             "'float'\n");
  run_free(&r);
  r = run_opgen("compat --format=github --baseline old.op tight.op");
  assert_int_equal(r.status, 0);
  char want[1024];
  snprintf(want, sizeof want,
           "::warning file=tight.op,line=5,col=3,title=REQUIRE_TIGHTENED::"
           "op 'A': `require` accepts only rank(x) == 2; the baseline "
           "accepted rank(x) in [1, 3]%%0Athe baseline accepts rank(x) in "
           "[1, 3]%%0A%s\ncompatible: 1 op checked against old.op\n",
           hint_a);
  assert_string_equal(r.out, want);
  run_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(narrowed_range_is_a_warning),
      cmocka_unit_test(raised_minimum_is_an_error_with_strict),
      cmocka_unit_test(new_require_is_a_warning),
      cmocka_unit_test(loosened_require_is_compatible),
      cmocka_unit_test(unchanged_v2_require_is_compatible),
      cmocka_unit_test(new_v2_require_is_a_warning),
      cmocka_unit_test(unchanged_require_is_compatible),
      cmocka_unit_test(undecidable_require_gives_no_finding),
      cmocka_unit_test(compatible_run_prints_one_line),
      cmocka_unit_test(tightened_require_warns_and_strict_fails),
      cmocka_unit_test(dump_baseline_compares_no_requires),
      cmocka_unit_test(json_is_one_document_in_every_case),
      cmocka_unit_test(github_prints_escaped_annotations),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
