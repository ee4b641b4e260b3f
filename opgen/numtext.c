#include "numtext.h"

#include <locale.h>
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

void og_format_double(double d, int plain_digits,
                      char out[OG_DOUBLE_TEXT_MAX]) {
  c_scope scope = enter_c();
  int prec = 1;
  for (; prec < 17; prec++) {
    snprintf(out, OG_DOUBLE_TEXT_MAX, "%.*g", prec, d);
    if (strtod(out, NULL) == d) break;
  }
  snprintf(out, OG_DOUBLE_TEXT_MAX, "%.*g", prec, d);
  const char *e = strchr(out, 'e');
  int exponent = e ? atoi(e + 1) : 0;
  if (e && exponent >= 0 && exponent < plain_digits)
    snprintf(out, OG_DOUBLE_TEXT_MAX, "%.*g", exponent + 1, d);
  if (!strpbrk(out, ".e")) strcat(out, ".0");
  leave_c(scope);
}
