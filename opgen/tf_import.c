/* OpList text to the op model. Each protobuf message type has a table of
 * its fields; one walker checks every field against the table (unknown,
 * unsupported, repeated where it may not be, value of the wrong kind) so
 * the per-message code only copies values into the model. */
#include "tf_import.h"

#include "ascii.h"
#include "compile.h"
#include "name_rules.h"
#include "pbtxt.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef enum fkind { F_MSG, F_STR, F_INT, F_FLOAT, F_BOOL, F_DTYPE } fkind;

typedef struct field_spec {
  const char *name;
  fkind kind;
  bool repeated;
  /* true: a real field the op model has no place for (an error);
   * DROPPED: one skipped with one summary warning (full types). */
  unsigned char unsupported;
} field_spec;
enum { DROPPED = 2 };

/* A field's value, converted per its spec. */
typedef struct fval {
  const og_pb_node *node;
  og_bytes s;
  int64_t i;
  double f;
  bool b;
  og_dtype dt;
} fval;

enum { MAX_SPECS = 24 };

/* Walks the fields of one message, remembering each field's first use. */
typedef struct walker {
  const char *type; /* "OpDef", for messages */
  const field_spec *specs;
  size_t nspecs;
  const og_pb_node *seen[MAX_SPECS];
} walker;

/* Fields skipped in the whole file: reported once at the end. */
enum { MAX_UNKNOWN_SHOWN = 8 };
typedef struct skipped_fields {
  const char *names[MAX_UNKNOWN_SHOWN]; /* "ArgDef.foo", distinct */
  size_t nnames, uses;
  bool more; /* distinct names past the shown ones */
  og_srcpos first;
  size_t dropped; /* experimental_full_type fields */
  og_srcpos first_dropped;
} skipped_fields;

typedef struct imp {
  og_model *m;
  og_arena *a; /* the model's arena */
  og_diag *diag;
  const char *path;    /* model arena copy, for positions in the model */
  const char *package; /* model arena */
  bool verbose;        /* list skipped ops by name */
  skipped_fields skip;
} imp;

#define WALKER(TYPE, SPECS) {TYPE, SPECS, sizeof SPECS / sizeof *SPECS, {0}}

static bool __attribute__((format(printf, 3, 4)))
fail(imp *c, og_srcpos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  og_diag_vreport(c->diag, OG_SEV_ERROR, pos, fmt, ap);
  va_end(ap);
  return false;
}

/* A name not yet checked, as messages may show it (name_rules.h). */
static const char *shown(imp *c, const char *name) {
  char buf[OG_NAME_SHOWN_MAX];
  return og_arena_strdup(c->a, og_name_shown(name, buf));
}

