#include "dump.h"

#include "json.h"

#include <inttypes.h>
#include <math.h>

/* Layout: every object puts one key per line; arrays of scalars stay on
 * one line, other arrays put one element per line. A closing bracket is
 * always written together with what ends its line ("}," or "}\n"), which
 * keeps each line a single writer call that the writer indents. */

static const char *line_end(bool last) { return last ? "\n" : ",\n"; }

/* Keys are fixed ASCII names: no escaping. One call, so that the writer
 * indents the line (it skips one-byte writes at a line start). */
static void write_key(og_writer *w, const char *key) {
  og_w_printf(w, "\"%s\": ", key);
}

static void field_string(og_writer *w, const char *key, const char *s,
                         bool last) {
  write_key(w, key);
  og_json_write_cstring(w, s);
  og_w_puts(w, line_end(last));
}

static void field_int(og_writer *w, const char *key, int64_t i, bool last) {
  write_key(w, key);
  og_w_printf(w, "%" PRId64 "%s", i, line_end(last));
}

static void field_bool(og_writer *w, const char *key, bool b, bool last) {
  write_key(w, key);
  og_w_printf(w, "%s%s", b ? "true" : "false", line_end(last));
}

static void open_object(og_writer *w) {
  og_w_puts(w, "{\n");
  og_w_indent(w);
}

static void close_object(og_writer *w, const char *end) {
  og_w_dedent(w);
  og_w_printf(w, "}%s", end);
}

/* ---- values ------------------------------------------------------------- */

static void write_value(og_writer *w, const og_value *v, const char *end);

static bool is_scalar(og_value_kind k) {
  return k == OG_VAL_STRING || k == OG_VAL_INT || k == OG_VAL_FLOAT ||
         k == OG_VAL_BOOL || k == OG_VAL_TYPE;
}

/* JSON has no inf or nan: the contract spells them as strings. */
static void write_float(og_writer *w, double f) {
  if (isnan(f)) og_w_puts(w, "\"nan\"");
  else if (isinf(f)) og_w_puts(w, f > 0 ? "\"inf\"" : "\"-inf\"");
  else og_json_write_double(w, f);
}

static void write_scalar(og_writer *w, const og_value *v) {
  switch (v->kind) {
  case OG_VAL_STRING: og_json_write_string(w, v->u.s); break;
  case OG_VAL_INT: og_w_printf(w, "%" PRId64, v->u.i); break;
  case OG_VAL_FLOAT: write_float(w, v->u.f); break;
  case OG_VAL_BOOL: og_w_puts(w, v->u.b ? "true" : "false"); break;
  case OG_VAL_TYPE: og_json_write_cstring(w, og_dtype_name(v->u.type)); break;
  default: break; /* not scalars; callers check is_scalar */
  }
}

static void write_inline_scalars(og_writer *w, size_t n, const og_value *vs) {
  og_w_puts(w, "[");
  for (size_t i = 0; i < n; i++) {
    if (i) og_w_puts(w, ", ");
    write_scalar(w, &vs[i]);
  }
  og_w_puts(w, "]");
}

static void write_dims(og_writer *w, const og_shape *s) {
  og_w_puts(w, "[");
  for (size_t i = 0; i < s->rank; i++)
    og_w_printf(w, "%s%" PRId64, i ? ", " : "", s->dims[i]);
  og_w_puts(w, "]");
}

static void write_shape(og_writer *w, const og_shape *s, const char *end) {
  open_object(w);
  if (s->unknown_rank) {
    field_bool(w, "unknown_rank", true, true);
  } else {
    write_key(w, "dims");
    write_dims(w, s);
    og_w_puts(w, "\n");
  }
  close_object(w, end);
}

/* A tensor's shape is a plain dims array; an unknown rank (which a tensor
 * literal should not have) falls back to the shape object. */
static void write_tensor(og_writer *w, const og_tensor *t, const char *end) {
  open_object(w);
  field_string(w, "dtype", og_dtype_name(t->dtype), false);
  write_key(w, "shape");
  if (t->shape.unknown_rank) {
    write_shape(w, &t->shape, ",\n");
  } else {
    write_dims(w, &t->shape);
    og_w_puts(w, ",\n");
  }
  write_key(w, "values");
  write_inline_scalars(w, t->nvalues, t->values);
  og_w_puts(w, "\n");
  close_object(w, end);
}

static void write_list(og_writer *w, const og_value *v, const char *end) {
  size_t n = v->u.list.count;
  bool scalars = true;
  for (size_t i = 0; i < n; i++)
    scalars = scalars && is_scalar(v->u.list.items[i].kind);
  if (scalars) {
    write_inline_scalars(w, n, v->u.list.items);
    og_w_puts(w, end);
    return;
  }
  og_w_puts(w, "[\n");
  og_w_indent(w);
  for (size_t i = 0; i < n; i++)
    write_value(w, &v->u.list.items[i], line_end(i + 1 == n));
  og_w_dedent(w);
  og_w_printf(w, "]%s", end);
}

