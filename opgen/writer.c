#define _DEFAULT_SOURCE /* MADV_HUGEPAGE: <sys/mman.h> hides it in C11 */
#include "writer_internal.h"

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

/* A buffer from og_pages (og_w_reserve's) grows by a copy: realloc
 * cannot move it. */
char *og_w_grow(og_writer *w, size_t need) {
  if (!og_pages_owns(w->buf)) return og_xgrow(w->buf, &w->cap, need, 1);
  size_t cap = need > 2 * w->cap ? need : 2 * w->cap;
  char *buf = og_pages_alloc(cap);
  memcpy(buf, w->buf, w->len + 1);
  og_pages_free(w->buf, w->cap);
  w->cap = cap;
  return buf;
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
  og_w_room(w, n);
  if (w->buf != old || w->cap != cap) advise_huge(w);
}

static void append(og_writer *w, const char *s, size_t len) {
  og_copy(og_w_room(w, len), s, len);
  w->len += len;
  w->buf[w->len] = '\0';
}

static void spaces(og_writer *w, size_t n) {
  og_w_fill_spaces(og_w_room(w, n), n);
  w->len += n;
  w->buf[w->len] = '\0';
}

void og_w_append(og_writer *w, const og_writer *from) {
  if (from->len) append(w, from->buf, from->len);
  w->at_line_start = from->at_line_start;
}

void og_w_write(og_writer *w, const char *s, size_t len) {
  if (!og_has_newline(s, len)) { /* nearly always: one piece of a line */
    if (len) og_w_text(w, s, len);
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
    og_w_room(w, n);
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
  char *at = og_w_room(w, pad + 64) + pad;
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
    og_w_fill_spaces(at - pad, pad);
    w->len = start + pad + len;
    if (nl) {
      og_w_room(w, 1); /* the text may end at the buffer's last byte */
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

void og_w_format(og_writer *w, bool nl, const char *fmt,
                 const og_fmt_prog *prog, va_list ap) {
  va_list again;
  va_copy(again, ap);
  if ((prog && prog->vsnprintf_only) || !format_direct(w, nl, fmt, prog, ap))
    format_copy(w, nl, fmt, again);
  va_end(again);
}

void og_w_vprintf(og_writer *w, const char *fmt, va_list ap) {
  og_w_format(w, false, fmt, NULL, ap);
}

/* An empty line gets no indentation: the '\n' alone. */
void og_w_newline(og_writer *w) { og_w_put_newline(w); }

void og_w_spaces(og_writer *w, size_t n) {
  if (!n) return;
  int width = w->indent * w->indent_width;
  size_t pad = w->at_line_start && width > 0 ? (size_t)width : 0;
  memset(og_w_room(w, pad + n), ' ', pad + n);
  w->len += pad + n;
  w->buf[w->len] = '\0';
  w->at_line_start = false;
}
char *og_w_open(og_writer *w, size_t max) {
  int width = w->indent * w->indent_width;
  size_t pad = w->at_line_start && width > 0 ? (size_t)width : 0;
  char *d = og_w_room(w, pad + max);
  og_w_fill_spaces(d, pad);
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
