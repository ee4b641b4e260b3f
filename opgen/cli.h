/* The opgen command line: one function per verb, each returning the exit
 * status (0 success, 1 invalid spec or incompatible change, 2 usage or
 * I/O error). */
#ifndef OPGEN_CLI_H
#define OPGEN_CLI_H

#include "diag.h"
#include "model.h"

#include <stdio.h>

enum { OG_EXIT_OK = 0, OG_EXIT_INVALID = 1, OG_EXIT_USAGE = 2 };

int og_cmd_check(int argc, char **argv);
int og_cmd_dump(int argc, char **argv);
int og_cmd_gen(int argc, char **argv);
/* compat_cli.c */
int og_cmd_compat(int argc, char **argv);

/* Shared by the verbs: loads FILES and compiles them, printing diagnostics
 * to stderr. On success *model is set and OG_EXIT_OK returned. */
int og_cli_compile(char **files, int nfiles, og_model **model);

/* "opgen: error: ..." on stderr; returns OG_EXIT_USAGE. */
int og_cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
