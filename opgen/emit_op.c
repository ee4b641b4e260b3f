/* Model to `.op` source. Attrs come first (inputs refer to them), then
 * inputs, outputs, flags and the deprecation, each item on its own line
 * with its doc comment. */
#include "emit_op.h"

#include "numtext.h"
#include "source.h"
#include "tf_import.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Positional below 1e17: reads better than "4e+03" in a spec. */
char *og_format_float(double f, char *buf) {
  if (isnan(f)) return strcpy(buf, "nan");
  if (isinf(f)) return strcpy(buf, f < 0 ? "-inf" : "inf");
  og_format_double(f, 17, buf);
  return buf;
}

/* Bytes of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  size_t len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
  if (len == 0 || len > n) return 0;
  return og_utf8_check((const char *)s, len) == (size_t)-1 ? len : 0;
}

/* A quoted literal: C escapes for quotes, backslashes and control bytes;
 * valid UTF-8 stays as it is, other high bytes become \xHH. */
static void write_string(og_writer *w, og_bytes s, char quote) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  char esc[8];
  og_w_write(w, &quote, 1);
  for (size_t i = 0; i < s.len;) {
    unsigned char c = p[i];
    size_t seq = c >= 0x80 ? utf8_seq(p + i, s.len - i) : 0;
    if (seq) {
      og_w_write(w, (const char *)p + i, seq);
      i += seq;
      continue;
    }
    const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t"
                        : c == '\r' ? "\\r" : c == '\\' ? "\\\\" : NULL;
    if (named) {
      og_w_puts(w, named);
    } else if (c == (unsigned char)quote) {
      esc[0] = '\\', esc[1] = quote;
      og_w_write(w, esc, 2);
    } else if (c < 0x20 || c >= 0x7f) {
      snprintf(esc, sizeof esc, "\\x%02x", c);
      og_w_puts(w, esc);
    } else {
      og_w_write(w, (const char *)&c, 1);
    }
    i++;
  }
  og_w_write(w, &quote, 1);
}

static void write_cstring(og_writer *w, const char *s, char quote) {
  og_bytes b = {s ? s : "", s ? strlen(s) : 0};
  write_string(w, b, quote);
}

static void write_shape(og_writer *w, const og_shape *s) {
  if (s->unknown_rank) {
    og_w_puts(w, "?");
    return;
  }
  og_w_puts(w, "[");
  for (size_t i = 0; i < s->rank; i++) {
    if (i) og_w_puts(w, ", ");
    if (s->dims[i] < 0) og_w_puts(w, "?");
    else og_w_printf(w, "%" PRId64, s->dims[i]);
  }
  og_w_puts(w, "]");
}

/* A field name for tensor values of a dtype the table lacks. */
static const char *val_field(const og_tensor *t) {
  const char *f = og_tf_tensor_val_field(t->dtype);
  if (f || t->nvalues == 0) return f;
  switch (t->values[0].kind) {
  case OG_VAL_FLOAT: return "double_val";
  case OG_VAL_STRING: return "string_val";
  case OG_VAL_BOOL: return "bool_val";
  default: return "int64_val";
  }
}

/* TensorFlow's TensorProto text: dtype, tensor_shape (when not a
 * scalar), then one `*_val: v` per value. */
static void write_tensor(og_writer *w, const og_tensor *t) {
  og_w_printf(w, "{ dtype: DT_%s", og_dtype_enum_id(t->dtype));
  if (t->shape.unknown_rank) {
    og_w_puts(w, " tensor_shape { unknown_rank: true }");
  } else if (t->shape.rank) {
    og_w_puts(w, " tensor_shape {");
    for (size_t i = 0; i < t->shape.rank; i++)
      og_w_printf(w, " dim { size: %" PRId64 " }", t->shape.dims[i]);
    og_w_puts(w, " }");
  }
  const char *field = val_field(t);
  for (size_t i = 0; i < t->nvalues; i++) {
    og_w_printf(w, " %s: ", field);
    og_emit_op_value(&t->values[i], w);
  }
  og_w_puts(w, " }");
}

void og_emit_op_value(const og_value *v, og_writer *w) {
  char buf[32];
  switch (v->kind) {
  case OG_VAL_STRING: write_string(w, v->u.s, '\''); break;
  case OG_VAL_INT: og_w_printf(w, "%" PRId64, v->u.i); break;
  case OG_VAL_FLOAT: og_w_puts(w, og_format_float(v->u.f, buf)); break;
  case OG_VAL_BOOL: og_w_puts(w, v->u.b ? "true" : "false"); break;
  case OG_VAL_TYPE: og_w_puts(w, og_dtype_name(v->u.type)); break;
  case OG_VAL_SHAPE: write_shape(w, &v->u.shape); break;
  case OG_VAL_TENSOR: write_tensor(w, &v->u.tensor); break;
  case OG_VAL_FUNC:
    og_w_puts(w, "{ name: ");
    write_cstring(w, v->u.func, '\'');
    og_w_puts(w, " }");
    break;
  case OG_VAL_LIST:
    og_w_puts(w, "[");
    for (size_t i = 0; i < v->u.list.count; i++) {
      if (i) og_w_puts(w, ", ");
      og_emit_op_value(&v->u.list.items[i], w);
    }
    og_w_puts(w, "]");
    break;
  }
}

