#include "cli_limits.h"

#include "ascii.h"

#include <stdio.h>
#include <string.h>

size_t og_cli_max_errors = OG_DEFAULT_MAX_ERRORS;

#define PREFIX "--max-errors="

bool og_cli_is_max_errors(const char *arg) {
  return strncmp(arg, PREFIX, strlen(PREFIX)) == 0 ||
         strcmp(arg, "--max-errors") == 0;
}

bool og_cli_take_max_errors(const char *arg) {
  if (strncmp(arg, PREFIX, strlen(PREFIX)) != 0) return false;
  const char *p = arg + strlen(PREFIX);
  size_t n = 0;
  if (!*p) return false;
  for (; *p; p++) {
    if (!og_is_digit((unsigned char)*p)) return false;
    n = n * 10 + (size_t)(*p - '0');
    if (n > 1000000000) return false;
  }
  og_cli_max_errors = n;
  return true;
}

void og_cli_diag_init(og_diag *d, const og_sources *sources, og_diag_fn fn,
                      void *ctx) {
  og_diag_init(d, sources, fn, ctx);
  d->max_errors = og_cli_max_errors;
}

void og_cli_count_errors(const og_diag *d) {
  og_diag_print_suppressed(stderr, d);
  fprintf(stderr, "%zu error%s generated.\n", d->errors,
          d->errors == 1 ? "" : "s");
}
