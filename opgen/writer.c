#define _DEFAULT_SOURCE /* MADV_HUGEPAGE: <sys/mman.h> hides it in C11 */
#include "writer.h"

#include "arena.h"
#include "format.h"
#include "format_prog.h"
#include "memshort.h"
#include "pages.h"

#include <limits.h>
#include <stdint.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void og_writer_init(og_writer *w) {
  memset(w, 0, sizeof *w);
  w->indent_width = 2;
  w->at_line_start = true;
}

void og_writer_free(og_writer *w) {
  og_pages_free(w->buf, w->cap); /* free() but for og_w_reserve's */
  og_writer_init(w);
}

/* w->buf with room for `need` bytes (w->cap updated). A buffer from
 * og_pages (og_w_reserve's) grows by a copy: realloc cannot move it.
 * Out of line, a call as og_xgrow was: reserve() inlines as before. */
static __attribute__((noinline)) char *grow(og_writer *w, size_t need) {
  if (!og_pages_owns(w->buf)) return og_xgrow(w->buf, &w->cap, need, 1);
  size_t cap = need > 2 * w->cap ? need : 2 * w->cap;
  char *buf = og_pages_alloc(cap);
  memcpy(buf, w->buf, w->len + 1);
  og_pages_free(w->buf, w->cap);
  w->cap = cap;
  return buf;
}

/* Room for `len` more bytes and the '\0'. */
static char *reserve(og_writer *w, size_t len) {
  if (w->len + len + 1 > w->cap) {
    /* A first 1 KiB holds most scratch texts whole, and a large output
     * skips the small steps. */
    size_t need = w->len + len + 1;
    if (!w->cap && need < 1024) need = 1024;
    w->buf = grow(w, need);
  }
  return w->buf + w->len;
}

/* Huge pages for a large output: its megabytes fault in 2 MiB at a
 * time instead of 4 KiB (on Linux, where the kernel allows them on
 * request). Only the whole huge pages inside the buffer are advised. */
