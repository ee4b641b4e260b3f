/* Attr defaults in generated C: initializers for the attrs struct, and the
 * const arrays and opr_attr_values behind them. */
#include "emit_c_internal.h"

#include "numtext.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *base_name(const og_c_file *f, const og_op *op,
                             const og_attr *a) {
  return og_cn_attr(f, op, a, OG_CN_DEFAULT);
}

const char *og_c_default_name(const og_c_file *f, const og_op *op,
                              const og_attr *a) {
  return og_cn_attr(f, op, a, OG_CN_DEFAULT_VALUE);
}

/* Floats as the shortest text that reads back as the same float: sema
 * rejected the finite values that overflow or underflow to 0. */
static void write_float(og_writer *w, double d) {
  if (isnan(d)) og_w_puts(w, "NAN");
  else if (isinf(d)) og_w_puts(w, d < 0 ? "-INFINITY" : "INFINITY");
  else {
    char buf[OG_DOUBLE_TEXT_MAX];
    og_format_single((float)d, 17, buf);
    og_w_printf(w, "%sf", buf);
  }
}

static void write_double(og_writer *w, double d) {
  if (!isfinite(d)) {
    write_float(w, d); /* INFINITY and NAN convert exactly */
    return;
  }
  char buf[OG_DOUBLE_TEXT_MAX];
  og_format_double(d, 17, buf);
  og_w_puts(w, buf);
}

/* INT64_MIN has no literal: its magnitude overflows int64_t. */
static void write_int(og_writer *w, int64_t i) {
  if (i == INT64_MIN) og_w_puts(w, "(-INT64_C(9223372036854775807) - 1)");
  else if (i > INT32_MAX || i < INT32_MIN) og_w_printf(w, "INT64_C(%" PRId64 ")", i);
  else if (i == INT32_MIN) og_w_puts(w, "(-2147483647 - 1)");
  else og_w_printf(w, "%" PRId64, i);
}

void og_c_scalar(og_writer *w, const og_value *v, og_attr_kind kind) {
  switch (v->kind) {
  case OG_VAL_STRING: og_c_string(w, v->u.s.ptr, v->u.s.len); break;
  case OG_VAL_INT:
    if (kind == OG_ATTR_FLOAT) write_float(w, (double)v->u.i);
    else write_int(w, v->u.i);
    break;
  case OG_VAL_FLOAT: write_float(w, v->u.f); break;
  case OG_VAL_BOOL: og_w_puts(w, v->u.b ? "true" : "false"); break;
  case OG_VAL_TYPE: og_w_printf(w, "OPR_DT_%s", og_dtype_enum_id(v->u.type)); break;
  case OG_VAL_FUNC: og_c_string(w, v->u.func, strlen(v->u.func)); break;
  default: og_w_puts(w, "0"); break; /* shapes, tensors: see callers */
  }
}

/* ".rank = 2, .dims = NAME" for a shape whose dims array is NAME. */
static void shape_init(og_writer *w, const og_shape *sh, const char *dims) {
  if (sh->unknown_rank) og_w_puts(w, "{-1, NULL}");
  else if (sh->rank == 0) og_w_puts(w, "{0, NULL}");
  else og_w_printf(w, "{%zu, %s}", sh->rank, dims);
}

/* `linkage` is "static " or "" (arrays the public header declares). */
static void dims_array(og_writer *w, const og_shape *sh, const char *name,
                       const char *linkage) {
  if (sh->unknown_rank || sh->rank == 0) return;
  og_w_printf(w, "%sconst int64_t %s[%zu] = {", linkage, name, sh->rank);
  for (size_t i = 0; i < sh->rank; i++)
    og_w_printf(w, "%s%" PRId64, i ? ", " : "", sh->dims[i]);
  og_w_line(w, "};");
}

/* The element type of a list default array. */
static const char *elem_type(const og_c_file *f, const og_op *op,
                             const og_attr *a) {
  if (a->type.kind == OG_ATTR_STRING) return "opr_str";
  if (a->type.kind == OG_ATTR_TENSOR) return "const opr_tensor *";
  if (a->type.kind == OG_ATTR_FUNC) return "const char *";
  return og_c_attr_ctype(f, op, a);
}

static bool has_items(const og_attr *a) {
  const og_value *v = a->default_value;
  return v && v->kind == OG_VAL_LIST && v->u.list.count > 0;
}

/* An optional scalar string or func default too long for a literal: the
 * header's defaults macro names it as NAME_text, an extern array. */
