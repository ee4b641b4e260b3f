/* The output layer's fast paths (issue 15: generation speed) give the
 * bytes of the plain ones: short copies of every length and truncation,
 * indentation of every depth, a writer sized up front, comment text and
 * the UTF-8 check that look at 8 bytes a step, at every offset. */
#include "testutil.h"

#include "emit_c_internal.h" /* og_c_comment_text */
#include "format.h"
#include "memshort.h" /* og_has_newline */
#include "source.h" /* og_utf8_check */
#include "writer.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* og_vsnprintf and vsnprintf at sizes 0 .. 40 and 512: same bytes, same
 * returned length. */
static void same(const char *fmt, ...) {
  for (size_t size = 0; size <= 512; size = size < 40 ? size + 1 : 512) {
    char want[512], got[512];
    memset(want, 'x', sizeof want);
    memset(got, 'x', sizeof got);
    va_list a, b;
    va_start(a, fmt);
    int n_want = vsnprintf(size ? want : NULL, size, fmt, a);
    va_end(a);
    va_start(b, fmt);
    int n_got = og_vsnprintf(size ? got : NULL, size, fmt, b);
    va_end(b);
    assert_int_equal(n_got, n_want);
    assert_memory_equal(got, want, sizeof want);
    if (size == 512) break;
  }
}

static void format_copies_runs_and_strings_of_every_length(void **state) {
  (void)state;
  char text[41], fmt[96];
  for (size_t n = 0; n <= 40; n++) {
    for (size_t i = 0; i < n; i++) text[i] = (char)('a' + i % 26);
    text[n] = '\0';
    same("%s", text);
    same("[%s]%s", text, text);
    snprintf(fmt, sizeof fmt, "%s%%s%s", text, text);
    same(fmt, "mid");
  }
}

static void writer_indents_every_depth(void **state) {
  (void)state;
  og_writer w;
  og_writer_init(&w);
  char want[4096] = "";
  for (int d = 0; d <= 12; d++) {
    og_w_line(&w, "line%d", d);
    og_w_puts(&w, "puts\n");
    og_w_newline(&w); /* an empty line takes no indentation */
    size_t at = strlen(want);
    snprintf(want + at, sizeof want - at, "%*sline%d\n%*sputs\n\n", 2 * d, "",
             d, 2 * d, "");
    og_w_indent(&w);
  }
  assert_string_equal(w.buf, want);
  og_writer_free(&w);
}

static void writer_reserve_keeps_text_and_makes_room(void **state) {
  (void)state;
  og_writer w;
  og_writer_init(&w);
  og_w_puts(&w, "head\n");
  og_w_reserve(&w, 100000);
  assert_true(w.cap >= w.len + 100000 + 1);
  const char *buf = w.buf;
  for (int i = 0; i < 1000; i++) og_w_line(&w, "%s %d", "row", i);
  assert_ptr_equal(w.buf, buf); /* no growth: the room was there */
  assert_memory_equal(w.buf, "head\nrow 0\nrow 1\n", 17);
  og_writer_free(&w);
}

/* A formatted line whose text ends at the buffer's last byte still gets
 * its newline and '\0' inside the buffer (AddressSanitizer reported the
 * byte past it): every text length around a fresh writer's size. */
static void a_line_ending_at_the_buffers_end_fits(void **state) {
  (void)state;
  char text[2200];
  memset(text, 'x', sizeof text);
  for (size_t n = 900; n < 2100; n++) {
    text[n] = '\0';
    og_writer w;
    og_writer_init(&w);
    og_w_line(&w, "%s", text);
    assert_int_equal(w.len, n + 1);
    assert_true(w.cap > w.len);
    assert_int_equal(w.buf[n], '\n');
    assert_int_equal(w.buf[n + 1], '\0');
    og_writer_free(&w);
    text[n] = 'x';
  }
}

/* og_w_printf / og_w_line against the plain way (vsnprintf, then
 * og_w_write), at indentation 0 to 3 and from a line's start or middle. */
static void same_written(const char *fmt, ...) {
  for (int depth = 0; depth <= 3; depth++) {
    for (int mid = 0; mid <= 1; mid++) {
      og_writer got, want;
      og_writer_init(&got);
      og_writer_init(&want);
      for (int d = 0; d < depth; d++) og_w_indent(&got), og_w_indent(&want);
      if (mid) og_w_puts(&got, "x"), og_w_puts(&want, "x");
      char text[4096];
      va_list a, b, c;
      va_start(a, fmt);
      int n = vsnprintf(text, sizeof text, fmt, a);
      va_end(a);
      assert_true(n >= 0 && (size_t)n < sizeof text - 1);
      va_start(b, fmt);
      og_w_vprintf(&got, fmt, b);
      va_end(b);
      og_w_write(&want, text, (size_t)n);
      va_start(c, fmt);
      og_w_vprintf(&got, fmt, c); /* again, then a line: og_w_line's way */
      va_end(c);
      og_w_newline(&got);
      og_w_write(&want, text, (size_t)n);
      og_w_write(&want, "\n", 1);
      assert_int_equal(got.len, want.len);
      assert_string_equal(got.buf, want.buf);
      assert_int_equal(got.at_line_start, want.at_line_start);
      og_writer_free(&got);
      og_writer_free(&want);
    }
  }
}