static void advise_huge(og_writer *w) {
#if defined(__linux__) && !defined(MADV_HUGEPAGE)
#error "MADV_HUGEPAGE missing: without it large outputs fault 4 KiB at a time"
#endif
#ifdef MADV_HUGEPAGE
  enum { HUGE = 2u << 20 };
  if (w->cap < 2 * HUGE) return;
  uintptr_t lo = ((uintptr_t)w->buf + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
  uintptr_t hi = ((uintptr_t)w->buf + w->cap) & ~(uintptr_t)(HUGE - 1);
  if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
  (void)w;
#endif
}

void og_w_reserve(og_writer *w, size_t n) {
  /* An output's megabytes from og_pages: huge pages already, and ones a
   * `gen` faulted in beside its compile (og_pages_prefault). */
  if (!w->buf && n >= (1u << 20)) {
    w->cap = n + 1;
    w->buf = og_pages_alloc(w->cap);
    w->buf[0] = '\0';
    return;
  }
  char *old = w->buf;
  size_t cap = w->cap;
  reserve(w, n);
  if (w->buf != old || w->cap != cap) advise_huge(w);
}

static void append(og_writer *w, const char *s, size_t len) {
  og_copy(reserve(w, len), s, len);
  w->len += len;
  w->buf[w->len] = '\0';
}

/* n spaces at d: indentation is a few levels, 2 to 16 bytes. */
static inline void fill_spaces(char *d, size_t n) {
  static const char run[] = "                "; /* 16 */
  if (n < sizeof run) og_copy(d, run, n);
  else memset(d, ' ', n);
}

static void spaces(og_writer *w, size_t n) {
  fill_spaces(reserve(w, n), n);
  w->len += n;
  w->buf[w->len] = '\0';
}

/* n > 0 bytes without a newline: the indentation first at a line's
 * start. */
static void text(og_writer *w, const char *s, size_t n) {
  int width = w->indent * w->indent_width;
  size_t pad = w->at_line_start && width > 0 ? (size_t)width : 0;
  char *d = reserve(w, pad + n);
  fill_spaces(d, pad);
  og_copy(d + pad, s, n);
  w->len += pad + n;
  w->buf[w->len] = '\0';
  w->at_line_start = false;
}

void og_w_append(og_writer *w, const og_writer *from) {
  if (from->len) append(w, from->buf, from->len);
  w->at_line_start = from->at_line_start;
}

void og_w_write(og_writer *w, const char *s, size_t len) {
  if (!og_has_newline(s, len)) { /* nearly always: one piece of a line */
    if (len) text(w, s, len);
    return;
  }
  while (len) {
    const char *nl = memchr(s, '\n', len);
    size_t chunk = nl ? (size_t)(nl - s) + 1 : len;
    bool empty_line = chunk == 1 && s[0] == '\n';
    int pad = w->indent * w->indent_width;
    if (w->at_line_start && !empty_line && pad > 0) /* no trailing spaces */
      spaces(w, (size_t)pad);
    append(w, s, chunk);
    w->at_line_start = nl != NULL;
    s += chunk;
    len -= chunk;
  }
}

/* The old way, for a format with a conversion that og_fmt_convert does
 * not do: the whole text by og_vsnprintf (vsnprintf then), then through
 * og_w_write. */
static void format_copy(og_writer *w, bool nl, const char *fmt, va_list ap) {
  char small[256], *text = small;
  va_list again;
  va_copy(again, ap);
  int n = og_vsnprintf(small, sizeof small, fmt, ap);
  if (n < 0) n = 0;
  if ((size_t)n + 1 >= sizeof small) {
    text = og_xmalloc((size_t)n + 2);
    og_vsnprintf(text, (size_t)n + 1, fmt, again);
  }
  va_end(again);
  if (nl) text[n++] = '\n';
  og_w_write(w, text, (size_t)n);
  if (text != small) free(text);
}

/* Where a formatted write is: the next byte goes to `d` (w->len is only
 * set when it ends). */
typedef struct cursor {
  og_writer *w;
  char *d, *end; /* end: the last byte of room, kept for the '\0' */
} cursor;

static char *cursor_room(cursor *c, size_t n) {
  if ((size_t)(c->end - c->d) < n) {
    og_writer *w = c->w;
    size_t len = w->len;
    w->len = (size_t)(c->d - w->buf);
    reserve(w, n);
    c->d = w->buf + w->len;
    c->end = w->buf + w->cap - 1;
    w->len = len;
  }
  return c->d;
}

static inline void cursor_put(cursor *c, const char *s, size_t n) {
  og_copy(cursor_room(c, n), s, n);
  c->d += n;
}

static void cursor_fill(cursor *c, char ch, size_t n) {
  memset(cursor_room(c, n), ch, n);
  c->d += n;
}

static void cursor_field(cursor *c, const og_fmt_field *f) {
  if (f->lead) cursor_fill(c, ' ', f->lead);
  if (f->neg) cursor_put(c, "-", 1);
  if (f->zeros) cursor_fill(c, '0', f->zeros);
  cursor_put(c, f->s, f->n);
  if (f->trail) cursor_fill(c, ' ', f->trail);
}

/* The formatted text at c->d: false for a format that only vsnprintf
 * formats. */
static bool format_text(cursor *c, const char *fmt, va_list ap) {
  va_list args;
  va_copy(args, ap);
  bool ok = true;
  for (const char *p = fmt;;) {
    const char *pct = og_fmt_find_percent(p);
    cursor_put(c, p, (size_t)(pct - p));
    if (!*pct) break;
    p = pct + 1;
    if (*p == 's') { /* plain %s: most of them */
      const char *s = va_arg(args, const char *);
      if (!(ok = s != NULL)) break; /* "(null)" is glibc's business */
      cursor_put(c, s, strlen(s));
      p++;
      continue;
    }
    og_fmt_field f;
    if (!(ok = og_fmt_convert(&p, &args, &f))) break;
    cursor_field(c, &f);
  }
  va_end(args);
  return ok;
}

/* A parsed format's text at c->d: false where the arguments need
 * vsnprintf. */
static bool run_prog(cursor *c, const og_fmt_prog *prog, va_list ap) {
  va_list args;
  va_copy(args, ap);
  bool ok = true;
  char *d = c->d, *end = c->end; /* in registers: c only on slow paths */
  const og_fmt_step *st = prog->steps, *stop = st + prog->nsteps;
  for (; st < stop; st++) {
    const char *s;
    size_t n;
    if (st->op == OG_FMT_TEXT) {
      s = prog->fmt + st->off;
      n = st->len;
    } else if (st->op == OG_FMT_STR) {
      if (!(ok = (s = va_arg(args, const char *)) != NULL)) break;
      n = strlen(s);
    } else {
      og_fmt_field f;
      if (!(ok = og_fmt_apply(&prog->specs[st->off], &args, &f))) break;
      c->d = d;
      cursor_field(c, &f);
      d = c->d, end = c->end;
      continue;
    }
    if ((size_t)(end - d) < n) {
      c->d = d;
      d = cursor_room(c, n), end = c->end;
    }
    og_copy(d, s, n);
    d += n;
  }
  c->d = d;
  va_end(args);
  return ok;
}

/* Text of several lines, formatted past w->len: through og_w_write,
 * which indents each line. */
static void write_lines(og_writer *w, const char *text, size_t len, bool nl) {
  char small[256];
  char *copy = len <= sizeof small ? small : og_xmalloc(len);
  memcpy(copy, text, len);
  og_w_write(w, copy, len);
  if (nl) og_w_write(w, "\n", 1);
  if (copy != small) free(copy);
}

/* printf, then `nl` a newline, as og_w_write would write the text. The
 * text is formatted in place after the line's indentation (reserved at
 * a line's start, dropped when the text turns out empty); text with a
 * newline inside is indented line by line. False, with nothing written,
 * for a format that only vsnprintf formats, or too long for an int. */
static bool format_direct(og_writer *w, bool nl, const char *fmt,
                          const og_fmt_prog *prog, va_list ap) {
  int width = w->indent * w->indent_width;
  size_t start = w->len;
  size_t pad = w->at_line_start && width > 0 ? (size_t)width : 0;
  char *at = reserve(w, pad + 64) + pad;
  cursor c = {w, at, w->buf + w->cap - 1};
  bool ok = prog ? run_prog(&c, prog, ap) : format_text(&c, fmt, ap);
  at = w->buf + start + pad; /* the buffer may have moved */
  size_t len = (size_t)(c.d - at);
  if (!ok || len > INT_MAX) { /* vsnprintf's limit */
    w->buf[start] = '\0';
    return false;
  }
  bool lines = prog ? prog->text_newline || (prog->text_args && len &&
                                             memchr(at, '\n', len))
                    : len && memchr(at, '\n', len);
  if (lines) {
    write_lines(w, at, len, nl);
  } else if (len) {
    fill_spaces(at - pad, pad);
    w->len = start + pad + len;
    if (nl) {
      reserve(w, 1); /* the text may end at the buffer's last byte */
      w->buf[w->len++] = '\n';
    }
    w->buf[w->len] = '\0';
    w->at_line_start = nl;
  } else if (nl) {
    og_w_newline(w); /* an empty line: no indentation */
  } else {
    w->buf[start] = '\0';
  }
  return true;
}

/* `prog`: fmt parsed (NULL: parsed as it is written). */
static void format_write(og_writer *w, bool nl, const char *fmt,
                         const og_fmt_prog *prog, va_list ap) {
  va_list again;
  va_copy(again, ap);
  if ((prog && prog->vsnprintf_only) || !format_direct(w, nl, fmt, prog, ap))
    format_copy(w, nl, fmt, again);
  va_end(again);
}

void og_w_vprintf(og_writer *w, const char *fmt, va_list ap) {
  format_write(w, false, fmt, NULL, ap);
}

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
    fill_spaces(d, width), d += width;
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
        fill_spaces(d, width), d += width;
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
    if (nl) og_w_newline(w); /* an empty line: no indentation */
    return true;
  }
  /* Room for an indentation a line (lines <= pieces + 1), the '\n' and
   * what put_text writes past the end. */
  size_t room = len + (prog->npieces + 1) * width + 1 + 16;
  char *d = reserve(w, room);
  bool line_start = w->at_line_start;
  if (!width) { /* no indentation: the pieces as they are */
    d = simple_flat(d, prog, &a);
    line_start = d[-1] == '\n';
  } else if (prog->text_newline) {
    d = simple_lines(w, d, prog, &a, &line_start);
  } else { /* one line, not empty: indented if it starts one */
    if (line_start) fill_spaces(d, width), d += width;
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
 * its one literal run, as it is. */
static bool plain_text(og_writer *w, bool nl, const og_fmt_prog *prog) {
  if (!prog || prog->vsnprintf_only || prog->nsteps != 1 ||
      prog->steps[0].op != OG_FMT_TEXT || prog->text_newline)
    return false;
  text(w, prog->fmt + prog->steps[0].off, prog->steps[0].len);
  if (nl) og_w_newline(w);
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
  format_write(w, false, fmt, prog, ap);
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
  format_write(w, true, fmt, prog, ap);
  va_end(ap);
}

/* An empty line gets no indentation: the '\n' alone. */
void og_w_newline(og_writer *w) {
  *reserve(w, 1) = '\n';
  w->buf[++w->len] = '\0';
  w->at_line_start = true;
}

void og_w_spaces(og_writer *w, size_t n) {
  if (!n) return;
  int width = w->indent * w->indent_width;
  size_t pad = w->at_line_start && width > 0 ? (size_t)width : 0;
  memset(reserve(w, pad + n), ' ', pad + n);
  w->len += pad + n;
  w->buf[w->len] = '\0';
  w->at_line_start = false;
}
char *og_w_open(og_writer *w, size_t max) {
  int width = w->indent * w->indent_width;
  size_t pad = w->at_line_start && width > 0 ? (size_t)width : 0;
  char *d = reserve(w, pad + max);
  fill_spaces(d, pad);
  return d + pad;
}

void og_w_close(og_writer *w, char *end) {
  w->len = (size_t)(end - w->buf);
  w->buf[w->len] = '\0';
  w->at_line_start = end[-1] == '\n';
}

void og_w_indent(og_writer *w) { w->indent++; }
void og_w_dedent(og_writer *w) {
  if (w->indent > 0) w->indent--;
}
