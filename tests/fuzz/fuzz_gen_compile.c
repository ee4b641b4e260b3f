/* libFuzzer target: arbitrary bytes -> a synthesized set of valid,
 * hostile spec files (spec_synth.c) -> compiled in memory as `opgen gen`
 * compiles them (og_compile, og_emit_c). A set gen accepts must give C
 * that compiles and links, from C and C++ (gen_compile.c): since running
 * the compilers takes a good part of a second, only a sample is compiled,
 * 1 input in FUZZ_GEN_COMPILE_RATE (default 64) chosen by a hash of the
 * bytes, or every one with FUZZ_GEN_COMPILE_ALL=1. A failure prints the
 * spec set and the compilers' output and aborts. Seeds:
 * tests/fuzz/corpus_gen_compile/. Run by .ci/fuzz. */
#define _POSIX_C_SOURCE 200809L
#include "gen_compile.h"
#include "spec_synth.h"

#include "compile.h"
#include "diag.h"
#include "emit_c.h"
#include "model.h"
#include "outputs.h"
#include "source.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore(void *ctx, const og_diagnostic *d) {
  (void)ctx;
  (void)d;
}

static bool sampled(const uint8_t *data, size_t size) {
  const char *all = getenv("FUZZ_GEN_COMPILE_ALL");
  if (all && strcmp(all, "1") == 0) return true;
  const char *rate = getenv("FUZZ_GEN_COMPILE_RATE");
  unsigned long n = rate && *rate ? strtoul(rate, NULL, 10) : 64;
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3u;
  return n <= 1 || h % n == 0;
}

/* Prints the spec set, the compilers' output and, last (so that a
 * log's tail shows them), the first error of each failed run. */
static void fail(const fz_spec_set *set, const char *what, const char *log,
                 const fz_cc_result *res) {
  fz_spec_set_print(stderr, set);
  if (log) fprintf(stderr, "---- compiler output ----\n%s\n", log);
  for (size_t i = 0; res && i < res->nfails; i++)
    fprintf(stderr, "fuzz_gen_compile: %s %s: %s\n", res->fails[i].stage,
            res->fails[i].file, res->fails[i].first_error);
  fprintf(stderr, "fuzz_gen_compile: %s\n", what);
  abort();
}

/* Writes the rendered files into a fresh directory and compiles them. */
static void compile_outputs(const fz_spec_set *set, const og_outputs *out) {
  char dir[] = "/tmp/opgen_fuzz_gen_XXXXXX";
  if (!mkdtemp(dir)) fail(set, "mkdtemp failed", NULL, NULL);
  for (size_t i = 0; i < out->count; i++) {
    const char *base = strrchr(out->items[i].path, '/');
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, base ? base + 1 : out->items[i].path);
    FILE *f = fopen(path, "wb");
    if (!f) fail(set, "cannot write a generated file", path, NULL);
    /* The content is w, then `more` (og_output: a second part). */
    fwrite(out->items[i].w.buf, 1, out->items[i].w.len, f);
    fwrite(out->items[i].more.buf, 1, out->items[i].more.len, f);
    if (fclose(f) != 0) fail(set, "cannot write a generated file", path, NULL);
  }
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < set->nfiles; i++)
    for (size_t k = 0; k < set->files[i].len; k++)
      h = (h ^ (uint8_t)set->files[i].text[k]) * 0x100000001b3u;
  fz_cc cfg = {OPGEN_FZ_CC, fz_find_cxx(), OPGEN_FZ_INCLUDE,
               OPGEN_FZ_RUNTIME_LINK, OPGEN_FZ_RUN_FLAGS, OPGEN_FZ_DRIVER,
               (unsigned long)h};
  fz_cc_result res;
  bool ok = fz_cc_check(&cfg, dir, set->shape_fns, set->nshape_fns, &res);
  if (!ok) {
    fprintf(stderr, "fuzz_gen_compile: generated files kept in %s\n", dir);
    fail(set, "gen accepted a spec set whose code does not compile or link",
         res.log, &res);
  }
  free(res.log);
  fz_remove_dir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_spec_set set;
  fz_synth(data, size, &set);
  og_sources sources;
  og_sources_init(&sources);
  uint32_t ids[FZ_MAX_FILES];
  for (size_t i = 0; i < set.nfiles; i++)
    ids[i] = og_sources_add(&sources, set.files[i].name, set.files[i].text,
                            set.files[i].len);
  og_diag diag;
  og_diag_init(&diag, &sources, ignore, NULL);
  og_model *m = og_compile(&sources, ids, set.nfiles, &diag);
  if (!m != (diag.errors > 0)) fail(&set, "og_compile's result and its errors disagree", NULL, NULL);
  if (m) {
    og_outputs out;
    og_outputs_init(&out);
    og_diag_init(&diag, NULL, ignore, NULL);
    bool ok = og_emit_c(m, "out", &out, &diag);
    if (ok != (diag.errors == 0)) fail(&set, "og_emit_c's result and its errors disagree", NULL, NULL);
    if (ok && sampled(data, size)) compile_outputs(&set, &out);
    og_outputs_free(&out);
  }
  og_model_free(m);
  og_sources_free(&sources);
  fz_spec_set_free(&set);
  return 0;
}
