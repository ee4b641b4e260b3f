/* The fast paths of og_w_printf and og_w_line, apart from the buffer
 * and the general formatting (writer.c): a format without conversions
 * is copied as it is, and a simple one (og_fmt_prog.simple) is written
 * without printf: its arguments measured, one reservation, its pieces
 * copied in order. Most of the emitters' lines take one of the two. */
#include "writer_internal.h"

#include "format_prog.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

/* Decimal text of v, '-' first when `neg`, ending at `end`; returns its
 * first byte. */
static inline char *decimal(char *end, unsigned long long v, bool neg) {
  do *--end = (char)('0' + v % 10); while (v /= 10);
  if (neg) *--end = '-';
  return end;
}

static inline char *signed_text(char *end, long long v) {
  return decimal(end, v < 0 ? 0ull - (unsigned long long)v
                            : (unsigned long long)v, v < 0);
}

/* The text of a simple program's arguments: s[i], n[i] (numbers in
 * num[i]); their bytes in all, or -1 for one the general path must
 * format: a NULL string (vsnprintf's business), or with `lines` (an
 * indentation to insert) one holding a newline. */
typedef struct simple_args {
  const char *s[OG_FMT_SIMPLE_ARGS];
  size_t n[OG_FMT_SIMPLE_ARGS];
  char num[OG_FMT_SIMPLE_ARGS][24];
} simple_args;

static long long simple_measure(const og_fmt_prog *prog, simple_args *a,
                                bool lines, va_list ap) {
  /* Locals: a store through a char * may alias anything. */
  const uint8_t *op = prog->args, *stop = op + prog->nargs;
  const char **ps = a->s;
  size_t *pn = a->n, len = 0;
  for (char (*num)[24] = a->num; op < stop; op++, ps++, pn++, num++) {
    const char *s;
    size_t n;
    if (*op == OG_FMT_STR || *op == OG_FMT_STRN) {
      int prec = *op == OG_FMT_STRN ? va_arg(ap, int) : -1;
      if (!(s = va_arg(ap, const char *))) return -1;
      n = prec < 0 ? strlen(s) : strnlen(s, (size_t)prec);
      if (lines && og_has_newline(s, n)) return -1;
    } else {
      char *end = *num + sizeof *num;
      switch (*op) {
      case OG_FMT_ZU: s = decimal(end, va_arg(ap, size_t), false); break;
      case OG_FMT_D: s = signed_text(end, va_arg(ap, int)); break;
      case OG_FMT_LD: s = signed_text(end, va_arg(ap, long)); break;
      default: s = signed_text(end, va_arg(ap, long long)); break;
      }
      n = (size_t)(end - s);
    }
    *ps = s;
    *pn = n;
    len += n;
  }
  return (long long)len;
}

/* A literal piece: 16 bytes a step (the program's text and the room
 * reserved run on past it). */
static inline char *put_text(char *d, const char *s, size_t n) {
  size_t i = 0;
  do memcpy(d + i, s + i, 16); while ((i += 16) < n);
  return d + n;
}

/* Whether the line from piece i on has a byte (k: the argument it
 * starts at). */
static bool line_has_bytes(const og_fmt_prog *prog, size_t i,
                           const simple_args *a, size_t k) {
  for (; i < prog->npieces; i++) {
    uint8_t kind = prog->pieces[i].kind;
    if (kind == OG_PIECE_NL) return false;
    if (kind == OG_PIECE_TEXT || a->n[k++]) return true;
  }
  return false;
}

/* A simple program's pieces at d: each line's indentation before its
 * first byte (none on an empty line), as og_w_write indents. Returns the
 * end; *line_start: whether it ends a line. */
static char *simple_lines(const og_writer *w, char *d, const og_fmt_prog *prog,
                          const simple_args *a, bool *line_start) {
  const og_fmt_piece *pc = prog->pieces, *first = pc, *stop = pc + prog->npieces;
  const char *text = prog->text, *const *s = a->s;
  const size_t *n = a->n;
  size_t width = og_w_pad_width(w);
  char *line = NULL; /* where the last line began */
  if (*line_start && width &&
      (prog->first_text || line_has_bytes(prog, 0, a, 0)))
    og_w_fill_spaces(d, width), d += width;
  for (; pc < stop; pc++) {
    if (pc->kind == OG_PIECE_TEXT) {
      d = put_text(d, text + pc->off, pc->len);
    } else if (pc->kind == OG_PIECE_ARG) {
      d = og_w_put(d, *s++, *n++);
    } else {
      *d++ = '\n';
      line = d;
      if (width && (pc->len || line_has_bytes(prog, (size_t)(pc - first) + 1,
                                              a, (size_t)(s - a->s))))
        og_w_fill_spaces(d, width), d += width;
    }
  }
  *line_start = line && d == line;
  return d;
}

