/* The spec language's name rules (op-language.md, "Names"), for readers
 * of foreign input (an OpList, a dump) that must not let a name through
 * that a `.op` file could not hold, plus a safe way to show such a name
 * in a message. */
#ifndef OPGEN_NAME_RULES_H
#define OPGEN_NAME_RULES_H

#include <stdbool.h>
#include <stddef.h>

/* [A-Z][A-Za-z0-9]* */
bool og_valid_op_name(const char *name);
/* [A-Za-z][A-Za-z0-9_]* */
bool og_valid_attr_name(const char *name);
/* [a-z][a-z0-9_]*: inputs and outputs */
bool og_valid_arg_name(const char *name);

/* The rule in words, for messages: "op names match [A-Z][A-Za-z0-9]*". */
extern const char og_op_name_rule[];
extern const char og_attr_name_rule[];
extern const char og_arg_name_rule[];

/* Room for any og_name_shown text. */
#define OG_NAME_SHOWN_MAX 100

/* `name` as a message may show it: printable ASCII kept; backslashes,
 * quotes and every other byte as C escapes (\n, \', \", \xHH), cut
 * after about 64 characters with "...". A hostile name can then neither
 * forge output lines nor flood the terminal. Returns `buf`. */
const char *og_name_shown(const char *name, char buf[OG_NAME_SHOWN_MAX]);

#endif
