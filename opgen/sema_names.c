/* Naming rules: op, attr and arg names, reserved '_' names, and names
 * distinct within an op. */
#include "sema_internal.h"

#include "ascii.h"

#include <string.h>

static bool is_op_name(const char *n) {
  if (!og_is_upper((unsigned char)n[0])) return false;
  for (const char *p = n + 1; *p; p++)
    if (!og_is_alnum((unsigned char)*p)) return false;
  return true;
}

static bool is_attr_name(const char *n) {
  if (!og_is_alpha((unsigned char)n[0])) return false;
  for (const char *p = n + 1; *p; p++)
    if (!og_is_alnum((unsigned char)*p) && *p != '_') return false;
  return true;
}

static bool is_arg_name(const char *n) {
  if (!og_is_lower((unsigned char)n[0])) return false;
  for (const char *p = n + 1; *p; p++)
    if (!og_is_lower((unsigned char)*p) && !og_is_digit((unsigned char)*p) &&
        *p != '_')
      return false;
  return true;
}

void og_sema_check_op_name(og_sema_op *s) {
  const char *name = s->ast->name;
  if (name[0] == '_')
    og_error_at(s->diag, s->ast->name_loc,
                "op name '%s' is reserved: names starting with '_' are for "
                "internal ops",
                name);
  else if (!is_op_name(name))
    og_error_at(s->diag, s->ast->name_loc,
                "invalid op name '%s': op names are CamelCase "
                "([A-Z][A-Za-z0-9]*)",
                name);
}

static const char *item_kind(const og_ast_item *it) {
  return it->kind == OG_ITEM_ATTR    ? "attr"
         : it->kind == OG_ITEM_INPUT ? "input"
                                     : "output";
}

/* Reports a bad name; true when the name is acceptable. */
static bool check_item_name(og_sema_op *s, const og_ast_item *it) {
  const char *name = it->name, *kind = item_kind(it);
  bool attr = it->kind == OG_ITEM_ATTR;
  if (name[0] == '_') {
    og_error_at(s->diag, it->name_loc,
                "%s name '%s' is reserved: names starting with '_' are for "
                "internal use",
                kind, name);
    return false;
  }
  if (attr ? !is_attr_name(name) : !is_arg_name(name)) {
    og_error_at(s->diag, it->name_loc, "invalid %s name '%s': %s", kind, name,
                attr ? "attr names match [A-Za-z][A-Za-z0-9_]*"
                     : "input and output names match [a-z][a-z0-9_]*");
    return false;
  }
  size_t len = strlen(name);
  if (attr && (og_dtype_lookup(name, len) || og_dtype_lookup_ref(name, len) ||
               og_typeset_lookup(name, len))) {
    og_error_at(s->diag, it->name_loc,
                "attr name '%s' is the name of a data type; attrs may not be "
                "named like data types",
                name);
    return false;
  }
  return true;
}

void og_sema_check_names(og_sema_op *s) {
  for (const og_ast_item *it = s->ast->items; it; it = it->next) {
    if (it->kind != OG_ITEM_ATTR && it->kind != OG_ITEM_INPUT &&
        it->kind != OG_ITEM_OUTPUT)
      continue;
    check_item_name(s, it);
    /* Quadratic, but ops have a handful of names; checked in place. */
    for (const og_ast_item *prev = s->ast->items; prev != it; prev = prev->next) {
      if ((prev->kind != OG_ITEM_ATTR && prev->kind != OG_ITEM_INPUT &&
           prev->kind != OG_ITEM_OUTPUT) ||
          strcmp(prev->name, it->name) != 0)
        continue;
      og_error_at(s->diag, it->name_loc,
                  "duplicate name '%s' in op '%s': names of attrs, inputs and "
                  "outputs must be distinct",
                  it->name, s->ast->name);
      og_note_at(s->diag, prev->name_loc, "'%s' is first declared here as an %s",
                 prev->name, item_kind(prev));
      break;
    }
  }
}
