/* The command line's help: every verb's usage line, summary and options,
 * in one table (cli_help.c), printed by `opgen help [VERB]`,
 * `opgen VERB --help` and `opgen --help`. */
#ifndef OPGEN_CLI_HELP_H
#define OPGEN_CLI_HELP_H

#include <stdbool.h>
#include <stdio.h>

/* "opgen check [--max-errors=N] FILES...": the verb's usage line without
 * "usage: "; NULL for an unknown verb. */
const char *og_cli_synopsis(const char *verb);
/* Prints the verb's usage line, summary and options; false (nothing
 * printed) for an unknown verb. */
bool og_cli_print_help(FILE *f, const char *verb);
/* Prints the general usage: every verb with its summary. */
void og_cli_print_usage(FILE *f);
/* `opgen help [VERB]` (args after "help"): 0, or 2 for an unknown verb
 * or extra arguments (reported on stderr). */
int og_cmd_help(int argc, char **argv);

#endif