/* A simple program's pieces at d without indentation (an argument may
 * hold newlines then); returns the end. */
static char *simple_flat(char *d, const og_fmt_prog *prog,
                         const simple_args *a) {
  const og_fmt_piece *pc = prog->pieces, *stop = pc + prog->npieces;
  const char *text = prog->text, *const *s = a->s;
  const size_t *n = a->n;
  for (; pc < stop; pc++) {
    if (pc->kind == OG_PIECE_TEXT) d = put_text(d, text + pc->off, pc->len);
    else if (pc->kind == OG_PIECE_ARG) d = og_w_put(d, *s++, *n++);
    else *d++ = '\n';
  }
  return d;
}

/* A simple program (og_fmt_prog.simple) at once: the arguments measured
 * first, then one reservation and the pieces copied in order. False,
 * with nothing written, for an argument the general path formats. */
static bool simple_write(og_writer *w, bool nl, const og_fmt_prog *prog,
                         va_list ap) {
  simple_args a;
  size_t width = og_w_pad_width(w);
  long long args = simple_measure(prog, &a, width > 0, ap);
  if (args < 0 || (unsigned long long)args + prog->text_len > INT_MAX)
    return false; /* INT_MAX: vsnprintf's limit */
  size_t len = (size_t)args + prog->text_len;
  if (!len) {
    if (nl) og_w_put_newline(w); /* an empty line: no indentation */
    return true;
  }
  /* Room for an indentation a line (lines <= pieces + 1), the '\n' and
   * what put_text writes past the end. */
  size_t room = len + (prog->npieces + 1) * width + 1 + 16;
  char *d = og_w_room(w, room);
  bool line_start = w->at_line_start;
  if (!width) { /* no indentation: the pieces as they are */
    d = simple_flat(d, prog, &a);
    line_start = d[-1] == '\n';
  } else if (prog->text_newline) {
    d = simple_lines(w, d, prog, &a, &line_start);
  } else { /* one line, not empty: indented if it starts one */
    if (line_start) og_w_fill_spaces(d, width), d += width;
    line_start = false;
    const og_fmt_piece *pc = prog->pieces, *stop = pc + prog->npieces;
    const char *text = prog->text, *const *s = a.s;
    const size_t *n = a.n;
    for (; pc < stop; pc++)
      d = pc->kind == OG_PIECE_TEXT ? put_text(d, text + pc->off, pc->len)
                                    : og_w_put(d, *s++, *n++);
  }
  if (nl) *d++ = '\n', line_start = true;
  *d = '\0';
  w->len = (size_t)(d - w->buf);
  w->at_line_start = line_start;
  return true;
}

/* A format without conversions or newlines (half the emitters' lines):
 * its one literal run, as it is. Inline: else GCC calls a part of it. */
static inline bool plain_text(og_writer *w, bool nl, const og_fmt_prog *prog) {
  if (!prog || prog->vsnprintf_only || prog->nsteps != 1 ||
      prog->steps[0].op != OG_FMT_TEXT || prog->text_newline)
    return false;
  og_w_text(w, prog->fmt + prog->steps[0].off, prog->steps[0].len);
  if (nl) og_w_put_newline(w);
  return true;
}

void og_w_printf_lit(og_writer *w, const char *fmt, ...) {
  const og_fmt_prog *prog = og_fmt_prog_get(fmt);
  if (plain_text(w, false, prog)) return;
  va_list ap;
  if (prog && prog->simple) {
    va_start(ap, fmt);
    bool done = simple_write(w, false, prog, ap);
    va_end(ap);
    if (done) return;
  }
  va_start(ap, fmt);
  og_w_format(w, false, fmt, prog, ap);
  va_end(ap);
}

void og_w_line_lit(og_writer *w, const char *fmt, ...) {
  const og_fmt_prog *prog = og_fmt_prog_get(fmt);
  if (plain_text(w, true, prog)) return;
  va_list ap;
  if (prog && prog->simple) {
    va_start(ap, fmt);
    bool done = simple_write(w, true, prog, ap);
    va_end(ap);
    if (done) return;
  }
  va_start(ap, fmt);
  og_w_format(w, true, fmt, prog, ap);
  va_end(ap);
}
