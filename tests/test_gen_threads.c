/* The generator's own threads give what one thread gives. A large
 * source is parsed on a thread of its own while its ops are checked
 * (sema_stream.c); a large file's name check names its later half of
 * ops on a second thread (emit_c_names_claims.c, emit_c_names_scope.c).
 * Each test runs one spec both ways (og_sema_stream_bytes,
 * og_cn_split_ops: 0 or 2 takes the threads for any size, SIZE_MAX
 * never) and compares the diagnostics, their order, the model and the
 * rendered files. The renders run beside
 * the name check (emit_c.c): with names it renames, with a check that
 * fails, and comparing each output with its file. */
#include "testutil.h"

#include "emit_c.h"
#include "emit_c_names.h"
#include "outputs.h"
#include "sema_internal.h"
#include "writer.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Compiles text with sources of stream_bytes or more parsed beside
 * sema (SIZE_MAX: never), never cut in pieces (test_sema_threads). */
static tu_compiled compile(const char *text, size_t stream_bytes,
                           size_t max_errors) {
  return tu_compile_threaded(text, (tu_threads){.stream_bytes = stream_bytes,
                                                .split_bytes = SIZE_MAX,
                                                .max_errors = max_errors});
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

static void expect_same(const tu_compiled *a, const tu_compiled *b) {
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
  tu_compiled serial = compile(src, SIZE_MAX, 0);
  tu_compiled streamed = compile(src, 0, 0);
  assert_non_null(serial.json);
  expect_same(&serial, &streamed);
  tu_compiled_free(&serial);
  tu_compiled_free(&streamed);
  free(src);
}

static void streamed_diagnostics_are_the_serial_ones(void **state) {
  (void)state;
  char *src = spec(2000, 37);
  tu_compiled serial = compile(src, SIZE_MAX, 0);
  tu_compiled streamed = compile(src, 0, 0);
  assert_null(serial.json);
  assert_true(serial.diags.count > 50);
  expect_same(&serial, &streamed);
  tu_compiled_free(&serial);
  tu_compiled_free(&streamed);
  free(src);
}

static void streamed_diagnostics_keep_the_error_cap(void **state) {
  (void)state;
  char *src = spec(2000, 37);
  tu_compiled serial = compile(src, SIZE_MAX, 15);
  tu_compiled streamed = compile(src, 0, 15);
  assert_true(serial.suppressed > 0);
  expect_same(&serial, &streamed);
  tu_compiled_free(&serial);
  tu_compiled_free(&streamed);
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
    /* The content: w, then what a second thread rendered into more. */
    const og_writer *part[2] = {&out.items[i].w, &out.items[i].more};
    for (int k = 0; k < 2; k++)
      if (part[k]->len) og_w_write(&w, part[k]->buf, part[k]->len);
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

/* n ops; op i > 0 has an input and a required attr named like the
 * wrapper and the attrs struct of op i - 1, which are global names of the
 * run: the check renames them (after the renders began without). */
static char *taken_spec(size_t n) {
  text t = {0};
  add(&t, "package names;\n");
  for (size_t i = 0; i < n; i++) {
    add(&t, "op Op%zu {\n  attr T: type = float;\n  input x: T;\n", i);
    add(&t, "  output y: T;\n  attr d: int = 1;\n");
    if (i) add(&t, "  input names_op%zu: T;\n  attr names_op%zu_attrs: int;\n",
               i - 1, i - 1);
    add(&t, "}\n");
  }
  return t.buf;
}

static void scoped_names_taken_by_global_names_render_renamed(void **state) {
  (void)state;
  char *src = taken_spec(300);
  tu_diags d = {0};
  og_model *m = tu_compile("names.op", src, &d);
  assert_non_null(m);
  char *serial = check_names(m, SIZE_MAX, true);
  char *threaded = check_names(m, 2, true);
  assert_non_null(strstr(serial, "ok\n"));
  /* Both files of op 200, header and source, have the renamed ones. */
  const char *want = "opr_status names_op200(opr_context *ctx,\n"
                     "                       const opr_tensor *x,\n"
                     "                       const opr_tensor *names_op199_,\n"
                     "                       int64_t names_op199_attrs_,\n";
  const char *h = strstr(serial, "== gen/names_ops.h\n");
  const char *c = strstr(serial, "== gen/names_ops.c\n");
  assert_non_null(h);
  assert_non_null(c);
  const char *in_h = strstr(h, want), *in_c = strstr(c, want);
  assert_true(in_h && in_h < c);
  assert_non_null(in_c);
  assert_null(strstr(serial, "*names_op199,"));
  assert_string_equal(serial, threaded);
  free(serial);
  free(threaded);
  og_model_free(m);
  tu_diags_free(&d);
  free(src);
}

/* A check that fails leaves no outputs (the renders beside it are
 * dropped), and reports as the check alone does. */
static void failing_check_beside_renders_leaves_no_outputs(void **state) {
  (void)state;
  char *src = naming_spec(600, true);
  tu_diags d = {0};
  og_model *m = tu_compile("names.op", src, &d);
  assert_non_null(m);
  char *checked = check_names(m, 2, false);
  char *generated = check_names(m, 2, true);
  assert_non_null(strstr(checked, "failed\n"));
  assert_string_equal(checked, generated); /* no "== " file either */
  free(checked);
  free(generated);
  og_model_free(m);
  tu_diags_free(&d);
  free(src);
}

/* og_emit_c of m into dir: each output's og_output_same, as a string
 * ("yyn": the first two the same as their files). */
static void compared(const og_model *m, const char *dir, char same[4],
                     bool commit) {
  og_diag diag;
  tu_diags d = {0};
  og_diag_init(&diag, NULL, tu_diags_sink, &d);
  og_outputs out;
  og_outputs_init(&out);
  assert_true(og_emit_c(m, dir, &out, &diag));
  assert_int_equal(out.count, 3);
  for (int i = 0; i < 3; i++)
    same[i] = out.items[i].same == OG_SAME_YES  ? 'y'
              : out.items[i].same == OG_SAME_NO ? 'n'
                                                : '?';
  same[3] = '\0';
  const char *failed;
  if (commit) assert_true(og_outputs_commit(&out, dir, &failed));
  og_outputs_free(&out);
  tu_diags_free(&d);
}

static void renders_compare_each_output_with_its_file(void **state) {
  (void)state;
  char dir[] = "/tmp/opgen_cmp_XXXXXX", path[64], same[4];
  assert_int_equal(tu_tmpdir_make(dir), 0);
  char *src = naming_spec(300, false);
  tu_diags d = {0};
  og_model *m = tu_compile("names.op", src, &d);
  assert_non_null(m);
  compared(m, dir, same, true);
  assert_string_equal(same, "nnn"); /* none there yet */
  compared(m, dir, same, false);
  assert_string_equal(same, "yyy");
  /* One byte of the source's second half (rendered on its own thread
   * into og_output.more), the size kept: read and compared. */
  snprintf(path, sizeof path, "%s/names_ops.c", dir);
  FILE *f = fopen(path, "r+");
  assert_non_null(f);
  assert_int_equal(fseek(f, -3, SEEK_END), 0);
  fputc('#', f);
  fclose(f);
  snprintf(path, sizeof path, "%s/names_kernels.h", dir);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(mkfifo(path, 0600), 0); /* not read: no wait */
  compared(m, dir, same, false);
  assert_string_equal(same, "ynn");
  og_model_free(m);
  tu_diags_free(&d);
  free(src);
  assert_int_equal(tu_tmpdir_remove(dir), 0);
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
      cmocka_unit_test(scoped_names_taken_by_global_names_render_renamed),
      cmocka_unit_test(failing_check_beside_renders_leaves_no_outputs),
      cmocka_unit_test(renders_compare_each_output_with_its_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