/* A position that lives as long as the model. */
static og_srcpos model_pos(const imp *c, og_srcpos pos) {
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
      return fail(c, n->value_pos,
                  "reference dtype '%s' in field '%s' of %s (write the base "
                  "type and is_ref: true)",
                  s, n->name, w->type);
  }
  return fail(c, n->value_pos, "unknown data type %s in field '%s' of %s",
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

/* Checks the value of `n` against spec `s` and converts it into *v. */
static bool convert(imp *c, const walker *w, const field_spec *s,
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
    return fail(c, n->value_pos, "field '%s' of %s must be %s, found %s",
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
  if (!s->uses++) s->first = model_pos(c, n->pos);
  char *name = og_arena_printf(c->a, "%s.%s", w->type, n->name);
  for (size_t i = 0; i < s->nnames; i++)
    if (strcmp(s->names[i], name) == 0) return;
  if (s->nnames < MAX_UNKNOWN_SHOWN) s->names[s->nnames++] = name;
  else s->more = true;
}

/* `n` or the first field after it that the walk reads: unknown fields
 * (from a newer TensorFlow) and dropped ones are counted and passed. */
static const og_pb_node *known(imp *c, const walker *w, const og_pb_node *n) {
  for (; n; n = n->next) {
    const field_spec *s = find_spec(w, n->name);
    if (s && s->unsupported != DROPPED) return n;
    if (!s) {
      note_unknown(c, w, n);
    } else if (!c->skip.dropped++) {
      c->skip.first_dropped = model_pos(c, n->pos);
    }
  }
  return NULL;
}

#define EACH_FIELD(c, w, f, msg)                                             \
  for (const og_pb_node *f = known(c, w, (msg)->fields); f;                 \
       f = known(c, w, f->next))

/* The spec index of field `n` with its value in *v, or -1 after an
 * error. */
static int next_field(imp *c, walker *w, const og_pb_node *n, fval *v) {
  size_t i = 0;
  while (i < w->nspecs && strcmp(w->specs[i].name, n->name) != 0) i++;
  if (i == w->nspecs) {
    fail(c, n->pos, "unknown field '%s' in %s", n->name, w->type);
    return -1;
  }
  const field_spec *s = &w->specs[i];
  if (s->unsupported) {
    fail(c, n->pos, "field '%s' of %s is not supported (the op model has no "
         "place for it)", n->name, w->type);
    return -1;
  }
  if (!s->repeated && w->seen[i]) {
    fail(c, n->pos, "field '%s' of %s given twice (first at %u:%u)", n->name,
         w->type, (unsigned)w->seen[i]->pos.line,
         (unsigned)w->seen[i]->pos.col);
    return -1;
  }
  if (!w->seen[i]) w->seen[i] = n;
  return convert(c, w, s, n, v) ? (int)i : -1;
}

/* A NUL-terminated copy for the model; names and docs may not hold NULs. */
static bool cstr(imp *c, const fval *v, const char **out) {
  if (memchr(v->s.ptr, '\0', v->s.len))
    return fail(c, v->node->value_pos,
                "field '%s' must not contain a NUL byte", v->node->name);
  *out = og_arena_strndup(c->a, v->s.ptr, v->s.len);
  return true;
}

static size_t count_fields(const og_pb_node *msg, const char *name) {
  size_t n = 0;
  for (const og_pb_node *f = msg->fields; f; f = f->next)
    n += strcmp(f->name, name) == 0;
  return n;
}

/* ---- values: shapes, tensors, funcs, AttrValue ---- */

static const field_spec shape_fields[] = {
    {"dim", F_MSG, true, false},
    {"unknown_rank", F_BOOL, false, false},
};
static const field_spec dim_fields[] = {
    {"size", F_INT, false, false},
    {"name", F_STR, false, true},
};

static bool dim_value(imp *c, const og_pb_node *msg, int64_t *out) {
  walker w = WALKER("TensorShapeProto.Dim", dim_fields);
  *out = 0;
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    if (next_field(c, &w, f, &v) < 0) return false;
    if (v.i < -1)
      return fail(c, f->value_pos,
                  "dim size %lld is invalid (a size is >= 0, or -1 for "
                  "unknown)",
                  (long long)v.i);
    *out = v.i;
  }
  return true;
}

static bool shape_value(imp *c, const og_pb_node *msg, og_shape *out) {
  walker w = WALKER("TensorShapeProto", shape_fields);
  memset(out, 0, sizeof *out);
  out->dims = og_arena_array(c->a, count_fields(msg, "dim"), sizeof *out->dims);
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = next_field(c, &w, f, &v);
    if (id < 0) return false;
    if (id == 1) out->unknown_rank = v.b;
    else if (!dim_value(c, f, &out->dims[out->rank++])) return false;
  }
  if (out->unknown_rank && out->rank)
    return fail(c, msg->value_pos, "a shape of unknown rank cannot have dims");
  return true;
}

static const field_spec tensor_fields[] = {
    {"dtype", F_DTYPE, false, false},
    {"tensor_shape", F_MSG, false, false},
    {"version_number", F_INT, false, true},
    {"tensor_content", F_STR, false, true},
    {"half_val", F_INT, true, false},
    {"float_val", F_FLOAT, true, false},
    {"double_val", F_FLOAT, true, false},
    {"int_val", F_INT, true, false},
    {"string_val", F_STR, true, false},
    {"scomplex_val", F_FLOAT, true, false},
    {"int64_val", F_INT, true, false},
    {"bool_val", F_BOOL, true, false},
    {"dcomplex_val", F_FLOAT, true, false},
    {"resource_handle_val", F_MSG, true, true},
    {"variant_val", F_MSG, true, true},
    {"uint32_val", F_INT, true, false},
    {"uint64_val", F_INT, true, false},
    {"float8_val", F_STR, false, true},
};
enum { TENSOR_DTYPE = 0, TENSOR_SHAPE = 1, TENSOR_FIRST_VAL = 4 };

