/* The public header of a spec file: enums, attrs structs with their
 * defaults, and one typed wrapper per op, documented from the spec. */
#include "emit_c_internal.h"

#include "value_text.h"

#include <math.h>
#include <string.h>

static const char *arg_type_text(const og_c_file *f, const og_arg *arg) {
  const char *elem = arg->type ? og_dtype_name(arg->type)
                     : arg->type_attr[0] ? arg->type_attr
                                         : arg->type_list_attr;
  const char *text =
      arg->number_attr[0]
          ? og_arena_printf(f->arena, "%s * %s", arg->number_attr, elem)
          : elem;
  return arg->is_ref ? og_arena_printf(f->arena, "Ref(%s)", text) : text;
}

/* "int >= 0, default 0" and the like, written to t. */
static void attr_text(og_writer *t, const og_attr *a) {
  og_w_puts(t, og_attr_type_name(a->type));
  if (a->allowed) {
    og_w_puts(t, " in ");
    og_allowed_write(t, a->allowed);
  }
  if (a->has_minimum) og_w_printf(t, " >= %lld", (long long)a->minimum);
  if (a->inferred) og_w_puts(t, ", inferred from the inputs");
  else if (a->default_value) {
    og_w_puts(t, ", default ");
    og_value_write(t, a->default_value);
  }
  else og_w_puts(t, ", required");
}

/* ". description" of a doc item: a description's later lines are
 * indented as its wrapped ones are. */
static void doc_item_end(og_writer *t, const char *description) {
  og_w_puts(t, ".");
  for (const char *p = description; *p;) {
    size_t n = strcspn(p, "\n");
    og_w_puts(t, p == description ? " " : n ? "\n    " : "\n");
    og_w_write(t, p, n);
    p += n + (p[n] == '\n');
  }
  og_w_newline(t);
}

/* "  name: what. description". */
static void doc_item(og_writer *t, const char *name, const char *what,
                     const char *description) {
  og_w_printf(t, "  %s: %s", name, what);
  doc_item_end(t, description);
}

static void doc_args(og_writer *t, const og_c_file *f, const char *title,
                     const og_arg *args, size_t n) {
  if (n) og_w_line(t, "%s:", title);
  for (size_t i = 0; i < n; i++)
    doc_item(t, args[i].name, arg_type_text(f, &args[i]), args[i].description);
}

/* The op's `require` statements, as the spec writes them. */
static void doc_requires(og_writer *t, const og_c_file *f, const og_op *op) {
  bool any = false;
  for (size_t i = 0; i < op->nshape_rules; i++) {
    const og_shape_rule *r = &op->shape_rules[i];
    if (!r->is_require) continue;
    if (!any) og_w_line(t, "Requires:");
    any = true;
    og_w_line(t, "  %s", og_c_shape_rule_text(f, op, r));
  }
}

/* Who owns what the wrapper returns (lines of their own: not rewrapped
 * as a hanging paragraph). */
static void doc_ownership(og_writer *t, const og_op *op) {
  og_w_newline(t);
  if (op->noutputs) {
    og_w_line(t, "On success the caller owns each output tensor: release it "
                 "with");
    og_w_line(t, "opr_tensor_unref. A status other than OPR_OK is the "
                 "caller's to free");
    og_w_line(t, "with opr_status_free; on failure no output is set.");
  } else {
    og_w_line(t, "A status other than OPR_OK is the caller's to free with");
    og_w_line(t, "opr_status_free.");
  }
}

/* An empty scratch writer (its buffer kept from op to op). */
static og_writer *scratch_reset(og_writer *t) {
  t->len = 0;
  if (t->buf) t->buf[0] = '\0';
  t->indent = 0;
  t->at_line_start = true;
  return t;
}

/* The wrapper's comment: summary, description, then every argument;
 * composed in `t`, a scratch writer. */
static void op_doc(og_writer *w, og_writer *t, const og_c_file *f,
                   const og_op *op) {
  scratch_reset(t);
  og_w_printf(t, "%s%s%s\n", op->name, op->summary[0] ? ": " : "",
              op->summary);
  if (op->description[0]) og_w_printf(t, "\n%s\n", op->description);
  if (op->ninputs + op->nattrs + op->noutputs) og_w_newline(t);
  doc_args(t, f, "Inputs", op->inputs, op->ninputs);
  if (op->nattrs) og_w_line(t, "Attrs:");
  for (size_t i = 0; i < op->nattrs; i++) {
    og_w_printf(t, "  %s: ", op->attrs[i].name);
    attr_text(t, &op->attrs[i]);
    doc_item_end(t, op->attrs[i].description);
  }
  doc_args(t, f, "Outputs", op->outputs, op->noutputs);
  doc_requires(t, f, op);
  doc_ownership(t, op);
  if (op->deprecated)
    og_w_printf(t, "\nDeprecated since version %d: %s\n",
                (int)op->deprecation_version, op->deprecation_explanation);
  while (t->len && t->buf[t->len - 1] == '\n') t->buf[--t->len] = '\0';
  og_w_line(w, "/*");
  og_c_doc_lines(w, t->buf ? t->buf : "");
  og_w_line(w, " */");
}

