/* Text output: a growable buffer with indentation helpers. Every emitter
 * writes through one of these; files are committed atomically. */
#ifndef OPGEN_WRITER_H
#define OPGEN_WRITER_H

#include "memshort.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct og_writer {
  char *buf;
  size_t len, cap;
  int indent;        /* current level */
  int indent_width;  /* spaces per level (default 2) */
  bool at_line_start;
} og_writer;

void og_writer_init(og_writer *w);
/* Room for n more bytes without growing: a large output sized up front
 * skips the copies of growing step by step. */
void og_w_reserve(og_writer *w, size_t n);
void og_writer_free(og_writer *w);

/* Appends text; indentation is inserted at the start of each line. */
void og_w_write(og_writer *w, const char *s, size_t len);
/* Appends the bytes of `from` as they are (written at w's indentation,
 * as a part rendered apart) and takes its line state. */
void og_w_append(og_writer *w, const og_writer *from);
/* Inline: a literal's strlen is a constant. */
static inline void og_w_puts(og_writer *w, const char *s) {
  og_w_write(w, s, strlen(s));
}
/* printf. The format must be a string literal ("" before it makes
 * anything else fail to compile): it is parsed once, found again by its
 * address (format_prog.h). A format made at run time goes through
 * og_w_vprintf. */
#define og_w_printf(w, ...) og_w_printf_lit((w), "" __VA_ARGS__)
/* A whole line: printf, then '\n' (a string literal format too). */
#define og_w_line(w, ...) og_w_line_lit((w), "" __VA_ARGS__)
void og_w_printf_lit(og_writer *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void og_w_line_lit(og_writer *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Any format, parsed on each call. */
void og_w_vprintf(og_writer *w, const char *fmt, va_list ap);
void og_w_newline(og_writer *w);
/* n spaces (as og_w_puts of n " " would write them). */
void og_w_spaces(og_writer *w, size_t n);
/* A line (or lines) composed in place, for text made of many small
 * pieces: og_w_open makes room for `max` bytes past the indentation
 * (written when a line starts here) and returns where they go; the
 * caller writes at most `max` bytes of non-empty text there, puts
 * og_w_pad's indentation after each '\n' that a line follows, and passes
 * the end to og_w_close. */
char *og_w_open(og_writer *w, size_t max);
/* The indentation's width, and the indentation written at d (counted in
 * og_w_open's max; returns its end). */
static inline size_t og_w_pad_width(const og_writer *w) {
  int width = w->indent * w->indent_width;
  return width > 0 ? (size_t)width : 0;
}
void og_w_close(og_writer *w, char *end);
/* Copies n bytes to d and returns d + n: og_w_open's pieces. */
static inline char *og_w_put(char *d, const char *s, size_t n) {
  og_copy(d, s, n);
  return d + n;
}
/* n spaces at d; returns their end. */
static inline char *og_w_put_spaces(char *d, size_t n) {
  if (n <= 32) og_copy(d, "                                ", n);
  else memset(d, ' ', n);
  return d + n;
}
static inline char *og_w_pad(const og_writer *w, char *d) {
  return og_w_put_spaces(d, og_w_pad_width(w));
}
void og_w_indent(og_writer *w);
void og_w_dedent(og_writer *w);


#endif
