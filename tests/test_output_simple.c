/* The writer's simple formats (literal runs, plain %s, %zu and %d,
 * measured first and copied at once) and its lines composed in place
 * (og_w_open / og_w_pad / og_w_close, which og_c_signature, the doc
 * comments and og_c_comment_text use) give the bytes of the plain way:
 * snprintf then og_w_write. */
#include "testutil.h"

#include "emit_c_internal.h" /* og_c_signature, og_c_comment_text */
#include "format_prog.h"
#include "writer.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Both writers at `depth` levels, from a line's start or (`mid`) after
 * an "x" on it. */
static void start(og_writer *got, og_writer *want, int depth, int mid) {
  og_writer_init(got);
  og_writer_init(want);
  for (int d = 0; d < depth; d++) og_w_indent(got), og_w_indent(want);
  if (mid) og_w_puts(got, "x"), og_w_puts(want, "x");
}

static void same_state(og_writer *got, og_writer *want) {
  assert_int_equal(got->len, want->len);
  assert_string_equal(got->buf ? got->buf : "", want->buf ? want->buf : "");
  assert_int_equal(got->at_line_start, want->at_line_start);
  og_writer_free(got);
  og_writer_free(want);
}

/* og_w_printf and og_w_line of a literal format against snprintf then
 * og_w_write, at depths 0 to 2, from a line's start and its middle. */
#define SAME_SIMPLE(...)                                            \
  do {                                                              \
    for (int depth_ = 0; depth_ <= 2; depth_++) {                   \
      for (int mid_ = 0; mid_ <= 1; mid_++) {                       \
        og_writer got_, want_;                                      \
        start(&got_, &want_, depth_, mid_);                         \
        char t_[600];                                               \
        int n_ = snprintf(t_, sizeof t_, __VA_ARGS__);              \
        assert_true(n_ >= 0 && (size_t)n_ < sizeof t_);             \
        og_w_write(&want_, t_, (size_t)n_);                         \
        og_w_printf(&got_, __VA_ARGS__);                            \
        og_w_write(&want_, t_, (size_t)n_);                         \
        og_w_write(&want_, "\n", 1);                                \
        og_w_line(&got_, __VA_ARGS__);                              \
        same_state(&got_, &want_);                                  \
      }                                                             \
    }                                                               \
  } while (0)

