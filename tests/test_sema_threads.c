/* A large source cut into pieces, each parsed and checked on a thread
 * of its own (sema_stream.c), gives what one thread gives: the same
 * model, the same diagnostics in the same order. Where the pieces'
 * parses report anything, the source is parsed whole instead; these
 * tests compare every way with the serial one. */
#include "testutil.h"

#include "sema_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Compiles text with sources of split_bytes or more cut into `pieces`
 * (SIZE_MAX: never cut), none streamed. */
static tu_compiled compile(const char *text, size_t split_bytes,
                           size_t pieces) {
  return tu_compile_threaded(text, (tu_threads){.stream_bytes = SIZE_MAX,
                                                .split_bytes = split_bytes,
                                                .pieces = pieces});
}

/* Compiles text serially and cut into 2, 3 and 7 pieces: the same
 * diagnostics and model each time. Returns the serial run. */
static tu_compiled expect_serial(const char *text) {
  tu_compiled serial = compile(text, SIZE_MAX, 0);
  char *first = strdup(tu_diags_text(&serial.diags)); /* a static buffer */
  static const size_t counts[] = {2, 3, 7};
  for (size_t i = 0; i < 3; i++) {
    tu_compiled cut = compile(text, 0, counts[i]);
    assert_string_equal(first, tu_diags_text(&cut.diags));
    assert_int_equal(serial.errors, cut.errors);
    assert_int_equal(serial.warnings, cut.warnings);
    if (!serial.json || !cut.json) assert_ptr_equal(serial.json, cut.json);
    else assert_string_equal(serial.json, cut.json);
    tu_compiled_free(&cut);
  }
  free(first);
  return serial;
}

/* Appends printf output to a growing text. */
typedef struct text {
  char *buf;
  size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  while (t->len + (size_t)n + 1 > t->cap) {
    t->cap = t->cap ? 2 * t->cap : 4096;
    t->buf = realloc(t->buf, t->cap);
    assert_non_null(t->buf);
  }
  memcpy(t->buf + t->len, line, (size_t)n + 1);
  t->len += (size_t)n;
}

/* n documented ops; every `every`-th (if any) with `problem` inside. */
static char *spec(size_t n, size_t every, const char *problem) {
  text t = {0};
  add(&t, "package big;\n// Ops for the pieces.\n\n");
  for (size_t i = 0; i < n; i++) {
    add(&t, "/// Op %zu.\n///\n/// More about it.\nop Op%zu {\n", i, i);
    add(&t, "  /// The type.\n  attr T: type = float;\n  input x: T;\n");
    add(&t, "  output y: T;\n  shape y = x;\n");
    if (every && i % every == every - 1) add(&t, "%s", problem);
    add(&t, "}\n\n");
  }
  return t.buf;
}

static og_source source(const char *text) {
  return (og_source){.text = (char *)text, .len = strlen(text)};
}

static void cuts_begin_at_lines_that_begin_an_op(void **state) {
  (void)state;
  const char *text = "package p;\nop A {\n  input x: float;\n}\n"
                     "op B {\n  input x: float;\n}\nop C {\n}\n";
  og_source src = source(text);
  uint32_t begins[64];
  size_t n = og_sema_cut(&src, 3, begins);
  assert_int_equal(n, 3);
  assert_int_equal(begins[0], 0);
  assert_int_equal(begins[1], strstr(text, "op B") - text);
  assert_int_equal(begins[2], strstr(text, "op C") - text);
}

static void cuts_take_the_doc_and_comments_above_an_op(void **state) {
  (void)state;
  const char *text = "op A {\n}\n\n/// Doc of B.\n// A note.\n\n"
                     "op B {\n}\n";
  og_source src = source(text);
  uint32_t begins[64];
  assert_int_equal(og_sema_cut(&src, 2, begins), 2);
  assert_int_equal(begins[1], strlen("op A {\n}\n"));
}

static void no_cut_without_an_op_at_a_line_start(void **state) {
  (void)state;
  og_source src = source("op A { input x: float; } op B {}\n"
                         "  op C {}\nop");
  uint32_t begins[64];
  assert_int_equal(og_sema_cut(&src, 4, begins), 1);
  assert_int_equal(begins[0], 0);
}

static void pieces_give_the_serial_model(void **state) {
  (void)state;
  char *src = spec(500, 0, NULL);
  tu_compiled serial = expect_serial(src);
  assert_non_null(serial.json);
  assert_int_equal(serial.diags.count, 0);
  tu_compiled_free(&serial);
  free(src);
}

/* Errors the checks find, with notes: the pieces hold. */
static void pieces_give_the_serial_check_diagnostics(void **state) {
  (void)state;
  char *src = spec(500, 7, "  attr T: int;\n  input q: U;\n  commutative;\n"
                           "  commutative;\n");
  tu_compiled serial = expect_serial(src);
  assert_null(serial.json);
  assert_true(serial.errors > 100);
  assert_true(serial.warnings > 50);
  tu_compiled_free(&serial);
  free(src);
}

/* Syntax errors: the source is parsed whole. */
static void syntax_errors_give_the_serial_diagnostics(void **state) {
  (void)state;
  char *src = spec(500, 41, "  input z T;\n  attr k: int = 'a';\n");
  tu_compiled serial = expect_serial(src);
  assert_null(serial.json);
  assert_true(serial.errors > 10);
  tu_compiled_free(&serial);
  free(src);
}

/* A comment open across every cut, an `op` line that is an item's
 * type, a doc comment before the end: parsed whole. */
static void cuts_inside_a_declaration_give_the_serial_result(void **state) {
  (void)state;
  static const char *const tails[] = {
      "/*\nop Hidden {\n}\n", "op Typed {\n  input x:\nop\n;\n}\n",
      "/// Nothing.\n"};
  for (size_t i = 0; i < 3; i++) {
    char *body = spec(300, 0, NULL);
    size_t n = strlen(body) + strlen(tails[i]);
    char *src = malloc(2 * n + 8);
    assert_non_null(src);
    /* The tail between two halves of the ops, and after them. */
    size_t half = (size_t)(strstr(body, "op Op150 ") - body);
    snprintf(src, 2 * n + 8, "%.*s%s%s%s", (int)half, body, tails[i],
             body + half, i == 0 ? "*/\n" : tails[i]);
    tu_compiled serial = expect_serial(src);
    assert_true(serial.diags.count > 0 || i == 0);
    tu_compiled_free(&serial);
    free(body);
    free(src);
  }
}

/* The defaults: a corpus-sized spec is cut, one piece per CPU. */
static void only_large_specs_are_cut_by_default(void **state) {
  (void)state;
  assert_int_equal(og_sema_split_bytes, 64 * 1024);
  assert_int_equal(og_sema_split_pieces, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cuts_begin_at_lines_that_begin_an_op),
      cmocka_unit_test(cuts_take_the_doc_and_comments_above_an_op),
      cmocka_unit_test(no_cut_without_an_op_at_a_line_start),
      cmocka_unit_test(pieces_give_the_serial_model),
      cmocka_unit_test(pieces_give_the_serial_check_diagnostics),
      cmocka_unit_test(syntax_errors_give_the_serial_diagnostics),
      cmocka_unit_test(cuts_inside_a_declaration_give_the_serial_result),
      cmocka_unit_test(only_large_specs_are_cut_by_default),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
