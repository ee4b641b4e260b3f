/* Values of an OpList: shapes, tensors, funcs and AttrValue. */
#include "tf_import_internal.h"

#include <string.h>

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
    if (og_tfi_next_field(c, &w, f, &v) < 0) return false;
    if (v.i < -1)
      return og_tfi_fail(c, f->value_pos,
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
  out->dims = og_arena_array(c->a, og_tfi_count_fields(msg, "dim"), sizeof *out->dims);
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = og_tfi_next_field(c, &w, f, &v);
    if (id < 0) return false;
    if (id == 1) out->unknown_rank = v.b;
    else if (!dim_value(c, f, &out->dims[out->rank++])) return false;
  }
  if (out->unknown_rank && out->rank)
    return og_tfi_fail(c, msg->value_pos, "a shape of unknown rank cannot have dims");
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
      return og_tfi_fail(c, f->pos, "a tensor of dtype %s cannot hold '%s' values%s%s",
                  og_dtype_name(t->dtype), f->name, want ? "; use " : "",
                  want ? want : "");
    fval v;
    og_tfi_convert(c, w, &tensor_fields[i], f, &v); /* checked by the walk */
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
    int id = og_tfi_next_field(c, &w, f, &v);
    if (id < 0) return false;
    if (id == TENSOR_DTYPE) out->dtype = v.dt;
    else if (id == TENSOR_SHAPE && !shape_value(c, f, &out->shape)) return false;
    else if (id >= TENSOR_FIRST_VAL) nvalues++;
  }
  if (!out->dtype)
    return og_tfi_fail(c, msg->value_pos, "a tensor needs a dtype");
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
    if (og_tfi_next_field(c, &w, f, &v) < 0 || !og_tfi_cstr(c, &v, out)) return false;
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
  size_t n = og_tfi_count_fields(msg, list_fields[t.kind].name);
  out->kind = OG_VAL_LIST;
  out->u.list.items = og_arena_array(c->a, n, sizeof *out->u.list.items);
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = og_tfi_next_field(c, &w, f, &v);
    if (id < 0) return false;
    if (id != (int)t.kind)
      return og_tfi_fail(c, f->pos, "%s holds '%s' values, but its type is %s", what,
                  f->name, og_attr_type_name(t));
    if (!element(c, t.kind, f, &v, &out->u.list.items[out->u.list.count++]))
      return false;
  }
  return true;
}

og_value *og_tfi_attr_value(imp *c, const og_pb_node *msg, og_attr_type t,
                            const char *what) {
  walker w = WALKER("AttrValue", value_fields);
  const og_pb_node *set = NULL;
  fval sv = {0};
  int set_id = -1;
  EACH_FIELD(c, &w, f, msg) {
    fval v;
    int id = og_tfi_next_field(c, &w, f, &v);
    if (id < 0) return NULL;
    if (set) {
      og_tfi_fail(c, f->pos, "%s sets both '%s' and '%s'", what, set->name, f->name);
      return NULL;
    }
    set = f, set_id = id, sv = v;
  }
  if (!set) {
    og_tfi_fail(c, msg->value_pos, "%s is empty", what);
    return NULL;
  }
  int want = t.is_list ? VALUE_LIST : (int)t.kind;
  if (set_id != want) {
    og_tfi_fail(c, set->pos, "%s must set '%s' for type %s, not '%s'", what,
         value_fields[want].name, og_attr_type_name(t), set->name);
    return NULL;
  }
  og_value *out = og_arena_alloc(c->a, sizeof *out);
  bool ok = t.is_list ? list_value(c, set, t, what, out)
                      : element(c, t.kind, set, &sv, out);
  return ok ? out : NULL;
}
