/* Structured attr literals: shapes ([2, ?], ?, or TF's text form), tensors
 * and funcs (TF text-proto messages). */
#include "sema_internal.h"

#include <inttypes.h>
#include <string.h>


static bool bad_field(og_sema_op *s, const og_attr *attr, const og_ast_field *f,
                      const char *message) {
  og_error_at(s->diag, f->name_loc, "attr '%s': %s '%s'%s", attr->name,
              "unexpected field", f->name, message);
  return false;
}

static bool dim_value(og_sema_op *s, const og_attr *attr,
                      const og_ast_value *v, int64_t *out) {
  if (v->kind == OG_AV_UNKNOWN) {
    *out = -1;
    return true;
  }
  if (v->kind == OG_AV_INT && v->i >= -1) {
    *out = v->i;
    return true;
  }
  og_error_at(s->diag, v->loc,
              "attr '%s': a dimension must be a size >= 0, or -1 or ? for "
              "unknown, found %s",
              attr->name, og_sema_literal_text(s, v));
  return false;
}

static size_t count_dims(const og_ast_value *v) {
  size_t n = 0;
  if (v->kind == OG_AV_LIST)
    for (const og_ast_value *e = v->items; e; e = e->next) n++;
  else
    for (const og_ast_field *f = v->fields; f; f = f->next)
      n += strcmp(f->name, "dim") == 0;
  return n;
}

/* `{ dim { size: 2 } unknown_rank: true }`, TensorFlow's TensorShapeProto. */
static bool shape_message(og_sema_op *s, const og_attr *attr,
                          const og_ast_value *v, og_shape *out) {
  for (const og_ast_field *f = v->fields; f; f = f->next) {
    if (strcmp(f->name, "unknown_rank") == 0) {
      const og_ast_value *b = f->value;
      if (b->kind != OG_AV_NAME ||
          (strcmp(b->name, "true") != 0 && strcmp(b->name, "false") != 0))
        return bad_field(s, attr, f, " (expected true or false)");
      out->unknown_rank = strcmp(b->name, "true") == 0;
    } else if (strcmp(f->name, "dim") == 0) {
      if (f->value->kind != OG_AV_MESSAGE)
        return bad_field(s, attr, f, " (expected dim { size: N })");
      int64_t size = -1;
      for (const og_ast_field *d = f->value->fields; d; d = d->next) {
        if (strcmp(d->name, "size") == 0) {
          if (!dim_value(s, attr, d->value, &size)) return false;
        } else if (strcmp(d->name, "name") != 0) {
          return bad_field(s, attr, d, " in dim (expected size or name)");
        }
      }
      out->dims[out->rank++] = size;
    } else {
      return bad_field(s, attr, f, " in shape (expected dim or unknown_rank)");
    }
  }
  if (out->unknown_rank && out->rank) {
    og_error_at(s->diag, v->loc,
                "attr '%s': a shape of unknown rank cannot have dims",
                attr->name);
    return false;
  }
  return true;
}

bool og_sema_shape_literal(og_sema_op *s, const og_attr *attr,
                           const char *what, const og_ast_value *v,
                           og_shape *out) {
  memset(out, 0, sizeof *out);
  if (v->kind == OG_AV_UNKNOWN) {
    out->unknown_rank = true;
    return true;
  }
  if (v->kind != OG_AV_LIST && v->kind != OG_AV_MESSAGE) {
    og_error_at(s->diag, v->loc,
                "attr '%s': %s must be a shape such as [2, 3], [] or ?, "
                "found %s",
                attr->name, what, og_sema_literal_text(s, v));
    return false;
  }
  out->dims = og_arena_array(s->arena, count_dims(v), sizeof *out->dims);
  if (v->kind == OG_AV_MESSAGE) return shape_message(s, attr, v, out);
  for (const og_ast_value *e = v->items; e; e = e->next)
    if (!dim_value(s, attr, e, &out->dims[out->rank++])) return false;
  return true;
}

/* Which *_val field carries which scalar kind, and for which dtypes. */
typedef struct val_field {
  const char *name;
  og_value_kind kind;
  og_dtype_set dtypes;
} val_field;

#define B(dt) OG_DTYPE_BIT(OG_DT_##dt)
static const val_field val_fields[] = {
    {"float_val", OG_VAL_FLOAT, B(FLOAT)},
    {"double_val", OG_VAL_FLOAT, B(DOUBLE)},
    {"int_val", OG_VAL_INT, B(INT32) | B(INT16) | B(INT8) | B(UINT8) |
                                B(UINT16) | B(QINT8) | B(QUINT8) | B(QINT16) |
                                B(QUINT16) | B(QINT32) | B(INT4) | B(UINT4)},
    {"int64_val", OG_VAL_INT, B(INT64)},
    {"uint32_val", OG_VAL_INT, B(UINT32)},
    {"uint64_val", OG_VAL_INT, B(UINT64)},
    {"half_val", OG_VAL_INT, B(HALF) | B(BFLOAT16)},
    {"string_val", OG_VAL_STRING, B(STRING)},
    {"bool_val", OG_VAL_BOOL, B(BOOL)},
    {"scomplex_val", OG_VAL_FLOAT, B(COMPLEX64)},
    {"dcomplex_val", OG_VAL_FLOAT, B(COMPLEX128)},
};
#undef B

