/* OpList text to the op model: OpDef, ArgDef, AttrDef and OpDeprecation,
 * and the OpList as a whole. Each message's fields are checked by the
 * walker of tf_import_fields.c, so this code only copies values into the
 * model. */
#include "tf_import_internal.h"

#include "ascii.h"
#include "compile.h"
#include "name_rules.h"

#include <stdlib.h>
#include <string.h>

/* ---- OpDef, ArgDef, AttrDef ---- */

static const field_spec attr_fields[] = {
    {"name", F_STR, false, false},
    {"type", F_STR, false, false},
    {"default_value", F_MSG, false, false},
    {"description", F_STR, false, false},
    {"has_minimum", F_BOOL, false, false},
    {"minimum", F_INT, false, false},
    {"allowed_values", F_MSG, false, false},
};
enum { AT_NAME, AT_TYPE, AT_DEFAULT, AT_DESC, AT_HAS_MIN, AT_MIN, AT_ALLOWED };

/* allowed_values: a list of the attr's own kind (string or type). */
static bool attr_allowed(imp *c, og_attr *attr, const og_pb_node *n) {
  if (attr->type.kind != OG_ATTR_STRING && attr->type.kind != OG_ATTR_TYPE)
    return og_tfi_fail(c, n->pos,
                "attr '%s' of type %s cannot have allowed_values (only "
                "string and type attrs can)",
                og_tfi_shown(c, attr->name), og_attr_type_name(attr->type));
  og_attr_type lt = {attr->type.kind, true};
  char *what = og_arena_printf(c->a, "allowed_values of attr '%s'",
                               og_tfi_shown(c, attr->name));
  attr->allowed = og_tfi_attr_value(c, n, lt, what);
  if (!attr->allowed) return false;
  for (size_t i = 0; i < attr->allowed->u.list.count; i++)
    if (attr->allowed->u.list.items[i].kind == OG_VAL_TYPE)
      attr->allowed_types |=
          OG_DTYPE_BIT(attr->allowed->u.list.items[i].u.type);
  return true;
}

/* Name and type first: the default and the allowed values need the
 * type, and protobuf lets fields come in any order. */
static bool attr_finish(imp *c, og_attr *attr, const walker *w,
                        const og_pb_node *msg) {
  if (!w->seen[AT_NAME] || !*attr->name)
    return og_tfi_fail(c, msg->pos, "attr has no name");
  const og_pb_node *type = w->seen[AT_TYPE];
  if (!type)
    return og_tfi_fail(c, msg->pos, "attr '%s' has no type", og_tfi_shown(c, attr->name));
  if (!og_attr_type_parse(type->str.ptr, &attr->type) ||
      strlen(type->str.ptr) != type->str.len)
    return og_tfi_fail(c, type->value_pos, "attr '%s' has unknown type '%s'",
                og_tfi_shown(c, attr->name), og_tfi_shown(c, type->str.ptr));
  if (w->seen[AT_ALLOWED] && !attr_allowed(c, attr, w->seen[AT_ALLOWED]))
    return false;
  if (w->seen[AT_DEFAULT]) {
    char *what = og_arena_printf(c->a, "default_value of attr '%s'",
                                 og_tfi_shown(c, attr->name));
    attr->default_value = og_tfi_attr_value(c, w->seen[AT_DEFAULT], attr->type, what);
    if (!attr->default_value) return false;
  }
  return true;
}

static bool import_attr(imp *c, const og_pb_node *msg, og_attr *attr) {
  walker w = WALKER("AttrDef", attr_fields);
  attr->name = attr->description = "";
  attr->pos = og_tfi_model_pos(c, msg->pos);
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = og_tfi_next_field(c, &w, f, &v);
    if (id < 0) return false;
    bool ok = true;
    if (id == AT_NAME) ok = og_tfi_cstr(c, &v, &attr->name);
    else if (id == AT_DESC) ok = og_tfi_cstr(c, &v, &attr->description);
    else if (id == AT_HAS_MIN) attr->has_minimum = v.b;
    else if (id == AT_MIN) attr->minimum = v.i;
    if (!ok) return false;
  }
  return attr_finish(c, attr, &w, msg);
}

