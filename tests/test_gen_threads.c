/* The generator's own threads give what one thread gives. A large
 * source is parsed on a thread of its own while its ops are checked
 * (sema_stream.c); a large file's name check names its later half of
 * ops on a second thread (emit_c_names_check.c). Each test runs one spec
 * both ways (og_sema_stream_bytes, og_cn_split_ops: 0 or 2 takes the
 * threads for any size, SIZE_MAX never) and compares the diagnostics,
 * their order, the model and the rendered files. */
#include "testutil.h"

#include "dump.h"
#include "emit_c.h"
#include "emit_c_names.h"
#include "outputs.h"
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
  size_t saved = og_sema_stream_bytes, saved_split = og_sema_split_bytes;
  og_sema_stream_bytes = stream_bytes;
  og_sema_split_bytes = SIZE_MAX; /* pieces: test_sema_threads */
  og_model *m = og_compile_text(&sources, "big.op", text, &diag);
  og_sema_stream_bytes = saved;
  og_sema_split_bytes = saved_split;
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

/* The defaults: a corpus-sized spec takes the threads, no test's does. */
static void only_large_specs_take_threads_by_default(void **state) {
  (void)state;
  assert_int_equal(og_sema_stream_bytes, 64 * 1024);
  assert_int_equal(og_cn_split_ops, 256);
}

/* The name check (and with `files`, the renders) of one model with
 * og_cn_split_ops = split: the diagnostics, then each file's path and
 * bytes. */
static char *check_names(const og_model *m, size_t split, bool files) {
  tu_diags d = {0};
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, &d);
  size_t saved = og_cn_split_ops;
  og_cn_split_ops = split;
  og_outputs out;
  og_outputs_init(&out);
  bool ok = files ? og_emit_c(m, "gen", &out, &diag) : og_emit_c_check(m, &diag);
  og_cn_split_ops = saved;
  og_writer w;
  og_writer_init(&w);
  og_w_puts(&w, ok ? "ok\n" : "failed\n");
  og_w_puts(&w, tu_diags_text(&d));
  for (size_t i = 0; i < out.count; i++) {
    og_w_puts(&w, "\n== ");
    og_w_puts(&w, out.items[i].path);
    og_w_puts(&w, "\n");
    og_w_write(&w, out.items[i].w.buf, out.items[i].w.len);
  }
  char *result = strdup(w.buf);
  og_writer_free(&w);
  og_outputs_free(&out);
  tu_diags_free(&d);
  return result;
}

/* n ops; with `problems`, names that C reserves ("__") and names that
 * collide, in both halves. */
static char *naming_spec(size_t n, bool problems) {
  text t = {0};
  add(&t, "package names;\n");
  for (size_t i = 0; i < n; i++) {
    add(&t, "op Op%zu {\n  attr T: type = float;\n  input x: T;\n", i);
    add(&t, "  output y: T;\n  attr mode: {'a', 'b-c'} = 'a';\n");
    if (problems && i % 97 == 13) add(&t, "  input a__b: T;\n");
    if (problems && i % 89 == 7) add(&t, "  attr N__m: int = 2;\n");
    if (i % 50 == 3) add(&t, "  input int: T;\n  input ctx: T;\n");
    add(&t, "}\n");
  }
  if (problems) add(&t, "op Op13Def {}\nop Op250Check {}\n");
  return t.buf;
}

static void threaded_name_check_reports_as_the_serial_one(void **state) {
  (void)state;
  char *src = naming_spec(600, true);
  tu_diags d = {0};
  og_model *m = tu_compile("names.op", src, &d);
  assert_non_null(m);
  char *serial = check_names(m, SIZE_MAX, false);
  char *threaded = check_names(m, 2, false);
  assert_non_null(strstr(serial, "failed\n"));
  assert_non_null(strstr(serial, "collides with"));
  assert_non_null(strstr(serial, "which C++ reserves"));
  assert_string_equal(serial, threaded);
  free(serial);
  free(threaded);
  og_model_free(m);
  tu_diags_free(&d);
  free(src);
}

static void threaded_name_check_renders_the_serial_files(void **state) {
  (void)state;
  char *src = naming_spec(600, false);
  tu_diags d = {0};
  og_model *m = tu_compile("names.op", src, &d);
  assert_non_null(m);
  char *serial = check_names(m, SIZE_MAX, true);
  char *threaded = check_names(m, 2, true);
  assert_non_null(strstr(serial, "== gen/names_ops.c\n"));
  assert_string_equal(serial, threaded);
  free(serial);
  free(threaded);
  og_model_free(m);
  tu_diags_free(&d);
  free(src);
}

/* The source in two halves on two threads (og_c_source_split_ops) is
 * the source rendered whole. */
static void split_source_renders_the_whole_file(void **state) {
  (void)state;
  char *src = naming_spec(301, false);
  tu_diags d = {0};
  og_model *m = tu_compile("names.op", src, &d);
  assert_non_null(m);
  size_t saved = og_c_source_split_ops;
  og_c_source_split_ops = SIZE_MAX;
  char *whole = check_names(m, SIZE_MAX, true);
  og_c_source_split_ops = 2; /* 150 ops and 151 */
  char *halves = check_names(m, SIZE_MAX, true);
  og_c_source_split_ops = saved;
  assert_non_null(strstr(whole, "names_register_ops(void)"));
  assert_string_equal(whole, halves);
  free(whole);
  free(halves);
  og_model_free(m);
  tu_diags_free(&d);
  free(src);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(streamed_model_is_the_serial_one),
      cmocka_unit_test(streamed_diagnostics_are_the_serial_ones),
      cmocka_unit_test(streamed_diagnostics_keep_the_error_cap),
      cmocka_unit_test(only_large_specs_take_threads_by_default),
      cmocka_unit_test(threaded_name_check_reports_as_the_serial_one),
      cmocka_unit_test(threaded_name_check_renders_the_serial_files),
      cmocka_unit_test(split_source_renders_the_whole_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
