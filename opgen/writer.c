#include "writer.h"

#include "arena.h"
#include "format.h"
#include "memshort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void og_writer_init(og_writer *w) {
  memset(w, 0, sizeof *w);
  w->indent_width = 2;
  w->at_line_start = true;
}

void og_writer_free(og_writer *w) {
  free(w->buf);
  og_writer_init(w);
}

/* Room for `len` more bytes and the '\0'. */
static char *reserve(og_writer *w, size_t len) {
  if (w->len + len + 1 > w->cap) {
    /* A first 1 KiB holds most scratch texts whole, and a large output
     * skips the small steps. */
    size_t need = w->len + len + 1;
    if (!w->cap && need < 1024) need = 1024;
    w->buf = og_xgrow(w->buf, &w->cap, need, 1);
  }
  return w->buf + w->len;
}

void og_w_reserve(og_writer *w, size_t n) { reserve(w, n); }

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

void og_w_write(og_writer *w, const char *s, size_t len) {
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

void og_w_puts(og_writer *w, const char *s) { og_w_write(w, s, strlen(s)); }

/* The general case of format_write: the text in its own buffer, then
 * through og_w_write. */
static void format_copy(og_writer *w, bool nl, int n, const char *fmt,
                        va_list ap) {
  char *text = og_xmalloc((size_t)n + 2);
  og_vsnprintf(text, (size_t)n + 1, fmt, ap);
  if (nl) text[n++] = '\n';
  og_w_write(w, text, (size_t)n);
  free(text);
}

/* printf, then `nl` a newline, as og_w_write would write the text. The
 * usual case (one line, which fits the room reserved) is formatted in
 * place after the line's indentation, with no copy. */
static void format_write(og_writer *w, bool nl, const char *fmt, va_list ap) {
  enum { ROOM = 256 };
  int width = w->indent * w->indent_width;
  size_t pad = w->at_line_start && width > 0 ? (size_t)width : 0;
  char *at = reserve(w, pad + ROOM + 1) + pad;
  va_list again;
  va_copy(again, ap);
  int n = og_vsnprintf(at, ROOM, fmt, ap);
  if (n < 0) n = 0;
  size_t len = (size_t)n;
  /* Fits, and no newline inside: one chunk for og_w_write. */
  if (len < ROOM && (len == 0 || !memchr(at, '\n', len - 1))) {
    if (nl) at[len++] = '\n';
    if (len > 0) {
      if (pad && len == 1 && at[0] == '\n') { /* no trailing spaces */
        memmove(at - pad, at, len);
        pad = 0;
      }
      fill_spaces(at - pad, pad);
      w->len += pad + len;
      w->buf[w->len] = '\0';
      w->at_line_start = at[len - 1] == '\n';
    }
  } else if (len < ROOM) { /* several lines: indent each */
    char text[ROOM + 1];
    memcpy(text, at, len);
    if (nl) text[len++] = '\n';
    w->buf[w->len] = '\0';
    og_w_write(w, text, len);
  } else {
    w->buf[w->len] = '\0';
    format_copy(w, nl, n, fmt, again);
  }
  va_end(again);
}

void og_w_vprintf(og_writer *w, const char *fmt, va_list ap) {
  format_write(w, false, fmt, ap);
}

void og_w_printf(og_writer *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  format_write(w, false, fmt, ap);
  va_end(ap);
}

void og_w_line(og_writer *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  format_write(w, true, fmt, ap);
  va_end(ap);
}

/* An empty line gets no indentation: the '\n' alone. */
void og_w_newline(og_writer *w) {
  *reserve(w, 1) = '\n';
  w->buf[++w->len] = '\0';
  w->at_line_start = true;
}

void og_w_spaces(og_writer *w, size_t n) {
  static const char run[] = "                                "; /* 32 */
  for (; n > sizeof run - 1; n -= sizeof run - 1) og_w_write(w, run, sizeof run - 1);
  og_w_write(w, run, n);
}
void og_w_indent(og_writer *w) { w->indent++; }
void og_w_dedent(og_writer *w) {
  if (w->indent > 0) w->indent--;
}
