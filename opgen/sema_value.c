/* Attr literals: AST values converted to the attr's type, and rendered
 * back to text for messages. */
#include "sema_internal.h"

#include "numtext.h"
#include "value_text.h"
#include "writer.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

const char *og_sema_literal_text(og_sema_op *s, const og_ast_value *v) {
  switch (v->kind) {
  case OG_AV_INT: return og_arena_printf(s->arena, "integer %" PRId64, v->i);
  case OG_AV_FLOAT: { /* every digit it has, not %g's six */
    char text[OG_DOUBLE_TEXT_MAX];
    og_format_double(v->f, 16, text);
    return og_arena_printf(s->arena, "number %s", text);
  }
  case OG_AV_STRING:
    return og_arena_printf(s->arena, "string '%.*s'",
                           (int)(v->s.len > 40 ? 40 : v->s.len), v->s.ptr);
  case OG_AV_NAME:
    return og_arena_printf(s->arena, "'%s%s'", v->negated ? "-" : "", v->name);
  case OG_AV_UNKNOWN: return "'?'";
  case OG_AV_LIST: return "a list";
  case OG_AV_MESSAGE: return "a message { ... }";
  }
  return "a value";
}

const char *og_sema_value_text(og_sema_op *s, const og_value *v) {
  og_writer w;
  og_writer_init(&w);
  og_value_write(&w, v);
  const char *text = og_arena_strndup(s->arena, w.buf ? w.buf : "", w.len);
  og_writer_free(&w);
  return text;
}

/* Reports that `v` is not a `want`; `what` is "default" or "element 3 of
 * the default". */
static void mismatch(og_sema_op *s, const og_attr *attr, const char *what,
                     const char *want, const og_ast_value *v) {
  og_error_at(s->diag, v->loc, "attr '%s': %s must be %s, found %s",
              attr->name, what, want, og_sema_literal_text(s, v));
}

typedef struct conv {
  og_sema_op *s;
  const og_attr *attr;
  const char *what;
  bool unranged; /* a tensor value: its dtype, not float, bounds it */
} conv;

static bool is_name(const og_ast_value *v, const char *name) {
  return v->kind == OG_AV_NAME && !v->negated && strcmp(v->name, name) == 0;
}

static bool to_float(conv *c, const og_ast_value *v, og_value *out) {
  out->kind = OG_VAL_FLOAT;
  if (v->kind == OG_AV_FLOAT) out->u.f = v->f;
  else if (v->kind == OG_AV_INT) out->u.f = (double)v->i;
  else if (v->kind == OG_AV_NAME && strcmp(v->name, "inf") == 0)
    out->u.f = v->negated ? -INFINITY : INFINITY;
  else if (v->kind == OG_AV_NAME && strcmp(v->name, "nan") == 0)
    out->u.f = NAN;
  else {
    mismatch(c->s, c->attr, c->what, "a float", v);
    return false;
  }
  return true;
}

static bool to_type(conv *c, const og_ast_value *v, og_value *out) {
  size_t len = v->kind == OG_AV_NAME && !v->negated ? strlen(v->name) : 0;
  og_dtype dt = len ? og_dtype_lookup(v->name, len) : OG_DT_INVALID;
  if (!dt && len && og_dtype_lookup_ref(v->name, len)) {
    og_error_at(c->s->diag, v->loc,
                "attr '%s': %s may not be a reference type, found '%s'",
                c->attr->name, c->what, v->name);
    return false;
  }
  if (!dt) {
    mismatch(c->s, c->attr, c->what, "a data type", v);
    return false;
  }
  out->kind = OG_VAL_TYPE;
  out->u.type = dt;
  return true;
}


static bool to_scalar(conv *c, const og_ast_value *v, og_value *out) {
  switch (c->attr->type.kind) {
  case OG_ATTR_STRING:
    if (v->kind != OG_AV_STRING) break;
    *out = (og_value){.kind = OG_VAL_STRING, .u.s = v->s};
    out->u.s.ptr = og_arena_strndup(c->s->arena, v->s.ptr, v->s.len);
    return true;
  case OG_ATTR_INT:
    if (v->kind != OG_AV_INT) break;
    *out = (og_value){.kind = OG_VAL_INT, .u.i = v->i};
    return true;
  case OG_ATTR_FLOAT:
    return to_float(c, v, out) &&
           (c->unranged || og_sema_value_fits(c->s, c->attr, c->what, out,
                                              OG_DT_FLOAT, v->loc));
  case OG_ATTR_BOOL:
    if (!is_name(v, "true") && !is_name(v, "false")) break;
    *out = (og_value){.kind = OG_VAL_BOOL, .u.b = is_name(v, "true")};
    return true;
  case OG_ATTR_TYPE: return to_type(c, v, out);
  case OG_ATTR_SHAPE:
    out->kind = OG_VAL_SHAPE;
    return og_sema_shape_literal(c->s, c->attr, c->what, v, &out->u.shape);
  case OG_ATTR_TENSOR:
    out->kind = OG_VAL_TENSOR;
    return og_sema_tensor_literal(c->s, c->attr, v, &out->u.tensor);
  case OG_ATTR_FUNC:
    out->kind = OG_VAL_FUNC;
    return og_sema_func_literal(c->s, c->attr, v, &out->u.func);
  }
  mismatch(c->s, c->attr, c->what,
           og_arena_printf(c->s->arena, "a%s %s",
                           c->attr->type.kind == OG_ATTR_INT ? "n" : "",
                           og_attr_kind_name(c->attr->type.kind)),
           v);
  return false;
}

static bool to_list(conv *c, const og_ast_value *v, og_value *out) {
  if (v->kind != OG_AV_LIST) {
    mismatch(c->s, c->attr, c->what,
             og_arena_printf(c->s->arena, "a %s literal such as [...]",
                             og_attr_type_name(c->attr->type)),
             v);
    return false;
  }
  size_t n = 0;
  for (const og_ast_value *e = v->items; e; e = e->next) n++;
  out->kind = OG_VAL_LIST;
  out->u.list.count = n;
  out->u.list.items = og_arena_array(c->s->arena, n, sizeof *out->u.list.items);
  size_t i = 0;
  bool ok = true;
  for (const og_ast_value *e = v->items; e; e = e->next, i++) {
    conv elem = {c->s, c->attr,
                 og_arena_printf(c->s->arena, "element %zu of the default", i),
                 false};
    ok = to_scalar(&elem, e, &out->u.list.items[i]) && ok;
  }
  return ok;
}

const og_value *og_sema_value(og_sema_op *s, const og_attr *attr,
                              const og_ast_value *v) {
  conv c = {s, attr, "the default", false};
  og_value *out = og_arena_alloc(s->arena, sizeof *out);
  bool ok = attr->type.is_list ? to_list(&c, v, out) : to_scalar(&c, v, out);
  return ok ? out : NULL;
}

const og_value *og_sema_tensor_value(og_sema_op *s, const og_attr *attr,
                                     const char *what, og_dtype dt,
                                     const og_ast_value *v) {
  conv c = {s, attr, what, true};
  og_value *out = og_arena_alloc(s->arena, sizeof *out);
  if (!to_scalar(&c, v, out) ||
      !og_sema_value_fits(s, attr, what, out, dt, v->loc))
    return NULL;
  return out;
}
