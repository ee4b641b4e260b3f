/* Every problem the fuzzers found (tests/fuzz, .ci/fuzz), replayed: each
 * reproducer of tests/fuzz/regressions/ goes through the fuzzer's own
 * harness (which aborts on a crash or a broken round trip, and which the
 * sanitizer build checks for memory errors and undefined behaviour), and
 * the test asserts the precise answer the input must get. Reproducers
 * are named <target>-<what>, so that .ci/fuzz adds them to the target's
 * seeds. */
#include "testutil.h"

#include "execute_harness.h"
#include "frontend_harness.h"
#include "source.h"

#include <stdlib.h>
#include <string.h>

#define REGRESSIONS "tests/fuzz/regressions/"

/* The bytes of a reproducer (fails the test when unreadable). */
static uint8_t *reproducer(const char *name, size_t *len) {
  char path[256];
  snprintf(path, sizeof path, REGRESSIONS "%s", name);
  char *data = tu_read_file(path, len);
  if (!data) fail_msg("cannot read %s", path);
  return (uint8_t *)data;
}

/* libFuzzer's empty input is (NULL, 0): og_sources_add passed the NULL to
 * memcpy (undefined behaviour). An empty spec is a run without ops. */
static void frontend_empty_input_is_an_empty_model(void **state) {
  (void)state;
  size_t len;
  free(reproducer("frontend-empty-input", &len));
  assert_int_equal(len, 0);
  fz_frontend_one(NULL, 0);
  og_sources sources;
  og_sources_init(&sources);
  uint32_t file = og_sources_add(&sources, "fuzz.op", NULL, 0);
  assert_int_equal(sources.items[file]->len, 0);
  assert_string_equal(sources.items[file]->text, "");
  tu_diags diags = {0};
  og_diag diag;
  og_diag_init(&diag, &sources, tu_diags_sink, &diags);
  og_model *m = og_compile(&sources, &file, 1, &diag);
  assert_non_null(m);
  assert_int_equal(m->nops, 0);
  assert_int_equal(diags.count, 0);
  og_model_free(m);
  tu_diags_free(&diags);
  og_sources_free(&sources);
}

/* A doc comment ending in a blank `///` line gave the op's summary a
 * trailing space ("Sum. "), which the .op text kept and the compiler
 * dropped on reading it back: the round trip through og_emit_op_source
 * broke. The summary is its paragraph, without the blank line. */
static void frontend_summary_ignores_a_blank_last_doc_line(void **state) {
  (void)state;
  size_t len;
  uint8_t *data = reproducer("frontend-summary-blank-last-doc-line", &len);
  fz_frontend_one(data, len);
  tu_diags diags = {0};
  og_model *m = tu_compile("fuzz.op", (const char *)data, &diags);
  assert_non_null(m);
  assert_int_equal(diags.count, 0);
  assert_int_equal(m->nops, 1);
  char want[128];
  memset(want, 6, 36); /* 36 bytes 0x06, then the text */
  strcpy(want + 36, "an int32 tensor but the first.");
  assert_string_equal(m->ops[0]->name, "Matri");
  assert_string_equal(m->ops[0]->summary, want);
  assert_string_equal(m->ops[0]->description, "");
  og_model_free(m);
  tu_diags_free(&diags);
  free(data);

  m = tu_compile("t.op", "/// Sum.\n///\nop A {}\n", &diags);
  assert_non_null(m);
  assert_string_equal(m->ops[0]->summary, "Sum.");
  assert_string_equal(m->ops[0]->description, "");
  og_model_free(m);
  tu_diags_free(&diags);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(frontend_empty_input_is_an_empty_model),
      cmocka_unit_test(frontend_summary_ignores_a_blank_last_doc_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
