/* A spec synthesizer for fuzz_gen_compile and test_gen_compile_sample:
 * arbitrary bytes turned, deterministically, into the text of a set of 1
 * to 3 `.op` files that the language allows (see
 * /work/shared/op-language.md), loaded with every attr type, default,
 * IO form, flag, doc, core shape statement and version-2 statement
 * (spec_synth_v2.c), and with names drawn from
 * pools of hazards for generated C and C++ (keywords, standard macros and
 * functions, the runtime's names, names that differ only in case, op
 * names that spell another op's helpers, colliding packages and file
 * names). Most sets compile; the rest must be rejected at the spec. */
#ifndef OPGEN_FUZZ_SPEC_SYNTH_H
#define OPGEN_FUZZ_SPEC_SYNTH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FZ_MAX_FILES 3

typedef struct fz_spec_file {
  char name[32]; /* "x.y.op": a base name, no directory */
  char *text;
  size_t len;
} fz_spec_file;

typedef struct fz_spec_set {
  fz_spec_file files[FZ_MAX_FILES];
  size_t nfiles;
  /* The distinct `shape_fn` names, which a link must define. */
  char **shape_fns;
  size_t nshape_fns;
} fz_spec_set;

/* Fills *out from `data`: the bytes steer every choice; past their end,
 * a generator seeded by their hash goes on. Aborts on out of memory. */
void fz_synth(const uint8_t *data, size_t size, fz_spec_set *out);
/* The bytes fz_synth takes for a numbered seed (test_gen_compile_sample). */
void fz_seed_bytes(uint64_t seed, uint8_t *buf, size_t size);
void fz_spec_set_free(fz_spec_set *s);
/* Every file, each under a "---- NAME ----" line. */
void fz_spec_set_print(FILE *f, const fz_spec_set *s);

#endif