static const field_spec arg_fields[] = {
    {"name", F_STR, false, false},
    {"description", F_STR, false, false},
    {"type", F_DTYPE, false, false},
    {"type_attr", F_STR, false, false},
    {"number_attr", F_STR, false, false},
    {"type_list_attr", F_STR, false, false},
    {"is_ref", F_BOOL, false, false},
    {"handle_data", F_MSG, true, true},
    {"experimental_full_type", F_MSG, false, DROPPED},
};
enum { ARG_NAME, ARG_DESC, ARG_TYPE, ARG_TYPE_ATTR, ARG_NUMBER_ATTR,
       ARG_TYPE_LIST_ATTR, ARG_IS_REF };

static bool arg_field(imp *c, og_arg *arg, int id, const fval *v) {
  switch (id) {
  case ARG_NAME: return og_tfi_cstr(c, v, &arg->name);
  case ARG_DESC: return og_tfi_cstr(c, v, &arg->description);
  case ARG_TYPE: arg->type = v->dt; return true;
  case ARG_TYPE_ATTR: return og_tfi_cstr(c, v, &arg->type_attr);
  case ARG_NUMBER_ATTR: return og_tfi_cstr(c, v, &arg->number_attr);
  case ARG_TYPE_LIST_ATTR: return og_tfi_cstr(c, v, &arg->type_list_attr);
  case ARG_IS_REF: arg->is_ref = v->b; return true;
  }
  return true;
}

/* ArgDef: exactly one of type, type_attr, type_list_attr; number_attr
 * only with the first two (as TensorFlow's ValidateOpDef requires). */
static bool import_arg(imp *c, const og_pb_node *msg, og_arg *arg,
                       const char *what) {
  walker w = WALKER("ArgDef", arg_fields);
  arg->name = arg->description = arg->type_attr = "";
  arg->number_attr = arg->type_list_attr = "";
  arg->pos = og_tfi_model_pos(c, msg->pos);
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = og_tfi_next_field(c, &w, f, &v);
    if (id < 0 || !arg_field(c, arg, id, &v)) return false;
  }
  if (!*arg->name) return og_tfi_fail(c, msg->pos, "%s has no name", what);
  int kinds = (arg->type != OG_DT_INVALID) + (*arg->type_attr != '\0') +
              (*arg->type_list_attr != '\0');
  if (kinds != 1)
    return og_tfi_fail(c, msg->pos,
                "%s '%s' must set exactly one of type, type_attr and "
                "type_list_attr",
                what, og_tfi_shown(c, arg->name));
  if (*arg->number_attr && *arg->type_list_attr)
    return og_tfi_fail(c, msg->pos,
                "%s '%s' cannot have both number_attr and type_list_attr",
                what, og_tfi_shown(c, arg->name));
  return true;
}

/* An attr an arg refers to must exist and be of the right type. */
static bool check_ref(imp *c, og_op *op, const og_arg *arg, const char *what,
                      const char *field, const char *name, og_attr_type t,
                      bool is_input) {
  if (!*name) return true;
  og_attr *attr = (og_attr *)og_op_find_attr(op, name);
  if (!attr)
    return og_tfi_fail(c, arg->pos, "%s '%s' of op '%s': %s '%s' is not an attr of "
                "the op", what, arg->name, op->name, field, name);
  if (attr->type.kind != t.kind || attr->type.is_list != t.is_list)
    return og_tfi_fail(c, arg->pos,
                "%s '%s' of op '%s': %s '%s' has type %s, expected %s", what,
                arg->name, op->name, field, name, og_attr_type_name(attr->type),
                og_attr_type_name(t));
  if (is_input) attr->inferred = true;
  return true;
}