static void writer_formats_in_place_as_printf_then_write(void **state) {
  (void)state;
  char big[1500];
  memset(big, 'b', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  same_written("");
  same_written("%s", "");
  same_written("plain");
  same_written("a\nb\n\nc");
  same_written("\n");
  same_written("%s|%s", "one\ntwo", "\n");
  same_written("[%c%c]", '\n', 'z');
  same_written("%d %5zu|%-4s|%05d|%%", -12, (size_t)7, "ab", -3);
  same_written("%s %g %x", "handed on", 2.5, 255u);
  same_written("%s", (const char *)NULL);
  same_written("<%s>", big);
  same_written("%s\n%s", big, big);
}

/* og_w_printf and og_w_line with literal formats (parsed once, found
 * again by address) against snprintf then og_w_write; each twice, so the
 * second finds the parsed form. Includes a format that only vsnprintf
 * does (octal) after a literal run, and formats of one literal run. */
#define SAME_LITERAL(...)                                      \
  do {                                                         \
    for (int again = 0; again < 2; again++) {                  \
      char t_[512];                                            \
      int n_ = snprintf(t_, sizeof t_, __VA_ARGS__);           \
      og_w_write(&want, t_, (size_t)n_);                       \
      og_w_printf(&got, __VA_ARGS__);                          \
      og_w_write(&want, t_, (size_t)n_);                       \
      og_w_write(&want, "\n", 1);                              \
      og_w_line(&got, __VA_ARGS__);                            \
    }                                                          \
  } while (0)

static void writer_literal_formats_match_printf(void **state) {
  (void)state;
  og_writer got, want;
  og_writer_init(&got);
  og_writer_init(&want);
  og_w_indent(&got), og_w_indent(&want);
  SAME_LITERAL("plain run");
  SAME_LITERAL("%s", "");
  SAME_LITERAL("\\%03o", 9u);
  SAME_LITERAL("ab%xcd", 255u);
  SAME_LITERAL("two\nlines");
  SAME_LITERAL("[%s|%5d|%-3zu|%c]", "arg\nwith newline", -4, (size_t)2, 'q');
  SAME_LITERAL("%%|%s%s", "a", "bcdefghijklmnopqrstuvwxyz");
  SAME_LITERAL("%s %g", "float", 0.5);
  assert_string_equal(got.buf, want.buf);
  assert_int_equal(got.at_line_start, want.at_line_start);
  og_writer_free(&got);
  og_writer_free(&want);
}

/* og_has_newline (word tests up to 16 bytes) against memchr: a newline
 * at every offset of every length to 40, none, and bytes that differ
 * from '\n' by one bit or by the borrow (0x0b, 0x09, 0x8a). */
static void newline_test_finds_one_at_every_offset(void **state) {
  (void)state;
  char text[48];
  static const char near[] = {'\x0b', '\x09', '\x8a', '\x00', 'a'};
  for (size_t n = 0; n <= 40; n++) {
    for (size_t k = 0; k < sizeof near; k++) {
      memset(text, near[k], sizeof text);
      assert_false(og_has_newline(text, n));
      for (size_t at = 0; at < n; at++) {
        text[at] = '\n';
        assert_true(og_has_newline(text, n));
        text[at] = near[k];
      }
      text[n] = '\n'; /* just past the end: not seen */
      assert_false(og_has_newline(text, n));
    }
  }
}

/* The plain scan og_c_comment_text must match: a space after the first
 * byte of every "* /", "/ *" and "? ?" pair. */
static void plain_comment_text(char *out, const char *p, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    out[k++] = p[i];
    bool split = i + 1 < n && ((p[i] == '*' && p[i + 1] == '/') ||
                               (p[i] == '/' && p[i + 1] == '*') ||
                               (p[i] == '?' && p[i + 1] == '?'));
    if (split) out[k++] = ' ';
  }
  out[k] = '\0';
}

static void comment_text_splits_pairs_at_every_offset(void **state) {
  (void)state;
  static const char *const pairs[] = {"*/", "/*", "??", "*", "/", "?",
                                      "**/", "???", "/*/"};
  for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p++) {
    for (size_t at = 0; at <= 24; at++) {
      char text[64], want[128];
      memset(text, 'a', at);
      snprintf(text + at, sizeof text - at, "%s tail", pairs[p]);
      plain_comment_text(want, text, strlen(text));
      og_writer w;
      og_writer_init(&w);
      og_c_comment_text(&w, text, strlen(text));
      assert_string_equal(w.buf, want);
      og_writer_free(&w);
    }
  }
}

static void utf8_check_finds_a_bad_byte_at_every_offset(void **state) {
  (void)state;
  static const char *const bad[] = {"\x80", "\xff", "\xc3", "\xe2\x82"};
  char text[64];
  for (size_t at = 0; at <= 40; at++) {
    memset(text, 'a', sizeof text);
    assert_true(og_utf8_check(text, at) == (size_t)-1);
    text[at] = '\0'; /* a NUL byte inside the length */
    assert_int_equal(og_utf8_check(text, at + 5), at);
    memcpy(text + at, "\xc3\xa9", 2); /* e acute: well formed */
    assert_true(og_utf8_check(text, at + 5) == (size_t)-1);
    for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
      memset(text, 'a', sizeof text);
      memcpy(text + at, bad[b], strlen(bad[b]));
      assert_int_equal(og_utf8_check(text, at + 8), at);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(format_copies_runs_and_strings_of_every_length),
      cmocka_unit_test(writer_indents_every_depth),
      cmocka_unit_test(writer_reserve_keeps_text_and_makes_room),
      cmocka_unit_test(a_line_ending_at_the_buffers_end_fits),
      cmocka_unit_test(writer_formats_in_place_as_printf_then_write),
      cmocka_unit_test(writer_literal_formats_match_printf),
      cmocka_unit_test(newline_test_finds_one_at_every_offset),
      cmocka_unit_test(comment_text_splits_pairs_at_every_offset),
      cmocka_unit_test(utf8_check_finds_a_bad_byte_at_every_offset),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
