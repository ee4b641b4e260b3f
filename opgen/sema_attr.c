/* Attr declarations: type expressions, allowed values, minimums and
 * defaults, with TensorFlow's OpDefBuilder and ValidateOpDef rules. */
#include "sema_internal.h"

#include "suggest.h"

#include "value_text.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name;
  og_attr_kind kind;
} base_types[] = {
    {"string", OG_ATTR_STRING}, {"int", OG_ATTR_INT},
    {"float", OG_ATTR_FLOAT},   {"bool", OG_ATTR_BOOL},
    {"type", OG_ATTR_TYPE},     {"shape", OG_ATTR_SHAPE},
    {"tensor", OG_ATTR_TENSOR}, {"func", OG_ATTR_FUNC},
};

/* Growing list of allowed values, duplicates dropped (first one kept). */
typedef struct allowed_builder {
  og_value *items;
  size_t count, cap;
  og_dtype_set types;
} allowed_builder;

static void add_type(og_sema_op *s, allowed_builder *b, og_dtype dt) {
  if (b->types & OG_DTYPE_BIT(dt)) return;
  b->types |= OG_DTYPE_BIT(dt);
  if (b->count == b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 16;
    og_value *items = og_arena_array(s->arena, cap, sizeof *items);
    if (b->count) memcpy(items, b->items, b->count * sizeof *items);
    b->items = items;
    b->cap = cap;
  }
  b->items[b->count].kind = OG_VAL_TYPE;
  b->items[b->count++].u.type = dt;
}

static void add_typeset(og_sema_op *s, allowed_builder *b, og_typeset ts) {
  og_dtype_set set = og_typeset_members(ts);
  for (int dt = 1; dt < OG_DT_COUNT; dt++)
    if (set & OG_DTYPE_BIT(dt)) add_type(s, b, (og_dtype)dt);
}

static og_value *finish_allowed(og_sema_op *s, allowed_builder *b) {
  og_value *list = og_arena_alloc(s->arena, sizeof *list);
  list->kind = OG_VAL_LIST;
  list->u.list.count = b->count;
  list->u.list.items = b->items;
  return list;
}

/* Sorting keys for dedup_strings: a string and where it was. */
typedef struct string_at {
  og_bytes s;
  size_t index;
} string_at;

static int compare_string_at(const void *a, const void *b) {
  const string_at *x = a, *y = b;
  size_t n = x->s.len < y->s.len ? x->s.len : y->s.len;
  int c = n ? memcmp(x->s.ptr, y->s.ptr, n) : 0;
  if (c) return c;
  if (x->s.len != y->s.len) return x->s.len < y->s.len ? -1 : 1;
  return x->index < y->index ? -1 : 1;
}

/* Drops every later repeat of a string, keeping the order of the first
 * ones; sorted, so 40,000 values take milliseconds, not seconds. Returns
 * the new count. */
static size_t dedup_strings(og_value *items, size_t n) {
  if (n < 2) return n;
  string_at *keys = og_xmalloc(n * sizeof *keys);
  bool *repeat = og_xmalloc(n * sizeof *repeat);
  for (size_t i = 0; i < n; i++) {
    keys[i] = (string_at){items[i].u.s, i};
    repeat[i] = false;
  }
  qsort(keys, n, sizeof *keys, compare_string_at);
  for (size_t i = 1; i < n; i++)
    repeat[keys[i].index] = keys[i].s.len == keys[i - 1].s.len &&
                            memcmp(keys[i].s.ptr, keys[i - 1].s.ptr,
                                   keys[i].s.len) == 0;
  size_t count = 0;
  for (size_t i = 0; i < n; i++)
    if (!repeat[i]) items[count++] = items[i];
  free(keys);
  free(repeat);
  return count;
}

static bool set_of_strings(og_sema_op *s, og_attr *attr,
                           const og_ast_attr_type *t) {
  size_t n = 0;
  for (const og_ast_value *e = t->elems; e; e = e->next) n++;
  og_value *items = og_arena_array(s->arena, n, sizeof *items);
  size_t count = 0;
  for (const og_ast_value *e = t->elems; e; e = e->next) {
    if (e->kind != OG_AV_STRING) {
      og_error_at(s->diag, e->loc,
                  "attr '%s': a set of strings cannot also hold %s",
                  attr->name, og_sema_literal_text(s, e));
      return false;
    }
    items[count++] = (og_value){.kind = OG_VAL_STRING, .u.s = e->s};
  }
  count = dedup_strings(items, count);
  for (size_t i = 0; i < count; i++) /* the AST is freed after compiling */
    items[i].u.s.ptr =
        og_arena_strndup(s->arena, items[i].u.s.ptr, items[i].u.s.len);
  attr->type.kind = OG_ATTR_STRING;
  og_value *list = og_arena_alloc(s->arena, sizeof *list);
  list->kind = OG_VAL_LIST;
  list->u.list.count = count;
  list->u.list.items = items;
  attr->allowed = list;
  return true;
}

