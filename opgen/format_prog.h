/* A printf format literal parsed once: its literal runs with their
 * lengths and its conversions with their specs, so that writing it again
 * neither scans for '%' nor parses a spec. The writer's og_w_printf and
 * og_w_line take only string literals (writer.h makes anything else fail
 * to compile), whose bytes never change: a format's program is found by
 * the literal's address, in a table shared by every thread. */
#ifndef OPGEN_FORMAT_PROG_H
#define OPGEN_FORMAT_PROG_H

#include "format.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum og_fmt_op {
  OG_FMT_TEXT, /* fmt[off .. off + len) */
  OG_FMT_STR,  /* a plain %s */
  OG_FMT_SPEC, /* any other conversion og_fmt_apply does (off: its spec) */
  /* Conversions of the simple programs (og_fmt_prog.simple), run as
   * OG_FMT_SPEC on the general path: plain %zu, %d, %ld, %lld, %.*s. */
  OG_FMT_ZU,
  OG_FMT_D,
  OG_FMT_LD,
  OG_FMT_LLD,
  OG_FMT_STRN
} og_fmt_op;

/* The most arguments a simple program takes. */
enum { OG_FMT_SIMPLE_ARGS = 8 };

typedef struct og_fmt_step {
  uint32_t off, len; /* OG_FMT_TEXT; OG_FMT_SPEC: off indexes specs */
  uint8_t op;        /* og_fmt_op */
} og_fmt_step;

/* A simple program's text in order: literal bytes (of `text`, never a
 * newline), the next argument, or a newline. */
typedef enum og_fmt_piece_kind {
  OG_PIECE_TEXT,
  OG_PIECE_ARG,
  OG_PIECE_NL
} og_fmt_piece_kind;

typedef struct og_fmt_piece {
  uint32_t off, len; /* OG_PIECE_TEXT; OG_PIECE_NL: len 1 when the next
                        line has literal text (is never empty) */
  uint8_t kind;      /* og_fmt_piece_kind */
} og_fmt_piece;

/* Readable bytes past the end of og_fmt_prog.text: a literal run is
 * copied 16 bytes at a time. */
enum { OG_FMT_TEXT_SLACK = 16 };

typedef struct og_fmt_prog {
  const char *fmt;
  bool vsnprintf_only; /* a conversion that og_fmt_parse does not do */
  bool text_newline;   /* a literal run holds a newline */
  bool text_args;      /* %s or %c: an argument may hold a newline */
  /* Only literal runs and at most OG_FMT_SIMPLE_ARGS of the simple
   * conversions: the writer measures the arguments first, then copies
   * the pieces without a bounds test each (the emitters' usual line). */
  bool simple;
  uint8_t nargs;                    /* simple: the conversions, */
  uint8_t args[OG_FMT_SIMPLE_ARGS]; /* their og_fmt_op in order */
  uint32_t text_len;                /* simple: literal bytes, newlines too */
  bool first_text;                  /* simple: the first line has literal text */
  uint32_t npieces;
  const og_fmt_piece *pieces;
  const char *text; /* the literal bytes, then OG_FMT_TEXT_SLACK zeros */
  uint32_t nsteps;
  og_fmt_spec *specs;
  og_fmt_step steps[];
} og_fmt_prog;

/* The table the programs are found in, by og_fmt_prog_slot. */
enum { OG_FMT_SLOTS = 4096 };
extern _Atomic(og_fmt_prog *) og_fmt_slots[OG_FMT_SLOTS];

static inline size_t og_fmt_prog_slot(const char *fmt) {
  uint64_t h = (uint64_t)(uintptr_t)fmt * UINT64_C(0x9E3779B97F4A7C15);
  return (size_t)(h >> 52); /* 12 bits: OG_FMT_SLOTS */
}

/* The program of `fmt` when it is not in its own slot: parsed and added
 * on first use; NULL when there is no room near its slot. */
const og_fmt_prog *og_fmt_prog_find(const char *fmt);

/* The program of the string literal `fmt` (NULL: format it unparsed). */
static inline const og_fmt_prog *og_fmt_prog_get(const char *fmt) {
  og_fmt_prog *p = atomic_load_explicit(&og_fmt_slots[og_fmt_prog_slot(fmt)],
                                        memory_order_acquire);
  return p && p->fmt == fmt ? p : og_fmt_prog_find(fmt);
}

#endif
