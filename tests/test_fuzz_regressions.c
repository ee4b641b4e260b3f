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
#include "tf_import.h"

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

/* Replays an execute reproducer; returns what the call answered. */
static fz_execute_result replay_execute(const char *name) {
  size_t len;
  uint8_t *data = reproducer(name, &len);
  fz_execute_result res;
  fz_execute_one(data, len, &res);
  free(data);
  return res;
}

static void assert_answer(const fz_execute_result *res, bool infer,
                          const char *op, opr_code code,
                          const char *message) {
  assert_int_equal(res->infer, infer);
  assert_string_equal(res->op, op);
  assert_string_equal(opr_code_name(res->code), opr_code_name(code));
  assert_string_equal(res->message, message);
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

/* A doc line "SY\rMETRIC ..." kept its lone carriage return, which the
 * .op writer turned into a line break: the text read back differently.
 * A lone CR now ends a line comment as it ends a line for an editor, so
 * what follows it is code (here an error), never hidden in a comment. */
static void frontend_lone_carriage_return_ends_a_doc_line(void **state) {
  (void)state;
  size_t len;
  uint8_t *data = reproducer("frontend-doc-lone-carriage-return", &len);
  fz_frontend_one(data, len);
  tu_diags diags = {0};
  og_model *m = tu_compile("fuzz.op", (const char *)data, &diags);
  assert_null(m);
  assert_string_equal(diags.lines[1],
                      "fuzz.op:25:36: error: expected end of file, 'package', "
                      "'op' or 'c_prefix' before identifier 'METRIC'");
  tu_diags_free(&diags);
  free(data);

  m = tu_compile("t.op", "/// Sum\r\nop A {}\n// x\rop B {}\n", &diags);
  assert_non_null(m);
  assert_int_equal(m->nops, 2);
  assert_string_equal(m->ops[0]->summary, "Sum");
  og_model_free(m);
  tu_diags_free(&diags);
}

/* An OpList op named `Foo { stateful; } op Bar` imported, and its .op
 * text compiled to three ops (Keep, a stateful Foo, Bar): the name
 * injected spec text (issue 11). Written by hand; the harness now checks
 * that imported text holds exactly the imported ops, and the importer
 * refuses the name. */
static void frontend_import_refuses_an_injected_op(void **state) {
  (void)state;
  size_t len;
  uint8_t *data = reproducer("frontend-import-injected-op", &len);
  fz_frontend_one(data, len);
  tu_diags diags = {0};
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, &diags);
  og_model *m = og_tf_import("fuzz.pbtxt", (const char *)data, len, &diag);
  assert_null(m);
  assert_int_equal(diags.count, 1);
  assert_string_equal(diags.lines[0],
                      "fuzz.pbtxt:2:12: error: invalid op name 'Foo { "
                      "stateful; } op Bar': op names match [A-Z][A-Za-z0-9]*");
  tu_diags_free(&diags);
  free(data);
}

/* Custom (tests/shape/forms.op: `output ys: N * float`, N only an attr)
 * with N = 2^62, in opr_infer_shapes_by_name: the inference context's
 * output count times sizeof(opr_shape) wrapped to 0, so malloc(0), then
 * 2^62 writes. Found by fuzz_execute. */
static void execute_infer_output_count_overflow(void **state) {
  (void)state;
  fz_execute_result res = replay_execute("execute-infer-output-count-overflow");
  assert_answer(&res, true, "Custom", OPR_RESOURCE_EXHAUSTED,
                "Custom: out of memory inferring shapes");
}

/* The same overflow in opr_execute's sum of output counts: FuzzLists
 * (tests/fuzz/fuzz_ops.op) with N = M = INT64_MAX and L of three types.
 * The sum wrapped to 1, which fit the room for 4; clearing the slots then
 * wrote 2^64 - 8 bytes. Written by hand in the fuzz encoding after the
 * fuzzer's find above (three values must line up: rare for a fuzzer). */
static void execute_output_count_sum_overflow(void **state) {
  (void)state;
  fz_execute_result res = replay_execute("execute-output-count-sum-overflow");
  assert_answer(&res, false, "FuzzLists", OPR_INVALID_ARGUMENT,
                "FuzzLists: its attrs give more output tensors than can be "
                "counted; room for 4");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(frontend_empty_input_is_an_empty_model),
      cmocka_unit_test(frontend_summary_ignores_a_blank_last_doc_line),
      cmocka_unit_test(frontend_lone_carriage_return_ends_a_doc_line),
      cmocka_unit_test(frontend_import_refuses_an_injected_op),
      cmocka_unit_test(execute_infer_output_count_overflow),
      cmocka_unit_test(execute_output_count_sum_overflow),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
