/* og_vsnprintf: the emitters' fast formatter gives exactly what vsnprintf
 * gives, for the conversions it handles itself and for those it hands on,
 * at every buffer size (truncation and the returned length included). */
#include "testutil.h"

#include "format.h"
#include "writer.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Formats with both at sizes 0 .. 40 and 512 and compares bytes and
 * return values. */
static void same(const char *fmt, ...) {
  static const size_t sizes[] = {0, 1, 2, 3, 5, 8, 13, 21, 40, 512};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    char want[512], got[512];
    memset(want, 'x', sizeof want);
    memset(got, 'x', sizeof got);
    va_list a, b;
    va_start(a, fmt);
    int n_want = vsnprintf(sizes[k] ? want : NULL, sizes[k], fmt, a);
    va_end(a);
    va_start(b, fmt);
    int n_got = og_vsnprintf(sizes[k] ? got : NULL, sizes[k], fmt, b);
    va_end(b);
    assert_int_equal(n_got, n_want);
    assert_memory_equal(got, want, sizeof want);
  }
}

static void strings_and_chars(void **state) {
  (void)state;
  same("");
  same("plain text without conversions");
  same("%s", "");
  same("%s_%s", "demo", "zero_out");
  same("[%10s|%-10s]", "right", "left");
  same("[%3s|%-3s]", "longer", "longer");
  same("[%*s|%-*s|%*s]", 6, "a", 6, "b", -6, "c");
  same("[%.3s|%.*s|%.0s|%.9s]", "abcdef", 2, "xyz", "gone", "short");
  same("%c%c%c|%3c|%-3c|", 'a', 'b', '\n', 'x', 'y');
  same("100%% of %s", "it");
  same("%%%s%%", "mid");
}

static void integers(void **state) {
  (void)state;
  same("%d %i %d %d", 0, -1, INT_MAX, INT_MIN);
  same("%u %u", 0u, UINT_MAX);
  same("%ld %ld %lu", LONG_MAX, LONG_MIN, ULONG_MAX);
  same("%lld %lld %llu", LLONG_MAX, LLONG_MIN, ULLONG_MAX);
  same("%zu %zu", (size_t)0, SIZE_MAX);
  same("%" PRId64 " %" PRId64, INT64_MIN, INT64_MAX);
  same("[%5d|%-5d|%05d|%05d|%-05d]", 42, 42, 42, -42, 7);
  same("[%2d|%02d|%1d]", 12345, -12345, -3);
  same("[%*d|%0*zu]", 8, -17, 6, (size_t)33);
}

/* Conversions handed to vsnprintf, alone and mixed with handled ones
 * (the arguments before them must not be consumed twice). */
static void handed_on(void **state) {
  (void)state;
  same("%s\\%03o%s", "a", 7u, "b");
  same("%d %g %s", 3, 1.5, "x");
  same("%x %X %#x %o", 255u, 255u, 255u, 8u);
  same("%+d % d", 5, 5);
  same("%.3d|%5.2u", 7, 3u);
  same("%p", (void *)0);
  same("%hd %hhu", (short)-3, (unsigned char)200);
  same("%s %s", "first", (const char *)NULL);
  same("%5%|%s", "after");
}

static void writer_lines_match_printf(void **state) {
  (void)state;
  og_writer w;
  og_writer_init(&w);
  og_w_indent(&w);
  og_w_line(&w, "int %s = %d;", "x", -3);
  og_w_printf(&w, "a\n%s\nb", "two lines");
  og_w_newline(&w);
  og_w_spaces(&w, 3);
  og_w_puts(&w, "x");
  og_w_spaces(&w, 40);
  og_w_line(&w, "%s", "");
  char long_arg[600];
  memset(long_arg, 'y', sizeof long_arg - 1);
  long_arg[sizeof long_arg - 1] = '\0';
  og_w_line(&w, "[%s]", long_arg);
  char want[1024];
  snprintf(want, sizeof want,
           "  int x = -3;\n  a\n  two lines\n  b\n     x%40s\n  [%s]\n", "",
           long_arg);
  assert_string_equal(w.buf, want);
  og_writer_free(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(strings_and_chars),
      cmocka_unit_test(integers),
      cmocka_unit_test(handed_on),
      cmocka_unit_test(writer_lines_match_printf),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
