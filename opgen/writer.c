#include "writer.h"

#include "arena.h"
#include "format.h"

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
  if (w->len + len + 1 > w->cap)
    w->buf = og_xgrow(w->buf, &w->cap, w->len + len + 1, 1);
  return w->buf + w->len;
}

static void append(og_writer *w, const char *s, size_t len) {
  memcpy(reserve(w, len), s, len);
  w->len += len;
  w->buf[w->len] = '\0';
}

static void spaces(og_writer *w, size_t n) {
  memset(reserve(w, n), ' ', n);
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

/* Formats into a stack buffer (a heap one when too long), adds `nl`
 * newlines, and writes the whole in one go. */
static void format_write(og_writer *w, bool nl, const char *fmt, va_list ap) {
  char small[256];
  va_list ap2;
  va_copy(ap2, ap);
  int n = og_vsnprintf(small, sizeof small - 1, fmt, ap);
  if (n < 0) n = 0;
  char *text = small;
  if ((size_t)n >= sizeof small - 1) {
    text = og_xmalloc((size_t)n + 2);
    og_vsnprintf(text, (size_t)n + 1, fmt, ap2);
  }
  va_end(ap2);
  if (nl) text[n++] = '\n';
  og_w_write(w, text, (size_t)n);
  if (text != small) free(text);
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

void og_w_newline(og_writer *w) { og_w_write(w, "\n", 1); }

void og_w_spaces(og_writer *w, size_t n) {
  static const char run[] = "                                "; /* 32 */
  for (; n > sizeof run - 1; n -= sizeof run - 1) og_w_write(w, run, sizeof run - 1);
  og_w_write(w, run, n);
}
void og_w_indent(og_writer *w) { w->indent++; }
void og_w_dedent(og_writer *w) {
  if (w->indent > 0) w->indent--;
}
