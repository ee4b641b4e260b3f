/* opgen compat: every rule, unsafe and safe, with its exact diagnostics;
 * the backward-compatibility examples of TensorFlow's "Create an op"
 * guide; TensorFlow's own vectors (op_compatibility_test.cc, as
 * ../shared/corpus/tf-tests/compat_cases.json); the successive versions
 * of 20 real ops (tf-tests/history/); the whole corpus against its own
 * dump; the JSON output; and the verb end to end.
 *
 * Rule tests compile an old and a new spec ("old.op", "new.op") and
 * compare the diagnostics as the CLI's first lines print them:
 * "file:line:col: severity: message", "file:line:" where a position has
 * no column (a dump's), "file:" where it has no line (a removed op). */
#include "testutil.h"

#include "compat.h"
#include "dump.h"
#include "dump_read.h"
#include "emit_op.h"
#include "json.h"
#include "tf_import.h"
#include "writer.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- running the lint in memory ---- */

static void line_sink(void *ctx, const og_diagnostic *d) {
  og_writer *w = ctx;
  static const char *const sev[] = {"error", "warning", "note"};
  if (w->len) og_w_puts(w, "\n");
  if (d->pos.file && d->pos.line && d->pos.col)
    og_w_printf(w, "%s:%u:%u: ", d->pos.file, (unsigned)d->pos.line,
                (unsigned)d->pos.col);
  else if (d->pos.file && d->pos.line)
    og_w_printf(w, "%s:%u: ", d->pos.file, (unsigned)d->pos.line);
  else if (d->pos.file)
    og_w_printf(w, "%s: ", d->pos.file);
  og_w_printf(w, "%s: %s", sev[d->severity], d->message);
}

static char *writer_text(og_writer *w) {
  char *s = malloc(w->len + 1);
  memcpy(s, w->buf ? w->buf : "", w->len);
  s[w->len] = '\0';
  og_writer_free(w);
  return s;
}

/* The findings as lines, or NULL (with the reason printed) when a spec
 * does not compile. *count gets the number of findings. */
static char *lint_models(const og_model *old, const og_model *newm,
                         size_t *count) {
  og_compat_result r;
  og_compat_check(old, newm, &r);
  og_writer w;
  og_writer_init(&w);
  og_diag diag;
  og_diag_init(&diag, NULL, line_sink, &w);
  og_compat_report(&r, &diag);
  if (count) *count = r.count;
  og_compat_result_free(&r);
  return writer_text(&w);
}

static og_model *compile_or_print(const char *path, const char *text) {
  tu_diags d = {0};
  og_model *m = tu_compile(path, text, &d);
  if (!m) print_error("%s does not compile:\n%s\n%s\n", path, text,
                      tu_diags_text(&d));
  tu_diags_free(&d);
  return m;
}

static char *lint(const char *old_text, const char *new_text, size_t *count) {
  og_model *old = compile_or_print("old.op", old_text);
  og_model *newm = compile_or_print("new.op", new_text);
  char *lines = old && newm ? lint_models(old, newm, count) : NULL;
  og_model_free(old);
  og_model_free(newm);
  return lines;
}

#define expect_findings(old, new, expected) \
  expect_findings_at(__FILE__, __LINE__, old, new, expected)
static void expect_findings_at(const char *file, int line, const char *old,
                               const char *new_text, const char *expected) {
  char *got = lint(old, new_text, NULL);
  if (!got || strcmp(got, expected) != 0) {
    print_error("%s:%d: expected\n%s\ngot\n%s\n", file, line, expected,
                got ? got : "(no result)");
    free(got);
    _fail(file, line);
  }
  free(got);
}

#define expect_compatible(old, new) \
  expect_findings_at(__FILE__, __LINE__, old, new, "")

/* ---- one test per rule: the unsafe change, then the safe one ---- */

static void op_removed_but_new_ops_are_fine(void **state) {
  (void)state;
  expect_findings("op Keep {}\nop Gone {}\n", "op Keep {}\n",
      "new.op: error: [OP_REMOVED] op 'Gone' was removed\n"
      "old.op:2:4: note: the baseline defines op 'Gone' here\n"
      "new.op: note: keep op 'Gone'; to retire it, mark it `deprecated "
      "VERSION \"why\";` instead");
  expect_compatible("op Keep {}\n", "op Keep {}\nop Added {}\n");
}

static void attr_removed_but_reordering_is_fine(void **state) {
  (void)state;
  expect_findings("op A {\n  attr a: int;\n  attr b: bool;\n}\n",
                  "op A {\n  attr b: bool;\n}\n",
      "new.op:1:4: error: [ATTR_REMOVED] op 'A': attr 'a' was removed\n"
      "old.op:2:8: note: the baseline declares `attr a: int;`\n"
      "new.op:1:4: note: keep attr 'a'; to drop it, add a new op with a "
      "new name");
  expect_compatible("op A {\n  attr b: bool;\n  attr a: int;\n}\n",
                    "op A {\n  attr a: int;\n  attr b: bool;\n}\n");
}

static void attr_type_changed_but_docs_may_change(void **state) {
  (void)state;
  expect_findings("op A {\n  attr a: bool;\n}\n",
                  "op A {\n  attr a: int;\n}\n",
      "new.op:2:8: error: [ATTR_TYPE_CHANGED] op 'A': attr 'a' changed "
      "type from 'bool' to 'int'\n"
      "old.op:2:8: note: the baseline declares `attr a: bool;`\n"
      "new.op:2:8: note: keep attr 'a' of type 'bool'; for another type, "
      "add a new attr with a default or a new op with a new name");
  expect_findings("op A {\n  attr a: int;\n}\n",
                  "op A {\n  attr a: list(int);\n}\n",
      "new.op:2:8: error: [ATTR_TYPE_CHANGED] op 'A': attr 'a' changed "
      "type from 'int' to 'list(int)'\n"
      "old.op:2:8: note: the baseline declares `attr a: int;`\n"
      "new.op:2:8: note: keep attr 'a' of type 'int'; for another type, "
      "add a new attr with a default or a new op with a new name");
  expect_compatible("/// Old words.\nop A {\n  attr a: int;\n}\n",
                    "/// New words.\n///\n/// More.\nop A {\n"
                    "  /// Now documented.\n  attr a: int;\n}\n");
}

static void allowed_narrowed_but_widening_is_fine(void **state) {
  (void)state;
  expect_findings("op A {\n  attr t: {int32, int64, bool};\n}\n",
                  "op A {\n  attr t: {int32, int64};\n}\n",
      "new.op:2:8: error: [ALLOWED_NARROWED] op 'A': attr 't' no longer "
      "allows bool (now {int32, int64})\n"
      "old.op:2:8: note: the baseline declares `attr t: {int32, int64, "
      "bool};`\n"
      "new.op:2:8: note: allow every value the baseline allows; to "
      "restrict attr 't', add a new op with a new name");
  expect_findings("op A {\n  attr t: type;\n}\n",
                  "op A {\n  attr t: {int32, int64};\n}\n",
      "new.op:2:8: error: [ALLOWED_NARROWED] op 'A': attr 't' is now "
      "restricted to {int32, int64}; the baseline allows any value\n"
      "old.op:2:8: note: the baseline declares `attr t: type;`\n"
      "new.op:2:8: note: allow every value the baseline allows; to "
      "restrict attr 't', add a new op with a new name");
  expect_findings("op A {\n  attr s: {'A', 'B'};\n}\n",
                  "op A {\n  attr s: {'B'};\n}\n",
      "new.op:2:8: error: [ALLOWED_NARROWED] op 'A': attr 's' no longer "
      "allows 'A' (now {'B'})\n"
      "old.op:2:8: note: the baseline declares `attr s: {'A', 'B'};`\n"
      "new.op:2:8: note: allow every value the baseline allows; to "
      "restrict attr 's', add a new op with a new name");
  expect_compatible("op A {\n  attr s: {'A', 'B'};\n}\n",
                    "op A {\n  attr s: {'A', 'B', 'C'};\n}\n");
  expect_compatible("op A {\n  attr t: {int32, bool};\n}\n",
                    "op A {\n  attr t: type;\n}\n");
}