static bool check_arg_refs(imp *c, og_op *op, const og_arg *arg,
                           bool is_input) {
  const char *what = is_input ? "input" : "output";
  og_attr_type type = {OG_ATTR_TYPE, false}, num = {OG_ATTR_INT, false};
  og_attr_type list = {OG_ATTR_TYPE, true};
  return check_ref(c, op, arg, what, "type_attr", arg->type_attr, type,
                   is_input) &&
         check_ref(c, op, arg, what, "number_attr", arg->number_attr, num,
                   is_input) &&
         check_ref(c, op, arg, what, "type_list_attr", arg->type_list_attr,
                   list, is_input);
}

static const field_spec deprecation_fields[] = {
    {"version", F_INT, false, false},
    {"explanation", F_STR, false, false},
};

static bool import_deprecation(imp *c, const og_pb_node *msg, og_op *op) {
  walker w = WALKER("OpDeprecation", deprecation_fields);
  op->deprecated = true;
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = og_tfi_next_field(c, &w, f, &v);
    if (id < 0) return false;
    if (id == 1 && !og_tfi_cstr(c, &v, &op->deprecation_explanation)) return false;
    if (id == 0 && (v.i < INT32_MIN || v.i > INT32_MAX))
      return og_tfi_fail(c, f->value_pos, "deprecation version %lld is out of range",
                  (long long)v.i);
    if (id == 0) op->deprecation_version = (int32_t)v.i;
  }
  return true;
}

static const field_spec op_fields[] = {
    {"name", F_STR, false, false},
    {"input_arg", F_MSG, true, false},
    {"output_arg", F_MSG, true, false},
    {"control_output", F_STR, true, true},
    {"attr", F_MSG, true, false},
    {"deprecation", F_MSG, false, false},
    {"summary", F_STR, false, false},
    {"description", F_STR, false, false},
    {"is_commutative", F_BOOL, false, false},
    {"is_aggregate", F_BOOL, false, false},
    {"is_stateful", F_BOOL, false, false},
    {"allows_uninitialized_input", F_BOOL, false, false},
    {"is_distributed_communication", F_BOOL, false, false},
};
enum { OP_NAME, OP_INPUT, OP_OUTPUT, OP_CONTROL, OP_ATTR, OP_DEPRECATION,
       OP_SUMMARY, OP_DESCRIPTION, OP_COMMUTATIVE, OP_AGGREGATE, OP_STATEFUL,
       OP_UNINIT, OP_DISTRIBUTED };

static bool op_field(imp *c, og_op *op, int id, const fval *v) {
  const og_pb_node *n = v->node;
  switch (id) {
  case OP_NAME: return og_tfi_cstr(c, v, &op->name);
  case OP_INPUT: return import_arg(c, n, &op->inputs[op->ninputs++], "input");
  case OP_OUTPUT:
    return import_arg(c, n, &op->outputs[op->noutputs++], "output");
  case OP_ATTR: return import_attr(c, n, &op->attrs[op->nattrs++]);
  case OP_DEPRECATION: return import_deprecation(c, n, op);
  case OP_SUMMARY: return og_tfi_cstr(c, v, &op->summary);
  case OP_DESCRIPTION: return og_tfi_cstr(c, v, &op->description);
  case OP_COMMUTATIVE: op->is_commutative = v->b; return true;
  case OP_AGGREGATE: op->is_aggregate = v->b; return true;
  case OP_STATEFUL: op->is_stateful = v->b; return true;
  case OP_UNINIT: op->allows_uninitialized_input = v->b; return true;
  case OP_DISTRIBUTED: op->is_distributed_communication = v->b; return true;
  }
  return true;
}

static og_op *new_op(imp *c, const og_pb_node *msg) {
  og_op *op = og_arena_alloc(c->a, sizeof *op);
  op->name = op->summary = op->description = "";
  op->deprecation_explanation = "";
  op->package = c->package;
  op->pos = og_tfi_model_pos(c, msg->pos);
  op->inputs = og_arena_array(c->a, og_tfi_count_fields(msg, "input_arg"),
                              sizeof *op->inputs);
  op->outputs = og_arena_array(c->a, og_tfi_count_fields(msg, "output_arg"),
                               sizeof *op->outputs);
  op->attrs = og_arena_array(c->a, og_tfi_count_fields(msg, "attr"),
                             sizeof *op->attrs);
  return op;
}

