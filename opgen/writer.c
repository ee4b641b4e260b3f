#include "writer.h"

#include "arena.h"

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

static void append(og_writer *w, const char *s, size_t len) {
  w->buf = og_xgrow(w->buf, &w->cap, w->len + len + 1, 1);
  memcpy(w->buf + w->len, s, len);
  w->len += len;
  w->buf[w->len] = '\0';
}

void og_w_write(og_writer *w, const char *s, size_t len) {
  while (len) {
    const char *nl = memchr(s, '\n', len);
    size_t chunk = nl ? (size_t)(nl - s) + 1 : len;
    bool empty_line = chunk == 1 && s[0] == '\n';
    if (w->at_line_start && !empty_line) /* no trailing spaces */
      for (int i = 0; i < w->indent * w->indent_width; i++) append(w, " ", 1);
    append(w, s, chunk);
    w->at_line_start = nl != NULL;
    s += chunk;
    len -= chunk;
  }
}

void og_w_puts(og_writer *w, const char *s) { og_w_write(w, s, strlen(s)); }

void og_w_vprintf(og_writer *w, const char *fmt, va_list ap) {
  char small[256];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n < 0) n = 0;
  if ((size_t)n < sizeof small) {
    og_w_write(w, small, (size_t)n);
  } else {
    char *big = og_xmalloc((size_t)n + 1);
    vsnprintf(big, (size_t)n + 1, fmt, ap2);
    og_w_write(w, big, (size_t)n);
    free(big);
  }
  va_end(ap2);
}

void og_w_printf(og_writer *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  og_w_vprintf(w, fmt, ap);
  va_end(ap);
}

void og_w_line(og_writer *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  og_w_vprintf(w, fmt, ap);
  va_end(ap);
  og_w_write(w, "\n", 1);
}

void og_w_newline(og_writer *w) { og_w_write(w, "\n", 1); }
void og_w_indent(og_writer *w) { w->indent++; }
void og_w_dedent(og_writer *w) {
  if (w->indent > 0) w->indent--;
}