static void minimum_raised_but_lowering_is_fine(void **state) {
  (void)state;
  expect_findings("op A {\n  attr n: int >= 1;\n}\n",
                  "op A {\n  attr n: int >= 3;\n}\n",
      "new.op:2:8: error: [MINIMUM_RAISED] op 'A': attr 'n' minimum "
      "raised from 1 to 3\n"
      "old.op:2:8: note: the baseline declares `attr n: int >= 1;`\n"
      "new.op:2:8: note: keep the minimum of attr 'n' at 1 or lower");
  expect_findings("op A {\n  attr n: int;\n}\n",
                  "op A {\n  attr n: int >= 3;\n}\n",
      "new.op:2:8: error: [MINIMUM_RAISED] op 'A': attr 'n' now has "
      "minimum 3; the baseline has none\n"
      "old.op:2:8: note: the baseline declares `attr n: int;`\n"
      "new.op:2:8: note: drop the minimum of attr 'n'; to require one, "
      "add a new op with a new name");
  expect_compatible("op A {\n  attr n: int >= 3;\n}\n",
                    "op A {\n  attr n: int >= 1;\n}\n");
  expect_compatible("op A {\n  attr n: int >= 3;\n}\n",
                    "op A {\n  attr n: int;\n}\n");
  expect_compatible("op A {\n  attr T: list(type) >= 2;\n  input a: T;\n}\n",
                    "op A {\n  attr T: list(type) >= 1;\n  input a: T;\n}\n");
}

static void attr_added_without_default_but_with_one_is_fine(void **state) {
  (void)state;
  expect_findings("op A {}\n", "op A {\n  attr a: int;\n}\n",
      "new.op:2:8: error: [ATTR_ADDED_WITHOUT_DEFAULT] op 'A': new attr "
      "'a' has no default\n"
      "old.op:1:4: note: the baseline op 'A' has no attr 'a'\n"
      "new.op:2:8: note: give attr 'a' a default");
  expect_compatible("op A {}\n", "op A {\n  attr a: int = 42;\n}\n");
}

static void default_changed_or_removed_but_adding_one_is_fine(void **state) {
  (void)state;
  expect_findings("op A {\n  attr a: int = 2;\n}\n",
                  "op A {\n  attr a: int = 1;\n}\n",
      "new.op:2:8: error: [DEFAULT_CHANGED] op 'A': attr 'a' default "
      "changed from 2 to 1\n"
      "old.op:2:8: note: the baseline declares `attr a: int = 2;`\n"
      "new.op:2:8: note: restore the default 2 of attr 'a': graphs that "
      "leave 'a' out mean 2");
  expect_findings("op A {\n  attr a: string = 'x';\n}\n",
                  "op A {\n  attr a: string;\n}\n",
      "new.op:2:8: error: [DEFAULT_CHANGED] op 'A': attr 'a' no longer "
      "has a default (was 'x')\n"
      "old.op:2:8: note: the baseline declares `attr a: string = 'x';`\n"
      "new.op:2:8: note: restore the default 'x' of attr 'a': graphs "
      "that leave 'a' out mean 'x'");
  expect_compatible("op A {\n  attr a: int;\n}\n",
                    "op A {\n  attr a: int = 1234;\n}\n");
  expect_compatible("op A {\n  attr T: type = int32;\n}\n",
                    "op A {\n  attr T: type = DT_INT32;\n}\n");
}

static void input_signature_changed_but_renames_are_fine(void **state) {
  (void)state;
  expect_findings("op A {\n  input a: int32;\n}\n",
                  "op A {\n  input a: float;\n}\n",
      "new.op:2:9: error: [INPUT_SIGNATURE_CHANGED] op 'A': input "
      "signature changed from 'int32' to 'float': input 'a' gives "
      "'float' where the baseline has 'int32'\n"
      "old.op:2:9: note: the baseline's input signature is 'int32'\n"
      "new.op:2:9: note: keep the inputs' types and order (renaming an "
      "input is fine); to change them, add a new op with a new name");
  expect_findings("op A {\n  input b: int32;\n  input a: float;\n}\n",
                  "op A {\n  input a: float;\n  input b: int32;\n}\n",
      "new.op:2:9: error: [INPUT_SIGNATURE_CHANGED] op 'A': input "
      "signature changed from 'int32, float' to 'float, int32': input "
      "'a' gives 'float' where the baseline has 'int32'\n"
      "old.op:2:9: note: the baseline's input signature is 'int32, float'\n"
      "new.op:2:9: note: keep the inputs' types and order (renaming an "
      "input is fine); to change them, add a new op with a new name");
  expect_findings("op A {\n  input a: float;\n}\n", "op A {}\n",
      "new.op:1:4: error: [INPUT_SIGNATURE_CHANGED] op 'A': input "
      "signature changed from 'float' to '': the baseline's 'float' "
      "(input 'a') is gone\n"
      "old.op:2:9: note: the baseline's input signature is 'float'\n"
      "new.op:1:4: note: keep the inputs' types and order (renaming an "
      "input is fine); to change them, add a new op with a new name");
  expect_findings("op A {}\n",
                  "op A {\n  attr N: int = 1;\n  input a: N * int32;\n}\n",
      "new.op:3:9: error: [INPUT_SIGNATURE_CHANGED] op 'A': input "
      "signature changed from '' to 'int32': input 'a' adds 'int32'\n"
      "old.op:1:4: note: the baseline's input signature is ''\n"
      "new.op:3:9: note: make the new input a list defaulting to empty "
      "(`N * T` with `attr N: int >= 0 = 0;`, or a `list(type) >= 0 = "
      "[]` attr)");
  expect_compatible("op A {\n  input x: int32;\n}\n",
                    "op A {\n  input y: int32;\n}\n");
}

static void output_signature_changed_by_a_rename(void **state) {
  (void)state;
  expect_findings("op A {\n  output old: int32;\n}\n",
                  "op A {\n  output new: int32;\n}\n",
      "new.op:2:10: error: [OUTPUT_SIGNATURE_CHANGED] op 'A': output "
      "signature changed from 'old:int32' to 'new:int32': output 'new' "
      "gives 'new:int32' where the baseline has 'old:int32'\n"
      "old.op:2:10: note: the baseline's output signature is 'old:int32'\n"
      "new.op:2:10: note: keep the output name 'old': graphs refer to "
      "outputs by name; to rename it, add a new op with a new name");
  expect_findings("op A {\n  attr N: int;\n  output old: N * int32;\n}\n",
                  "op A {\n  attr N: int;\n  output new: N * int32;\n}\n",
      "new.op:3:10: error: [OUTPUT_SIGNATURE_CHANGED] op 'A': output "
      "signature changed from 'old:N * int32' to 'new:N * int32': output "
      "'new' gives 'new:N * int32' where the baseline has 'old:N * int32'\n"
      "old.op:3:10: note: the baseline's output signature is 'old:N * "
      "int32'\n"
      "new.op:3:10: note: keep the output name 'old': graphs refer to "
      "outputs by name; to rename it, add a new op with a new name");
  expect_findings("op A {\n  output a: int32;\n}\n",
                  "op A {\n  output a: int32;\n  output b: float;\n}\n",
      "new.op:3:10: error: [OUTPUT_SIGNATURE_CHANGED] op 'A': output "
      "signature changed from 'a:int32' to 'a:int32, b:float': output "
      "'b' adds 'b:float'\n"
      "old.op:1:4: note: the baseline's output signature is 'a:int32'\n"
      "new.op:3:10: note: make the new output a list defaulting to empty "
      "(`N * T` with `attr N: int >= 0 = 0;`, or a `list(type) >= 0 = "
      "[]` attr)");
  expect_compatible("op A {\n  output o: int32;\n}\n",
                    "op A {\n  attr N: int >= 0 = 0;\n  output o: int32;\n"
                    "  output more: N * float;\n}\n");
}