const char *og_tf_tensor_val_field(og_dtype dt) {
  switch (dt) {
  case OG_DT_FLOAT: return "float_val";
  case OG_DT_DOUBLE: return "double_val";
  case OG_DT_INT32: case OG_DT_UINT8: case OG_DT_INT16: case OG_DT_INT8:
  case OG_DT_UINT16: case OG_DT_QINT8: case OG_DT_QUINT8: case OG_DT_QINT16:
  case OG_DT_QUINT16: case OG_DT_QINT32: case OG_DT_INT4: case OG_DT_UINT4:
    return "int_val";
  case OG_DT_INT64: return "int64_val";
  case OG_DT_UINT32: return "uint32_val";
  case OG_DT_UINT64: return "uint64_val";
  case OG_DT_HALF: case OG_DT_BFLOAT16: return "half_val";
  case OG_DT_STRING: return "string_val";
  case OG_DT_BOOL: return "bool_val";
  case OG_DT_COMPLEX64: return "scomplex_val";
  case OG_DT_COMPLEX128: return "dcomplex_val";
  default: return NULL;
  }
}

static void scalar_of(imp *c, fkind k, const fval *v, og_value *out) {
  switch (k) {
  case F_STR:
    out->kind = OG_VAL_STRING;
    out->u.s.ptr = og_arena_strndup(c->a, v->s.ptr, v->s.len);
    out->u.s.len = v->s.len;
    break;
  case F_INT: out->kind = OG_VAL_INT, out->u.i = v->i; break;
  case F_FLOAT: out->kind = OG_VAL_FLOAT, out->u.f = v->f; break;
  case F_BOOL: out->kind = OG_VAL_BOOL, out->u.b = v->b; break;
  case F_DTYPE: out->kind = OG_VAL_TYPE, out->u.type = v->dt; break;
  case F_MSG: break;
  }
}

/* The *_val fields, once dtype is known (it may come after them). */
static bool tensor_values(imp *c, const walker *w, const og_pb_node *msg,
                          og_tensor *t) {
  const char *want = og_tf_tensor_val_field(t->dtype);
  for (const og_pb_node *f = msg->fields; f; f = f->next) {
    size_t i = TENSOR_FIRST_VAL;
    while (i < w->nspecs && strcmp(tensor_fields[i].name, f->name) != 0) i++;
    if (i == w->nspecs) continue;
    if (!want || strcmp(want, f->name) != 0)
      return fail(c, f->pos, "a tensor of dtype %s cannot hold '%s' values%s%s",
                  og_dtype_name(t->dtype), f->name, want ? "; use " : "",
                  want ? want : "");
    fval v;
    convert(c, w, &tensor_fields[i], f, &v); /* checked by the walk */
    scalar_of(c, tensor_fields[i].kind, &v, &t->values[t->nvalues++]);
  }
  return true;
}

static bool tensor_value(imp *c, const og_pb_node *msg, og_tensor *out) {
  walker w = WALKER("TensorProto", tensor_fields);
  memset(out, 0, sizeof *out);
  size_t nvalues = 0;
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = next_field(c, &w, f, &v);
    if (id < 0) return false;
    if (id == TENSOR_DTYPE) out->dtype = v.dt;
    else if (id == TENSOR_SHAPE && !shape_value(c, f, &out->shape)) return false;
    else if (id >= TENSOR_FIRST_VAL) nvalues++;
  }
  if (!out->dtype)
    return fail(c, msg->value_pos, "a tensor needs a dtype");
  out->values = og_arena_array(c->a, nvalues, sizeof *out->values);
  return tensor_values(c, &w, msg, out);
}

static const field_spec func_fields[] = {
    {"name", F_STR, false, false},
    {"attr", F_MSG, true, true},
};

static bool func_value(imp *c, const og_pb_node *msg, const char **out) {
  walker w = WALKER("NameAttrList", func_fields);
  *out = "";
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    if (next_field(c, &w, f, &v) < 0 || !cstr(c, &v, out)) return false;
  }
  return true;
}

/* AttrValue and ListValue share field names; index = og_attr_kind. */
static const field_spec value_fields[] = {
    [OG_ATTR_STRING] = {"s", F_STR, false, false},
    [OG_ATTR_INT] = {"i", F_INT, false, false},
    [OG_ATTR_FLOAT] = {"f", F_FLOAT, false, false},
    [OG_ATTR_BOOL] = {"b", F_BOOL, false, false},
    [OG_ATTR_TYPE] = {"type", F_DTYPE, false, false},
    [OG_ATTR_SHAPE] = {"shape", F_MSG, false, false},
    [OG_ATTR_TENSOR] = {"tensor", F_MSG, false, false},
    [OG_ATTR_FUNC] = {"func", F_MSG, false, false},
    {"list", F_MSG, false, false},
    {"placeholder", F_STR, false, true},
};
enum { VALUE_LIST = OG_ATTR_FUNC + 1, NKINDS = VALUE_LIST };