/* Ops the .op language cannot hold, left out: internal ones ('_' names)
 * and namespaced ones ("Ns>Name"). */
typedef enum skip_kind { SKIP_NONE, SKIP_INTERNAL, SKIP_NAMESPACED } skip_kind;

static skip_kind skip_of(const char *name) {
  if (name[0] == '_') return SKIP_INTERNAL;
  return strchr(name, '>') ? SKIP_NAMESPACED : SKIP_NONE;
}

/* Every reference of every arg, each error reported. */
static bool check_all_refs(imp *c, og_op *op) {
  bool ok = true;
  for (size_t i = 0; i < op->ninputs; i++)
    ok &= check_arg_refs(c, op, &op->inputs[i], true);
  for (size_t i = 0; i < op->noutputs; i++)
    ok &= check_arg_refs(c, op, &op->outputs[i], false);
  return ok;
}

/* NULL after an error, or for an op left out (*skip set). Every field is
 * read even after an error, so that one pass reports them all. */
static og_op *import_op(imp *c, const og_pb_node *msg, skip_kind *skip) {
  walker w = WALKER("OpDef", op_fields);
  og_op *op = new_op(c, msg);
  bool ok = true;
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = og_tfi_next_field(c, &w, f, &v);
    if (id < 0 || !op_field(c, op, id, &v)) ok = false;
  }
  if (!ok) return NULL;
  if (!*op->name) {
    og_tfi_fail(c, msg->pos, "op has no name");
    return NULL;
  }
  if (w.seen[OP_NAME]) op->pos = og_tfi_model_pos(c, w.seen[OP_NAME]->value_pos);
  *skip = skip_of(op->name);
  if (*skip != SKIP_NONE) return op;
  if (!og_tf_check_names(c->diag, op)) return NULL;
  return check_all_refs(c, op) ? op : NULL;
}

/* ---- OpList ---- */

static const field_spec oplist_fields[] = {{"op", F_MSG, true, false}};

static bool check_unique(imp *c) {
  og_model *m = c->m;
  bool ok = true;
  for (size_t i = 1; i < m->nops; i++) {
    const og_op *a = m->ops[i - 1], *b = m->ops[i];
    if (strcmp(a->name, b->name) != 0) continue;
    if (b->pos.line < a->pos.line) a = b, b = m->ops[i - 1];
    ok = og_tfi_fail(c, b->pos, "op '%s' is defined twice (first at %u:%u)",
              b->name, (unsigned)a->pos.line, (unsigned)a->pos.col);
  }
  return ok;
}

/* The ops left out of one kind, in file order. */
typedef struct skipped_ops {
  const og_op **ops;
  size_t count, cap;
} skipped_ops;

/* One warning for all the skipped ops of a kind, at the first; under
 * verbose, one note naming each. */
static void warn_skipped(imp *c, const skipped_ops *s, const char *kind,
                         const char *why) {
  char shown[OG_NAME_SHOWN_MAX];
  if (!s->count) return;
  og_diag_report(c->diag, OG_SEV_WARNING, s->ops[0]->pos,
                 "skipped %zu %s op%s (%s), the first '%s'%s", s->count,
                 kind, s->count == 1 ? "" : "s", why,
                 og_name_shown(s->ops[0]->name, shown),
                 c->verbose || s->count == 1 ? "" : " (-v names them all)");
  for (size_t i = 0; c->verbose && i < s->count; i++)
    og_diag_report(c->diag, OG_SEV_NOTE, s->ops[i]->pos, "skipped %s op '%s'",
                   kind, og_name_shown(s->ops[i]->name, shown));
}

/* One warning for the unknown fields (naming them) and one for the
 * dropped full types (counting them). */
