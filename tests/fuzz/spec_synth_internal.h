/* Shared by spec_synth.c (the structure of a spec set) and
 * spec_synth_pools.c (names, strings and numbers). */
#ifndef OPGEN_FUZZ_SPEC_SYNTH_INTERNAL_H
#define OPGEN_FUZZ_SPEC_SYNTH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The input's bytes, then a xorshift generator seeded by their hash. */
typedef struct fz_rng {
  const uint8_t *data;
  size_t size, pos;
  uint64_t state;
  unsigned level;   /* 1 to 4: how often a choice takes a hazard */
  unsigned classes; /* the fz_hazard_class bits this set takes */
} fz_rng;

/* Kinds of hazard a set may carry; each set takes a random subset. */
typedef enum fz_hazard_class {
  FZ_H_NAMES,    /* hostile item and op names, helper-name collisions */
  FZ_H_DOCS,     /* comment terminators, trigraphs, long lines in docs */
  FZ_H_STRINGS,  /* string values, enum values that fold */
  FZ_H_NUMBERS,  /* extreme ints and floats */
  FZ_H_FILES,    /* packages and file names that meet */
  FZ_H_SHAPE_FN, /* shape_fn names */
  FZ_H_CLASSES
} fz_hazard_class;

/* A number in [0, n); n > 0. */
uint32_t fz_pick(fz_rng *r, uint32_t n);
/* True about once in `n`. */
bool fz_one_in(fz_rng *r, uint32_t n);
/* True, when the set takes class `c`, with probability level/4: take
 * the hostile choice. A set mixes few kinds of hazard or many, so that
 * one kind of failure does not hide all others and gen accepts a fair
 * share of sets. */
bool fz_hazard(fz_rng *r, fz_hazard_class c);

/* A growable NUL-terminated text. */
typedef struct fz_buf {
  char *p;
  size_t len, cap;
} fz_buf;

void fz_puts(fz_buf *b, const char *s);
void fz_printf(fz_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *fz_strdup(const char *s);
void *fz_xalloc(size_t n); /* zeroed; aborts on failure */

/* Names that obey the lexical rules of their kind. */
const char *fz_pool_io_name(fz_rng *r);   /* [a-z][a-z0-9_]* */
const char *fz_pool_attr_name(fz_rng *r); /* [A-Za-z][A-Za-z0-9_]* */
const char *fz_pool_op_name(fz_rng *r);   /* [A-Z][A-Za-z0-9]* */
const char *fz_pool_runtime_op(fz_rng *r); /* "TensorNew": opr_tensor_new */
const char *fz_pool_package(fz_rng *r);
const char *fz_pool_shape_fn(fz_rng *r);
/* Helper-name suffixes an op's C names take ("Shape", "AttrDefs"). */
const char *fz_pool_helper_suffix(fz_rng *r);
/* Allowed values of a string attr, some folding to one enumerator: a
 * comma-separated list of quoted strings, and one of them (quoted) for a
 * default. */
void fz_pool_enum_values(fz_rng *r, fz_buf *list, fz_buf *one);

/* The body of a quoted string (escaped for .op, without quotes):
 * quotes, backslashes, comment terminators, trigraphs, UTF-8, and now
 * and then longer than C's 4,095 characters. */
void fz_hostile_string(fz_rng *r, fz_buf *b);
/* One doc line's text (after "///"). */
void fz_hostile_doc(fz_rng *r, fz_buf *b);
/* Literals: extreme and ordinary. */
const char *fz_int_text(fz_rng *r);
const char *fz_float_text(fz_rng *r);
/* A data type name (any spelling), and one of the shortcut sets. */
const char *fz_dtype_name(fz_rng *r);
bool fz_is_dtype_name(const char *s);

/* "LRNGrad" -> "lrn_grad", as opgen names ops in C. */
void fz_snake_case(const char *name, char *out, size_t cap);
/* "in_x" -> "InX". */
void fz_camel_case(const char *name, char *out, size_t cap);

#endif
