/* What writer.c and writer_simple.c share: the buffer's room and a
 * line's indentation. Inline, as they were in one file: every formatted
 * write takes them. */
#ifndef OPGEN_WRITER_INTERNAL_H
#define OPGEN_WRITER_INTERNAL_H

#include "format_prog.h"
#include "memshort.h"
#include "writer.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* w->buf with room for `need` bytes (w->cap updated). Out of line, a
 * call as og_xgrow was: og_w_room inlines. */
__attribute__((noinline)) char *og_w_grow(og_writer *w, size_t need);

/* Room for `len` more bytes and the '\0'. */
static inline char *og_w_room(og_writer *w, size_t len) {
  if (w->len + len + 1 > w->cap) {
    /* A first 1 KiB holds most scratch texts whole, and a large output
     * skips the small steps. */
    size_t need = w->len + len + 1;
    if (!w->cap && need < 1024) need = 1024;
    w->buf = og_w_grow(w, need);
  }
  return w->buf + w->len;
}

/* n spaces at d: indentation is a few levels, 2 to 16 bytes. */
static inline void og_w_fill_spaces(char *d, size_t n) {
  static const char run[] = "                "; /* 16 */
  if (n < sizeof run) og_copy(d, run, n);
  else memset(d, ' ', n);
}

/* n > 0 bytes without a newline: the indentation first at a line's
 * start. */
static inline void og_w_text(og_writer *w, const char *s, size_t n) {
  int width = w->indent * w->indent_width;
  size_t pad = w->at_line_start && width > 0 ? (size_t)width : 0;
  char *d = og_w_room(w, pad + n);
  og_w_fill_spaces(d, pad);
  og_copy(d + pad, s, n);
  w->len += pad + n;
  w->buf[w->len] = '\0';
  w->at_line_start = false;
}

/* og_w_newline, inline for the formatted writes' line ends. */
static inline void og_w_put_newline(og_writer *w) {
  *og_w_room(w, 1) = '\n';
  w->buf[++w->len] = '\0';
  w->at_line_start = true;
}

/* printf, then `nl` a newline, by the general path (writer.c): `prog`,
 * fmt parsed (NULL: parsed as it is written). */
void og_w_format(og_writer *w, bool nl, const char *fmt,
                 const og_fmt_prog *prog, va_list ap);

#endif
