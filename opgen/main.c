/* opgen: the command line. Each verb lives in its own function; this file
 * only dispatches. */
#include "cli.h"
#include "cli_help.h"
#include "tf_import_cli.h"
#include "version.h"

#include <stdio.h>
#include <string.h>


typedef struct verb {
  const char *name;
  int (*run)(int argc, char **argv);
} verb;

static const verb verbs[] = {
    {"check", og_cmd_check},
    {"compat", og_cmd_compat},
    {"dump", og_cmd_dump},
    {"gen", og_cmd_gen},
    {"help", og_cmd_help},
    {"import-tf", og_cmd_import_tf},
};

/* -h or --help among a verb's options (before "--"). */
static bool asks_help(int argc, char **argv) {
  for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
      return true;
  return false;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    og_cli_print_usage(stderr);
    return OG_EXIT_USAGE;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    og_cli_print_usage(stdout);
    return OG_EXIT_OK;
  }
  if (strcmp(argv[1], "--version") == 0) {
    puts("opgen " OPGEN_VERSION);
    return OG_EXIT_OK;
  }
  for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++) {
    if (strcmp(argv[1], verbs[i].name) != 0) continue;
    /* `opgen VERB --help` is `opgen help VERB`. */
    if (asks_help(argc, argv) && og_cli_print_help(stdout, argv[1]))
      return OG_EXIT_OK;
    return verbs[i].run(argc - 1, argv + 1);
  }
  og_cli_fail("unknown command '%s'", argv[1]);
  og_cli_print_usage(stderr);
  return OG_EXIT_USAGE;
}