bool og_c_long_default_text(const og_attr *a, og_bytes *text) {
  const og_value *v = a->default_value;
  if (!og_c_attr_optional(a) || a->type.is_list || og_c_attr_is_enum(a))
    return false;
  if (v->kind == OG_VAL_STRING) *text = v->u.s;
  else if (v->kind == OG_VAL_FUNC) *text = (og_bytes){v->u.func, strlen(v->u.func)};
  else return false;
  return !og_c_string_fits(text->len);
}

static const char *text_name(const og_c_file *f, const og_op *op,
                             const og_attr *a) {
  return og_cn_attr(f, op, a, OG_CN_DEFAULT_TEXT);
}

void og_c_default_decls(og_writer *w, const og_c_file *f, const og_op *op) {
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    if (!og_c_attr_optional(a) || a->type.kind == OG_ATTR_TENSOR) continue;
    const char *name = base_name(f, op, a);
    og_bytes text;
    if (og_c_long_default_text(a, &text))
      og_w_line(w, "extern const char %s[%zu];", text_name(f, op, a),
                text.len + 1);
    else if (has_items(a))
      og_w_line(w, "extern %s%s[%zu];", og_c_list_elem(f, elem_type(f, op, a)),
                name, a->default_value->u.list.count);
    else if (!a->type.is_list && a->type.kind == OG_ATTR_SHAPE &&
             a->default_value->u.shape.rank > 0 &&
             !a->default_value->u.shape.unknown_rank)
      og_w_line(w, "extern const int64_t %s[%zu];",
                og_cn_attr(f, op, a, OG_CN_DEFAULT_DIMS),
                a->default_value->u.shape.rank);
  }
}

void og_c_field_default(og_writer *w, const og_c_file *f, const og_op *op,
                        const og_attr *a) {
  size_t index = (size_t)(a - op->attrs);
  const char *field = og_c_scoped(f, op)->field[index];
  const char *count = og_c_scoped(f, op)->field_count[index];
  const og_value *v = a->default_value;
  if (a->type.is_list) {
    if (a->type.kind == OG_ATTR_TENSOR || !has_items(a))
      og_w_printf(w, "/* %s */ NULL, /* %s */ 0", field, count);
    else
      og_w_printf(w, "/* %s */ %s, /* %s */ %zu", field, base_name(f, op, a),
                  count, v->u.list.count);
    return;
  }
  og_w_printf(w, "/* %s */ ", field);
  if (og_c_attr_is_enum(a)) {
    for (size_t i = 0; i < a->allowed->u.list.count; i++)
      if (og_value_equal(&a->allowed->u.list.items[i], v))
        og_w_puts(w, og_c_enumerators(f, op, a)[i]);
  } else if (a->type.kind == OG_ATTR_SHAPE) {
    shape_init(w, &v->u.shape, og_cn_attr(f, op, a, OG_CN_DEFAULT_DIMS));
  } else if (a->type.kind == OG_ATTR_TENSOR) {
    og_w_puts(w, "NULL");
  } else if (og_c_long_default_text(a, &(og_bytes){0})) {
    og_w_puts(w, text_name(f, op, a));
  } else {
    og_c_scalar(w, v, a->type.kind);
  }
}

static int64_t element_count(const og_shape *sh) {
  int64_t n = 1;
  for (size_t i = 0; i < sh->rank; i++) n *= sh->dims[i] > 0 ? sh->dims[i] : 0;
  return sh->unknown_rank ? 0 : n;
}

/* Element i of a tensor literal: TensorFlow repeats the last value given;
 * none given means zeros. */