static const field_spec list_fields[] = {
    [OG_ATTR_STRING] = {"s", F_STR, true, false},
    [OG_ATTR_INT] = {"i", F_INT, true, false},
    [OG_ATTR_FLOAT] = {"f", F_FLOAT, true, false},
    [OG_ATTR_BOOL] = {"b", F_BOOL, true, false},
    [OG_ATTR_TYPE] = {"type", F_DTYPE, true, false},
    [OG_ATTR_SHAPE] = {"shape", F_MSG, true, false},
    [OG_ATTR_TENSOR] = {"tensor", F_MSG, true, false},
    [OG_ATTR_FUNC] = {"func", F_MSG, true, false},
};

/* One value of attr kind `k` from field `f` (converted into `v`). */
static bool element(imp *c, og_attr_kind k, const og_pb_node *f,
                    const fval *v, og_value *out) {
  switch (k) {
  case OG_ATTR_SHAPE:
    out->kind = OG_VAL_SHAPE;
    return shape_value(c, f, &out->u.shape);
  case OG_ATTR_TENSOR:
    out->kind = OG_VAL_TENSOR;
    return tensor_value(c, f, &out->u.tensor);
  case OG_ATTR_FUNC:
    out->kind = OG_VAL_FUNC;
    return func_value(c, f, &out->u.func);
  default:
    scalar_of(c, value_fields[k].kind, v, out);
    return true;
  }
}

static bool list_value(imp *c, const og_pb_node *msg, og_attr_type t,
                       const char *what, og_value *out) {
  walker w = WALKER("ListValue", list_fields);
  size_t n = count_fields(msg, list_fields[t.kind].name);
  out->kind = OG_VAL_LIST;
  out->u.list.items = og_arena_array(c->a, n, sizeof *out->u.list.items);
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = next_field(c, &w, f, &v);
    if (id < 0) return false;
    if (id != (int)t.kind)
      return fail(c, f->pos, "%s holds '%s' values, but its type is %s", what,
                  f->name, og_attr_type_name(t));
    if (!element(c, t.kind, f, &v, &out->u.list.items[out->u.list.count++]))
      return false;
  }
  return true;
}

/* An AttrValue that must hold one value of type `t`; `what` names it in
 * messages ("default_value of attr 'x'"). NULL after an error. */
static og_value *attr_value(imp *c, const og_pb_node *msg, og_attr_type t,
                            const char *what) {
  walker w = WALKER("AttrValue", value_fields);
  const og_pb_node *set = NULL;
  fval sv = {0};
  int set_id = -1;
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = next_field(c, &w, f, &v);
    if (id < 0) return NULL;
    if (set) {
      fail(c, f->pos, "%s sets both '%s' and '%s'", what, set->name, f->name);
      return NULL;
    }
    set = f, set_id = id, sv = v;
  }
  if (!set) {
    fail(c, msg->value_pos, "%s is empty", what);
    return NULL;
  }
  int want = t.is_list ? VALUE_LIST : (int)t.kind;
  if (set_id != want) {
    fail(c, set->pos, "%s must set '%s' for type %s, not '%s'", what,
         value_fields[want].name, og_attr_type_name(t), set->name);
    return NULL;
  }
  og_value *out = og_arena_alloc(c->a, sizeof *out);
  bool ok = t.is_list ? list_value(c, set, t, what, out)
                      : element(c, t.kind, set, &sv, out);
  return ok ? out : NULL;
}

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
    return fail(c, n->pos,
                "attr '%s' of type %s cannot have allowed_values (only "
                "string and type attrs can)",
                shown(c, attr->name), og_attr_type_name(attr->type));
  og_attr_type lt = {attr->type.kind, true};
  char *what = og_arena_printf(c->a, "allowed_values of attr '%s'",
                               shown(c, attr->name));
  attr->allowed = attr_value(c, n, lt, what);
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
    return fail(c, msg->pos, "attr has no name");
  const og_pb_node *type = w->seen[AT_TYPE];
  if (!type)
    return fail(c, msg->pos, "attr '%s' has no type", shown(c, attr->name));
  if (!og_attr_type_parse(type->str.ptr, &attr->type) ||
      strlen(type->str.ptr) != type->str.len)
    return fail(c, type->value_pos, "attr '%s' has unknown type '%s'",
                shown(c, attr->name), shown(c, type->str.ptr));
  if (w->seen[AT_ALLOWED] && !attr_allowed(c, attr, w->seen[AT_ALLOWED]))
    return false;
  if (w->seen[AT_DEFAULT]) {
    char *what = og_arena_printf(c->a, "default_value of attr '%s'",
                                 shown(c, attr->name));
    attr->default_value = attr_value(c, w->seen[AT_DEFAULT], attr->type, what);
    if (!attr->default_value) return false;
  }
  return true;
}