static void enum_decl(og_writer *w, const og_c_file *f, const og_op *op,
                      const og_attr *a) {
  const char *type = og_c_attr_ctype(f, op, a);
  og_w_line(w, "/* The values of %s's attr '%s'. */", op->name, a->name);
  const char **enumerators = og_c_enumerators(f, op, a);
  og_w_line(w, "typedef enum %s {", type);
  og_w_indent(w);
  for (size_t i = 0; i < a->allowed->u.list.count; i++) {
    const og_bytes *v = &a->allowed->u.list.items[i].u.s;
    og_writer lit; /* the value as a C literal, then made comment-safe */
    og_writer_init(&lit);
    size_t shown = og_c_string_fits(v->len) ? v->len : 60; /* a comment */
    og_c_string(&lit, v->ptr, shown);
    if (shown < v->len) og_w_printf(&lit, "... (%zu bytes)", v->len);
    og_w_printf(w, "%s, /* ", enumerators[i]);
    og_c_comment_text(w, lit.buf, lit.len);
    og_w_line(w, " */");
    og_writer_free(&lit);
  }
  og_w_dedent(w);
  og_w_line(w, "} %s;", type);
  og_w_newline(w);
}

static void struct_field(og_writer *w, og_writer *t, const og_c_file *f,
                         const og_op *op, size_t index) {
  const og_attr *a = &op->attrs[index];
  const og_cn_scoped *n = og_c_scoped(f, op);
  const char *name = n->field[index];
  const char *type = og_c_attr_ctype(f, op, a);
  attr_text(scratch_reset(t), a);
  if (a->description[0]) og_w_printf(t, ". %s", a->description);
  og_c_comment(w, t->buf);
  if (a->type.is_list) {
    og_w_line(w, "%s*%s;", og_c_list_elem(f, type), name);
    og_w_line(w, "size_t %s;", n->field_count[index]);
  } else {
    size_t n = strlen(type);
    og_w_line(w, "%s%s%s;", type, n && type[n - 1] == '*' ? "" : " ", name);
  }
}

static void attrs_struct(og_writer *w, og_writer *t, const og_c_file *f,
                         const og_op *op) {
  const char *name = og_cn_op(f, op, OG_CN_ATTRS);
  og_c_default_decls(w, f, op);
  og_w_line(w, "/* The optional attrs of %s; NULL means all defaults. */",
            op->name);
  og_w_line(w, "typedef struct %s {", name);
  og_w_indent(w);
  for (size_t i = 0; i < op->nattrs; i++)
    if (og_c_attr_optional(&op->attrs[i]))
      struct_field(w, t, f, op, i);
  og_w_dedent(w);
  og_w_line(w, "} %s;", name);
  og_w_newline(w);
  og_w_line(w, "/* The defaults of the spec, in field order. */");
  /* Rendered first, to choose between one line and one field a line. */
  og_writer init;
  og_writer_init(&init);
  size_t nfields = 0;
  for (size_t i = 0; i < op->nattrs; i++) {
    if (!og_c_attr_optional(&op->attrs[i])) continue;
    og_w_puts(&init, nfields++ ? "\n" : "");
    og_c_field_default(&init, f, op, &op->attrs[i]);
  }
  const char *macro = og_cn_op(f, op, OG_CN_ATTRS_DEFAULT);
  if (strlen("#define ") + strlen(macro) + init.len + nfields + 3 <= 80) {
    og_w_printf(w, "#define %s {", macro);
    for (const char *p = init.buf; *p;) {
      size_t n = strcspn(p, "\n");
      og_w_printf(w, "%s%.*s", p == init.buf ? "" : ", ", (int)n, p);
      p += n + (p[n] == '\n');
    }
    og_w_line(w, "}");
  } else {
    og_w_line(w, "#define %s \\", macro);
    og_w_line(w, "  { \\");
    for (const char *p = init.buf; *p;) {
      size_t n = strcspn(p, "\n");
      og_w_line(w, "    %.*s, \\", (int)n, p);
      p += n + (p[n] == '\n');
    }
    og_w_line(w, "  }");
  }
  og_writer_free(&init);
  og_w_newline(w);
}

/* i in decimal at d; returns its end. */
static char *put_size(char *d, size_t i) {
  char digits[24], *p = digits + sizeof digits;
  do *--p = (char)('0' + i % 10); while (i /= 10);
  return og_w_put(d, p, (size_t)(digits + sizeof digits - p));
}

/* "NAME = i," a line each, composed in place. */
static void index_items(og_writer *w, const char *const *names, size_t n) {
  size_t room = 0;
  for (size_t i = 0; i < n; i++)
    room += strlen(names[i]) + 26 + og_w_pad_width(w);
  char *d = og_w_open(w, room);
  for (size_t i = 0; i < n; i++) {
    if (i) d = og_w_pad(w, d);
    d = og_w_put(og_w_put(d, names[i], strlen(names[i])), " = ", 3);
    d = og_w_put(put_size(d, i), ",\n", 2);
  }
  og_w_close(w, d);
}

