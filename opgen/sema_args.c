/* Inputs and outputs: IO types resolved against the op's attrs, implied
 * minimums, inferred attrs, and resource args making the op stateful. */
#include "sema_internal.h"

#include "suggest.h"

#include <inttypes.h>
#include <string.h>

static long find_attr(const og_sema_op *s, const char *name) {
  return og_sema_find_attr(s, name);
}

static const char *arg_kind(bool is_input) { return is_input ? "input" : "output"; }

/* An int or list(type) attr that sizes a list gets minimum 1 unless it has
 * its own, which must then be >= 0. */
static void imply_minimum(og_sema_op *s, long index, og_loc use) {
  og_attr *attr = &s->op->attrs[index];
  if (!attr->has_minimum) {
    attr->has_minimum = true;
    attr->minimum = 1;
  } else if (attr->minimum < 0 && !s->attr_bad[index]) {
    og_error_at(s->diag, use,
                "attr '%s' is used as a list length, so its minimum must be "
                ">= 0, found %" PRId64,
                attr->name, attr->minimum);
    s->attr_bad[index] = true;
  }
}

static void mark_inferred(og_sema_op *s, bool is_input, long index) {
  if (is_input) s->op->attrs[index].inferred = true;
}

/* The N of `N * T`. */
static bool resolve_number(og_sema_op *s, bool is_input, og_arg *arg,
                           const og_ast_io_type *t) {
  long index = find_attr(s, t->number);
  if (index < 0) {
    og_suggest g;
    og_error_at(s->diag, t->number_loc,
                "%s '%s': unknown attr '%s' used as the list length%s",
                arg_kind(is_input), arg->name, t->number,
                og_sema_hint(s, &g, t->number, OG_SG_INT_ATTRS));
    return false;
  }
  const og_attr *attr = &s->op->attrs[index];
  if (s->attr_bad[index]) return false;
  if (attr->type.is_list || attr->type.kind != OG_ATTR_INT) {
    og_error_at(s->diag, t->number_loc,
                "%s '%s': the list length '%s' must be an int attr, but it "
                "has type %s",
                arg_kind(is_input), arg->name, t->number,
                og_attr_type_name(attr->type));
    return false;
  }
  arg->number_attr = attr->name;
  imply_minimum(s, index, t->number_loc);
  mark_inferred(s, is_input, index);
  return true;
}

static bool type_from_dtype(og_sema_op *s, bool is_input, og_arg *arg,
                            const og_ast_io_type *t) {
  size_t len = strlen(t->type);
  og_dtype dt = og_dtype_lookup(t->type, len);
  if (dt) {
    arg->type = dt;
    if (dt == OG_DT_RESOURCE) s->op->is_stateful = true;
    return true;
  }
  og_dtype base = og_dtype_lookup_ref(t->type, len);
  if (base) {
    og_error_at(s->diag, t->type_loc,
                "%s '%s': '%s' is a reference type; write Ref(%s) instead",
                arg_kind(is_input), arg->name, t->type, og_dtype_name(base));
    return false;
  }
  return false;
}

static bool resolve_type_attr(og_sema_op *s, bool is_input, og_arg *arg,
                              const og_ast_io_type *t) {
  long index = find_attr(s, t->type);
  if (index < 0) {
    og_suggest g;
    og_error_at(s->diag, t->type_loc,
                "%s '%s': '%s' is neither a data type nor an attr of op '%s'%s",
                arg_kind(is_input), arg->name, t->type, s->op->name,
                og_sema_hint(s, &g, t->type, OG_SG_DTYPES | OG_SG_TYPE_ATTRS));
    return false;
  }
  const og_attr *attr = &s->op->attrs[index];
  if (s->attr_bad[index]) return false;
  if (attr->type.kind != OG_ATTR_TYPE) {
    og_error_at(s->diag, t->type_loc,
                "%s '%s': attr '%s' has type %s; the type of an %s must be a "
                "data type, a type attr or a list(type) attr",
                arg_kind(is_input), arg->name, t->type,
                og_attr_type_name(attr->type), arg_kind(is_input));
    return false;
  }
  if (attr->type.is_list && t->number) {
    og_error_at(s->diag, t->type_loc,
                "%s '%s': in %s * %s, '%s' must be a type attr, not "
                "list(type)",
                arg_kind(is_input), arg->name, t->number, t->type, t->type);
    return false;
  }
  if (attr->type.is_list) {
    arg->type_list_attr = attr->name;
    imply_minimum(s, index, t->type_loc);
  } else {
    arg->type_attr = attr->name;
  }
  mark_inferred(s, is_input, index);
  return true;
}

void og_sema_arg(og_sema_op *s, bool is_input, size_t index) {
  const og_ast_item *it = is_input ? s->input_items[index]
                                   : s->output_items[index];
  og_arg *arg = is_input ? &s->op->inputs[index] : &s->op->outputs[index];
  const og_ast_io_type *t = it->io_type;
  arg->name = og_arena_strdup(s->arena, it->name);
  arg->pos = og_sema_pos(s, it->name_loc);
  arg->type_attr = arg->number_attr = arg->type_list_attr = "";
  arg->is_ref = t->is_ref;
  if (t->number && !resolve_number(s, is_input, arg, t)) return;
  if (og_dtype_lookup(t->type, strlen(t->type)) ||
      og_dtype_lookup_ref(t->type, strlen(t->type)))
    type_from_dtype(s, is_input, arg, t);
  else
    resolve_type_attr(s, is_input, arg, t);
}