static bool tensor_scalar(og_sema_op *s, const og_attr *attr,
                          const val_field *vf, og_dtype dt,
                          const og_ast_value *v, og_value *out) {
  og_attr fake = *attr; /* reuse the scalar converters' wording */
  fake.type.is_list = false;
  fake.type.kind = vf->kind == OG_VAL_FLOAT    ? OG_ATTR_FLOAT
                   : vf->kind == OG_VAL_INT    ? OG_ATTR_INT
                   : vf->kind == OG_VAL_STRING ? OG_ATTR_STRING
                                               : OG_ATTR_BOOL;
  const og_value *val = og_sema_tensor_value(
      s, &fake, og_arena_printf(s->arena, "a value of %s", vf->name), dt, v);
  if (!val) return false;
  *out = *val;
  return true;
}

static size_t count_values(const og_ast_value *msg) {
  size_t n = 0;
  for (const og_ast_field *f = msg->fields; f; f = f->next) {
    if (f->value->kind != OG_AV_LIST) {
      n++;
      continue;
    }
    for (const og_ast_value *e = f->value->items; e; e = e->next) n++;
  }
  return n;
}

static const val_field *find_val_field(const char *name) {
  for (size_t i = 0; i < sizeof val_fields / sizeof *val_fields; i++)
    if (strcmp(val_fields[i].name, name) == 0) return &val_fields[i];
  return NULL;
}

static bool tensor_values(og_sema_op *s, const og_attr *attr,
                          const og_ast_field *f, og_tensor *out) {
  const val_field *vf = find_val_field(f->name);
  if (!vf)
    return bad_field(s, attr, f,
                     " in tensor (expected dtype, tensor_shape or a *_val "
                     "field)");
  if (out->dtype && !(vf->dtypes & OG_DTYPE_BIT(out->dtype))) {
    og_error_at(s->diag, f->name_loc,
                "attr '%s': field '%s' does not hold %s values", attr->name,
                f->name, og_dtype_name(out->dtype));
    return false;
  }
  if (f->value->kind != OG_AV_LIST)
    return tensor_scalar(s, attr, vf, out->dtype, f->value,
                         &out->values[out->nvalues++]);
  for (const og_ast_value *e = f->value->items; e; e = e->next)
    if (!tensor_scalar(s, attr, vf, out->dtype, e, &out->values[out->nvalues++]))
      return false;
  return true;
}

static bool tensor_dtype(og_sema_op *s, const og_attr *attr,
                         const og_ast_value *msg, og_tensor *out) {
  for (const og_ast_field *f = msg->fields; f; f = f->next) {
    if (strcmp(f->name, "dtype") != 0) continue;
    const og_ast_value *v = f->value;
    if (v->kind == OG_AV_NAME)
      out->dtype = og_dtype_lookup(v->name, strlen(v->name));
    if (!out->dtype) {
      og_error_at(s->diag, v->loc, "attr '%s': unknown tensor dtype %s",
                  attr->name, og_sema_literal_text(s, v));
      return false;
    }
    return true;
  }
  og_error_at(s->diag, msg->loc, "attr '%s': a tensor literal needs a dtype",
              attr->name);
  return false;
}

/* TensorFlow repeats the last value to fill the shape; more values than
 * the shape holds is an error. */
static bool check_value_count(og_sema_op *s, const og_attr *attr,
                              const og_ast_value *v, const og_tensor *t) {
  if (t->shape.unknown_rank) return true;
  uint64_t elements = 1;
  for (size_t i = 0; i < t->shape.rank; i++) {
    if (t->shape.dims[i] < 0) return true; /* not known: cannot tell */
    elements = elements * (uint64_t)t->shape.dims[i];
    if (elements > (1u << 31)) return true;
  }
  bool complex = t->dtype == OG_DT_COMPLEX64 || t->dtype == OG_DT_COMPLEX128;
  size_t values = complex ? t->nvalues / 2 : t->nvalues;
  if (values <= elements) return true;
  og_error_at(s->diag, v->loc,
              "attr '%s': the tensor has %zu values, more than the %llu "
              "elements of its shape",
              attr->name, values, (unsigned long long)elements);
  return false;
}

bool og_sema_tensor_literal(og_sema_op *s, const og_attr *attr,
                            const og_ast_value *v, og_tensor *out) {
  memset(out, 0, sizeof *out);
  if (v->kind != OG_AV_MESSAGE) {
    og_error_at(s->diag, v->loc,
                "attr '%s': the default must be a tensor such as { dtype: "
                "DT_INT32 int_val: 5 }, found %s",
                attr->name, og_sema_literal_text(s, v));
    return false;
  }
  if (!tensor_dtype(s, attr, v, out)) return false;
  out->values = og_arena_array(s->arena, count_values(v), sizeof *out->values);
  for (const og_ast_field *f = v->fields; f; f = f->next) {
    if (strcmp(f->name, "dtype") == 0) continue;
    if (strcmp(f->name, "tensor_shape") == 0) {
      if (!og_sema_shape_literal(s, attr, "the tensor's shape", f->value,
                                 &out->shape))
        return false;
    } else if (!tensor_values(s, attr, f, out)) {
      return false;
    }
  }
  return check_value_count(s, attr, v, out);
}

bool og_sema_func_literal(og_sema_op *s, const og_attr *attr,
                          const og_ast_value *v, const char **out) {
  if (v->kind == OG_AV_MESSAGE) {
    const og_ast_field *f = v->fields;
    if (f && !f->next && strcmp(f->name, "name") == 0 &&
        f->value->kind == OG_AV_STRING) {
      *out = og_arena_strndup(s->arena, f->value->s.ptr, f->value->s.len);
      return true;
    }
  }
  og_error_at(s->diag, v->loc,
              "attr '%s': the default must be a function such as "
              "{ name: 'f' }, found %s",
              attr->name, og_sema_literal_text(s, v));
  return false;
}