/* `end` follows the value on its last line: ",\n" or "\n". */
static void write_value(og_writer *w, const og_value *v, const char *end) {
  switch (v->kind) {
  case OG_VAL_SHAPE: write_shape(w, &v->u.shape, end); return;
  case OG_VAL_TENSOR: write_tensor(w, &v->u.tensor, end); return;
  case OG_VAL_LIST: write_list(w, v, end); return;
  case OG_VAL_FUNC:
    open_object(w);
    field_string(w, "name", v->u.func, true);
    close_object(w, end);
    return;
  default:
    write_scalar(w, v);
    og_w_puts(w, end);
  }
}

static void field_value(og_writer *w, const char *key, const og_value *v,
                        bool last) {
  write_key(w, key);
  if (v) write_value(w, v, line_end(last));
  else og_w_printf(w, "null%s", line_end(last));
}

/* ---- ops ---------------------------------------------------------------- */

static void write_arg(og_writer *w, const og_arg *a, const char *end) {
  open_object(w);
  field_string(w, "name", a->name, false);
  field_string(w, "type", a->type ? og_dtype_name(a->type) : "", false);
  field_string(w, "type_attr", a->type_attr, false);
  field_string(w, "number_attr", a->number_attr, false);
  field_string(w, "type_list_attr", a->type_list_attr, false);
  field_bool(w, "is_ref", a->is_ref, false);
  field_string(w, "description", a->description, true);
  close_object(w, end);
}

static void write_attr(og_writer *w, const og_attr *a, const char *end) {
  open_object(w);
  field_string(w, "name", a->name, false);
  field_string(w, "type", og_attr_type_name(a->type), false);
  field_bool(w, "has_minimum", a->has_minimum, false);
  field_int(w, "minimum", a->minimum, false);
  field_value(w, "allowed_values", a->allowed, false);
  field_value(w, "default_value", a->default_value, false);
  field_string(w, "description", a->description, true);
  close_object(w, end);
}

/* `"key": [` opening an array of `n` objects, one per line; an empty
 * one is written whole ("[]" and `end`), and false returned. */
static bool open_array(og_writer *w, const char *key, size_t n,
                       const char *end) {
  write_key(w, key);
  if (!n) {
    og_w_printf(w, "[]%s", end);
    return false;
  }
  og_w_puts(w, "[\n");
  og_w_indent(w);
  return true;
}

static void close_array(og_writer *w, const char *end) {
  og_w_dedent(w);
  og_w_printf(w, "]%s", end);
}

static void field_args(og_writer *w, const char *key, const og_arg *args,
                       size_t n) {
  if (!open_array(w, key, n, ",\n")) return;
  for (size_t i = 0; i < n; i++) write_arg(w, &args[i], line_end(i + 1 == n));
  close_array(w, ",\n");
}

static void field_attrs(og_writer *w, const og_attr *attrs, size_t n) {
  if (!open_array(w, "attr", n, ",\n")) return;
  for (size_t i = 0; i < n; i++)
    write_attr(w, &attrs[i], line_end(i + 1 == n));
  close_array(w, ",\n");
}

static void field_deprecation(og_writer *w, const og_op *op) {
  write_key(w, "deprecation");
  if (!op->deprecated) {
    og_w_puts(w, "null\n");
    return;
  }
  open_object(w);
  field_int(w, "version", op->deprecation_version, false);
  field_string(w, "explanation", op->deprecation_explanation, true);
  close_object(w, "\n");
}

static void write_op(og_writer *w, const og_op *op, const char *end) {
  open_object(w);
  field_string(w, "name", op->name, false);
  field_string(w, "file", op->pos.file, false);
  field_int(w, "line", op->pos.line, false);
  field_string(w, "summary", op->summary, false);
  field_string(w, "description", op->description, false);
  field_args(w, "input_arg", op->inputs, op->ninputs);
  field_args(w, "output_arg", op->outputs, op->noutputs);
  field_attrs(w, op->attrs, op->nattrs);
  field_bool(w, "is_stateful", op->is_stateful, false);
  field_bool(w, "is_commutative", op->is_commutative, false);
  field_bool(w, "is_aggregate", op->is_aggregate, false);
  field_bool(w, "allows_uninitialized_input", op->allows_uninitialized_input,
             false);
  /* Written only when set, so dumps of ops without it stay as before. */
  if (op->is_distributed_communication)
    field_bool(w, "is_distributed_communication", true, false);
  field_deprecation(w, op);
  close_object(w, end);
}

void og_dump_json(const og_model *m, og_writer *w) {
  open_object(w);
  field_int(w, "format_version", OG_DUMP_FORMAT_VERSION, false);
  if (open_array(w, "ops", m->nops, "\n")) {
    for (size_t i = 0; i < m->nops; i++)
      write_op(w, m->ops[i], line_end(i + 1 == m->nops));
    close_array(w, "\n");
  }
  close_object(w, "\n");
}
