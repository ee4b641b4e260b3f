/* The body of the fuzz_frontend target, shared with
 * test_fuzz_regressions: arbitrary bytes as
 *
 *   1. a spec: compiled as `opgen check` compiles one file (og_sources_add,
 *      og_compile, every diagnostic printed, to /dev/null); when it
 *      compiles, what `opgen dump` and `opgen gen` do, in memory only:
 *      the JSON dump (twice: byte-identical) read back with og_dump_read
 *      (every op og_op_equal to the compiled one), the C files rendered
 *      by og_emit_c into an og_outputs (twice: byte-identical; nothing is
 *      written to disk), and the model written back as .op text
 *      (og_emit_op_source), which must compile to equal ops;
 *   2. a dump (og_dump_read), which when it reads dumps back to equal ops;
 *   3. a TensorFlow OpList (og_tf_import), whose model is written as .op
 *      text; text that compiles holds exactly the imported ops, by name
 *      (no name or doc may inject another op).
 *
 * No input may crash, leak, hit undefined behaviour or break one of these
 * round trips; a broken round trip aborts with a message on stderr. */
#include "frontend_harness.h"

#include "compile.h"
#include "diag.h"
#include "dump.h"
#include "dump_read.h"
#include "emit_c.h"
#include "emit_op.h"
#include "model.h"
#include "outputs.h"
#include "source.h"
#include "tf_import.h"
#include "writer.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *devnull;

/* Prints every diagnostic as the CLI does (source line and caret
 * included), so the printing code is fuzzed too. */
static void sink(void *ctx, const og_diagnostic *d) {
  og_diag_print(devnull, ctx, d);
}

static void fail(const char *what, const char *detail, const og_writer *w) {
  fprintf(stderr, "fuzz_frontend: %s%s%s\n", what, detail ? ": " : "",
          detail ? detail : "");
  if (w) fprintf(stderr, "---- text ----\n%.*s\n----\n", (int)w->len, w->buf);
  abort();
}

/* Every op of `a` equal to the op of `b` at the same index. */
static void expect_same_ops(const og_model *a, const og_model *b,
                            const char *what, const og_writer *text) {
  if (a->nops != b->nops) fail(what, "the op counts differ", text);
  for (size_t i = 0; i < a->nops; i++)
    if (!og_op_equal(a->ops[i], b->ops[i]))
      fail(what, a->ops[i]->name, text);
}

static void render_dump(const og_model *m, og_writer *w) {
  og_writer_init(w);
  og_dump_json(m, w);
}

static bool same_text(const og_writer *a, const og_writer *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->buf, b->buf, a->len) == 0);
}

/* The dump of `m` read back gives the same ops; the dump is stable. */
static void check_dump(const og_model *m) {
  og_writer w, again;
  render_dump(m, &w);
  render_dump(m, &again);
  if (!same_text(&w, &again)) fail("two dumps of one model differ", NULL, &w);
  og_writer_free(&again);
  og_diag diag;
  og_diag_init(&diag, NULL, sink, NULL);
  og_model *back = og_dump_read("fuzz.json", w.buf, w.len, &diag);
  if (!back) fail("the dump of a compiled model does not read back", NULL, &w);
  expect_same_ops(m, back, "the dump reads back to a different op", &w);
  og_model_free(back);
  og_writer_free(&w);
}

static bool emit(const og_model *m, og_outputs *out) {
  og_diag diag;
  og_diag_init(&diag, NULL, sink, NULL);
  og_outputs_init(out);
  bool ok = og_emit_c(m, "out", out, &diag);
  if (ok != (diag.errors == 0)) fail("og_emit_c's result and its errors disagree", NULL, NULL);
  return ok;
}

/* `opgen gen` in memory: twice, byte for byte the same. */
static void check_gen(const og_model *m) {
  og_outputs a, b;
  bool ok_a = emit(m, &a), ok_b = emit(m, &b);
  if (ok_a != ok_b || a.count != b.count)
    fail("two og_emit_c runs of one model differ", NULL, NULL);
  for (size_t i = 0; ok_a && i < a.count; i++)
    if (strcmp(a.items[i].path, b.items[i].path) != 0 ||
        !same_text(&a.items[i].w, &b.items[i].w) ||
        !same_text(&a.items[i].more, &b.items[i].more))
      fail("two og_emit_c runs of one model differ", a.items[i].path, NULL);
  og_outputs_free(&a);
  og_outputs_free(&b);
}