static void warn_fields(imp *c) {
  const skipped_fields *s = &c->skip;
  if (s->uses) {
    char *names = "";
    for (size_t i = 0; i < s->nnames; i++)
      names = og_arena_printf(c->a, "%s%s'%s'", names, i ? ", " : "",
                              s->names[i]);
    og_diag_report(c->diag, OG_SEV_WARNING, s->first,
                   "skipped %zu unknown field%s (from a newer TensorFlow?): "
                   "%s%s",
                   s->uses, s->uses == 1 ? "" : "s", names,
                   s->more ? " and others" : "");
  }
  if (s->dropped)
    og_diag_report(c->diag, OG_SEV_WARNING, s->first_dropped,
                   "dropped %zu experimental_full_type field%s (the op model "
                   "has no place for full types)",
                   s->dropped, s->dropped == 1 ? "" : "s");
}

static void add_skipped(skipped_ops *s, const og_op *op) {
  s->ops = og_xgrow(s->ops, &s->cap, s->count + 1, sizeof *s->ops);
  s->ops[s->count++] = op;
}

static void import_ops(imp *c, const og_pb_node *root) {
  walker w = WALKER("OpList", oplist_fields);
  size_t cap = 0;
  skipped_ops internal = {0}, namespaced = {0};
  EACH_FIELD(c, &w, f, root) {
    fval v;
    if (og_tfi_next_field(c, &w, f, &v) < 0) continue; /* report every bad op */
    skip_kind skip = SKIP_NONE;
    og_op *op = import_op(c, f, &skip);
    if (!op) continue;
    if (skip != SKIP_NONE) {
      add_skipped(skip == SKIP_INTERNAL ? &internal : &namespaced, op);
      continue;
    }
    c->m->ops = og_xgrow(c->m->ops, &cap, c->m->nops + 1, sizeof *c->m->ops);
    c->m->ops[c->m->nops++] = op;
  }
  warn_fields(c);
  warn_skipped(c, &internal, "internal",
               "names starting with '_' are reserved in .op files");
  warn_skipped(c, &namespaced, "namespaced",
               "'Ns>Name' is not an op name of .op files");
  free(internal.ops);
  free(namespaced.ops);
}

og_model *og_tf_import(const char *path, const char *text, size_t len,
                       og_diag *diag) {
  return og_tf_import_verbose(path, text, len, diag, false);
}

og_model *og_tf_import_verbose(const char *path, const char *text,
                               size_t len, og_diag *diag, bool verbose) {
  size_t errors = diag->errors;
  og_arena tree_arena; /* the parse tree; freed before returning */
  og_arena_init(&tree_arena);
  og_pb_node *root = og_pbtxt_parse(&tree_arena, path, text, len, diag);
  og_model *m = NULL;
  if (root) {
    m = og_model_new();
    imp c;
    memset(&c, 0, sizeof c);
    c.m = m, c.a = &m->arena, c.diag = diag, c.verbose = verbose;
    c.path = og_arena_strdup(c.a, path ? path : "<input>");
    c.package = og_tf_package_name(c.a, c.path);
    import_ops(&c, root);
    og_model_sort(m);
    check_unique(&c);
  }
  og_arena_free(&tree_arena);
  if (m && diag->errors != errors) {
    og_model_free(m);
    m = NULL;
  }
  return m;
}

char *og_tf_package_name(og_arena *arena, const char *path) {
  return og_default_package(arena, path);
}

char *og_tf_snake_case(og_arena *arena, const char *name) {
  size_t len = strlen(name);
  char *out = og_arena_alloc(arena, 2 * len + 1), *o = out;
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)name[i];
    if (og_is_upper(ch) && i > 0) {
      unsigned char prev = (unsigned char)name[i - 1];
      unsigned char next = (unsigned char)name[i + 1]; /* NUL at the end */
      /* A word starts after a lower-case letter ("MatMul"), or where an
       * upper-case run gives way to a word ("LRNGrad": before "Grad"). */
      if (og_is_lower(prev) || (og_is_lower(next) && prev != '_')) *o++ = '_';
    }
    *o++ = (char)og_to_lower(ch);
  }
  *o = '\0';
  return out;
}