static void simple_formats_match_printf(void **state) {
  (void)state;
  char long_name[300];
  memset(long_name, 'n', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  SAME_SIMPLE("%s", "word");
  SAME_SIMPLE("static %s %s(%s) {", "int", "name_of_a_function", "void");
  SAME_SIMPLE("[%zu|%zu|%zu]", (size_t)0, (size_t)9, SIZE_MAX);
  SAME_SIMPLE("[%d|%d|%d|%d|%d]", 0, -1, 42, INT_MAX, INT_MIN);
  SAME_SIMPLE("%s = %zu, /* %d */", long_name, (size_t)12345, -77);
  SAME_SIMPLE("%s%s%s%s%s%s%s%s", "a", "b", "c", "d", "e", "f", "g", "h");
  SAME_SIMPLE("%s%s%s%s%s%s%s%s%s", "1", "2", "3", "4", "5", "6", "7", "8",
              "9"); /* one past the simple programs' arguments */
  SAME_SIMPLE("100%% of %s", "it");
  SAME_SIMPLE("%ld %ld %lld %lld", 0L, LONG_MIN, LLONG_MAX, LLONG_MIN);
  SAME_SIMPLE("[%.*s|%.*s|%.*s]", 3, "abcdef", 0, "x", -1, "all of it");
  SAME_SIMPLE("[%.*s]", 9, "ab"); /* shorter than the precision */
}

/* Literal runs with newlines: each line indented at the writer's depth,
 * an empty line not at all, the state after it a line's start. */
static void simple_formats_with_lines_indent_each(void **state) {
  (void)state;
  SAME_SIMPLE("a {\n  return %s;\n}", "x");
  SAME_SIMPLE("\n%s\n", "between empty lines");
  SAME_SIMPLE("%s\n%s\n\n%s", "", "", "");
  SAME_SIMPLE("%s \\\n  X(%s, %zu)", "#define M(X)", "FLOAT", (size_t)4);
  SAME_SIMPLE("\n");
  SAME_SIMPLE("a\n\nb%s", "tail\nwith a newline");
}

/* Text that the simple path leaves to the general one: an argument with
 * a newline (each line indented), an empty text (a line of its own gets
 * no indentation; a printf writes nothing). */
static void simple_formats_hand_over_newlines_and_empty_text(void **state) {
  (void)state;
  SAME_SIMPLE("<%s>", "one\ntwo");
  SAME_SIMPLE("%s%s", "tail\n", "");
  SAME_SIMPLE("%s", "\n\n");
  SAME_SIMPLE("%s", "");
  SAME_SIMPLE("%s%s", "", "");
  og_writer w;
  og_writer_init(&w);
  og_w_indent(&w);
  og_w_line(&w, "%s", "");
  og_w_printf(&w, "%s%s", "", "");
  assert_string_equal(w.buf, "\n");
  assert_true(w.at_line_start);
  og_writer_free(&w);
}

/* Which formats are simple, and what their programs hold. */
static void simple_programs_are_marked_by_their_conversions(void **state) {
  (void)state;
  const og_fmt_prog *p = og_fmt_prog_get("ab%scd%zue%d");
  assert_non_null(p);
  assert_true(p->simple);
  assert_int_equal(p->nargs, 3);
  assert_int_equal(p->args[0], OG_FMT_STR);
  assert_int_equal(p->args[1], OG_FMT_ZU);
  assert_int_equal(p->args[2], OG_FMT_D);
  assert_int_equal(p->text_len, 5);
  p = og_fmt_prog_get("a\n%ld|%lld|%.*s\n");
  assert_non_null(p);
  assert_true(p->simple);
  assert_int_equal(p->nargs, 3);
  assert_int_equal(p->args[0], OG_FMT_LD);
  assert_int_equal(p->args[1], OG_FMT_LLD);
  assert_int_equal(p->args[2], OG_FMT_STRN);
  assert_int_equal(p->text_len, 5); /* the newlines too */
  static const char *const general[] = {
      "%5d", "%-3s", "%u", "%zd", "%5ld", "%.3s", "%c", "%05zu",
      "%s%s%s%s%s%s%s%s%s", "%x"};
  for (size_t i = 0; i < sizeof general / sizeof *general; i++) {
    p = og_fmt_prog_get(general[i]);
    assert_true(p == NULL || !p->simple);
  }
}

/* og_w_open's text with og_w_pad after each inner newline equals
 * og_w_write of the same text, at every depth and from a line's middle. */
static void lines_composed_in_place_match_write(void **state) {
  (void)state;
  static const char *const texts[] = {"a", "a\n", "a\nb", "a\nb\n",
                                      "first line\n  second\nthird"};
  for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
    for (int depth = 0; depth <= 3; depth++) {
      for (int mid = 0; mid <= 1; mid++) {
        og_writer got, want;
        start(&got, &want, depth, mid);
        const char *s = texts[t];
        size_t n = strlen(s);
        char *d = og_w_open(&got, n + 4 * (og_w_pad_width(&got) + 1));
        for (size_t i = 0; i < n; i++) {
          *d++ = s[i];
          if (s[i] == '\n' && i + 1 < n) d = og_w_pad(&got, d);
        }
        og_w_close(&got, d);
        og_w_write(&want, s, n);
        same_state(&got, &want);
      }
    }
  }
}

/* og_c_signature as it was written piece by piece: the reference. */
static void plain_signature(og_writer *w, const char *ret, const char *name,
                            const og_c_params *p, const char *end) {
  size_t head = strlen(ret) + 1 + strlen(name) + 1, len = head + strlen(end) + 1;
  for (size_t i = 0; i < p->count; i++) len += strlen(p->decls[i]) + 2;
  bool one_line = len <= 80, aligned = head <= 40;
  og_w_printf(w, "%s %s(", ret, name);
  for (size_t i = 0; i < p->count; i++) {
    if (!one_line && (i || !aligned)) {
      if (i) og_w_puts(w, ",");
      og_w_newline(w);
      og_w_spaces(w, aligned ? head : 4);
    } else if (i) {
      og_w_puts(w, ", ");
    }
    og_w_puts(w, p->decls[i]);
  }
  og_w_line(w, ")%s", end);
}

static void signature_wraps_as_written_piece_by_piece(void **state) {
  (void)state;
  static const char *decls[40];
  char names[40][24];
  for (size_t i = 0; i < 40; i++) {
    snprintf(names[i], sizeof names[i], "const opr_tensor *p%zu", i);
    decls[i] = names[i];
  }
  static const char *const fns[] = {
      "f", "a_function_name_of_some_length",
      "a_function_name_long_enough_to_hang_its_parameters_by_four"};
  static const size_t counts[] = {0, 1, 2, 3, 5, 33, 40};
  for (size_t f = 0; f < sizeof fns / sizeof *fns; f++) {
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
      for (int depth = 0; depth <= 2; depth++) {
        og_writer got, want;
        start(&got, &want, depth, 0);
        og_c_params p = {decls, decls, counts[c]};
        og_c_signature(&got, "opr_status", fns[f], &p, " {");
        plain_signature(&want, "opr_status", fns[f], &p, " {");
        same_state(&got, &want);
      }
    }
  }
}