static void input_made_ref_but_dropping_ref_is_fine(void **state) {
  (void)state;
  expect_findings("op A {\n  input i: int32;\n}\n",
                  "op A {\n  input i: Ref(int32);\n}\n",
      "new.op:2:9: error: [INPUT_MADE_REF] op 'A': input 'i' became a "
      "reference (Ref)\n"
      "old.op:2:9: note: the baseline declares `input i: int32;`\n"
      "new.op:2:9: note: drop Ref(...) from input 'i'; for a reference "
      "input, add a new op with a new name");
  expect_compatible("op A {\n  input i: Ref(int32);\n}\n",
                    "op A {\n  input i: int32;\n}\n");
}

static void output_ref_removed_but_adding_ref_is_fine(void **state) {
  (void)state;
  expect_findings("op A {\n  output o: Ref(int32);\n}\n",
                  "op A {\n  output o: int32;\n}\n",
      "new.op:2:10: error: [OUTPUT_REF_REMOVED] op 'A': output 'o' is no "
      "longer a reference (Ref)\n"
      "old.op:2:10: note: the baseline declares `output o: Ref(int32);`\n"
      "new.op:2:10: note: keep output 'o' a Ref(...); to change it, add "
      "a new op with a new name");
  expect_compatible("op A {\n  output o: int32;\n}\n",
                    "op A {\n  output o: Ref(int32);\n}\n");
}

/* ---- the guide's backward-compatibility examples ---- */

/* "Create an op", Backwards compatibility: MyGeneralUnaryOp took and
 * returned float; a type attr whose default is float keeps every old
 * graph valid. Without the default, it would not. */
static void guide_making_an_op_polymorphic_with_a_default(void **state) {
  (void)state;
  const char *old = "op MyGeneralUnaryOp {\n  input in: float;\n"
                    "  output out: float;\n}\n";
  expect_compatible(old, "op MyGeneralUnaryOp {\n"
                         "  attr T: numerictype = DT_FLOAT;\n"
                         "  input in: T;\n  output out: T;\n}\n");
  expect_findings(old, "op MyGeneralUnaryOp {\n  attr T: numerictype;\n"
                       "  input in: T;\n  output out: T;\n}\n",
      "new.op:2:8: error: [ATTR_ADDED_WITHOUT_DEFAULT] op "
      "'MyGeneralUnaryOp': new attr 'T' has no default\n"
      "old.op:1:4: note: the baseline op 'MyGeneralUnaryOp' has no attr "
      "'T'\n"
      "new.op:2:8: note: give attr 'T' a default");
  expect_findings(old, "op MyGeneralUnaryOp {\n"
                       "  attr T: numerictype = DT_DOUBLE;\n"
                       "  input in: T;\n  output out: T;\n}\n",
      "new.op:3:9: error: [INPUT_SIGNATURE_CHANGED] op "
      "'MyGeneralUnaryOp': input signature changed from 'float' to "
      "'double': input 'in' gives 'double' where the baseline has 'float'\n"
      "old.op:2:9: note: the baseline's input signature is 'float'\n"
      "new.op:3:9: note: keep the inputs' types and order (renaming an "
      "input is fine); to change them, add a new op with a new name\n"
      "new.op:4:10: error: [OUTPUT_SIGNATURE_CHANGED] op "
      "'MyGeneralUnaryOp': output signature changed from 'out:float' to "
      "'out:double': output 'out' gives 'out:double' where the baseline "
      "has 'out:float'\n"
      "old.op:3:10: note: the baseline's output signature is 'out:float'\n"
      "new.op:4:10: note: keep the outputs' names, types and order; to "
      "change them, add a new op with a new name");
}

static void guide_widening_an_allowed_set(void **state) {
  (void)state;
  const char *old = "op A {\n  attr T: {int32, int64};\n  input x: T;\n}\n";
  expect_compatible(old, "op A {\n  attr T: {int32, int64, float};\n"
                         "  input x: T;\n}\n");
  expect_compatible(old, "op A {\n  attr T: type;\n  input x: T;\n}\n");
  const char *fruit = "op A {\n  attr f: {'apple', 'orange'};\n}\n";
  expect_compatible(fruit,
                    "op A {\n  attr f: {'apple', 'banana', 'orange'};\n}\n");
  expect_compatible(fruit, "op A {\n  attr f: string;\n}\n");
}

/* Inputs and outputs alike, as long as the defaults give the old
 * signature. */
static void guide_single_input_to_list_with_length_default_one(void **state) {
  (void)state;
  expect_compatible("op A {\n  attr T: type;\n  input in: T;\n}\n",
                    "op A {\n  attr T: type;\n  attr N: int = 1;\n"
                    "  input in: N * T;\n}\n");
  expect_compatible("op A {\n  input in: int32;\n}\n",
                    "op A {\n  attr T: type = DT_INT32;\n  attr N: int = 1;\n"
                    "  input in: N * T;\n}\n");
  expect_compatible("op A {\n  input a: int32;\n  input b: int32;\n}\n",
                    "op A {\n  attr N: int = 2;\n  input a: N * int32;\n}\n");
  expect_compatible("op A {\n  output out: float;\n}\n",
                    "op A {\n  attr T: list(type) = [float];\n"
                    "  output out: T;\n}\n");
  expect_findings("op A {\n  input in: int32;\n}\n",
                  "op A {\n  attr N: int = 2;\n  input in: N * int32;\n}\n",
      "new.op:3:9: error: [INPUT_SIGNATURE_CHANGED] op 'A': input "
      "signature changed from 'int32' to 'int32, int32': input 'in' adds "
      "'int32'\n"
      "old.op:1:4: note: the baseline's input signature is 'int32'\n"
      "new.op:3:9: note: give the attrs new to input 'in' defaults that "
      "expand it to what the baseline has");
}

static void guide_new_list_input_defaulting_to_empty(void **state) {
  (void)state;
  const char *old = "op A {\n  input x: float;\n}\n";
  expect_compatible(old, "op A {\n  attr L: list(type) >= 0 = [];\n"
                         "  input x: float;\n  input extra: L;\n}\n");
  expect_compatible(old, "op A {\n  attr N: int >= 0 = 0;\n"
                         "  input x: float;\n  input extra: N * float;\n}\n");
  expect_compatible(old, "op A {\n  attr L: list(type) >= 0 = [];\n"
                         "  input x: float;\n  output extra: L;\n}\n");
  expect_findings(old, "op A {\n  attr L: list(type) = [int32];\n"
                       "  input x: float;\n  input extra: L;\n}\n",
      "new.op:4:9: error: [INPUT_SIGNATURE_CHANGED] op 'A': input "
      "signature changed from 'float' to 'float, int32': input 'extra' "
      "adds 'int32'\n"
      "old.op:1:4: note: the baseline's input signature is 'float'\n"
      "new.op:4:9: note: make the new input a list defaulting to empty "
      "(`N * T` with `attr N: int >= 0 = 0;`, or a `list(type) >= 0 = "
      "[]` attr)");
}

/* specs/demo.op's ZeroOut grew from the guide's int32-only version. */
static void guide_zero_out_evolution_is_compatible(void **state) {
  (void)state;
  expect_compatible("op ZeroOut {\n  input to_zero: int32;\n"
                    "  output zeroed: int32;\n}\n",
                    "op ZeroOut {\n  attr T: {float, double, int32} = "
                    "DT_INT32;\n  attr preserve_index: int >= 0 = 0;\n"
                    "  input to_zero: T;\n  output zeroed: T;\n}\n");
}

