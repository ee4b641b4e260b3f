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

/* A plain %zu or %d (no flag, width or precision) gets an op of its own:
 * the simple programs' integers. */
static og_fmt_op spec_op(const og_fmt_spec *s) {
  bool plain = !s->left && !s->zero && !s->width && !s->width_arg &&
               s->prec < 0 && !s->prec_arg;
  if (plain && s->conv == 'u' && s->lenmod == OG_FMT_LEN_SIZE && s->size == 2)
    return OG_FMT_ZU;
  if (plain && s->conv == 'd' && s->size == 1) return OG_FMT_D;
  return OG_FMT_SPEC;
}

/* og_fmt_prog.simple and what it needs: the arguments' ops in order and
 * the bytes of the literal runs. */
static void mark_simple(og_fmt_prog *p) {
  if (p->vsnprintf_only || p->text_newline) return;
  for (uint32_t i = 0; i < p->nsteps; i++) {
    const og_fmt_step *st = &p->steps[i];
    if (st->op == OG_FMT_TEXT) {
      p->text_len += st->len;
      continue;
    }
    if (st->op == OG_FMT_SPEC || p->nargs == OG_FMT_SIMPLE_ARGS) return;
    p->args[p->nargs++] = st->op;
  }
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

const og_fmt_prog *og_fmt_prog_find(const char *fmt) {
  size_t at = og_fmt_prog_slot(fmt);
  og_fmt_prog *mine = NULL;
  for (size_t i = 0; i < PROBES; i++) {
    _Atomic(og_fmt_prog *) *slot = &og_fmt_slots[(at + i) % OG_FMT_SLOTS];
    og_fmt_prog *p = atomic_load_explicit(slot, memory_order_acquire);
    if (p && p->fmt == fmt) {
      if (mine) free(mine);
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
      free(mine);
      return expected;
    }
  }
  free(mine); /* no room near its slot: formatted the plain way */
  return NULL;
}