static bool set_of_types(og_sema_op *s, og_attr *attr,
                         const og_ast_attr_type *t) {
  allowed_builder b = {0};
  for (const og_ast_value *e = t->elems; e; e = e->next) {
    if (e->kind != OG_AV_NAME) {
      og_error_at(s->diag, e->loc,
                  "attr '%s': a set of types cannot also hold %s", attr->name,
                  og_sema_literal_text(s, e));
      return false;
    }
    size_t len = strlen(e->name);
    og_dtype dt = og_dtype_lookup(e->name, len);
    og_typeset ts = og_typeset_lookup(e->name, len);
    if (dt) {
      add_type(s, &b, dt);
    } else if (ts) {
      add_typeset(s, &b, ts);
    } else if (og_dtype_lookup_ref(e->name, len)) {
      og_error_at(s->diag, e->loc,
                  "attr '%s': reference type '%s' is not allowed in a type "
                  "set",
                  attr->name, e->name);
      return false;
    } else {
      og_suggest g;
      og_error_at(s->diag, e->loc,
                  "attr '%s': unknown data type '%s' in set%s", attr->name,
                  e->name,
                  og_sema_hint(s, &g, e->name, OG_SG_DTYPES | OG_SG_TYPESETS));
      return false;
    }
  }
  attr->type.kind = OG_ATTR_TYPE;
  attr->allowed = finish_allowed(s, &b);
  attr->allowed_types = b.types;
  return true;
}

/* The closest attr type or type-set shortcut to a misspelt one. */
static const char *attr_type_hint(og_sema_op *s, og_suggest *g,
                                  const char *name) {
  og_suggest_init(g, name);
  for (size_t i = 0; i < sizeof base_types / sizeof *base_types; i++)
    og_suggest_add(g, base_types[i].name);
  og_sema_suggest(s, g, OG_SG_TYPESETS);
  return og_suggest_hint(g);
}

static bool resolve_name(og_sema_op *s, og_attr *attr,
                         const og_ast_attr_type *t) {
  for (size_t i = 0; i < sizeof base_types / sizeof *base_types; i++) {
    if (strcmp(t->name, base_types[i].name) == 0) {
      attr->type.kind = base_types[i].kind;
      return true;
    }
  }
  size_t len = strlen(t->name);
  og_typeset ts = og_typeset_lookup(t->name, len);
  if (ts) {
    allowed_builder b = {0};
    add_typeset(s, &b, ts);
    attr->type.kind = OG_ATTR_TYPE;
    attr->allowed = finish_allowed(s, &b);
    attr->allowed_types = b.types;
    return true;
  }
  og_suggest g;
  if (og_dtype_lookup(t->name, len))
    og_error_at(s->diag, t->loc,
                "attr '%s': '%s' is a data type, not an attr type; write "
                "'type' or a set such as {%s}",
                attr->name, t->name, t->name);
  else
    og_error_at(s->diag, t->loc,
                "attr '%s': unknown attr type '%s' (expected string, int, "
                "float, bool, type, shape, tensor, func, list(...), a type "
                "set or a {...} set)%s",
                attr->name, t->name, attr_type_hint(s, &g, t->name));
  return false;
}

static bool resolve_type(og_sema_op *s, og_attr *attr,
                         const og_ast_attr_type *t, bool in_list) {
  switch (t->kind) {
  case OG_AT_NAME: return resolve_name(s, attr, t);
  case OG_AT_SET:
    return t->elems->kind == OG_AV_STRING ? set_of_strings(s, attr, t)
                                          : set_of_types(s, attr, t);
  case OG_AT_LIST:
    if (strcmp(t->name, "list") != 0) {
      og_error_at(s->diag, t->name_loc,
                  "attr '%s': unknown type constructor '%s' (only list(...) "
                  "takes an argument)",
                  attr->name, t->name);
      return false;
    }
    if (in_list) {
      og_error_at(s->diag, t->loc,
                  "attr '%s': list(list(...)) is not allowed; lists do not "
                  "nest",
                  attr->name);
      return false;
    }
    attr->type.is_list = true;
    return resolve_type(s, attr, t->inner, true);
  }
  return false;
}

