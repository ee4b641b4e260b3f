#include "dump_read.h"

#include "dump.h"
#include "json.h"
#include "name_rules.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every reader function reports its own problems and returns false; the
 * callers keep reading sibling fields so that one run shows every problem
 * that does not follow from another. */

typedef struct reader {
  og_model *m;
  const char *path;
  og_diag *diag;
  /* What is being read, for messages: `op "Foo"`, `attr "T" of op
   * "Foo"`; names shown escaped (name_rules.h). */
  char where[2 * OG_NAME_SHOWN_MAX + 40];
} reader;

/* What a message calls a value: "\"key\"" or "\"key\"[3]". */
typedef struct ctx_name {
  char text[96];
} ctx_name;

static ctx_name key_ctx(const char *key) {
  ctx_name c;
  snprintf(c.text, sizeof c.text, "\"%s\"", key);
  return c;
}

static ctx_name item_ctx(const ctx_name *array, size_t i) {
  ctx_name c;
  snprintf(c.text, sizeof c.text, "%.70s[%zu]", array->text, i);
  return c;
}

static bool error_at(reader *r, const og_json *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool error_at(reader *r, const og_json *at, const char *fmt, ...) {
  og_srcpos pos = {r->path, at->line, at->col, 0};
  va_list ap;
  va_start(ap, fmt);
  og_diag_vreport(r->diag, OG_SEV_ERROR, pos, fmt, ap);
  va_end(ap);
  return false;
}

/* Every member of object `obj` must be one of `keys` (NULL-ended): a
 * layout with other fields has a newer "format_version", so an unknown
 * one means a damaged or hand-edited file, whose meaning is a guess.
 * Each is reported at its key, with `what` (the object). */
static bool known_fields(reader *r, const og_json *obj,
                         const char *const *keys, const char *what) {
  bool ok = true;
  for (size_t i = 0; i < obj->u.obj.count; i++) {
    const og_json_member *mb = &obj->u.obj.members[i];
    size_t k = 0;
    while (keys[k] && (strlen(keys[k]) != mb->key.len ||
                       memcmp(keys[k], mb->key.ptr, mb->key.len) != 0))
      k++;
    if (keys[k]) continue;
    char shown[OG_NAME_SHOWN_MAX];
    og_srcpos pos = {r->path, mb->line, mb->col, 0};
    og_diag_report(r->diag, OG_SEV_ERROR, pos, "unknown field \"%s\" in %s",
                   og_name_shown(mb->key.ptr, shown), what);
    ok = false;
  }
  return ok;
}

/* known_fields for a value nested in the current item ("default_value"
 * of an attr): named by its context and r->where. */
static bool known_value_fields(reader *r, const og_json *obj,
                               const char *const *keys, const ctx_name *ctx) {
  char what[sizeof r->where + sizeof ctx->text + 8];
  snprintf(what, sizeof what, "%s of %s", ctx->text, r->where);
  return known_fields(r, obj, keys, what);
}

static const char *with_article(og_json_kind kind) {
  switch (kind) {
  case OG_JSON_NULL: return "null";
  case OG_JSON_BOOL: return "a boolean";
  case OG_JSON_NUMBER: return "a number";
  case OG_JSON_STRING: return "a string";
  case OG_JSON_ARRAY: return "an array";
  case OG_JSON_OBJECT: return "an object";
  }
  return "a value";
}

static bool expect_kind(reader *r, const og_json *v, og_json_kind kind,
                        const ctx_name *ctx) {
  if (v->kind == kind) return true;
  return error_at(r, v, "expected %s for %s, found %s", with_article(kind),
                  ctx->text, og_json_kind_name(v->kind));
}

/* The member `key` of `obj` (an `what`: "op", "attr", ...), or NULL after
 * reporting that it is missing. */
static const og_json *field(reader *r, const og_json *obj, const char *key,
                            const char *what) {
  const og_json *v = og_json_get(obj, key);
  if (!v) error_at(r, obj, "missing field \"%s\" in %s", key, what);
  return v;
}

/* ---- scalars ------------------------------------------------------------ */

static bool as_int(reader *r, const og_json *v, const ctx_name *ctx,
                   int64_t min, int64_t max, int64_t *out) {
  if (v->kind != OG_JSON_NUMBER)
    return error_at(r, v, "expected an integer for %s, found %s", ctx->text,
                    og_json_kind_name(v->kind));
  if (!v->u.num.is_integer)
    return error_at(r, v, "expected an integer for %s, found %s", ctx->text,
                    v->u.num.text);
  if (!v->u.num.fits_int64 || v->u.num.i < min || v->u.num.i > max)
    return error_at(r, v, "integer %s out of range for %s", v->u.num.text,
                    ctx->text);
  *out = v->u.num.i;
  return true;
}

/* A C string field: a NUL inside would silently cut it short. */
static bool as_cstring(reader *r, const og_json *v, const ctx_name *ctx,
                       const char **out) {
  if (!expect_kind(r, v, OG_JSON_STRING, ctx)) return false;
  if (memchr(v->u.str.ptr, '\0', v->u.str.len))
    return error_at(r, v, "unexpected NUL character in %s", ctx->text);
  *out = og_arena_strndup(&r->m->arena, v->u.str.ptr, v->u.str.len);
  return true;
}

static bool as_bytes(reader *r, const og_json *v, const ctx_name *ctx,
                     og_bytes *out) {
  if (!expect_kind(r, v, OG_JSON_STRING, ctx)) return false;
  out->ptr = og_arena_strndup(&r->m->arena, v->u.str.ptr, v->u.str.len);
  out->len = v->u.str.len;
  return true;
}

static bool as_dtype(reader *r, const og_json *v, const ctx_name *ctx,
                     og_dtype *out) {
  if (!expect_kind(r, v, OG_JSON_STRING, ctx)) return false;
  *out = og_dtype_lookup(v->u.str.ptr, v->u.str.len);
  if (*out) return true;
  return error_at(r, v, "unknown data type \"%s\" for %s", v->u.str.ptr,
                  ctx->text);
}

/* "inf", "-inf", "nan": how the dump spells floats JSON cannot hold. */
static bool non_finite(const og_json *v, double *out) {
  if (v->kind != OG_JSON_STRING) return false;
  const char *s = v->u.str.ptr;
  if (v->u.str.len != strlen(s)) return false;
  if (strcmp(s, "inf") == 0) *out = INFINITY;
  else if (strcmp(s, "-inf") == 0) *out = -INFINITY;
  else if (strcmp(s, "nan") == 0) *out = NAN;
  else return false;
  return true;
}

static bool as_float(reader *r, const og_json *v, const ctx_name *ctx,
                     double *out) {
  if (v->kind == OG_JSON_NUMBER) {
    *out = v->u.num.d;
    return true;
  }
  if (non_finite(v, out)) return true;
  return error_at(r, v,
                  "expected a number or \"inf\", \"-inf\", \"nan\" for %s, "
                  "found %s",
                  ctx->text, og_json_kind_name(v->kind));
}

static bool get_string(reader *r, const og_json *obj, const char *key,
                       const char *what, const char **out) {
  const og_json *v = field(r, obj, key, what);
  ctx_name ctx = key_ctx(key);
  return v && as_cstring(r, v, &ctx, out);
}

static bool get_bool(reader *r, const og_json *obj, const char *key,
                     const char *what, bool *out) {
  const og_json *v = field(r, obj, key, what);
  ctx_name ctx = key_ctx(key);
  if (!v || !expect_kind(r, v, OG_JSON_BOOL, &ctx)) return false;
  *out = v->u.b;
  return true;
}

static bool get_int(reader *r, const og_json *obj, const char *key,
                    const char *what, int64_t min, int64_t max,
                    int64_t *out) {
  const og_json *v = field(r, obj, key, what);
  ctx_name ctx = key_ctx(key);
  return v && as_int(r, v, &ctx, min, max, out);
}

/* ---- shapes, tensors, funcs --------------------------------------------- */

static bool read_dims(reader *r, const og_json *v, const ctx_name *ctx,
                      og_shape *out) {
  if (!expect_kind(r, v, OG_JSON_ARRAY, ctx)) return false;
  out->rank = v->u.arr.count;
  out->dims = og_arena_array(&r->m->arena, out->rank, sizeof *out->dims);
  bool ok = true;
  for (size_t i = 0; i < out->rank; i++) {
    ctx_name item = item_ctx(ctx, i);
    ok &= as_int(r, &v->u.arr.items[i], &item, -1, INT64_MAX, &out->dims[i]);
  }
  return ok;
}

/* {"unknown_rank": true} or {"dims": [...]}. */
static bool read_shape(reader *r, const og_json *v, const ctx_name *ctx,
                       og_shape *out) {
  static const char *const keys[] = {"unknown_rank", "dims", NULL};
  if (!expect_kind(r, v, OG_JSON_OBJECT, ctx) ||
      !known_value_fields(r, v, keys, ctx))
    return false;
  const og_json *unknown = og_json_get(v, "unknown_rank");
  if (unknown) {
    ctx_name uctx = key_ctx("unknown_rank");
    if (!expect_kind(r, unknown, OG_JSON_BOOL, &uctx)) return false;
    out->unknown_rank = unknown->u.b;
    if (out->unknown_rank) return true;
  }
  const og_json *dims = field(r, v, "dims", "shape");
  ctx_name dctx = key_ctx("dims");
  return dims && read_dims(r, dims, &dctx, out);
}

static bool is_float_dtype(og_dtype dt) {
  switch (dt) {
  case OG_DT_FLOAT: case OG_DT_DOUBLE: case OG_DT_HALF: case OG_DT_BFLOAT16:
  case OG_DT_COMPLEX64: case OG_DT_COMPLEX128: case OG_DT_FLOAT8_E5M2:
  case OG_DT_FLOAT8_E4M3FN: case OG_DT_FLOAT8_E4M3FNUZ:
  case OG_DT_FLOAT8_E4M3B11FNUZ: case OG_DT_FLOAT8_E5M2FNUZ:
    return true;
  default:
    return false;
  }
}

/* The scalar's kind follows the JSON: integer, other number, string (or a
 * non-finite float spelling in a float tensor), boolean. */
static bool read_tensor_value(reader *r, const og_json *v, og_dtype dtype,
                              const ctx_name *ctx, og_value *out) {
  if (v->kind == OG_JSON_NUMBER && v->u.num.is_integer) {
    out->kind = OG_VAL_INT;
    return as_int(r, v, ctx, INT64_MIN, INT64_MAX, &out->u.i);
  }
  if (v->kind == OG_JSON_NUMBER ||
      (is_float_dtype(dtype) && non_finite(v, &out->u.f))) {
    out->kind = OG_VAL_FLOAT;
    return as_float(r, v, ctx, &out->u.f);
  }
  if (v->kind == OG_JSON_STRING) {
    out->kind = OG_VAL_STRING;
    return as_bytes(r, v, ctx, &out->u.s);
  }
  if (v->kind == OG_JSON_BOOL) {
    out->kind = OG_VAL_BOOL;
    out->u.b = v->u.b;
    return true;
  }
  return error_at(r, v, "expected a number, string or boolean for %s, found %s",
                  ctx->text, og_json_kind_name(v->kind));
}

static bool read_tensor_values(reader *r, const og_json *v, og_tensor *t) {
  ctx_name ctx = key_ctx("values");
  if (!expect_kind(r, v, OG_JSON_ARRAY, &ctx)) return false;
  t->nvalues = v->u.arr.count;
  t->values = og_arena_array(&r->m->arena, t->nvalues, sizeof *t->values);
  bool ok = true;
  for (size_t i = 0; i < t->nvalues; i++) {
    ctx_name item = item_ctx(&ctx, i);
    ok &= read_tensor_value(r, &v->u.arr.items[i], t->dtype, &item,
                            &t->values[i]);
  }
  return ok;
}

/* {"dtype": "int32", "shape": [2], "values": [1, 2]}; the shape may also
 * be a shape object (the dump writes one for an unknown rank). */
static bool read_tensor(reader *r, const og_json *v, const ctx_name *ctx,
                        og_tensor *out) {
  static const char *const keys[] = {"dtype", "shape", "values", NULL};
  if (!expect_kind(r, v, OG_JSON_OBJECT, ctx) ||
      !known_value_fields(r, v, keys, ctx))
    return false;
  const og_json *dtype = field(r, v, "dtype", "tensor");
  const og_json *shape = field(r, v, "shape", "tensor");
  const og_json *values = field(r, v, "values", "tensor");
  ctx_name dctx = key_ctx("dtype"), sctx = key_ctx("shape");
  bool ok = dtype && as_dtype(r, dtype, &dctx, &out->dtype);
  if (shape && shape->kind == OG_JSON_OBJECT)
    ok &= read_shape(r, shape, &sctx, &out->shape);
  else
    ok &= shape && read_dims(r, shape, &sctx, &out->shape);
  return ok && values && read_tensor_values(r, values, out);
}

static bool read_func(reader *r, const og_json *v, const ctx_name *ctx,
                      const char **out) {
  static const char *const keys[] = {"name", NULL};
  if (!expect_kind(r, v, OG_JSON_OBJECT, ctx) ||
      !known_value_fields(r, v, keys, ctx))
    return false;
  return get_string(r, v, "name", "func", out);
}

/* ---- names -------------------------------------------------------------- */

/* The name of an op, attr or arg must be one a .op file can hold: what
 * compat prints about the baseline (and what a dump of specs always
 * holds). Reported at the name, in r->where (the op, for its items). */
static bool check_name(reader *r, const og_json *obj, const char *kind,
                       const char *name, bool (*valid)(const char *),
                       const char *rule) {
  if (valid(name)) return true;
  char shown[OG_NAME_SHOWN_MAX];
  og_name_shown(name, shown);
  if (!r->where[0])
    return error_at(r, og_json_get(obj, "name"), "invalid %s name \"%s\": %s",
                    kind, shown, rule);
  return error_at(r, og_json_get(obj, "name"),
                  "invalid %s name \"%s\" in %s: %s", kind, shown, r->where,
                  rule);
}

/* Sets r->where to `KIND "NAME"` (`CTX` without a name) followed by
 * `of` and the `outer` place unless that is empty. */
static void set_where(reader *r, const char *kind, const char *name,
                      const ctx_name *ctx, const char *outer) {
  char shown[OG_NAME_SHOWN_MAX], place[OG_NAME_SHOWN_MAX + 20];
  if (name) snprintf(place, sizeof place, "%s \"%s\"", kind,
                     og_name_shown(name, shown));
  else snprintf(place, sizeof place, "%s", ctx->text);
  char buf[sizeof r->where];
  snprintf(buf, sizeof buf, "%s%s%s", place, *outer ? " of " : "", outer);
  memcpy(r->where, buf, sizeof buf);
}

/* ---- attr values -------------------------------------------------------- */

/* One value of attr kind `kind` (an element, for list attrs). */
static bool read_element(reader *r, const og_json *v, og_attr_kind kind,
                         const ctx_name *ctx, og_value *out) {
  switch (kind) {
  case OG_ATTR_STRING:
    out->kind = OG_VAL_STRING;
    return as_bytes(r, v, ctx, &out->u.s);
  case OG_ATTR_INT:
    out->kind = OG_VAL_INT;
    return as_int(r, v, ctx, INT64_MIN, INT64_MAX, &out->u.i);
  case OG_ATTR_FLOAT:
    out->kind = OG_VAL_FLOAT;
    return as_float(r, v, ctx, &out->u.f);
  case OG_ATTR_BOOL:
    out->kind = OG_VAL_BOOL;
    if (!expect_kind(r, v, OG_JSON_BOOL, ctx)) return false;
    out->u.b = v->u.b;
    return true;
  case OG_ATTR_TYPE:
    out->kind = OG_VAL_TYPE;
    return as_dtype(r, v, ctx, &out->u.type);
  case OG_ATTR_SHAPE:
    out->kind = OG_VAL_SHAPE;
    return read_shape(r, v, ctx, &out->u.shape);
  case OG_ATTR_TENSOR:
    out->kind = OG_VAL_TENSOR;
    return read_tensor(r, v, ctx, &out->u.tensor);
  case OG_ATTR_FUNC:
    out->kind = OG_VAL_FUNC;
    return read_func(r, v, ctx, &out->u.func);
  }
  return false;
}

/* A LIST value whose items are all of attr kind `kind`. */
static bool read_list(reader *r, const og_json *v, og_attr_kind kind,
                      const ctx_name *ctx, og_value *out) {
  if (!expect_kind(r, v, OG_JSON_ARRAY, ctx)) return false;
  out->kind = OG_VAL_LIST;
  out->u.list.count = v->u.arr.count;
  out->u.list.items =
      og_arena_array(&r->m->arena, v->u.arr.count, sizeof *out->u.list.items);
  bool ok = true;
  for (size_t i = 0; i < v->u.arr.count; i++) {
    ctx_name item = item_ctx(ctx, i);
    ok &= read_element(r, &v->u.arr.items[i], kind, &item,
                       &out->u.list.items[i]);
  }
  return ok;
}

static bool read_default(reader *r, const og_json *obj, og_attr *attr) {
  const og_json *v = field(r, obj, "default_value", "attr");
  if (!v) return false;
  if (v->kind == OG_JSON_NULL) return true;
  og_value *value = og_arena_alloc(&r->m->arena, sizeof *value);
  ctx_name ctx = key_ctx("default_value");
  bool ok = attr->type.is_list
                ? read_list(r, v, attr->type.kind, &ctx, value)
                : read_element(r, v, attr->type.kind, &ctx, value);
  attr->default_value = value;
  return ok;
}

/* Dtype names for type attrs, strings for string attrs, else null. */
static bool read_allowed(reader *r, const og_json *obj, og_attr *attr) {
  const og_json *v = field(r, obj, "allowed_values", "attr");
  if (!v) return false;
  if (v->kind == OG_JSON_NULL) return true;
  og_attr_kind kind = attr->type.kind;
  if (kind != OG_ATTR_TYPE && kind != OG_ATTR_STRING)
    return error_at(r, v,
                    "\"allowed_values\" must be null for an attr of type "
                    "\"%s\"",
                    og_attr_type_name(attr->type));
  og_value *list = og_arena_alloc(&r->m->arena, sizeof *list);
  ctx_name ctx = key_ctx("allowed_values");
  if (!read_list(r, v, kind, &ctx, list)) return false;
  attr->allowed = list;
  for (size_t i = 0; kind == OG_ATTR_TYPE && i < list->u.list.count; i++)
    attr->allowed_types |= OG_DTYPE_BIT(list->u.list.items[i].u.type);
  return true;
}

static bool read_attr_type(reader *r, const og_json *obj, og_attr *attr) {
  const og_json *v = field(r, obj, "type", "attr");
  ctx_name ctx = key_ctx("type");
  if (!v || !expect_kind(r, v, OG_JSON_STRING, &ctx)) return false;
  if (v->u.str.len == strlen(v->u.str.ptr) &&
      og_attr_type_parse(v->u.str.ptr, &attr->type))
    return true;
  return error_at(r, v, "unknown attr type \"%s\"", v->u.str.ptr);
}

static bool read_attr_fields(reader *r, const og_json *v, og_attr *attr) {
  bool ok = get_bool(r, v, "has_minimum", "attr", &attr->has_minimum);
  ok &= get_int(r, v, "minimum", "attr", INT64_MIN, INT64_MAX,
                &attr->minimum);
  ok &= get_string(r, v, "description", "attr", &attr->description);
  /* Values are read per the attr type: without one they mean nothing. */
  if (!read_attr_type(r, v, attr)) return false;
  ok &= read_allowed(r, v, attr);
  ok &= read_default(r, v, attr);
  return ok;
}

static bool read_attr(reader *r, const og_json *v, const ctx_name *ctx,
                      og_attr *attr) {
  static const char *const keys[] = {
      "name", "type", "has_minimum", "minimum", "allowed_values",
      "default_value", "description", NULL};
  if (!expect_kind(r, v, OG_JSON_OBJECT, ctx)) return false;
  char op_where[sizeof r->where];
  memcpy(op_where, r->where, sizeof op_where);
  bool named = get_string(r, v, "name", "attr", &attr->name);
  bool ok = named && check_name(r, v, "attr", attr->name,
                                og_valid_attr_name, og_attr_name_rule);
  set_where(r, "attr", named ? attr->name : NULL, ctx, op_where);
  ok &= known_fields(r, v, keys, r->where);
  ok &= read_attr_fields(r, v, attr);
  memcpy(r->where, op_where, sizeof op_where);
  return ok;
}

/* ---- args --------------------------------------------------------------- */

/* An attr reference of an arg: "" or the name of an attr of kind `kind`
 * (list or not per `is_list`). Inputs make the attr inferred. */
static bool resolve_ref(reader *r, const og_json *arg, const char *key,
                        og_attr_type want, og_op *op, bool is_input,
                        const char **out) {
  if (!get_string(r, arg, key, is_input ? "input_arg" : "output_arg", out))
    return false;
  if (!**out) return true;
  og_attr *a = (og_attr *)og_op_find_attr(op, *out); /* hashed */
  if (a) {
    if (a->type.kind != want.kind || a->type.is_list != want.is_list)
      return error_at(r, og_json_get(arg, key),
                      "\"%s\" names attr \"%s\" of type \"%s\", expected "
                      "\"%s\"",
                      key, *out, og_attr_type_name(a->type),
                      og_attr_type_name(want));
    if (is_input) a->inferred = true;
    return true;
  }
  return error_at(r, og_json_get(arg, key), "\"%s\" names unknown attr \"%s\"",
                  key, *out);
}

static bool read_arg_type(reader *r, const og_json *v, const char *what,
                          og_arg *arg) {
  const og_json *t = field(r, v, "type", what);
  ctx_name ctx = key_ctx("type");
  if (!t || !expect_kind(r, t, OG_JSON_STRING, &ctx)) return false;
  if (t->u.str.len == 0) return true; /* OG_DT_INVALID: an attr gives it */
  return as_dtype(r, t, &ctx, &arg->type);
}

/* TensorFlow's rule: the type comes from exactly one place, and a list
 * length goes with a single type, not with a type list. */
static bool check_arg_shape(reader *r, const og_json *v, const og_arg *arg) {
  int sources = (arg->type != OG_DT_INVALID) + (*arg->type_attr != '\0') +
                (*arg->type_list_attr != '\0');
  if (sources != 1)
    return error_at(r, v,
                    "arg \"%s\" needs exactly one of \"type\", \"type_attr\" "
                    "and \"type_list_attr\"",
                    arg->name);
  if (*arg->number_attr && *arg->type_list_attr)
    return error_at(r, v,
                    "arg \"%s\" has both \"number_attr\" and "
                    "\"type_list_attr\"",
                    arg->name);
  return true;
}

/* Reads one arg; attr references are checked when the op's attrs were
 * read (`attrs_ok`), otherwise every reference would look dangling. */
static bool read_arg(reader *r, const og_json *v, const ctx_name *ctx,
                     og_op *op, bool is_input, bool attrs_ok, og_arg *arg) {
  static const char *const arg_keys[] = {
      "name", "type", "type_attr", "number_attr", "type_list_attr", "is_ref",
      "description", NULL};
  const char *what = is_input ? "input_arg" : "output_arg";
  if (!expect_kind(r, v, OG_JSON_OBJECT, ctx)) return false;
  bool named = get_string(r, v, "name", what, &arg->name);
  bool ok = named && check_name(r, v, what, arg->name, og_valid_arg_name,
                                og_arg_name_rule);
  char op_where[sizeof r->where];
  memcpy(op_where, r->where, sizeof op_where);
  set_where(r, what, named ? arg->name : NULL, ctx, op_where);
  ok &= known_fields(r, v, arg_keys, r->where);
  memcpy(r->where, op_where, sizeof op_where);
  ok &= read_arg_type(r, v, what, arg);
  ok &= get_bool(r, v, "is_ref", what, &arg->is_ref);
  ok &= get_string(r, v, "description", what, &arg->description);
  static const char *const keys[] = {"type_attr", "number_attr",
                                     "type_list_attr"};
  const og_attr_type wants[] = {{OG_ATTR_TYPE, false}, {OG_ATTR_INT, false},
                                {OG_ATTR_TYPE, true}};
  const char **refs[] = {&arg->type_attr, &arg->number_attr,
                         &arg->type_list_attr};
  for (int i = 0; i < 3; i++) {
    if (attrs_ok)
      ok &= resolve_ref(r, v, keys[i], wants[i], op, is_input, refs[i]);
    else
      ok &= get_string(r, v, keys[i], what, refs[i]);
  }
  return ok && check_arg_shape(r, v, arg);
}

/* ---- ops ---------------------------------------------------------------- */

/* The array `key` of `obj`, or NULL after reporting. */
static const og_json *get_array(reader *r, const og_json *obj,
                                const char *key, const char *what) {
  const og_json *v = field(r, obj, key, what);
  ctx_name ctx = key_ctx(key);
  return v && expect_kind(r, v, OG_JSON_ARRAY, &ctx) ? v : NULL;
}

static bool read_args(reader *r, const og_json *obj, bool is_input,
                      bool attrs_ok, og_op *op) {
  const char *key = is_input ? "input_arg" : "output_arg";
  const og_json *v = get_array(r, obj, key, "op");
  if (!v) return false;
  size_t n = v->u.arr.count;
  og_arg *args = og_arena_array(&r->m->arena, n, sizeof *args);
  ctx_name ctx = key_ctx(key);
  bool ok = true;
  for (size_t i = 0; i < n; i++) {
    ctx_name item = item_ctx(&ctx, i);
    ok &= read_arg(r, &v->u.arr.items[i], &item, op, is_input, attrs_ok,
                   &args[i]);
  }
  if (is_input) op->inputs = args, op->ninputs = n;
  else op->outputs = args, op->noutputs = n;
  return ok;
}

static bool read_attrs(reader *r, const og_json *obj, og_op *op) {
  const og_json *v = get_array(r, obj, "attr", "op");
  if (!v) return false;
  op->nattrs = v->u.arr.count;
  op->attrs = og_arena_array(&r->m->arena, op->nattrs, sizeof *op->attrs);
  ctx_name ctx = key_ctx("attr");
  bool ok = true;
  for (size_t i = 0; i < op->nattrs; i++) {
    ctx_name item = item_ctx(&ctx, i);
    ok &= read_attr(r, &v->u.arr.items[i], &item, &op->attrs[i]);
  }
  return ok;
}

static bool read_deprecation(reader *r, const og_json *obj, og_op *op) {
  const og_json *v = field(r, obj, "deprecation", "op");
  ctx_name ctx = key_ctx("deprecation");
  if (!v) return false;
  if (v->kind == OG_JSON_NULL) return true;
  static const char *const keys[] = {"version", "explanation", NULL};
  if (!expect_kind(r, v, OG_JSON_OBJECT, &ctx) ||
      !known_value_fields(r, v, keys, &ctx))
    return false;
  int64_t version = 0;
  op->deprecated = true;
  bool ok = get_int(r, v, "version", "deprecation", 0, INT32_MAX,
                    &version);
  op->deprecation_version = (int32_t)version;
  return get_string(r, v, "explanation", "deprecation",
                    &op->deprecation_explanation) && ok;
}

static bool read_flags(reader *r, const og_json *v, og_op *op) {
  bool ok = get_bool(r, v, "is_stateful", "op", &op->is_stateful);
  ok &= get_bool(r, v, "is_commutative", "op", &op->is_commutative);
  ok &= get_bool(r, v, "is_aggregate", "op", &op->is_aggregate);
  ok &= get_bool(r, v, "allows_uninitialized_input", "op",
                 &op->allows_uninitialized_input);
  /* Optional: dumps before it existed read as false. */
  if (og_json_get(v, "is_distributed_communication"))
    ok &= get_bool(r, v, "is_distributed_communication", "op",
                   &op->is_distributed_communication);
  return ok;
}

/* Ops, args and attrs all carry the op's "file" and "line". */
static void set_positions(og_op *op, const char *file, int64_t line) {
  og_srcpos pos = {file, (uint32_t)line, 0, 0};
  op->pos = pos;
  for (size_t i = 0; i < op->ninputs; i++) op->inputs[i].pos = pos;
  for (size_t i = 0; i < op->noutputs; i++) op->outputs[i].pos = pos;
  for (size_t i = 0; i < op->nattrs; i++) op->attrs[i].pos = pos;
}

static og_op *read_op(reader *r, const og_json *v, const ctx_name *ctx) {
  if (!expect_kind(r, v, OG_JSON_OBJECT, ctx)) return NULL;
  static const char *const keys[] = {
      "name", "file", "line", "summary", "description", "input_arg",
      "output_arg", "attr", "is_stateful", "is_commutative", "is_aggregate",
      "allows_uninitialized_input", "is_distributed_communication",
      "deprecation", NULL};
  og_op *op = og_arena_alloc(&r->m->arena, sizeof *op);
  const char *file = "";
  int64_t line = 0;
  r->where[0] = '\0';
  bool named = get_string(r, v, "name", "op", &op->name);
  bool ok = named && check_name(r, v, "op", op->name, og_valid_op_name,
                                og_op_name_rule);
  set_where(r, "op", named ? op->name : NULL, ctx, "");
  ok &= known_fields(r, v, keys, r->where);
  ok &= get_string(r, v, "file", "op", &file);
  ok &= get_int(r, v, "line", "op", 0, UINT32_MAX, &line);
  ok &= get_string(r, v, "summary", "op", &op->summary);
  ok &= get_string(r, v, "description", "op", &op->description);
  bool attrs_ok = read_attrs(r, v, op);
  if (attrs_ok) og_op_index_attrs(&r->m->arena, op); /* hashed lookups */
  ok &= attrs_ok;
  ok &= read_args(r, v, true, attrs_ok, op);
  ok &= read_args(r, v, false, attrs_ok, op);
  ok &= read_flags(r, v, op);
  ok &= read_deprecation(r, v, op);
  if (!ok) return NULL;
  op->package = "";
  set_positions(op, file, line);
  return op;
}

/* ---- the model ---------------------------------------------------------- */

typedef struct read_op_entry {
  og_op *op;
  const og_json *json;
  size_t index;
} read_op_entry;

static int compare_entries(const void *a, const void *b) {
  const read_op_entry *x = a, *y = b;
  int c = strcmp(x->op->name, y->op->name);
  if (c) return c;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Sorts the ops into the model (which takes the array) and rejects a name
 * given twice, at its later definition. */
static bool store_ops(reader *r, read_op_entry *entries, size_t n) {
  if (n) qsort(entries, n, sizeof *entries, compare_entries);
  bool ok = true;
  for (size_t i = 1; i < n; i++)
    if (strcmp(entries[i - 1].op->name, entries[i].op->name) == 0)
      ok = error_at(r, entries[i].json, "duplicate op \"%s\"",
                    entries[i].op->name);
  r->m->ops = og_xmalloc((n ? n : 1) * sizeof *r->m->ops);
  for (size_t i = 0; i < n; i++) r->m->ops[i] = entries[i].op;
  r->m->nops = n;
  return ok;
}

/* "format_version": absent in dumps written before it existed, whose
 * layout is version 1's; a newer version is refused before its fields
 * are looked at (they may mean something this opgen does not know). */
static bool read_version(reader *r, const og_json *root) {
  const og_json *v = og_json_get(root, "format_version");
  if (!v) return true;
  ctx_name ctx = key_ctx("format_version");
  int64_t version = 0;
  if (!as_int(r, v, &ctx, 0, INT64_MAX, &version)) return false;
  if (version <= OG_DUMP_FORMAT_VERSION) return true;
  return error_at(r, v,
                  "dump format version %" PRId64 " is newer than this opgen "
                  "reads (%d): read it with the opgen that wrote it, or a "
                  "newer one",
                  version, OG_DUMP_FORMAT_VERSION);
}

static bool read_model(reader *r, const og_json *root) {
  static const char *const keys[] = {"format_version", "ops", NULL};
  ctx_name ctx = key_ctx("ops");
  ctx_name top = {"the top level"};
  if (!expect_kind(r, root, OG_JSON_OBJECT, &top) || !read_version(r, root))
    return false;
  bool ok = known_fields(r, root, keys, "the top-level object");
  const og_json *ops = get_array(r, root, "ops", "the top-level object");
  if (!ops) return false;
  size_t n = ops->u.arr.count;
  read_op_entry *entries = og_xmalloc((n ? n : 1) * sizeof *entries);
  size_t got = 0;
  for (size_t i = 0; i < n; i++) {
    ctx_name item = item_ctx(&ctx, i);
    og_op *op = read_op(r, &ops->u.arr.items[i], &item);
    if (op) entries[got++] = (read_op_entry){op, &ops->u.arr.items[i], i};
    else ok = false;
  }
  ok &= store_ops(r, entries, got);
  free(entries);
  return ok;
}

og_model *og_dump_read(const char *path, const char *text, size_t len,
                       og_diag *diag) {
  og_arena scratch; /* the JSON tree; the model copies what it keeps */
  og_arena_init(&scratch);
  const og_json *root = og_json_parse(&scratch, path, text, len, diag);
  og_model *m = og_model_new();
  reader r = {m, path, diag, {0}};
  bool ok = root && read_model(&r, root);
  og_arena_free(&scratch);
  if (ok) return m;
  og_model_free(m);
  return NULL;
}
