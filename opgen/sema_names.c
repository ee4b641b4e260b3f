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

/* The item at `index` of the op's attrs, then inputs, then outputs. */
static const og_ast_item *item_at(const og_sema_op *s, size_t index) {
  const og_op *op = s->op;
  if (index < op->nattrs) return s->attr_items[index];
  index -= op->nattrs;
  if (index < op->ninputs) return s->input_items[index];
  return s->output_items[index - op->ninputs];
}

/* Every name against the earlier ones through one hash map (40,000 attrs
 * take milliseconds, not the minutes a pairwise check took); each kind's
 * names also go into their own map for the lookups of later passes. */
void og_sema_check_names(og_sema_op *s) {
  const og_op *op = s->op;
  size_t counts[3] = {op->nattrs, op->ninputs, op->noutputs}, seen[3] = {0};
  og_strmap all;
  og_strmap_init(&all, s->arena, counts[0] + counts[1] + counts[2]);
  og_strmap *by_kind[3] = {&s->attr_names, &s->input_names, &s->output_names};
  for (int k = 0; k < 3; k++) og_strmap_init(by_kind[k], s->arena, counts[k]);
  for (const og_ast_item *it = s->ast->items; it; it = it->next) {
    int k = it->kind == OG_ITEM_ATTR    ? 0
            : it->kind == OG_ITEM_INPUT ? 1
            : it->kind == OG_ITEM_OUTPUT ? 2
                                         : -1;
    if (k < 0) continue;
    check_item_name(s, it);
    size_t index = (k > 0 ? counts[0] : 0) + (k > 1 ? counts[1] : 0) + seen[k];
    og_strmap_put(by_kind[k], it->name, seen[k]++);
    size_t first = og_strmap_put(&all, it->name, index);
    if (first == index) continue;
    const og_ast_item *prev = item_at(s, first);
    og_error_at(s->diag, it->name_loc,
                "duplicate name '%s' in op '%s': names of attrs, inputs and "
                "outputs must be distinct",
                it->name, s->ast->name);
    og_note_at(s->diag, prev->name_loc, "'%s' is first declared here as an %s",
               prev->name, item_kind(prev));
  }
}

static long find(const og_strmap *m, const char *name) {
  size_t index;
  return og_strmap_get(m, name, &index) ? (long)index : -1;
}

long og_sema_find_attr(const og_sema_op *s, const char *name) {
  return find(&s->attr_names, name);
}

long og_sema_find_input(const og_sema_op *s, const char *name) {
  return find(&s->input_names, name);
}

long og_sema_find_output(const og_sema_op *s, const char *name) {
  return find(&s->output_names, name);
}