/* Comment text with several pairs to split, at every offset (the word
 * scan finds the first of them inside 8 bytes), and with a newline
 * (indented line by line, as og_w_write does). */
static void comment_text_splits_every_pair_of_a_word(void **state) {
  (void)state;
  for (size_t at = 0; at <= 20; at++) {
    char text[64];
    memset(text, 'a', at);
    snprintf(text + at, sizeof text - at, "x*/y/*z??w?/*/ end");
    og_writer w;
    og_writer_init(&w);
    og_c_comment_text(&w, text, strlen(text));
    char want[96];
    memset(want, 'a', at);
    snprintf(want + at, sizeof want - at, "x* /y/ *z? ?w?/ * / end");
    assert_string_equal(w.buf, want);
    og_writer_free(&w);
  }
  og_writer got, want;
  start(&got, &want, 2, 0);
  og_c_comment_text(&got, "a */\nb\n\nc", 9);
  og_w_write(&want, "a * /\nb\n\nc", 10);
  same_state(&got, &want);
}

/* og_c_comment_text against the byte rule (a space after the first
 * byte of every pair "* /", "/ *", "? ?") for every text to 40 bytes made
 * of one or two marks at every offset in a run of 'a': lone marks, pairs,
 * and the bytes a borrow can flag above a mark ('+', '.', '>'). */
static void comment_text_matches_the_byte_rule_for_marks_anywhere(void **state) {
  (void)state;
  static const char marks[] = "*/?+.>a";
  for (size_t n = 1; n <= 40; n++) {
    for (size_t at = 0; at < n; at++) {
      for (size_t m1 = 0; m1 < sizeof marks - 1; m1++) {
        for (size_t m2 = 0; m2 < sizeof marks - 1; m2++) {
          char text[48], want[96];
          memset(text, 'a', n);
          text[n] = '\0';
          text[at] = marks[m1];
          if (at + 1 < n) text[at + 1] = marks[m2];
          size_t k = 0;
          for (size_t i = 0; i < n; i++) {
            want[k++] = text[i];
            bool split = i + 1 < n && ((text[i] == '*' && text[i + 1] == '/') ||
                                       (text[i] == '/' && text[i + 1] == '*') ||
                                       (text[i] == '?' && text[i + 1] == '?'));
            if (split) want[k++] = ' ';
          }
          want[k] = '\0';
          og_writer w;
          og_writer_init(&w);
          og_c_comment_text(&w, text, n);
          assert_string_equal(w.buf, want);
          og_writer_free(&w);
        }
      }
    }
  }
}

/* og_c_string_plain (eight bytes a step, the last eight overlapping)
 * against the byte rule: one byte to escape or not printable, at every
 * offset of every length to 40, is found; a printable one is not. */
static void plain_strings_find_a_byte_to_escape_at_every_offset(void **state) {
  (void)state;
  static const unsigned char bad[] = {'"', '\\', '?', 0x1f, 0x7f, 0x80,
                                      0xff, 0x00, '\n'};
  static const unsigned char good[] = {0x20, 0x7e, '!', '#', '>', '@',
                                       '[', ']', '`', '{'};
  char text[72];
  for (size_t n = 0; n <= 40; n++) {
    memset(text, 'a', sizeof text);
    assert_true(og_c_string_plain(text, n));
    for (size_t at = 0; at < n; at++) {
      for (size_t b = 0; b < sizeof bad; b++) {
        text[at] = (char)bad[b];
        assert_false(og_c_string_plain(text, n));
      }
      for (size_t g = 0; g < sizeof good; g++) {
        text[at] = (char)good[g];
        assert_true(og_c_string_plain(text, n));
      }
      text[at] = 'a';
    }
    text[n] = '"'; /* just past the end: not seen */
    assert_true(og_c_string_plain(text, n));
  }
  memset(text, 'a', sizeof text);
  assert_false(og_c_string_plain(text, 63)); /* past 62: not one write */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(simple_formats_match_printf),
      cmocka_unit_test(simple_formats_hand_over_newlines_and_empty_text),
      cmocka_unit_test(simple_formats_with_lines_indent_each),
      cmocka_unit_test(simple_programs_are_marked_by_their_conversions),
      cmocka_unit_test(lines_composed_in_place_match_write),
      cmocka_unit_test(signature_wraps_as_written_piece_by_piece),
      cmocka_unit_test(comment_text_splits_every_pair_of_a_word),
      cmocka_unit_test(plain_strings_find_a_byte_to_escape_at_every_offset),
      cmocka_unit_test(comment_text_matches_the_byte_rule_for_marks_anywhere),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