/* The positions of the op's attrs, inputs and outputs in its tables, for
 * hand-written shape functions and kernels (opr_infer_attr(c, ...)). */
static void index_constants(og_writer *w, const og_c_file *f,
                            const og_op *op) {
  if (!op->nattrs && !op->ninputs && !op->noutputs) return;
  og_c_comment(w, og_arena_printf(f->arena,
                                  "The indexes of %s's attrs, inputs and "
                                  "outputs, as opr_infer_* and opr_kernel_* "
                                  "take them.",
                                  op->name));
  og_w_line(w, "enum {");
  og_w_indent(w);
  static const og_cn_index_kind kinds[3] = {
      OG_CN_ATTR_INDEXES, OG_CN_INPUT_INDEXES, OG_CN_OUTPUT_INDEXES};
  const size_t counts[3] = {op->nattrs, op->ninputs, op->noutputs};
  for (int k = 0; k < 3; k++) {
    if (counts[k]) index_items(w, og_cn_indexes(f, op, kinds[k]), counts[k]);
  }
  og_w_dedent(w);
  og_w_line(w, "};\n");
}

/* `t`: a scratch writer for the texts composed first. */
static void op_decls(og_writer *w, og_writer *t, const og_c_file *f,
                     const og_op *op) {
  const char *name = og_c_op_name(f, op);
  og_w_line(w, "/* ---- %s ---- */\n", op->name);
  for (size_t i = 0; i < op->nattrs; i++)
    if (og_c_attr_is_enum(&op->attrs[i]))
      enum_decl(w, f, op, &op->attrs[i]);
  if (og_c_has_attrs_struct(op)) attrs_struct(w, t, f, op);
  og_w_line(w, "/* The registration table of %s. */\n"
               "extern const opr_op_def %s;\n",
            op->name, og_cn_op(f, op, OG_CN_DEF));
  index_constants(w, f, op);
  if (op->shape_fn) {
    og_w_line(w, "/* The shape function of %s (shape_fn in the spec), "
                 "written by hand. */", op->name);
    og_w_line(w, "opr_status %s(opr_infer_ctx *c);", op->shape_fn);
    og_w_newline(w);
  }
  op_doc(w, t, f, op);
  og_c_params p = og_c_wrapper_params(f, op);
  og_c_signature(w, "opr_status", name, &p, ";");
  og_w_line(w, "/* %s with caller-owned outputs (opr_invoke_into): the "
               "kernel\n"
               " * writes the caller's tensors, which must have the call's "
               "dtypes and\n"
               " * inferred shapes, in host memory; no reference is taken or "
               "set. */", name);
  og_c_params q = og_c_into_params(f, op);
  og_c_signature(w, "opr_status", og_cn_op(f, op, OG_CN_INTO), &q, ";");
  og_w_newline(w);
}

/* True when a default needs INFINITY or NAN from <math.h>. */
static bool needs_math(const og_c_file *f) {
  for (size_t i = 0; i < f->nops; i++)
    for (size_t j = 0; j < f->ops[i]->nattrs; j++) {
      const og_attr *a = &f->ops[i]->attrs[j];
      const og_value *v = a->default_value;
      if (og_c_attr_optional(a) && a->type.kind == OG_ATTR_FLOAT && v &&
          !a->type.is_list && v->kind == OG_VAL_FLOAT && !isfinite(v->u.f))
        return true;
    }
  return false;
}

void og_emit_c_header(const og_c_file *f, og_writer *w) {
  const char *guard = og_cn_file(f, OG_CN_OPS_H_GUARD);
  og_c_banner(w, f, og_arena_printf(f->arena, "%s: typed wrappers for the ops of %s.",
                                    og_cn_file(f, OG_CN_OPS_H), f->spec));
  og_w_line(w, "#ifndef %s", guard);
  og_w_line(w, "#define %s", guard);
  og_w_newline(w);
  og_w_line(w, "#include \"opr/opr.h\"");
  og_w_newline(w);
  if (needs_math(f)) og_w_line(w, "#include <math.h>");
  og_w_line(w, "#include <stdbool.h>");
  og_w_line(w, "#include <stddef.h>");
  og_w_line(w, "#include <stdint.h>");
  og_w_newline(w);
  og_w_line(w, "#ifdef __cplusplus");
  og_w_line(w, "extern \"C\" {");
  og_w_line(w, "#endif");
  og_w_newline(w);
  og_w_line(w, "/* Registers every op of %s (idempotent). */", f->spec);
  og_w_line(w, "opr_status %s(void);", og_cn_file(f, OG_CN_REGISTER_OPS));
  og_w_newline(w);
  og_writer scratch;
  og_writer_init(&scratch);
  for (size_t i = 0; i < f->nops; i++) op_decls(w, &scratch, f, f->ops[i]);
  og_writer_free(&scratch);
  og_w_line(w, "#ifdef __cplusplus");
  og_w_line(w, "}");
  og_w_line(w, "#endif");
  og_w_newline(w);
  og_w_line(w, "#endif /* %s */", guard);
}