/* The model as .op text compiles back to the same ops. */
static void check_op_text(const og_model *m) {
  og_writer w;
  og_writer_init(&w);
  og_emit_op_source(m, NULL, &w);
  og_sources sources;
  og_sources_init(&sources);
  uint32_t file = og_sources_add(&sources, "back.op", w.buf, w.len);
  og_diag diag;
  og_diag_init(&diag, &sources, sink, &sources);
  og_model *back = og_compile(&sources, &file, 1, &diag);
  if (!back) fail("the .op text of a compiled model does not compile", NULL, &w);
  expect_same_ops(m, back, "the .op text compiles to a different op", &w);
  og_model_free(back);
  og_sources_free(&sources);
  og_writer_free(&w);
}

static void fuzz_spec(const uint8_t *data, size_t size) {
  og_sources sources;
  og_sources_init(&sources);
  uint32_t file = og_sources_add(&sources, "fuzz.op", (const char *)data, size);
  og_diag diag;
  og_diag_init(&diag, &sources, sink, &sources);
  og_model *m = og_compile(&sources, &file, 1, &diag);
  if (!m != (diag.errors > 0))
    fail("og_compile's result and its errors disagree", NULL, NULL);
  if (m) {
    check_dump(m);
    check_gen(m);
    check_op_text(m);
  }
  og_model_free(m);
  og_sources_free(&sources);
}

static void fuzz_dump(const char *text, size_t size) {
  og_diag diag;
  og_diag_init(&diag, NULL, sink, NULL);
  og_model *m = og_dump_read("fuzz.json", text, size, &diag);
  if (!m != (diag.errors > 0))
    fail("og_dump_read's result and its errors disagree", NULL, NULL);
  if (m) check_dump(m);
  og_model_free(m);
}

/* The .op text of an imported model may fail to compile (import-tf then
 * reports it); when it compiles, it holds the imported ops and no other. */
static void check_imported_text(const og_model *m) {
  og_writer w;
  og_writer_init(&w);
  og_emit_op_source(m, "fuzz", &w);
  og_sources sources;
  og_sources_init(&sources);
  uint32_t file = og_sources_add(&sources, "import.op", w.buf, w.len);
  og_diag diag;
  og_diag_init(&diag, &sources, sink, &sources);
  og_model *back = og_compile(&sources, &file, 1, &diag);
  if (back && back->nops != m->nops)
    fail("the .op text of an import holds another number of ops", NULL, &w);
  for (size_t i = 0; back && i < m->nops; i++)
    if (strcmp(back->ops[i]->name, m->ops[i]->name) != 0)
      fail("the .op text of an import holds another op", m->ops[i]->name, &w);
  og_model_free(back);
  og_sources_free(&sources);
  og_writer_free(&w);
}

static void fuzz_tf(const char *text, size_t size) {
  og_diag diag;
  og_diag_init(&diag, NULL, sink, NULL);
  og_model *m = og_tf_import("fuzz.pbtxt", text, size, &diag);
  if (!m != (diag.errors > 0))
    fail("og_tf_import's result and its errors disagree", NULL, NULL);
  if (m) check_imported_text(m);
  og_model_free(m);
}

void fz_frontend_one(const uint8_t *data, size_t size) {
  if (!devnull && !(devnull = fopen("/dev/null", "w"))) {
    perror("fuzz_frontend: /dev/null");
    abort();
  }
  fuzz_spec(data, size);
  /* The readers get the bytes in a buffer of exactly `size` bytes, with
   * no terminator: reading past the end is an ASan report. */
  char *copy = malloc(size ? size : 1);
  if (!copy) abort();
  if (size) memcpy(copy, data, size);
  fuzz_dump(copy, size);
  fuzz_tf(copy, size);
  free(copy);
}