static void tensor_element(og_writer *w, const og_tensor *t, int64_t i) {
  size_t step = t->dtype == OG_DT_COMPLEX64 || t->dtype == OG_DT_COMPLEX128 ? 2 : 1;
  size_t n = t->nvalues / step;
  if (n == 0) {
    og_w_puts(w, t->dtype == OG_DT_STRING ? "{NULL, 0}" : "{0}");
    return;
  }
  size_t at = (size_t)i < n ? (size_t)i : n - 1;
  const og_value *v = &t->values[at * step];
  switch (t->dtype) {
  case OG_DT_STRING:
    og_w_puts(w, "{(char *)");
    og_c_string(w, v->u.s.ptr, v->u.s.len);
    og_w_printf(w, ", %zu}", v->u.s.len);
    break;
  case OG_DT_HALF: case OG_DT_BFLOAT16:
    og_w_printf(w, "{%" PRId64 "}", v->u.i);
    break;
  case OG_DT_COMPLEX64:
    og_w_puts(w, "{");
    write_float(w, v[0].u.f);
    og_w_puts(w, ", ");
    write_float(w, v[1].u.f);
    og_w_puts(w, "}");
    break;
  case OG_DT_COMPLEX128:
    og_w_puts(w, "{");
    write_double(w, v[0].u.f);
    og_w_puts(w, ", ");
    write_double(w, v[1].u.f);
    og_w_puts(w, "}");
    break;
  case OG_DT_DOUBLE: write_double(w, v->u.f); break;
  case OG_DT_UINT32: case OG_DT_UINT64:
    /* sema kept them in 0..UINT32_MAX and 0..INT64_MAX */
    if (v->u.i > INT32_MAX)
      og_w_printf(w, "UINT%s_C(%" PRId64 ")",
                  t->dtype == OG_DT_UINT32 ? "32" : "64", v->u.i);
    else og_w_printf(w, "%" PRId64 "u", v->u.i);
    break;
  default:
    og_c_scalar(w, v, v->kind == OG_VAL_FLOAT ? OG_ATTR_FLOAT : OG_ATTR_INT);
  }
}

/* Static consts for a tensor literal: NAME_dims, NAME_data, then the
 * tensor NAME itself. */
static void tensor_static(og_writer *w, const og_c_file *f, const og_tensor *t,
                          const char *name) {
  int64_t count = element_count(&t->shape);
  const char *dims = og_cn_tensor_dims(f, name);
  const char *data = og_cn_tensor_data(f, name);
  dims_array(w, &t->shape, dims, "static ");
  if (count) {
    og_w_printf(w, "static const %s %s[%" PRId64 "] = {",
                og_dtype_ctype(t->dtype), data, count);
    for (int64_t i = 0; i < count; i++) {
      if (i) og_w_puts(w, ", ");
      tensor_element(w, t, i);
    }
    og_w_line(w, "};");
  }
  og_w_line(w, "static const opr_tensor %s = {", name);
  og_w_indent(w);
  og_w_line(w, ".dtype = OPR_DT_%s,", og_dtype_enum_id(t->dtype));
  og_w_line(w, ".rank = %zu,", t->shape.unknown_rank ? 0 : t->shape.rank);
  og_w_line(w, ".dims = %s,", t->shape.rank && !t->shape.unknown_rank ? dims : "NULL");
  og_w_line(w, ".num_elements = %" PRId64 ",", count);
  if (count) {
    og_w_line(w, ".data = (void *)%s,", data);
    og_w_line(w, ".nbytes = sizeof %s,", data);
  }
  og_w_line(w, ".device = OPR_DEVICE_CPU,");
  og_w_dedent(w);
  og_w_line(w, "};");
}

/* Writes element i of a list default into an array initializer; shapes
 * and tensors were given their own statics first. */
static void list_item(og_writer *w, const og_c_file *f, const og_op *op,
                      const og_attr *a, size_t i) {
  const og_value *v = &a->default_value->u.list.items[i];
  switch (a->type.kind) {
  case OG_ATTR_STRING:
    og_w_puts(w, "{");
    og_c_scalar(w, v, OG_ATTR_STRING);
    og_w_printf(w, ", %zu}", v->u.s.len);
    break;
  case OG_ATTR_SHAPE:
    shape_init(w, &v->u.shape, og_cn_default_item(f, op, a, false, i));
    break;
  case OG_ATTR_TENSOR:
    og_w_printf(w, "&%s", og_cn_default_item(f, op, a, true, i));
    break;
  default: og_c_scalar(w, v, a->type.kind);
  }
}

static void list_default(og_writer *w, const og_c_file *f, const og_op *op,
                         const og_attr *a, const char *base) {
  const og_value *v = a->default_value;
  const char *linkage = og_c_attr_optional(a) ? "" : "static ";
  for (size_t i = 0; i < v->u.list.count; i++) {
    const og_value *e = &v->u.list.items[i];
    if (a->type.kind == OG_ATTR_SHAPE)
      dims_array(w, &e->u.shape,
                 og_cn_default_item(f, op, a, false, i), "static ");
    if (a->type.kind == OG_ATTR_TENSOR)
      tensor_static(w, f, &e->u.tensor,
                    og_cn_default_item(f, op, a, true, i));
  }
  og_w_printf(w, "%s%s%s[%zu] = {", linkage,
              og_c_list_elem(f, elem_type(f, op, a)), base, v->u.list.count);
  for (size_t i = 0; i < v->u.list.count; i++) {
    if (i) og_w_puts(w, ", ");
    list_item(w, f, op, a, i);
  }
  og_w_line(w, "};");
}

