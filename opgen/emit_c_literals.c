/* Strings longer than C's string-literal limit. C11 (5.2.4.1) only
 * promises 4095 characters in a string literal, after concatenation, and
 * gcc and clang warn past it under -pedantic (-Woverlength-strings); a
 * longer string is written as an array of character constants, which has
 * no such limit. */
#include "emit_c_internal.h"

enum { CHARS_PER_LINE = 12 };

bool og_c_string_fits(size_t len) { return len <= OG_C_STRING_MAX; }

/* One character constant: escaped where C needs it, octal for bytes that
 * are not printable ASCII. */
static void char_const(og_writer *w, unsigned char c) {
  if (c == '\'' || c == '\\') og_w_printf(w, "'\\%c'", c);
  else if (c == '\n') og_w_puts(w, "'\\n'");
  else if (c >= 0x20 && c < 0x7f) og_w_printf(w, "'%c'", c);
  else og_w_printf(w, "'\\%03o'", c);
}

void og_c_char_list(og_writer *w, const char *s, size_t len) {
  og_w_puts(w, "{");
  og_w_indent(w);
  for (size_t i = 0; i < len; i++) {
    if (i % CHARS_PER_LINE == 0) og_w_newline(w);
    char_const(w, (unsigned char)s[i]);
    og_w_puts(w, i % CHARS_PER_LINE == CHARS_PER_LINE - 1 ? "," : ", ");
  }
  og_w_puts(w, "0");
  og_w_dedent(w);
  og_w_puts(w, "}");
}

void og_c_long_string(og_writer *w, const char *s, size_t len) {
  og_w_puts(w, "(const char[])");
  og_c_char_list(w, s, len);
}

void og_c_string_static(og_writer *w, const char *name, const char *s,
                        size_t len) {
  if (og_c_string_fits(len)) return;
  og_w_printf(w, "static const char %s[%zu] = ", name, len + 1);
  og_c_char_list(w, s, len);
  og_w_line(w, ";");
}

void og_c_string_or(og_writer *w, const char *name, const char *s,
                    size_t len) {
  if (og_c_string_fits(len)) og_c_string(w, s, len);
  else og_w_puts(w, name);
}