/* ---- a dump as the baseline; JSON out ---- */

/* A baseline read from `opgen dump` output has no columns: notes say
 * "file:line:" of the op. */
static void dump_baseline_notes_have_no_column(void **state) {
  (void)state;
  og_model *old =
      compile_or_print("specs/x.op", "op A {\n  attr a: int = 2;\n}\n");
  og_model *newm =
      compile_or_print("specs/x.op", "\nop A {\n  attr a: int;\n}\n");
  assert_non_null(old);
  assert_non_null(newm);
  og_writer w;
  og_writer_init(&w);
  og_dump_json(old, &w);
  tu_diags d = {0};
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, &d);
  og_model *base = og_dump_read("ops.json", w.buf, w.len, &diag);
  assert_non_null(base);
  char *got = lint_models(base, newm, NULL);
  assert_string_equal(got,
      "specs/x.op:3:8: error: [DEFAULT_CHANGED] op 'A': attr 'a' no "
      "longer has a default (was 2)\n"
      "specs/x.op:1: note: the baseline declares `attr a: int = 2;`\n"
      "specs/x.op:3:8: note: restore the default 2 of attr 'a': graphs "
      "that leave 'a' out mean 2");
  free(got);
  og_writer_free(&w);
  tu_diags_free(&d);
  og_model_free(base);
  og_model_free(old);
  og_model_free(newm);
}

static char *json_of(const char *old_text, const char *new_text) {
  og_model *old = compile_or_print("old.op", old_text);
  og_model *newm = compile_or_print("new.op", new_text);
  assert_non_null(old);
  assert_non_null(newm);
  og_compat_result r;
  og_compat_check(old, newm, &r);
  og_writer w;
  og_writer_init(&w);
  og_compat_write_json(&r, &w);
  og_compat_result_free(&r);
  og_model_free(old);
  og_model_free(newm);
  return writer_text(&w);
}

static void json_output_lists_every_field(void **state) {
  (void)state;
  char *got = json_of("op A {}\n", "op A {}\n");
  assert_string_equal(got, "{\"findings\": []}\n");
  free(got);
  got = json_of("op A {\n  attr s: string = 'x';\n}\nop B {}\n",
                "op A {\n  attr s: string = 'y\"';\n}\n");
  assert_string_equal(got,
      "{\"findings\": [\n"
      "  {\n"
      "    \"rule\": \"OP_REMOVED\",\n"
      "    \"op\": \"B\",\n"
      "    \"file\": \"new.op\",\n"
      "    \"line\": 0,\n"
      "    \"col\": 0,\n"
      "    \"message\": \"op 'B' was removed\",\n"
      "    \"baseline\": \"the baseline defines op 'B' here\",\n"
      "    \"baseline_file\": \"old.op\",\n"
      "    \"baseline_line\": 4,\n"
      "    \"baseline_col\": 4,\n"
      "    \"hint\": \"keep op 'B'; to retire it, mark it `deprecated "
      "VERSION \\\"why\\\";` instead\",\n"
      "    \"severity\": \"error\"\n"
      "  },\n"
      "  {\n"
      "    \"rule\": \"DEFAULT_CHANGED\",\n"
      "    \"op\": \"A\",\n"
      "    \"file\": \"new.op\",\n"
      "    \"line\": 2,\n"
      "    \"col\": 8,\n"
      "    \"message\": \"op 'A': attr 's' default changed from 'x' to "
      "'y\\\"'\",\n"
      "    \"baseline\": \"the baseline declares `attr s: string = "
      "'x';`\",\n"
      "    \"baseline_file\": \"old.op\",\n"
      "    \"baseline_line\": 2,\n"
      "    \"baseline_col\": 8,\n"
      "    \"hint\": \"restore the default 'x' of attr 's': graphs that "
      "leave 's' out mean 'x'\",\n"
      "    \"severity\": \"error\"\n"
      "  }\n"
      "]}\n");
  free(got);
}

/* Findings come in the new files' order, then by line and column. */
static void findings_are_in_source_order(void **state) {
  (void)state;
  expect_findings("op B {\n  attr a: int;\n  input x: int32;\n}\n"
                  "op A {\n  attr b: int;\n}\n",
                  "op B {\n  input x: float;\n  attr a: bool;\n}\n"
                  "op A {\n  attr b: int;\n  attr c: int;\n}\n",
      "new.op:2:9: error: [INPUT_SIGNATURE_CHANGED] op 'B': input "
      "signature changed from 'int32' to 'float': input 'x' gives "
      "'float' where the baseline has 'int32'\n"
      "old.op:3:9: note: the baseline's input signature is 'int32'\n"
      "new.op:2:9: note: keep the inputs' types and order (renaming an "
      "input is fine); to change them, add a new op with a new name\n"
      "new.op:3:8: error: [ATTR_TYPE_CHANGED] op 'B': attr 'a' changed "
      "type from 'int' to 'bool'\n"
      "old.op:2:8: note: the baseline declares `attr a: int;`\n"
      "new.op:3:8: note: keep attr 'a' of type 'int'; for another type, "
      "add a new attr with a default or a new op with a new name\n"
      "new.op:7:8: error: [ATTR_ADDED_WITHOUT_DEFAULT] op 'A': new attr "
      "'c' has no default\n"
      "old.op:5:4: note: the baseline op 'A' has no attr 'c'\n"
      "new.op:7:8: note: give attr 'c' a default");
}

/* ---- TensorFlow's vectors: tf-tests/compat_cases.json ----
 *
 * Each case's old and new ops become .op text: the builder calls
 * Attr("spec"), Input("spec"), Output("spec") become `attr spec;`,
 * `input spec;`, `output spec;` (the spec strings copied verbatim, as
 * test_tf_vectors.c does), inside `op <op_name> { ... }`. Cases given as
 * OpDef text (op_def_util_test's OpDefAttrDefaultsUnchanged cases) are
 * imported with og_tf_import and written as .op with og_emit_op_def;
 * their ops are named op1/op2/op3, which TensorFlow's function never
 * compares, so both sides are renamed "Op". The verdict must be
 * TensorFlow's ("compatible"); for an incompatible case, the rule that
 * TensorFlow's message names must be among the findings, and for a
 * signature mismatch our message must quote both of TensorFlow's
 * signature strings. Where opgen deliberately differs, `differences`
 * says why (the test checks that each listed case really differs).
 * OPGEN_COMPAT_VECTORS_VERBOSE=1 prints every case. */

typedef struct difference {
  const char *test;
  bool ours_compatible;
  const char *reason;
  bool seen;
} difference;

/* None so far: every case agrees. A row looks like
 * {"Case", true, "why opgen accepts what TensorFlow rejects", false};
 * the last row ends the table. */
static difference differences[] = {
    {NULL, false, NULL, false},
};


static struct {
  size_t total, compatible, incompatible, rule_checked, deliberate, failures;
} vcounts;

static const char *jstr(const og_json *obj, const char *key) {
  const og_json *v = og_json_get(obj, key);
  return v && v->kind == OG_JSON_STRING ? v->u.str.ptr : NULL;
}

/* `Attr("a: int = 0")` as `  attr a: int = 0;`; false if it is not such
 * a call. */
