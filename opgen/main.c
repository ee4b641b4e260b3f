/* opgen: the command line. Each verb lives in its own function; this file
 * only dispatches. */
#include "cli.h"
#include "tf_import_cli.h"
#include "version.h"

#include <stdio.h>
#include <string.h>


static const char usage[] =
    "usage: opgen <command> [options] FILES...\n"
    "\n"
    "commands:\n"
    "  check FILES...                 parse and validate .op specs\n"
    "  dump [-o FILE] FILES...        print the finalized ops as JSON\n"
    "  gen -o DIR FILES...            generate C wrappers, tables and kernel\n"
    "                                 headers into DIR\n"
    "  compat --baseline OLD FILES... backward-compatibility lint\n"
    "  import-tf OPS.pbtxt -o DIR [--split]\n"
    "                                 write .op specs from a TensorFlow OpList\n"
    "\n"
    "every command takes --max-errors=N: print at most N errors (default 50;\n"
    "0: all), then count the rest\n"
    "\n"
    "exit status: 0 success, 1 invalid spec, 2 usage or I/O error\n";

typedef struct verb {
  const char *name;
  int (*run)(int argc, char **argv);
} verb;

static const verb verbs[] = {
    {"check", og_cmd_check},
    {"compat", og_cmd_compat},
    {"dump", og_cmd_dump},
    {"gen", og_cmd_gen},
    {"import-tf", og_cmd_import_tf},
};

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage, stderr);
    return OG_EXIT_USAGE;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(usage, stdout);
    return OG_EXIT_OK;
  }
  if (strcmp(argv[1], "--version") == 0) {
    puts("opgen " OPGEN_VERSION);
    return OG_EXIT_OK;
  }
  for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
    if (strcmp(argv[1], verbs[i].name) == 0)
      return verbs[i].run(argc - 1, argv + 1);
  og_cli_fail("unknown command '%s'", argv[1]);
  fputs(usage, stderr);
  return OG_EXIT_USAGE;
}