static bool check_minimum(og_sema_op *s, og_attr *attr,
                          const og_ast_value *min) {
  if (!attr->type.is_list && attr->type.kind != OG_ATTR_INT) {
    og_error_at(s->diag, min->loc,
                "attr '%s': a minimum is only allowed on int and list attrs, "
                "not on %s",
                attr->name, og_attr_type_name(attr->type));
    return false;
  }
  if (attr->type.is_list && min->i < 0) {
    og_error_at(s->diag, min->loc,
                "attr '%s': the minimum length of a list must be >= 0, found "
                "%" PRId64,
                attr->name, min->i);
    return false;
  }
  attr->has_minimum = true;
  attr->minimum = min->i;
  return true;
}

void og_sema_attr(og_sema_op *s, size_t index) {
  const og_ast_item *it = s->attr_items[index];
  og_attr *attr = &s->op->attrs[index];
  attr->name = og_arena_strdup(s->arena, it->name);
  attr->pos = og_sema_pos(s, it->name_loc);
  bool ok = resolve_type(s, attr, it->attr_type, false);
  if (ok && it->minimum) ok = check_minimum(s, attr, it->minimum);
  s->attr_bad[index] = !ok;
}

const char *og_sema_allowed_text(og_sema_op *s, const og_value *allowed) {
  og_writer w;
  og_writer_init(&w);
  og_allowed_write(&w, allowed);
  const char *text = og_arena_strndup(s->arena, w.buf, w.len);
  og_writer_free(&w);
  return text;
}

static bool value_allowed(const og_attr *attr, const og_value *v) {
  if (!attr->allowed) return true;
  if (v->kind == OG_VAL_TYPE) return attr->allowed_types & OG_DTYPE_BIT(v->u.type);
  for (size_t i = 0; i < attr->allowed->u.list.count; i++)
    if (og_value_equal(&attr->allowed->u.list.items[i], v)) return true;
  return false;
}

static bool check_allowed(og_sema_op *s, const og_attr *attr,
                          const og_value *v, og_loc loc) {
  size_t n = v->kind == OG_VAL_LIST ? v->u.list.count : 1;
  for (size_t i = 0; i < n; i++) {
    const og_value *e = v->kind == OG_VAL_LIST ? &v->u.list.items[i] : v;
    if (value_allowed(attr, e)) continue;
    og_error_at(s->diag, loc, "attr '%s': default %s is not one of %s",
                attr->name, og_sema_value_text(s, e),
                og_sema_allowed_text(s, attr->allowed));
    return false;
  }
  return true;
}

static bool check_default_minimum(og_sema_op *s, const og_attr *attr,
                                  const og_ast_item *it, const og_value *v) {
  if (!attr->has_minimum) return true;
  const char *why = it->minimum ? "" : " (implied by its use as a list length)";
  if (v->kind == OG_VAL_INT && v->u.i < attr->minimum) {
    og_error_at(s->diag, it->default_value->loc,
                "attr '%s': default %" PRId64 " is less than the minimum %" PRId64
                "%s",
                attr->name, v->u.i, attr->minimum, why);
    return false;
  }
  if (v->kind == OG_VAL_LIST && (int64_t)v->u.list.count < attr->minimum) {
    og_error_at(s->diag, it->default_value->loc,
                "attr '%s': default has %zu element%s, fewer than the minimum "
                "length %" PRId64 "%s",
                attr->name, v->u.list.count, v->u.list.count == 1 ? "" : "s",
                attr->minimum, why);
    return false;
  }
  return true;
}

void og_sema_attr_default(og_sema_op *s, size_t index) {
  const og_ast_item *it = s->attr_items[index];
  og_attr *attr = &s->op->attrs[index];
  if (!it->default_value || s->attr_bad[index]) return;
  const og_value *v = og_sema_value(s, attr, it->default_value);
  if (!v || !check_allowed(s, attr, v, it->default_value->loc) ||
      !check_default_minimum(s, attr, it, v))
    return;
  attr->default_value = v;
}
