#include "format_prog.h"

#include "arena.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Open addressing by the literal's address. A program, once in a slot,
 * stays there until the process ends (the emitters use a few hundred
 * formats): readers need no lock, only the acquire that pairs with the
 * compare-and-swap that published it. */
enum { PROBES = 16 };
_Atomic(og_fmt_prog *) og_fmt_slots[OG_FMT_SLOTS];

static void add_step(og_fmt_prog *p, og_fmt_op op, size_t off, size_t len) {
  p->steps[p->nsteps++] = (og_fmt_step){(uint32_t)off, (uint32_t)len,
                                        (uint8_t)op};
}

/* The conversions of the simple programs get an op of their own: %zu,
 * %d, %ld, %lld without flag, width or precision, and %.*s. */
static og_fmt_op spec_op(const og_fmt_spec *s) {
  if (s->left || s->zero || s->width || s->width_arg) return OG_FMT_SPEC;
  if (s->conv == 's' && s->prec_arg && s->lenmod == OG_FMT_LEN_INT)
    return OG_FMT_STRN;
  if (s->prec >= 0 || s->prec_arg) return OG_FMT_SPEC;
  if (s->conv == 'u' && s->lenmod == OG_FMT_LEN_SIZE) return OG_FMT_ZU;
  if (s->conv != 'd') return OG_FMT_SPEC;
  return s->lenmod == OG_FMT_LEN_INT    ? OG_FMT_D
         : s->lenmod == OG_FMT_LEN_LONG ? OG_FMT_LD
         : s->lenmod == OG_FMT_LEN_LLONG ? OG_FMT_LLD
                                         : OG_FMT_SPEC;
}

/* The pieces of a literal run: its bytes between newlines into `text`
 * (at *used), a newline piece for each newline. */
static void add_run(og_fmt_prog *p, og_fmt_piece *pieces, char *text,
                    size_t *used, const og_fmt_step *st) {
  const char *s = p->fmt + st->off, *end = s + st->len;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    size_t n = (size_t)((nl ? nl : end) - s);
    if (n) {
      memcpy(text + *used, s, n);
      pieces[p->npieces++] =
          (og_fmt_piece){(uint32_t)*used, (uint32_t)n, OG_PIECE_TEXT};
      *used += n;
    }
    if (!nl) break;
    pieces[p->npieces++] = (og_fmt_piece){0, 0, OG_PIECE_NL};
    s = nl + 1;
  }
}

/* Which lines have literal text (an indentation whatever the arguments
 * hold): first_text, and a newline piece's len for the line after it. */
static void mark_lines(og_fmt_prog *p, og_fmt_piece *pieces) {
  bool text = false;
  for (size_t i = p->npieces; i-- > 0;) {
    if (pieces[i].kind == OG_PIECE_NL) {
      pieces[i].len = text;
      text = false;
    } else if (pieces[i].kind == OG_PIECE_TEXT) {
      text = true;
    }
  }
  p->first_text = text;
}

/* og_fmt_prog.simple and what it needs: the pieces, the literal bytes
 * without the newlines, the arguments' ops. */
static void mark_simple(og_fmt_prog *p) {
  if (p->vsnprintf_only) return;
  size_t npieces = 0, nargs = 0, bytes = 0;
  for (uint32_t i = 0; i < p->nsteps; i++) {
    const og_fmt_step *st = &p->steps[i];
    if (st->op == OG_FMT_SPEC) return;
    if (st->op != OG_FMT_TEXT) {
      npieces++, nargs++;
      continue;
    }
    bytes += st->len;
    npieces += st->len; /* at most: a piece a byte */
  }
  if (nargs > OG_FMT_SIMPLE_ARGS) return;
  og_fmt_piece *pieces = og_xmalloc((npieces + 1) * sizeof *pieces);
  char *text = og_xmalloc(bytes + OG_FMT_TEXT_SLACK);
  memset(text, 0, bytes + OG_FMT_TEXT_SLACK);
  size_t used = 0;
  for (uint32_t i = 0; i < p->nsteps; i++) {
    const og_fmt_step *st = &p->steps[i];
    if (st->op == OG_FMT_TEXT) {
      add_run(p, pieces, text, &used, st);
      p->text_len += st->len;
      continue;
    }
    pieces[p->npieces++] = (og_fmt_piece){0, 0, OG_PIECE_ARG};
    p->args[p->nargs++] = st->op;
  }
  mark_lines(p, pieces);
  p->pieces = pieces;
  p->text = text;
  p->simple = true;
}

/* Literal runs and conversions; a conversion that og_fmt_parse does not
 * do marks the program vsnprintf_only (it is never run then). */
static og_fmt_prog *compile(const char *fmt) {
  size_t percents = 0;
  for (const char *p = fmt; *p; p++) percents += *p == '%';
  size_t nsteps = 2 * percents + 1;
  /* The specs after the steps, at their own alignment. */
  size_t align = _Alignof(og_fmt_spec);
  size_t at = (sizeof(og_fmt_prog) + nsteps * sizeof(og_fmt_step) + align - 1) /
              align * align;
  og_fmt_prog *prog = og_xmalloc(at + percents * sizeof(og_fmt_spec));
  *prog = (og_fmt_prog){.fmt = fmt};
  prog->specs = (og_fmt_spec *)(void *)((char *)prog + at);
  size_t nspecs = 0;
  for (const char *p = fmt; *p;) {
    const char *q = p;
    while (*q && *q != '%') q++;
    if (q > p) add_step(prog, OG_FMT_TEXT, (size_t)(p - fmt), (size_t)(q - p));
    if (q > p && memchr(p, '\n', (size_t)(q - p))) prog->text_newline = true;
    if (!*q++) break;
    og_fmt_spec spec;
    if (*q == 's') {
      add_step(prog, OG_FMT_STR, 0, 0);
      prog->text_args = true;
      p = q + 1;
      continue;
    }
    if (!og_fmt_parse(q, &spec)) {
      prog->vsnprintf_only = true;
      break;
    }
    if (spec.conv == '%') { /* "%%": the second '%' as text */
      add_step(prog, OG_FMT_TEXT, (size_t)(q - fmt), 1);
    } else {
      add_step(prog, spec_op(&spec), nspecs, 0);
      prog->specs[nspecs++] = spec;
      prog->text_args |= spec.conv == 's' || spec.conv == 'c';
    }
    p = q + spec.size;
  }
  mark_simple(prog);
  return prog;
}

static void discard(og_fmt_prog *p) {
  if (!p) return;
  free((void *)p->pieces);
  free((void *)p->text);
  free(p);
}

const og_fmt_prog *og_fmt_prog_find(const char *fmt) {
  size_t at = og_fmt_prog_slot(fmt);
  og_fmt_prog *mine = NULL;
  for (size_t i = 0; i < PROBES; i++) {
    _Atomic(og_fmt_prog *) *slot = &og_fmt_slots[(at + i) % OG_FMT_SLOTS];
    og_fmt_prog *p = atomic_load_explicit(slot, memory_order_acquire);
    if (p && p->fmt == fmt) {
      discard(mine);
      return p;
    }
    if (p) continue;
    if (!mine) mine = compile(fmt);
    og_fmt_prog *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(slot, &expected, mine,
                                                memory_order_acq_rel,
                                                memory_order_acquire))
      return mine;
    if (expected->fmt == fmt) { /* another thread published it first */
      discard(mine);
      return expected;
    }
  }
  discard(mine); /* no room near its slot: formatted the plain way */
  return NULL;
}
