/* Limits shared by every verb of the command line: the diagnostic cap
 * (--max-errors=N). Set once while parsing the arguments; the CLI is
 * single-threaded. */
#ifndef OPGEN_CLI_LIMITS_H
#define OPGEN_CLI_LIMITS_H

#include "diag.h"

#include <stdbool.h>

/* "[--max-errors=N] ", for usage lines. */
#define OG_CLI_MAX_ERRORS_USAGE "[--max-errors=N] "

/* Errors shown per run; 0: all. OG_DEFAULT_MAX_ERRORS until an option
 * says otherwise. */
extern size_t og_cli_max_errors;

/* True when arg is "--max-errors=..." (the verb then takes it; a bad
 * value is reported by og_cli_take_max_errors). */
bool og_cli_is_max_errors(const char *arg);
/* Parses "--max-errors=N" (N a decimal from 0 to 1000000000) into
 * og_cli_max_errors; false when N is not one. */
bool og_cli_take_max_errors(const char *arg);

/* og_diag_init with the run's cap. */
void og_cli_diag_init(og_diag *d, const og_sources *sources, og_diag_fn fn,
                      void *ctx);
/* After a failed run: the suppressed count (when any), then "N errors
 * generated." on stderr. */
void og_cli_count_errors(const og_diag *d);

#endif