static bool put_builder_call(og_writer *w, const char *call) {
  static const char *const fns[][2] = {
      {"Attr(\"", "attr"}, {"Input(\"", "input"}, {"Output(\"", "output"}};
  for (size_t i = 0; i < 3; i++) {
    size_t n = strlen(fns[i][0]);
    if (strncmp(call, fns[i][0], n) != 0) continue;
    og_w_printf(w, "  %s ", fns[i][1]);
    const char *p = call + n;
    for (; *p && *p != '"'; p++) {
      if (*p == '\\' && p[1]) p++;
      og_w_write(w, p, 1);
    }
    og_w_puts(w, ";\n");
    return strcmp(p, "\")") == 0;
  }
  return false;
}

/* An OpDef's text as a .op op named "Op"; false if it does not import.
 * The name is replaced before the import, which rejects TensorFlow's
 * lower-case op1 (a .op op name is CamelCase). */
static bool put_opdef_text(og_writer *w, const char *text) {
  og_writer list;
  og_writer_init(&list);
  const char *rest = text, *quote = NULL;
  if (strncmp(text, "name: '", 7) == 0 && (quote = strchr(text + 7, '\'')))
    rest = quote + 1;
  og_w_printf(&list, "op {\n%s%s\n}\n", quote ? "name: 'Op'" : "", rest);
  tu_diags d = {0};
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, &d);
  og_model *m = og_tf_import("case.pbtxt", list.buf, list.len, &diag);
  bool ok = m && m->nops == 1;
  if (ok) {
    m->ops[0]->name = "Op";
    og_emit_op_def(m->ops[0], w);
  } else {
    print_error("OpDef text does not import: %s\n%s\n", text,
                tu_diags_text(&d));
  }
  og_model_free(m);
  tu_diags_free(&d);
  og_writer_free(&list);
  return ok;
}

/* One side of a case as .op text (malloc'd), or NULL. */
static char *case_side(const og_json *c, const char *calls_key,
                       const char *text_key) {
  og_writer w;
  og_writer_init(&w);
  const og_json *calls = og_json_get(c, calls_key);
  const char *op = jstr(c, "op_name");
  bool ok = true;
  if (calls && calls->kind == OG_JSON_ARRAY) {
    og_w_printf(&w, "op %s {\n", op ? op : "Op");
    for (size_t i = 0; i < calls->u.arr.count && ok; i++)
      ok = calls->u.arr.items[i].kind == OG_JSON_STRING &&
           put_builder_call(&w, calls->u.arr.items[i].u.str.ptr);
    og_w_puts(&w, "}\n");
  } else {
    ok = jstr(c, text_key) && put_opdef_text(&w, jstr(c, text_key));
  }
  char *text = writer_text(&w);
  if (!ok) free(text);
  return ok ? text : NULL;
}

/* The rule TensorFlow's message names. */
static og_compat_rule tf_rule(const char *message) {
  static const struct {
    const char *text;
    og_compat_rule rule;
  } map[] = {
      {"it's default", OG_COMPAT_DEFAULT_CHANGED},
      {"' removed", OG_COMPAT_ATTR_REMOVED},
      {"changed type", OG_COMPAT_ATTR_TYPE_CHANGED},
      {"stricter set of allowed values", OG_COMPAT_ALLOWED_NARROWED},
      {"higher minimum", OG_COMPAT_MINIMUM_RAISED},
      {"added without default", OG_COMPAT_ATTR_ADDED_WITHOUT_DEFAULT},
      {"Input signature mismatch", OG_COMPAT_INPUT_SIGNATURE_CHANGED},
      {"Output signature mismatch", OG_COMPAT_OUTPUT_SIGNATURE_CHANGED},
      {"non-ref to ref", OG_COMPAT_INPUT_MADE_REF},
      {"ref to non-ref", OG_COMPAT_OUTPUT_REF_REMOVED},
  };
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (strstr(message, map[i].text)) return map[i].rule;
  return OG_COMPAT_NRULES;
}

/* "from 'X' to 'Y'" for TensorFlow's "mismatch 'X' vs. 'Y'", or NULL. */
static char *tf_signatures(const char *message) {
  const char *open = strstr(message, "mismatch '");
  const char *vs = open ? strstr(open, "' vs. '") : NULL;
  if (!vs) return NULL;
  open += strlen("mismatch '");
  og_writer w;
  og_writer_init(&w);
  og_w_printf(&w, "from '%.*s' to '%s", (int)(vs - open), open,
              vs + strlen("' vs. '"));
  return writer_text(&w);
}

/* Empty when the findings carry TensorFlow's rule (and signatures) and
 * point into the new spec, with notes in the old one; else why not. */
static const char *check_rule(const og_compat_result *r, const char *expected) {
  for (size_t i = 0; i < r->count; i++)
    if (strcmp(r->items[i].pos.file, "new.op") != 0 ||
        strcmp(r->items[i].base_pos.file, "old.op") != 0)
      return "a finding points outside new.op, or its note outside old.op";
  if (!expected) return "";
  og_compat_rule want = tf_rule(expected);
  if (want == OG_COMPAT_NRULES) return "TensorFlow's message names no rule";
  char *sigs = tf_signatures(expected);
  bool found = false;
  for (size_t i = 0; i < r->count && !found; i++)
    found = r->items[i].rule == want &&
            (!sigs || strstr(r->items[i].message, sigs));
  free(sigs);
  return found ? "" : "no finding of TensorFlow's rule (and signatures)";
}

static difference *find_difference(const char *test) {
  for (difference *d = differences; d->test; d++)
    if (strcmp(d->test, test) == 0) return d;
  return NULL;
}

static void vector_failure(const char *test, const char *what,
                           const char *old, const char *new_text,
                           const char *lines) {
  vcounts.failures++;
  print_error("compat vector %s: %s\n--- old.op ---\n%s--- new.op ---\n%s"
              "--- findings ---\n%s\n", test, what, old, new_text,
              lines[0] ? lines : "(none)");
}

/* Compares one case's verdict with TensorFlow's (or the listed
 * difference). */
static void judge_case(const og_json *c, const char *test, const char *old,
                       const char *new_text, const og_compat_result *r,
                       const char *lines) {
  const og_json *compat = og_json_get(c, "compatible");
  bool tf_ok = compat && compat->kind == OG_JSON_BOOL && compat->u.b;
  bool ours_ok = r->count == 0;
  difference *diff = find_difference(test);
  if (getenv("OPGEN_COMPAT_VECTORS_VERBOSE"))
    print_message("== %s: TensorFlow %s, opgen %s\n%s%s%s\n", test,
                  tf_ok ? "compatible" : "incompatible",
                  ours_ok ? "compatible" : "incompatible", old, new_text,
                  lines);
  vcounts.compatible += tf_ok;
  vcounts.incompatible += !tf_ok;
  if (diff) {
    diff->seen = true;
    vcounts.deliberate++;
    if (ours_ok != diff->ours_compatible || ours_ok == tf_ok)
      vector_failure(test, "listed as a deliberate difference, but opgen's "
                           "verdict is not the listed one", old, new_text,
                     lines);
    return;
  }
  if (ours_ok != tf_ok) {
    vector_failure(test, tf_ok ? "TensorFlow: compatible, opgen: not"
                               : "TensorFlow: incompatible, opgen: compatible",
                   old, new_text, lines);
    return;
  }
  const char *why = check_rule(r, jstr(c, "expected_error_substring"));
  if (why[0]) vector_failure(test, why, old, new_text, lines);
  else if (!tf_ok) vcounts.rule_checked++;
}

static void run_compat_case(const og_json *c) {
  const char *test = jstr(c, "test");
  assert_non_null(test);
  vcounts.total++;
  char *old = case_side(c, "old", "old_opdef_text");
  char *new_text = case_side(c, "new", "new_opdef_text");
  og_model *om = old ? compile_or_print("old.op", old) : NULL;
  og_model *nm = new_text ? compile_or_print("new.op", new_text) : NULL;
  if (!om || !nm) {
    vector_failure(test, "no .op form, or it does not compile",
                   old ? old : "?\n", new_text ? new_text : "?\n", "");
  } else {
    og_compat_result r;
    og_compat_check(om, nm, &r);
    char *lines = lint_models(om, nm, NULL);
    judge_case(c, test, old, new_text, &r, lines);
    free(lines);
    og_compat_result_free(&r);
  }
  og_model_free(om);
  og_model_free(nm);
  free(old);
  free(new_text);
}