/* `/// line` per line of `text` (`///` alone for an empty line). Every
 * line break of the text starts a new `///` line, so no doc text can
 * become code. A lone '\r' counts as a break too, as it does for the
 * .op lexer (and for editors and terminals). */
static void write_doc_lines(og_writer *w, const char *text) {
  while (true) {
    size_t n = strcspn(text, "\r\n");
    if (n) og_w_printf(w, "/// %.*s\n", (int)n, text);
    else og_w_puts(w, "///\n");
    if (!text[n]) return;
    text += n + (text[n] == '\r' && text[n + 1] == '\n' ? 2 : 1);
  }
}

static void write_doc(og_writer *w, const char *text) {
  if (text && *text) write_doc_lines(w, text);
}

static void write_attr_type(og_writer *w, const og_attr *a) {
  if (a->type.is_list) og_w_puts(w, "list(");
  if (a->allowed) {
    og_w_puts(w, "{");
    for (size_t i = 0; i < a->allowed->u.list.count; i++) {
      if (i) og_w_puts(w, ", ");
      og_emit_op_value(&a->allowed->u.list.items[i], w);
    }
    og_w_puts(w, "}");
  } else {
    og_w_puts(w, og_attr_kind_name(a->type.kind));
  }
  if (a->type.is_list) og_w_puts(w, ")");
}

static void write_attr(og_writer *w, const og_attr *a) {
  write_doc(w, a->description);
  og_w_printf(w, "attr %s: ", a->name);
  write_attr_type(w, a);
  if (a->has_minimum) og_w_printf(w, " >= %" PRId64, a->minimum);
  if (a->default_value) {
    og_w_puts(w, " = ");
    og_emit_op_value(a->default_value, w);
  }
  og_w_puts(w, ";\n");
}

static void write_arg(og_writer *w, const char *kw, const og_arg *a) {
  write_doc(w, a->description);
  og_w_printf(w, "%s %s: %s", kw, a->name, a->is_ref ? "Ref(" : "");
  if (a->number_attr && *a->number_attr)
    og_w_printf(w, "%s * ", a->number_attr);
  if (a->type_list_attr && *a->type_list_attr)
    og_w_puts(w, a->type_list_attr);
  else if (a->type_attr && *a->type_attr)
    og_w_puts(w, a->type_attr);
  else
    og_w_puts(w, og_dtype_name(a->type) ? og_dtype_name(a->type) : "?");
  og_w_puts(w, a->is_ref ? ");\n" : ";\n");
}

static void write_op_doc(og_writer *w, const og_op *op) {
  bool summary = op->summary && *op->summary;
  bool description = op->description && *op->description;
  if (summary) write_doc_lines(w, op->summary);
  if (description) {
    og_w_puts(w, "///\n");
    write_doc_lines(w, op->description);
  }
}

void og_emit_op_def(const og_op *op, og_writer *w) {
  write_op_doc(w, op);
  og_w_printf(w, "op %s {\n", op->name);
  og_w_indent(w);
  for (size_t i = 0; i < op->nattrs; i++) write_attr(w, &op->attrs[i]);
  for (size_t i = 0; i < op->ninputs; i++)
    write_arg(w, "input", &op->inputs[i]);
  for (size_t i = 0; i < op->noutputs; i++)
    write_arg(w, "output", &op->outputs[i]);
  if (op->is_stateful) og_w_puts(w, "stateful;\n");
  if (op->is_commutative) og_w_puts(w, "commutative;\n");
  if (op->is_aggregate) og_w_puts(w, "aggregate;\n");
  if (op->allows_uninitialized_input)
    og_w_puts(w, "allows_uninitialized_input;\n");
  if (op->is_distributed_communication)
    og_w_puts(w, "distributed_communication;\n");
  if (op->deprecated) {
    og_w_printf(w, "deprecated %" PRId32 " ", op->deprecation_version);
    write_cstring(w, op->deprecation_explanation, '"');
    og_w_puts(w, ";\n");
  }
  og_w_dedent(w);
  og_w_puts(w, "}\n");
}

void og_emit_op_source(const og_model *m, const char *package, og_writer *w) {
  if (package) og_w_printf(w, "package %s;\n", package);
  for (size_t i = 0; i < m->nops; i++) {
    if (package || i) og_w_newline(w);
    og_emit_op_def(m->ops[i], w);
  }
}
