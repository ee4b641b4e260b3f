#include "numtext.h"

#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The calling thread runs in the C locale between enter_c and leave_c
 * (uselocale is per thread, so other threads keep theirs). Should the
 * locale object be unavailable, the conversion runs in the current
 * locale, which is the C locale unless someone called setlocale. */
typedef struct c_scope {
  locale_t c, old;
} c_scope;

static c_scope enter_c(void) {
  c_scope s = {newlocale(LC_ALL_MASK, "C", (locale_t)0), (locale_t)0};
  if (s.c) s.old = uselocale(s.c);
  return s;
}

static void leave_c(c_scope s) {
  if (!s.c) return;
  uselocale(s.old);
  freelocale(s.c);
}

double og_strtod(const char *s, char **end) {
  c_scope scope = enter_c();
  double d = strtod(s, end);
  leave_c(scope);
  return d;
}

/* The shortest precision up to `max` whose text reads back as d (as a
 * float when `single`). Runs in the C locale. */
static int shortest(double d, int max, bool single, char *out) {
  int prec = 1;
  for (; prec < max; prec++) {
    /* Never truncated (17 digits, a sign, an exponent): the test says so
     * to the compiler too. */
    int n = snprintf(out, OG_DOUBLE_TEXT_MAX, "%.*g", prec, d);
    if (n > 0 && n < OG_DOUBLE_TEXT_MAX &&
        (single ? strtof(out, NULL) == (float)d : strtod(out, NULL) == d))
      break;
  }
  return prec;
}

static void format(double d, int max, bool single, int plain_digits,
                   char out[OG_DOUBLE_TEXT_MAX]) {
  c_scope scope = enter_c();
  int prec = shortest(d, max, single, out);
  snprintf(out, OG_DOUBLE_TEXT_MAX, "%.*g", prec, d);
  const char *e = strchr(out, 'e');
  int exponent = e ? atoi(e + 1) : 0;
  if (e && exponent >= 0 && exponent < plain_digits)
    snprintf(out, OG_DOUBLE_TEXT_MAX, "%.*g", exponent + 1, d);
  if (!strpbrk(out, ".e")) strcat(out, ".0");
  leave_c(scope);
}

void og_format_double(double d, int plain_digits,
                      char out[OG_DOUBLE_TEXT_MAX]) {
  format(d, 17, false, plain_digits, out);
}

void og_format_single(float f, int plain_digits, char out[OG_DOUBLE_TEXT_MAX]) {
  format(f, 9, true, plain_digits, out);
}
