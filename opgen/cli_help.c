/* The verbs' help text, in one place (see cli_help.h). */
#include "cli_help.h"

#include "cli.h"
#include "cli_limits.h"

#include <string.h>

typedef struct verb_help {
  const char *name;
  const char *synopsis; /* after "usage: " */
  const char *summary;  /* one line, for the verb list */
  const char *options;  /* lines of "  OPTION  what it does\n" */
} verb_help;

#define MAX_ERRORS_HELP                                                   \
  "  --max-errors=N   print at most N errors (default 50; 0: all), then\n" \
  "                   count the rest\n"
#define HELP_HELP "  -h, --help       print this help and exit\n"

static const verb_help verbs[] = {
    {"check", "opgen check " OG_CLI_MAX_ERRORS_USAGE "FILES...",
     "parse and validate .op specs",
     MAX_ERRORS_HELP HELP_HELP
     "  --               the arguments after it are files\n"},
    {"dump", "opgen dump " OG_CLI_MAX_ERRORS_USAGE "[-o FILE] FILES...",
     "print the finalized ops as JSON",
     "  -o FILE, --output=FILE\n"
     "                   write the JSON to FILE (default: stdout)\n"
     MAX_ERRORS_HELP HELP_HELP},
    {"gen", "opgen gen " OG_CLI_MAX_ERRORS_USAGE "-o DIR FILES...",
     "generate C wrappers, tables and kernel headers into DIR",
     "  -o DIR, --output=DIR\n"
     "                   the output directory (required); per spec STEM:\n"
     "                   STEM_ops.h, STEM_ops.c, STEM_kernels.h\n"
     MAX_ERRORS_HELP HELP_HELP},
    {"compat",
     "opgen compat --baseline OLD [--baseline OLD]... "
     "[--format=text|json|github] [--strict] " OG_CLI_MAX_ERRORS_USAGE
     "FILES...",
     "backward-compatibility lint against a baseline",
     "  --baseline OLD   a JSON baseline written by 'opgen dump', or old\n"
     "                   .op files (repeatable)\n"
     "  --format=FORMAT  text (default), json (one JSON document on stdout,\n"
     "                   errors included) or github (workflow annotations)\n"
     "  --strict         warnings (REQUIRE_TIGHTENED) are errors\n"
     MAX_ERRORS_HELP HELP_HELP},
    {"import-tf",
     "opgen import-tf " OG_CLI_MAX_ERRORS_USAGE "OPS.pbtxt -o DIR [--split] [-v]",
     "write .op specs from a TensorFlow OpList",
     "  -o DIR           the output directory (required)\n"
     "  --split          one .op file per op (default: one file)\n"
     "  -v, --verbose    name each op left out (internal, namespaced)\n"
     MAX_ERRORS_HELP HELP_HELP},
    {"help", "opgen help [VERB]", "print a verb's usage and options",
     "  VERB             the verb to describe (default: list the verbs)\n"},
};

static const verb_help *find(const char *verb) {
  for (size_t i = 0; verb && i < sizeof verbs / sizeof *verbs; i++)
    if (strcmp(verbs[i].name, verb) == 0) return &verbs[i];
  return NULL;
}

const char *og_cli_synopsis(const char *verb) {
  const verb_help *h = find(verb);
  return h ? h->synopsis : NULL;
}

bool og_cli_print_help(FILE *f, const char *verb) {
  const verb_help *h = find(verb);
  if (!h) return false;
  fprintf(f, "usage: %s\n\n%s\n\noptions:\n%s", h->synopsis, h->summary,
          h->options);
  return true;
}

void og_cli_print_usage(FILE *f) {
  fputs("usage: opgen <command> [options] FILES...\n\ncommands:\n", f);
  for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
    fprintf(f, "  %-10s %s\n", verbs[i].name, verbs[i].summary);
  fputs("\n'opgen help COMMAND' or 'opgen COMMAND --help' describes a "
        "command;\n'opgen --version' prints the version\n\n"
        "exit status: 0 success, 1 invalid spec, 2 usage or I/O error\n", f);
}

int og_cmd_help(int argc, char **argv) {
  if (argc < 2) {
    og_cli_print_usage(stdout);
    return OG_EXIT_OK;
  }
  if (argc > 2)
    return og_cli_fail("help takes one command, not '%s' too (usage: %s)",
                       argv[2], og_cli_synopsis("help"));
  if (og_cli_print_help(stdout, argv[1])) return OG_EXIT_OK;
  og_cli_fail("unknown command '%s'", argv[1]);
  og_cli_print_usage(stderr);
  return OG_EXIT_USAGE;
}