/* The union member and value of a scalar default. */
static void scalar_member(og_writer *w, const og_c_file *f, const og_op *op,
                          const og_attr *a) {
  const og_value *v = a->default_value;
  switch (a->type.kind) {
  case OG_ATTR_STRING:
    og_w_puts(w, ".u.s = {");
    og_c_scalar(w, v, OG_ATTR_STRING);
    og_w_printf(w, ", %zu}", v->u.s.len);
    break;
  case OG_ATTR_INT: og_w_puts(w, ".u.i = "); break;
  case OG_ATTR_FLOAT: og_w_puts(w, ".u.f = "); break;
  case OG_ATTR_BOOL: og_w_puts(w, ".u.b = "); break;
  case OG_ATTR_TYPE: og_w_puts(w, ".u.type = "); break;
  case OG_ATTR_FUNC: og_w_puts(w, ".u.func = "); break;
  case OG_ATTR_SHAPE:
    og_w_puts(w, ".u.shape = ");
    shape_init(w, &v->u.shape, og_cn_attr(f, op, a, OG_CN_DEFAULT_DIMS));
    return;
  case OG_ATTR_TENSOR:
    og_w_printf(w, ".u.tensor = &%s", og_cn_attr(f, op, a, OG_CN_DEFAULT_TENSOR));
    return;
  }
  if (a->type.kind != OG_ATTR_STRING) og_c_scalar(w, v, a->type.kind);
}

static void value_static(og_writer *w, const og_c_file *f, const og_op *op,
                         const og_attr *a, const char *base) {
  og_bytes text;
  bool named = og_c_long_default_text(a, &text);
  if (named) {
    og_w_printf(w, "const char %s[%zu] = ", text_name(f, op, a), text.len + 1);
    og_c_char_list(w, text.ptr, text.len);
    og_w_line(w, ";");
  }
  og_w_printf(w, "static const opr_attr_value %s = {.kind = %s, ",
              og_c_default_name(f, op, a), og_c_attr_kind(a->type.kind));
  if (named && a->type.kind == OG_ATTR_STRING)
    og_w_printf(w, ".u.s = {%s, %zu}", text_name(f, op, a), text.len);
  else if (named)
    og_w_printf(w, ".u.func = %s", text_name(f, op, a));
  else if (a->type.is_list)
    og_w_printf(w, ".is_list = true, .u.list = {%zu, %s}",
                a->default_value->u.list.count,
                has_items(a) ? base : "NULL");
  else
    scalar_member(w, f, op, a);
  og_w_line(w, "};");
}

void og_c_default_defs(og_writer *w, const og_c_file *f, const og_op *op) {
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    if (!a->default_value) continue;
    const char *base = base_name(f, op, a);
    const og_value *v = a->default_value;
    if (has_items(a)) list_default(w, f, op, a, base);
    if (!a->type.is_list && a->type.kind == OG_ATTR_SHAPE)
      dims_array(w, &v->u.shape, og_cn_attr(f, op, a, OG_CN_DEFAULT_DIMS),
                 og_c_attr_optional(a) ? "" : "static ");
    if (!a->type.is_list && a->type.kind == OG_ATTR_TENSOR)
      tensor_static(w, f, &v->u.tensor,
                    og_cn_attr(f, op, a, OG_CN_DEFAULT_TENSOR));
    value_static(w, f, op, a, base);
  }
}

static bool nonfinite(const og_value *v) {
  switch (v->kind) {
  case OG_VAL_FLOAT: return !isfinite(v->u.f);
  case OG_VAL_TENSOR:
    for (size_t i = 0; i < v->u.tensor.nvalues; i++)
      if (nonfinite(&v->u.tensor.values[i])) return true;
    return false;
  case OG_VAL_LIST:
    for (size_t i = 0; i < v->u.list.count; i++)
      if (nonfinite(&v->u.list.items[i])) return true;
    return false;
  default: return false;
  }
}

bool og_c_defaults_need_math(const og_c_file *f) {
  for (size_t i = 0; i < f->nops; i++)
    for (size_t j = 0; j < f->ops[i]->nattrs; j++) {
      const og_value *v = f->ops[i]->attrs[j].default_value;
      if (v && nonfinite(v)) return true;
    }
  return false;
}