static void tensorflow_compat_vectors_agree(void **state) {
  (void)state;
  const char *path = tu_corpus("tf-tests/compat_cases.json");
  if (!path) skip();
  size_t len = 0;
  char *text = tu_read_file(path, &len);
  assert_non_null(text);
  og_arena a;
  og_arena_init(&a);
  tu_diags d = {0};
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, &d);
  const og_json *cases = og_json_parse(&a, path, text, len, &diag);
  assert_non_null(cases);
  assert_int_equal(cases->kind, OG_JSON_ARRAY);
  for (size_t i = 0; i < cases->u.arr.count; i++)
    run_compat_case(&cases->u.arr.items[i]);
  for (difference *diff = differences; diff->test; diff++)
    if (!diff->seen) {
      print_error("difference table: no case '%s' ran\n", diff->test);
      vcounts.failures++;
    }
  print_message("compat vectors: %zu cases (TensorFlow compatible %zu, "
                "incompatible %zu); rule and signatures matched for %zu; "
                "deliberately different %zu; disagreements %zu\n",
                vcounts.total, vcounts.compatible, vcounts.incompatible,
                vcounts.rule_checked, vcounts.deliberate, vcounts.failures);
  for (difference *diff = differences; diff->test; diff++)
    print_message("  differs: %s (opgen says %s): %s\n", diff->test,
                  diff->ours_compatible ? "compatible" : "incompatible",
                  diff->reason);
  tu_diags_free(&d);
  og_arena_free(&a);
  free(text);
  assert_int_equal(vcounts.failures, 0);
}

/* ---- tf-tests/history: successive versions of 20 real ops ---- */

/* Imports one `op { ... }` of a history file. */
static og_model *import_version(const char *path, const char *text,
                                size_t len) {
  tu_diags d = {0};
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, &d);
  og_model *m = og_tf_import(path, text, len, &diag);
  if (!m) print_error("%s: does not import:\n%s\n", path, tu_diags_text(&d));
  tu_diags_free(&d);
  return m;
}

/* Every version against the one before; returns the number of pairs, and
 * adds those with findings to *failures. */
static size_t check_history(const char *path, size_t *failures) {
  size_t len = 0;
  char *text = tu_read_file(path, &len);
  assert_non_null(text);
  og_model *prev = NULL;
  size_t pairs = 0;
  for (char *op = strstr(text, "op {"); op;) {
    char *next = strstr(op + 1, "\nop {");
    size_t n = next ? (size_t)(next + 1 - op) : len - (size_t)(op - text);
    og_model *cur = import_version(path, op, n);
    assert_non_null(cur);
    if (prev) {
      size_t count = 0;
      char *lines = lint_models(prev, cur, &count);
      if (count) {
        print_error("%s: version %zu is not compatible with %zu:\n%s\n", path,
                    pairs + 2, pairs + 1, lines);
        (*failures)++;
      }
      free(lines);
      pairs++;
    }
    og_model_free(prev);
    prev = cur;
    op = next ? next + 1 : NULL;
  }
  og_model_free(prev);
  free(text);
  return pairs;
}

static void history_versions_are_each_compatible(void **state) {
  (void)state;
  static const char *const ops[] = {
      "Abs", "Add", "AddN", "ArgMax", "Cast", "Concat", "ConcatV2",
      "Conv2D", "MatMul", "Max", "Mean", "Pack", "Pad", "Relu", "Reshape",
      "Split", "StringToNumber", "Sum", "Transpose", "Unpack"};
  if (!tu_corpus("tf-tests/history/Abs.pbtxt")) skip();
  size_t pairs = 0, failures = 0;
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
    char name[128];
    snprintf(name, sizeof name, "tf-tests/history/%s.pbtxt", ops[i]);
    const char *path = tu_corpus(name);
    assert_non_null(path);
    pairs += check_history(path, &failures);
  }
  print_message("history: %zu ops, %zu successive pairs, %zu incompatible\n",
                sizeof ops / sizeof *ops, pairs, failures);
  assert_true(pairs > 0);
  assert_int_equal(failures, 0);
}

/* ---- the whole corpus against its own dump ---- */

static void corpus_is_compatible_with_its_own_dump(void **state) {
  (void)state;
  const char *path = tu_corpus("tf-ops.pbtxt");
  if (!path) skip();
  size_t len = 0;
  char *text = tu_read_file(path, &len);
  assert_non_null(text);
  og_model *m = import_version(path, text, len);
  assert_non_null(m);
  og_writer w;
  og_writer_init(&w);
  og_dump_json(m, &w);
  tu_diags d = {0};
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, &d);
  og_model *base = og_dump_read("tf-ops.json", w.buf, w.len, &diag);
  assert_non_null(base);
  assert_int_equal(base->nops, m->nops);
  size_t count = 0;
  char *lines = lint_models(base, m, &count);
  if (count) print_error("%s\n", lines);
  assert_int_equal(count, 0);
  free(lines);
  /* And the lint is not silent: hide the last op from the new side. */
  m->nops--;
  lines = lint_models(base, m, &count);
  m->nops++;
  assert_int_equal(count, 1);
  assert_non_null(strstr(lines, "[OP_REMOVED]"));
  free(lines);
  tu_diags_free(&d);
  og_writer_free(&w);
  og_model_free(base);
  og_model_free(m);
  free(text);
}

/* ---- the verb end to end ---- */

typedef struct run_result {
  int status;
  char *out, *err;
} run_result;

static char tmpdir[] = "/tmp/opgen_compat_XXXXXX";

/* Runs $OPGEN_BIN with args (NULL-terminated, without argv[0]) from the
 * temporary directory, so that paths in the output are short. */