static bool import_attr(imp *c, const og_pb_node *msg, og_attr *attr) {
  walker w = WALKER("AttrDef", attr_fields);
  attr->name = attr->description = "";
  attr->pos = model_pos(c, msg->pos);
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = next_field(c, &w, f, &v);
    if (id < 0) return false;
    bool ok = true;
    if (id == AT_NAME) ok = cstr(c, &v, &attr->name);
    else if (id == AT_DESC) ok = cstr(c, &v, &attr->description);
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
  case ARG_NAME: return cstr(c, v, &arg->name);
  case ARG_DESC: return cstr(c, v, &arg->description);
  case ARG_TYPE: arg->type = v->dt; return true;
  case ARG_TYPE_ATTR: return cstr(c, v, &arg->type_attr);
  case ARG_NUMBER_ATTR: return cstr(c, v, &arg->number_attr);
  case ARG_TYPE_LIST_ATTR: return cstr(c, v, &arg->type_list_attr);
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
  arg->pos = model_pos(c, msg->pos);
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = next_field(c, &w, f, &v);
    if (id < 0 || !arg_field(c, arg, id, &v)) return false;
  }
  if (!*arg->name) return fail(c, msg->pos, "%s has no name", what);
  int kinds = (arg->type != OG_DT_INVALID) + (*arg->type_attr != '\0') +
              (*arg->type_list_attr != '\0');
  if (kinds != 1)
    return fail(c, msg->pos,
                "%s '%s' must set exactly one of type, type_attr and "
                "type_list_attr",
                what, shown(c, arg->name));
  if (*arg->number_attr && *arg->type_list_attr)
    return fail(c, msg->pos,
                "%s '%s' cannot have both number_attr and type_list_attr",
                what, shown(c, arg->name));
  return true;
}

/* An attr an arg refers to must exist and be of the right type. */
static bool check_ref(imp *c, og_op *op, const og_arg *arg, const char *what,
                      const char *field, const char *name, og_attr_type t,
                      bool is_input) {
  if (!*name) return true;
  og_attr *attr = (og_attr *)og_op_find_attr(op, name);
  if (!attr)
    return fail(c, arg->pos, "%s '%s' of op '%s': %s '%s' is not an attr of "
                "the op", what, arg->name, op->name, field, name);
  if (attr->type.kind != t.kind || attr->type.is_list != t.is_list)
    return fail(c, arg->pos,
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
    int id = next_field(c, &w, f, &v);
    if (id < 0) return false;
    if (id == 1 && !cstr(c, &v, &op->deprecation_explanation)) return false;
    if (id == 0 && (v.i < INT32_MIN || v.i > INT32_MAX))
      return fail(c, f->value_pos, "deprecation version %lld is out of range",
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
  case OP_NAME: return cstr(c, v, &op->name);
  case OP_INPUT: return import_arg(c, n, &op->inputs[op->ninputs++], "input");
  case OP_OUTPUT:
    return import_arg(c, n, &op->outputs[op->noutputs++], "output");
  case OP_ATTR: return import_attr(c, n, &op->attrs[op->nattrs++]);
  case OP_DEPRECATION: return import_deprecation(c, n, op);
  case OP_SUMMARY: return cstr(c, v, &op->summary);
  case OP_DESCRIPTION: return cstr(c, v, &op->description);
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
  op->pos = model_pos(c, msg->pos);
  op->inputs = og_arena_array(c->a, count_fields(msg, "input_arg"),
                              sizeof *op->inputs);
  op->outputs = og_arena_array(c->a, count_fields(msg, "output_arg"),
                               sizeof *op->outputs);
  op->attrs = og_arena_array(c->a, count_fields(msg, "attr"),
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
    int id = next_field(c, &w, f, &v);
    if (id < 0 || !op_field(c, op, id, &v)) ok = false;
  }
  if (!ok) return NULL;
  if (!*op->name) {
    fail(c, msg->pos, "op has no name");
    return NULL;
  }
  if (w.seen[OP_NAME]) op->pos = model_pos(c, w.seen[OP_NAME]->value_pos);
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
    ok = fail(c, b->pos, "op '%s' is defined twice (first at %u:%u)",
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
    if (next_field(c, &w, f, &v) < 0) continue; /* report every bad op */
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
