/* A large source is parsed on a thread of its own while its ops are
 * checked (sema_stream.c): the diagnostics, their order and the model
 * must be those of the serial run, which every smaller source takes.
 * Each test compiles one text both ways (og_sema_stream_bytes: 0 streams
 * every source, SIZE_MAX none) and compares. */
#include "testutil.h"

#include "dump.h"
#include "sema_internal.h"
#include "writer.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct run {
  tu_diags diags;
  char *json; /* og_dump_json of the model; NULL: no model */
  size_t errors, suppressed;
} run;

static run compile(const char *text, size_t stream_bytes, size_t max_errors) {
  run r = {0};
  og_sources sources;
  og_sources_init(&sources);
  og_diag diag;
  og_diag_init(&diag, &sources, tu_diags_sink, &r.diags);
  diag.max_errors = max_errors;
  size_t saved = og_sema_stream_bytes;
  og_sema_stream_bytes = stream_bytes;
  og_model *m = og_compile_text(&sources, "big.op", text, &diag);
  og_sema_stream_bytes = saved;
  r.errors = diag.errors;
  r.suppressed = diag.suppressed_errors;
  if (m) {
    og_writer w;
    og_writer_init(&w);
    og_dump_json(m, &w);
    r.json = strdup(w.buf);
    og_writer_free(&w);
    og_model_free(m);
  }
  og_sources_free(&sources);
  return r;
}

static void run_free(run *r) {
  tu_diags_free(&r->diags);
  free(r->json);
}

/* Appends printf output to a growing text. */
typedef struct text {
  char *buf;
  size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
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

/* n ops, every `every`-th with one of the problems below (sema errors
 * with notes, warnings, syntax errors, a package after the ops). */
static char *spec(size_t n, size_t every) {
  static const char *const problems[] = {
      "  attr T: int;\n",                  /* duplicate name, and a note */
      "  input q: U;\n",                   /* unknown type */
      "  attr k: int = 'a';\n",            /* default of the wrong type */
      "  input z T;\n",                    /* syntax error */
      "  stateful;\n  stateful;\n",        /* warning */
      "  attr m: int >= 5 = 2;\n",         /* default under the minimum */
  };
  text t = {0};
  add(&t, "package big;\n");
  for (size_t i = 0; i < n; i++) {
    add(&t, "/// Op %zu.\n///\n/// More about it.\nop Op%zu {\n", i, i);
    add(&t, "  attr T: type = float;\n  input x: T;\n  output y: T;\n");
    if (every && i % every == every - 1)
      add(&t, "%s", problems[(i / every) % 6]);
    add(&t, "}\n");
  }
  if (every) add(&t, "package late;\nop Broken { input a: float\n");
  return t.buf;
}

static void expect_same(const run *a, const run *b) {
  char *first = strdup(tu_diags_text(&a->diags)); /* a static buffer */
  assert_string_equal(first, tu_diags_text(&b->diags));
  free(first);
  assert_int_equal(a->errors, b->errors);
  assert_int_equal(a->suppressed, b->suppressed);
  if (!a->json || !b->json) assert_ptr_equal(a->json, b->json);
  else assert_string_equal(a->json, b->json);
}

static void streamed_model_is_the_serial_one(void **state) {
  (void)state;
  char *src = spec(2000, 0);
  run serial = compile(src, SIZE_MAX, 0), streamed = compile(src, 0, 0);
  assert_non_null(serial.json);
  expect_same(&serial, &streamed);
  run_free(&serial);
  run_free(&streamed);
  free(src);
}

static void streamed_diagnostics_are_the_serial_ones(void **state) {
  (void)state;
  char *src = spec(2000, 37);
  run serial = compile(src, SIZE_MAX, 0), streamed = compile(src, 0, 0);
  assert_null(serial.json);
  assert_true(serial.diags.count > 50);
  expect_same(&serial, &streamed);
  run_free(&serial);
  run_free(&streamed);
  free(src);
}

static void streamed_diagnostics_keep_the_error_cap(void **state) {
  (void)state;
  char *src = spec(2000, 37);
  run serial = compile(src, SIZE_MAX, 15), streamed = compile(src, 0, 15);
  assert_true(serial.suppressed > 0);
  expect_same(&serial, &streamed);
  run_free(&serial);
  run_free(&streamed);
  free(src);
}

/* The default threshold streams a corpus-sized spec and no test's. */
static void only_large_sources_stream_by_default(void **state) {
  (void)state;
  assert_int_equal(og_sema_stream_bytes, 64 * 1024);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(streamed_model_is_the_serial_one),
      cmocka_unit_test(streamed_diagnostics_are_the_serial_ones),
      cmocka_unit_test(streamed_diagnostics_keep_the_error_cap),
      cmocka_unit_test(only_large_sources_stream_by_default),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