static run_result run_opgen(const char *const *args) {
  const char *bin = getenv("OPGEN_BIN");
  if (!bin) skip();
  char out_path[512], err_path[512];
  snprintf(out_path, sizeof out_path, "%s/stdout", tmpdir);
  snprintf(err_path, sizeof err_path, "%s/stderr", tmpdir);
  const char *argv[32] = {bin};
  size_t n = 1;
  for (; args[n - 1] && n < 31; n++) argv[n] = args[n - 1];
  argv[n] = NULL;
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    if (chdir(tmpdir) != 0) _exit(126);
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

static void write_tmp(const char *name, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static const char old_spec[] =
    "op Keep {\n  input x: int32;\n}\n"
    "op Change {\n  attr a: int = 2;\n  input x: int32;\n}\n";
static const char widened_spec[] =
    "op Keep {\n  input y: int32;\n}\n"
    "op Change {\n  attr a: int = 2;\n  attr b: bool = false;\n"
    "  input x: int32;\n}\nop Added {}\n";
static const char broken_spec[] =
    "op Keep {\n  input x: int32;\n}\n"
    "op Change {\n  attr a: int = 3;\n  input x: int32;\n}\n";

static int cli_setup(void **state) {
  (void)state;
  if (!mkdtemp(tmpdir)) return -1;
  write_tmp("old.op", old_spec);
  write_tmp("widened.op", widened_spec);
  write_tmp("broken.op", broken_spec);
  return 0;
}

static int cli_teardown(void **state) {
  (void)state;
  return tu_tmpdir_remove(tmpdir);
}

static void cli_compatible_change_prints_one_line_and_exits_0(void **state) {
  (void)state;
  run_result r = run_opgen((const char *[]){"compat", "--baseline", "old.op",
                                            "widened.op", NULL});
  assert_string_equal(r.err, "");
  assert_string_equal(r.out, "compatible: 2 ops checked against old.op\n");
  assert_int_equal(r.status, 0);
  run_free(&r);
}

static void cli_incompatible_change_prints_findings_and_exits_1(void **state) {
  (void)state;
  run_result r = run_opgen((const char *[]){"compat", "--baseline", "old.op",
                                            "broken.op", NULL});
  assert_string_equal(r.err,
      "broken.op:5:8: error: [DEFAULT_CHANGED] op 'Change': attr 'a' "
      "default changed from 2 to 3\n"
      "    attr a: int = 3;\n"
      "         ^\n"
      "old.op:5:8: note: the baseline declares `attr a: int = 2;`\n"
      "    attr a: int = 2;\n"
      "         ^\n"
      "broken.op:5:8: note: restore the default 2 of attr 'a': graphs "
      "that leave 'a' out mean 2\n"
      "1 incompatible change found.\n");
  assert_string_equal(r.out, "");
  assert_int_equal(r.status, 1);
  run_free(&r);
}

/* A dump is recognized by its .json name or, without one, by its '{'. */
static void cli_dump_baseline_by_name_or_content(void **state) {
  (void)state;
  run_result r = run_opgen((const char *[]){"dump", "-o", "ops.json",
                                            "old.op", NULL});
  assert_int_equal(r.status, 0);
  run_free(&r);
  r = run_opgen((const char *[]){"compat", "--baseline=ops.json", "broken.op",
                                 NULL});
  assert_int_equal(r.status, 1);
  assert_string_equal(r.err,
      "broken.op:5:8: error: [DEFAULT_CHANGED] op 'Change': attr 'a' "
      "default changed from 2 to 3\n"
      "    attr a: int = 3;\n"
      "         ^\n"
      "old.op:4: note: the baseline declares `attr a: int = 2;`\n"
      "broken.op:5:8: note: restore the default 2 of attr 'a': graphs "
      "that leave 'a' out mean 2\n"
      "1 incompatible change found.\n");
  run_free(&r);
  r = run_opgen((const char *[]){"dump", "-o", "baseline", "old.op", NULL});
  run_free(&r);
  r = run_opgen((const char *[]){"compat", "--baseline", "baseline",
                                 "widened.op", NULL});
  assert_string_equal(r.err, "");
  assert_int_equal(r.status, 0);
  run_free(&r);
}

static void cli_json_format(void **state) {
  (void)state;
  run_result r = run_opgen((const char *[]){"compat", "--format=json",
                                            "--baseline", "old.op",
                                            "broken.op", NULL});
  assert_int_equal(r.status, 1);
  assert_string_equal(r.err, "");
  assert_string_equal(r.out,
      "{\"findings\": [\n"
      "  {\n"
      "    \"rule\": \"DEFAULT_CHANGED\",\n"
      "    \"op\": \"Change\",\n"
      "    \"file\": \"broken.op\",\n"
      "    \"line\": 5,\n"
      "    \"col\": 8,\n"
      "    \"message\": \"op 'Change': attr 'a' default changed from 2 "
      "to 3\",\n"
      "    \"baseline\": \"the baseline declares `attr a: int = 2;`\",\n"
      "    \"baseline_file\": \"old.op\",\n"
      "    \"baseline_line\": 5,\n"
      "    \"baseline_col\": 8,\n"
      "    \"hint\": \"restore the default 2 of attr 'a': graphs that "
      "leave 'a' out mean 2\",\n"
      "    \"severity\": \"error\"\n"
      "  }\n"
      "],\n"
      "\"diagnostics\": [],\n"
      "\"ops_checked\": 2,\n"
      "\"baseline\": \"old.op\",\n"
      "\"exit\": 1}\n");
  run_free(&r);
  r = run_opgen((const char *[]){"compat", "--format", "json", "--baseline",
                                 "old.op", "widened.op", NULL});
  assert_int_equal(r.status, 0);
  assert_string_equal(r.out,
                      "{\"findings\": [],\n\"diagnostics\": [],\n"
                      "\"ops_checked\": 2,\n\"baseline\": \"old.op\",\n"
                      "\"exit\": 0}\n");
  run_free(&r);
}

/* Several old .op files form one baseline, as the new files form one
 * run. */
static void cli_several_old_specs(void **state) {
  (void)state;
  write_tmp("old_a.op", "op A {}\n");
  write_tmp("old_b.op", "op B {}\n");
  write_tmp("new_a.op", "op A {}\n");
  run_result r = run_opgen((const char *[]){"compat", "--baseline", "old_a.op",
                                            "--baseline", "old_b.op",
                                            "new_a.op", NULL});
  assert_int_equal(r.status, 1);
  assert_string_equal(r.err,
      "new_a.op: error: [OP_REMOVED] op 'B' was removed\n"
      "old_b.op:1:4: note: the baseline defines op 'B' here\n"
      "  op B {}\n"
      "     ^\n"
      "new_a.op: note: keep op 'B'; to retire it, mark it `deprecated "
      "VERSION \"why\";` instead\n"
      "1 incompatible change found.\n");
  run_free(&r);
}

static void cli_bad_new_spec_exits_1_with_its_diagnostics(void **state) {
  (void)state;
  write_tmp("bad.op", "op Bad {\n  attr x: int32;\n}\n");
  run_result r = run_opgen((const char *[]){"compat", "--baseline", "old.op",
                                            "bad.op", NULL});
  assert_int_equal(r.status, 1);
  assert_non_null(strstr(r.err, "bad.op:2:"));
  assert_non_null(strstr(r.err, "1 error generated.\n"));
  run_free(&r);
}

static void expect_usage_error(const char *const *args, const char *message) {
  run_result r = run_opgen(args);
  if (r.status != 2 || !strstr(r.err, message))
    print_error("expected exit 2 and '%s', got %d:\n%s\n", message, r.status,
                r.err);
  assert_int_equal(r.status, 2);
  assert_non_null(strstr(r.err, message));
  assert_string_equal(r.out, "");
  run_free(&r);
}

static void cli_usage_and_io_errors_exit_2(void **state) {
  (void)state;
  expect_usage_error((const char *[]){"compat", "widened.op", NULL},
                     "no baseline (--baseline OLD)");
  expect_usage_error((const char *[]){"compat", "--baseline", "old.op", NULL},
                     "no input files");
  expect_usage_error((const char *[]){"compat", "--baseline", NULL},
                     "missing value for '--baseline'");
  expect_usage_error((const char *[]){"compat", "--frob", "--baseline",
                                      "old.op", "widened.op", NULL},
                     "unknown option '--frob'");
  expect_usage_error((const char *[]){"compat", "--format=xml", "--baseline",
                                      "old.op", "widened.op", NULL},
                     "unknown format (text, json or github) 'xml'");
  expect_usage_error((const char *[]){"compat", "--baseline", "missing.json",
                                      "widened.op", NULL},
                     "cannot read 'missing.json': No such file or directory");
  expect_usage_error((const char *[]){"compat", "--baseline", "old.op",
                                      "missing.op", NULL},
                     "cannot read 'missing.op'");
  write_tmp("two.json", "{\"ops\": []}\n");
  expect_usage_error((const char *[]){"compat", "--baseline", "two.json",
                                      "--baseline", "old.op", "widened.op",
                                      NULL},
                     "a JSON baseline must be the only --baseline");
  write_tmp("garbage.json", "{\"ops\": [\n");
  expect_usage_error((const char *[]){"compat", "--baseline", "garbage.json",
                                      "widened.op", NULL},
                     "the baseline is invalid");
}

/* ---- baselines that cannot be trusted: exit 2, nothing compared ---- */

static void expect_baseline_refused(const char *baseline, const char *err) {
  run_result r = run_opgen((const char *[]){"compat", "--baseline", baseline,
                                            "widened.op", NULL});
  if (r.status != 2 || strcmp(r.err, err) != 0)
    print_error("expected exit 2 and:\n%s\ngot %d:\n%s\n", err, r.status,
                r.err);
  assert_int_equal(r.status, 2);
  assert_string_equal(r.err, err);
  assert_string_equal(r.out, "");
  run_free(&r);
}

static void cli_empty_baseline_exits_2(void **state) {
  (void)state;
  write_tmp("empty.json", "");
  expect_baseline_refused("empty.json",
      "opgen: error: baseline 'empty.json' is empty: a baseline is a JSON "
      "file written by 'opgen dump', or old .op files\n");
  write_tmp("blank.op", " \n\n");
  expect_baseline_refused("blank.op",
      "opgen: error: baseline 'blank.op' is empty: a baseline is a JSON "
      "file written by 'opgen dump', or old .op files\n");
}

static void cli_dev_null_baseline_exits_2(void **state) {
  (void)state;
  expect_baseline_refused("/dev/null",
      "opgen: error: baseline '/dev/null' is empty: a baseline is a JSON "
      "file written by 'opgen dump', or old .op files\n");
}

/* Only *.op files are read as specs: a text file is no baseline. */
static void cli_text_baseline_exits_2(void **state) {
  (void)state;
  write_tmp("notes.txt", "op Keep {}\n");
  expect_baseline_refused("notes.txt",
      "opgen: error: baseline 'notes.txt' is not an 'opgen dump' JSON file: "
      "it does not start with '{' (old spec files must be named *.op)\n");
  write_tmp("list.json", "[{\"ops\": []}]\n");
  expect_baseline_refused("list.json",
      "opgen: error: baseline 'list.json' is not an 'opgen dump' JSON file: "
      "it does not start with '{' (old spec files must be named *.op)\n");
}

static void cli_baseline_without_ops_exits_2(void **state) {
  (void)state;
  write_tmp("no_ops.json", "{\"format_version\": 1, \"ops\": []}\n");
  expect_baseline_refused("no_ops.json",
      "opgen: error: the baseline holds no ops; nothing would be compared\n");
  write_tmp("no_ops.op", "// nothing here\n");
  expect_baseline_refused("no_ops.op",
      "opgen: error: the baseline holds no ops; nothing would be compared\n");
}

/* A dump of the current layout with `edit` applied: `from` replaced. */
static void write_edited_dump(const char *name, const char *from,
                              const char *to) {
  run_result r = run_opgen((const char *[]){"dump", "old.op", NULL});
  assert_int_equal(r.status, 0);
  char *at = strstr(r.out, from);
  assert_non_null(at);
  char text[8192];
  snprintf(text, sizeof text, "%.*s%s%s", (int)(at - r.out), r.out, to,
           at + strlen(from));
  write_tmp(name, text);
  run_free(&r);
}

static void cli_newer_format_version_exits_2(void **state) {
  (void)state;
  write_edited_dump("newer.json", "\"format_version\": 1",
                    "\"format_version\": 2");
  expect_baseline_refused("newer.json",
      "newer.json:2:21: error: dump format version 2 is newer than this "
      "opgen reads (1): read it with the opgen that wrote it, or a newer "
      "one\n"
      "    \"format_version\": 2,\n"
      "                      ^\n"
      "1 error generated.\n"
      "opgen: error: the baseline is invalid; nothing was compared\n");
}

static void cli_unknown_baseline_field_exits_2(void **state) {
  (void)state;
  write_edited_dump("unknown.json", "\"is_stateful\": false,",
                    "\"is_stateful\": false, \"is_distributed\": true,");
  expect_baseline_refused("unknown.json",
      "unknown.json:33:29: error: unknown field \"is_distributed\" in op "
      "\"Change\"\n"
      "        \"is_stateful\": false, \"is_distributed\": true,\n"
      "                              ^\n"
      "1 error generated.\n"
      "opgen: error: the baseline is invalid; nothing was compared\n");
}

static void cli_invalid_baseline_op_name_exits_2(void **state) {
  (void)state;
  write_edited_dump("badname.json", "\"name\": \"Keep\"",
                    "\"name\": \"Keep { stateful; }\"");
  expect_baseline_refused("badname.json",
      "badname.json:40:15: error: invalid op name \"Keep { stateful; }\": op "
      "names match [A-Z][A-Za-z0-9]*\n"
      "        \"name\": \"Keep { stateful; }\",\n"
      "                ^\n"
      "1 error generated.\n"
      "opgen: error: the baseline is invalid; nothing was compared\n");
}

/* A dump written before format_version existed still works. */
static void cli_baseline_without_format_version_is_read(void **state) {
  (void)state;
  write_edited_dump("unversioned.json", "\"format_version\": 1,\n", "");
  run_result r = run_opgen((const char *[]){"compat", "--baseline",
                                            "unversioned.json", "broken.op",
                                            NULL});
  assert_int_equal(r.status, 1);
  assert_non_null(strstr(r.err, "1 incompatible change found.\n"));
  run_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(op_removed_but_new_ops_are_fine),
      cmocka_unit_test(attr_removed_but_reordering_is_fine),
      cmocka_unit_test(attr_type_changed_but_docs_may_change),
      cmocka_unit_test(allowed_narrowed_but_widening_is_fine),
      cmocka_unit_test(minimum_raised_but_lowering_is_fine),
      cmocka_unit_test(attr_added_without_default_but_with_one_is_fine),
      cmocka_unit_test(default_changed_or_removed_but_adding_one_is_fine),
      cmocka_unit_test(input_signature_changed_but_renames_are_fine),
      cmocka_unit_test(output_signature_changed_by_a_rename),
      cmocka_unit_test(input_made_ref_but_dropping_ref_is_fine),
      cmocka_unit_test(output_ref_removed_but_adding_ref_is_fine),
      cmocka_unit_test(guide_making_an_op_polymorphic_with_a_default),
      cmocka_unit_test(guide_widening_an_allowed_set),
      cmocka_unit_test(guide_single_input_to_list_with_length_default_one),
      cmocka_unit_test(guide_new_list_input_defaulting_to_empty),
      cmocka_unit_test(guide_zero_out_evolution_is_compatible),
      cmocka_unit_test(dump_baseline_notes_have_no_column),
      cmocka_unit_test(json_output_lists_every_field),
      cmocka_unit_test(findings_are_in_source_order),
      cmocka_unit_test(tensorflow_compat_vectors_agree),
      cmocka_unit_test(history_versions_are_each_compatible),
      cmocka_unit_test(corpus_is_compatible_with_its_own_dump),
      cmocka_unit_test(cli_compatible_change_prints_one_line_and_exits_0),
      cmocka_unit_test(cli_incompatible_change_prints_findings_and_exits_1),
      cmocka_unit_test(cli_dump_baseline_by_name_or_content),
      cmocka_unit_test(cli_json_format),
      cmocka_unit_test(cli_several_old_specs),
      cmocka_unit_test(cli_bad_new_spec_exits_1_with_its_diagnostics),
      cmocka_unit_test(cli_usage_and_io_errors_exit_2),
      cmocka_unit_test(cli_empty_baseline_exits_2),
      cmocka_unit_test(cli_dev_null_baseline_exits_2),
      cmocka_unit_test(cli_text_baseline_exits_2),
      cmocka_unit_test(cli_baseline_without_ops_exits_2),
      cmocka_unit_test(cli_newer_format_version_exits_2),
      cmocka_unit_test(cli_unknown_baseline_field_exits_2),
      cmocka_unit_test(cli_invalid_baseline_op_name_exits_2),
      cmocka_unit_test(cli_baseline_without_format_version_is_read),
  };
  return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
