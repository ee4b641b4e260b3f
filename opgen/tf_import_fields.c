/* The walk over one message's fields of an OpList: each field checked
 * against its message's table (unknown, unsupported, repeated where it may
 * not be, value of the wrong kind) and converted. */
#include "tf_import_internal.h"

#include "name_rules.h"

#include <stdarg.h>
#include <string.h>

bool og_tfi_fail(imp *c, og_srcpos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  og_diag_vreport(c->diag, OG_SEV_ERROR, pos, fmt, ap);
  va_end(ap);
  return false;
}

const char *og_tfi_shown(imp *c, const char *name) {
  char buf[OG_NAME_SHOWN_MAX];
  return og_arena_strdup(c->a, og_name_shown(name, buf));
}

og_srcpos og_tfi_model_pos(const imp *c, og_srcpos pos) {
  pos.file = c->path;
  return pos;
}

static bool parse_bool(const og_pb_node *n, bool *out) {
  static const char *const yes[] = {"true", "True", "t"};
  static const char *const no[] = {"false", "False", "f"};
  if (n->kind == OG_PB_INT && (n->i == 0 || n->i == 1)) {
    *out = n->i == 1;
    return true;
  }
  if (n->kind != OG_PB_IDENT) return false;
  for (size_t i = 0; i < 3; i++) {
    if (strcmp(n->str.ptr, yes[i]) == 0 || strcmp(n->str.ptr, no[i]) == 0) {
      *out = strcmp(n->str.ptr, yes[i]) == 0;
      return true;
    }
  }
  return false;
}

static bool parse_dtype(imp *c, const walker *w, const og_pb_node *n,
                        og_dtype *out) {
  char buf[96];
  if (n->kind == OG_PB_INT && n->i > 0 && n->i < OG_DT_COUNT) {
    *out = (og_dtype)n->i;
    return true;
  }
  const char *s = n->str.ptr;
  if (n->kind == OG_PB_IDENT && strncmp(s, "DT_", 3) == 0) {
    *out = og_dtype_lookup(s, strlen(s));
    if (*out) return true;
    if (og_dtype_lookup_ref(s, strlen(s)))
      return og_tfi_fail(c, n->value_pos,
                  "reference dtype '%s' in field '%s' of %s (write the base "
                  "type and is_ref: true)",
                  s, n->name, w->type);
  }
  return og_tfi_fail(c, n->value_pos, "unknown data type %s in field '%s' of %s",
              og_pb_describe(n, buf, sizeof buf), n->name, w->type);
}

static const char *kind_word(fkind k) {
  switch (k) {
  case F_MSG: return "a message";
  case F_STR: return "a string";
  case F_INT: return "an integer";
  case F_FLOAT: return "a number";
  case F_BOOL: return "true or false";
  case F_DTYPE: return "a data type";
  }
  return "a value";
}

bool og_tfi_convert(imp *c, const walker *w, const field_spec *s,
                    const og_pb_node *n, fval *v) {
  char buf[96];
  memset(v, 0, sizeof *v);
  v->node = n;
  bool ok = true;
  if ((s->kind == F_MSG) != (n->kind == OG_PB_MESSAGE)) ok = false;
  else if (s->kind == F_STR) ok = n->kind == OG_PB_STRING, v->s = n->str;
  else if (s->kind == F_INT) ok = n->kind == OG_PB_INT, v->i = n->i;
  else if (s->kind == F_FLOAT) ok = og_pb_float(n, &v->f);
  else if (s->kind == F_BOOL) ok = parse_bool(n, &v->b);
  else if (s->kind == F_DTYPE) return parse_dtype(c, w, n, &v->dt);
  if (!ok)
    return og_tfi_fail(c, n->value_pos, "field '%s' of %s must be %s, found %s",
                n->name, w->type, kind_word(s->kind),
                og_pb_describe(n, buf, sizeof buf));
  return true;
}

static const field_spec *find_spec(const walker *w, const char *name) {
  for (size_t i = 0; i < w->nspecs; i++)
    if (strcmp(w->specs[i].name, name) == 0) return &w->specs[i];
  return NULL;
}

static void note_unknown(imp *c, const walker *w, const og_pb_node *n) {
  skipped_fields *s = &c->skip;
  if (!s->uses++) s->first = og_tfi_model_pos(c, n->pos);
  char *name = og_arena_printf(c->a, "%s.%s", w->type, n->name);
  for (size_t i = 0; i < s->nnames; i++)
    if (strcmp(s->names[i], name) == 0) return;
  if (s->nnames < MAX_UNKNOWN_SHOWN) s->names[s->nnames++] = name;
  else s->more = true;
}

const og_pb_node *og_tfi_known(imp *c, const walker *w, const og_pb_node *n) {
  for (; n; n = n->next) {
    const field_spec *s = find_spec(w, n->name);
    if (s && s->unsupported != DROPPED) return n;
    if (!s) {
      note_unknown(c, w, n);
    } else if (!c->skip.dropped++) {
      c->skip.first_dropped = og_tfi_model_pos(c, n->pos);
    }
  }
  return NULL;
}

int og_tfi_next_field(imp *c, walker *w, const og_pb_node *n, fval *v) {
  size_t i = 0;
  while (i < w->nspecs && strcmp(w->specs[i].name, n->name) != 0) i++;
  if (i == w->nspecs) {
    og_tfi_fail(c, n->pos, "unknown field '%s' in %s", n->name, w->type);
    return -1;
  }
  const field_spec *s = &w->specs[i];
  if (s->unsupported) {
    og_tfi_fail(c, n->pos, "field '%s' of %s is not supported (the op model has no "
         "place for it)", n->name, w->type);
    return -1;
  }
  if (!s->repeated && w->seen[i]) {
    og_tfi_fail(c, n->pos, "field '%s' of %s given twice (first at %u:%u)", n->name,
         w->type, (unsigned)w->seen[i]->pos.line,
         (unsigned)w->seen[i]->pos.col);
    return -1;
  }
  if (!w->seen[i]) w->seen[i] = n;
  return og_tfi_convert(c, w, s, n, v) ? (int)i : -1;
}

bool og_tfi_cstr(imp *c, const fval *v, const char **out) {
  if (memchr(v->s.ptr, '\0', v->s.len))
    return og_tfi_fail(c, v->node->value_pos,
                "field '%s' must not contain a NUL byte", v->node->name);
  *out = og_arena_strndup(c->a, v->s.ptr, v->s.len);
  return true;
}

size_t og_tfi_count_fields(const og_pb_node *msg, const char *name) {
  size_t n = 0;
  for (const og_pb_node *f = msg->fields; f; f = f->next)
    n += strcmp(f->name, name) == 0;
  return n;
}
