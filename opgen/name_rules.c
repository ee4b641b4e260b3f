/* Name rules shared by the OpList importer and the dump reader. The
 * compiler (sema_names.c) applies the same rules to `.op` text. */
#include "name_rules.h"

#include "ascii.h"

#include <stdio.h>
#include <string.h>

const char og_op_name_rule[] = "op names match [A-Z][A-Za-z0-9]*";
const char og_attr_name_rule[] = "attr names match [A-Za-z][A-Za-z0-9_]*";
const char og_arg_name_rule[] =
    "input and output names match [a-z][a-z0-9_]*";

bool og_valid_op_name(const char *n) {
  if (!og_is_upper((unsigned char)n[0])) return false;
  for (const char *p = n + 1; *p; p++)
    if (!og_is_alnum((unsigned char)*p)) return false;
  return true;
}

bool og_valid_attr_name(const char *n) {
  if (!og_is_alpha((unsigned char)n[0])) return false;
  for (const char *p = n + 1; *p; p++)
    if (!og_is_alnum((unsigned char)*p) && *p != '_') return false;
  return true;
}

bool og_valid_arg_name(const char *n) {
  if (!og_is_lower((unsigned char)n[0])) return false;
  for (const char *p = n + 1; *p; p++)
    if (!og_is_lower((unsigned char)*p) && !og_is_digit((unsigned char)*p) &&
        *p != '_')
      return false;
  return true;
}

enum { SHOWN_CUT = 64 };

const char *og_name_shown(const char *name, char buf[OG_NAME_SHOWN_MAX]) {
  size_t o = 0;
  const unsigned char *p = (const unsigned char *)name;
  for (; *p && o < SHOWN_CUT; p++) {
    unsigned char c = *p;
    const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t"
                        : c == '\r' ? "\\r" : c == '\\' ? "\\\\"
                        : c == '\'' ? "\\'" : c == '"' ? "\\\"" : NULL;
    if (named) o += (size_t)snprintf(buf + o, 3, "%s", named);
    else if (c < 0x20 || c >= 0x7f) o += (size_t)snprintf(buf + o, 5, "\\x%02x", c);
    else buf[o++] = (char)c;
  }
  strcpy(buf + o, *p ? "..." : "");
  return buf;
}
