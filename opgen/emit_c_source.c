/* The C source of a spec file: per op the const registration table, the
 * argument check and the typed wrapper; then the register function. */
#include "emit_c_internal.h"

#include <string.h>

/* An attr index, or OPR_NO_ATTR. */
static const char *attr_ref(const og_c_file *f, const og_op *op,
                            const char *name) {
  static const char small[10][2] = {"0", "1", "2", "3", "4",
                                    "5", "6", "7", "8", "9"};
  int i = og_c_attr_index(op, name);
  if (i >= 0 && i < 10) return small[i]; /* nearly all: no printf */
  return i < 0 ? "OPR_NO_ATTR" : og_arena_printf(f->arena, "%d", i);
}

static void arg_defs(og_writer *w, const og_c_file *f, const og_op *op,
                     og_cn_op_part what, const og_arg *args, size_t n) {
  if (!n) return;
  og_w_line(w, "static const opr_arg_def %s[%zu] = {", og_cn_op(f, op, what),
            n);
  og_w_indent(w);
  for (size_t i = 0; i < n; i++) {
    const og_arg *a = &args[i];
    const char *type = a->type ? og_dtype_enum_id(a->type) : "INVALID";
    const char *ref = a->is_ref ? ", .is_ref = true" : "";
    const char *type_attr = attr_ref(f, op, a->type_attr);
    const char *number_attr = attr_ref(f, op, a->number_attr);
    const char *list_attr = attr_ref(f, op, a->type_list_attr);
    if (og_c_string_plain(a->name, strlen(a->name))) { /* one write */
      og_w_line(w, "{.name = \"%s\", .type = OPR_DT_%s%s,\n"
                   "  .type_attr = %s, .number_attr = %s, .type_list_attr = %s},",
                a->name, type, ref, type_attr, number_attr, list_attr);
      continue;
    }
    og_w_puts(w, "{.name = ");
    og_c_string(w, a->name, strlen(a->name));
    og_w_line(w, ", .type = OPR_DT_%s%s,\n"
                 "  .type_attr = %s, .number_attr = %s, .type_list_attr = %s},",
              type, ref, type_attr, number_attr, list_attr);
  }
  og_w_dedent(w);
  og_w_line(w, "};");
}

static void allowed_strings(og_writer *w, const og_c_file *f, const og_op *op,
                            const og_attr *a) {
  const og_value *list = a->allowed;
  og_w_printf(w, "static const opr_str %s[%zu] = {",
              og_cn_attr(f, op, a, OG_CN_ALLOWED), list->u.list.count);
  for (size_t i = 0; i < list->u.list.count; i++) {
    const og_bytes *s = &list->u.list.items[i].u.s;
    og_w_puts(w, i ? ", {" : "{");
    og_c_string(w, s->ptr, s->len);
    og_w_printf(w, ", %zu}", s->len);
  }
  og_w_line(w, "};");
}

static void attr_def(og_writer *w, const og_c_file *f, const og_op *op,
                     const og_attr *a) {
  og_w_line(w, "{");
  og_w_indent(w);
  const char *kind = og_c_attr_kind(a->type.kind);
  const char *list = a->type.is_list ? "true" : "false";
  if (og_c_string_plain(a->name, strlen(a->name))) {
    og_w_printf(w, ".name = \"%s\", .type = {%s, %s}", a->name, kind, list);
  } else {
    og_w_puts(w, ".name = ");
    og_c_string(w, a->name, strlen(a->name));
    og_w_printf(w, ", .type = {%s, %s}", kind, list);
  }
  if (a->has_minimum) {
    og_w_puts(w, ",\n.has_minimum = true, .minimum = ");
    og_c_scalar(w, &(og_value){.kind = OG_VAL_INT, .u.i = a->minimum},
                OG_ATTR_INT);
  }
  if (a->allowed && a->type.kind == OG_ATTR_TYPE) {
    og_w_puts(w, ",\n.allowed_types = ");
    og_c_dtype_set(w, a->allowed_types);
  }
  if (a->allowed && a->type.kind == OG_ATTR_STRING)
    og_w_printf(w, ",\n.allowed_strings = %s, .nallowed_strings = %zu",
                og_cn_attr(f, op, a, OG_CN_ALLOWED), a->allowed->u.list.count);
  if (a->default_value)
    og_w_printf(w, ",\n.default_value = &%s", og_c_default_name(f, op, a));
  if (a->inferred) og_w_puts(w, ",\n.inferred = true");
  og_w_dedent(w);
  og_w_line(w, ",\n},"); /* the ',' ends the line the fields are on */
}

static void attr_defs(og_writer *w, const og_c_file *f, const og_op *op) {
  for (size_t i = 0; i < op->nattrs; i++)
    if (op->attrs[i].allowed && op->attrs[i].type.kind == OG_ATTR_STRING)
      allowed_strings(w, f, op, &op->attrs[i]);
  og_c_default_defs(w, f, op);
  if (!op->nattrs) return;
  og_w_line(w, "static const opr_attr_def %s[%zu] = {",
            og_cn_op(f, op, OG_CN_ATTR_DEFS), op->nattrs);
  og_w_indent(w);
  for (size_t i = 0; i < op->nattrs; i++) attr_def(w, f, op, &op->attrs[i]);
  og_w_dedent(w);
  og_w_line(w, "};");
}

/* The check: each input's count and dtypes (inferring the attrs they
 * give), then every attr. opr_invoke checks the output slots. */
static void check_fn(og_writer *w, const og_c_file *f, const og_op *op) {
  if (op->ninputs)
    og_w_line(w, "static opr_status %s(opr_call *call) {\n"
                 "  opr_status s;", og_cn_op(f, op, OG_CN_CHECK));
  else
    og_w_line(w, "static opr_status %s(opr_call *call) {",
              og_cn_op(f, op, OG_CN_CHECK));
  og_w_indent(w);
  for (size_t i = 0; i < op->ninputs; i++) {
    const og_arg *a = &op->inputs[i];
    og_w_line(w, "/* input '%s' */\n"
                 "if ((s = opr_check_%s_input(call, %zu))) return s;",
              a->name, og_c_arg_is_list(a) ? "list" : "single", i);
    if (a->number_attr[0])
      og_w_line(w, "if ((s = opr_infer_number_attr(call, %zu, %d))) return s;",
                i, og_c_attr_index(op, a->number_attr));
    if (a->type)
      og_w_line(w, "if ((s = opr_check_input_type(call, %zu, OPR_DT_%s))) return s;",
                i, og_dtype_enum_id(a->type));
    else if (a->type_attr[0])
      og_w_line(w, "if ((s = opr_infer_type_attr(call, %zu, %d))) return s;", i,
                og_c_attr_index(op, a->type_attr));
    else
      og_w_line(w, "if ((s = opr_infer_type_list_attr(call, %zu, %d))) return s;",
                i, og_c_attr_index(op, a->type_list_attr));
  }
  og_w_dedent(w);
  og_w_line(w, "  return opr_check_attrs(call);\n"
               "}");
}

static void op_def(og_writer *w, const og_c_file *f, const og_op *op) {
  const char *state = og_cn_op(f, op, OG_CN_STATE);
  og_w_line(w, "static opr_op_state %s;\n"
               "\n"
               "const opr_op_def %s = {", state, og_cn_op(f, op, OG_CN_DEF));
  og_w_indent(w);
  if (og_c_string_plain(op->name, strlen(op->name))) {
    og_w_line(w, ".name = \"%s\",", op->name);
  } else {
    og_w_puts(w, ".name = ");
    og_c_string(w, op->name, strlen(op->name));
    og_w_line(w, ",");
  }
  og_w_puts(w, ".summary = ");
  og_c_string(w, op->summary, strlen(op->summary));
  og_w_line(w, ",");
  if (op->ninputs)
    og_w_line(w, ".inputs = %s, .ninputs = %zu,",
              og_cn_op(f, op, OG_CN_INPUT_DEFS), op->ninputs);
  if (op->noutputs)
    og_w_line(w, ".outputs = %s, .noutputs = %zu,",
              og_cn_op(f, op, OG_CN_OUTPUT_DEFS), op->noutputs);
  if (op->nattrs)
    og_w_line(w, ".attrs = %s, .nattrs = %zu,", og_cn_op(f, op, OG_CN_ATTR_DEFS),
              op->nattrs);
  if (op->is_stateful) og_w_line(w, ".is_stateful = true,");
  if (op->is_commutative) og_w_line(w, ".is_commutative = true,");
  if (op->is_aggregate) og_w_line(w, ".is_aggregate = true,");
  if (op->allows_uninitialized_input)
    og_w_line(w, ".allows_uninitialized_input = true,");
  if (og_c_has_exec_fast_path(op)) og_w_line(w, ".has_fast_path = true,");
  og_w_line(w, ".check = %s,", og_cn_op(f, op, OG_CN_CHECK));
  const char *shape_fn = og_c_shape_fn_name(f, op);
  if (shape_fn) og_w_line(w, ".shape_fn = %s,", shape_fn);
  og_w_dedent(w);
  og_w_line(w, "  .state = &%s,\n"
               "};", state);
}

/* Where the wrapper reads attr a: a parameter or a field of *attrs. */
const char *og_c_attr_source(const og_c_file *f, const og_op *op,
                             const og_attr *a) {
  size_t i = (size_t)(a - op->attrs);
  const og_cn_scoped *n = og_c_scoped(f, op);
  return og_c_attr_required(a)
             ? n->param[i]
             : og_arena_printf(f->arena, "attrs->%s", n->field[i]);
}

/* The count of a list attr, next to attr_source. */
static const char *attr_count(const og_c_file *f, const og_op *op,
                              const og_attr *a) {
  size_t i = (size_t)(a - op->attrs);
  const og_cn_scoped *n = og_c_scoped(f, op);
  return og_c_attr_required(a)
             ? n->param_count[i]
             : og_arena_printf(f->arena, "attrs->%s", n->field_count[i]);
}

/* An enum attr must hold one of its enumerators before it indexes the
 * table of allowed strings. */
static void enum_guard(og_writer *w, const og_c_file *f, const og_op *op,
                       const og_attr *a) {
  const char *src = og_c_attr_source(f, op, a);
  og_w_line(w, "if ((unsigned)%s >= %zuu)", src, a->allowed->u.list.count);
  og_w_indent(w);
  og_w_line(w, "return opr_error(OPR_INVALID_ARGUMENT,");
  const char *type = og_c_attr_ctype(f, op, a);
  if (og_c_string_fits(strlen(op->name) + strlen(a->name) + strlen(type) + 40)) {
    og_w_line(w, "                 \"%s: attr '%s' is %%d, not a value of \"",
              op->name, a->name);
    og_w_line(w, "                 \"%s\", (int)%s);", type, src);
  } else { /* names past the literal limit: passed as arguments */
    og_w_puts(w, "\"%s: attr '%s' is %d, not a value of %s\", ");
    og_c_string(w, op->name, strlen(op->name));
    og_w_puts(w, ", ");
    og_c_string(w, a->name, strlen(a->name));
    og_w_printf(w, ", (int)%s, ", src);
    og_c_string(w, type, strlen(type));
    og_w_line(w, ");");
  }
  og_w_dedent(w);
}

static void attr_value(og_writer *w, const og_c_file *f, const og_op *op,
                       const og_attr *a) {
  const char *src = og_c_attr_source(f, op, a);
  const char *kind = og_c_attr_kind(a->type.kind);
  if (a->inferred) og_w_puts(w, "{.kind = OPR_ATTR_UNSET}");
  else if (a->type.is_list && a->type.kind == OG_ATTR_TENSOR)
    og_w_printf(w, "%s ? opr_attr_list(%s, %s, %s)\n"
                   "    : (opr_attr_value){.kind = OPR_ATTR_UNSET}",
                src, kind, src, attr_count(f, op, a)); /* NULL: the default */
  else if (a->type.is_list)
    og_w_printf(w, "opr_attr_list(%s, %s, %s)", kind, src,
                attr_count(f, op, a));
  else if (og_c_attr_is_enum(a))
    og_w_printf(w, "{.kind = OPR_ATTR_STRING, .u.s = %s[%s]}",
                og_cn_attr(f, op, a, OG_CN_ALLOWED), src);
  else if (a->type.kind == OG_ATTR_STRING || a->type.kind == OG_ATTR_FUNC)
    og_w_printf(w, "opr_attr_cstring(%s, %s)", kind, src);
  else if (a->type.kind == OG_ATTR_TENSOR)
    og_w_printf(w, "opr_attr_tensor(%s)", src);
  else {
    static const char *const member[] = {
        [OG_ATTR_INT] = "i", [OG_ATTR_FLOAT] = "f", [OG_ATTR_BOOL] = "b",
        [OG_ATTR_TYPE] = "type", [OG_ATTR_SHAPE] = "shape"};
    og_w_printf(w, "{.kind = %s, .u.%s = %s}", kind, member[a->type.kind], src);
  }
}

/* The call's arrays. Each output's slot is its parameter: in the body
 * both wrappers call, a single output is always an opr_tensor ** (the
 * _into form passes the address of its tensor parameter). */
/* "{&x, 1}, {y, y_count}" (`amp`: a single one's address), composed in
 * place after the array's head, then "};". */
static void arg_items(og_writer *w, const og_arg *args, const char *const *ids,
                      const char *const *counts, size_t n, bool amp) {
  size_t room = 3;
  for (size_t i = 0; i < n; i++)
    room += strlen(ids[i]) + 10 +
            (og_c_arg_is_list(&args[i]) ? strlen(counts[i]) : 0);
  char *d = og_w_open(w, room);
  for (size_t i = 0; i < n; i++) {
    if (i) d = og_w_put(d, ", ", 2);
    *d++ = '{';
    if (og_c_arg_is_list(&args[i])) {
      d = og_w_put(d, ids[i], strlen(ids[i]));
      d = og_w_put(og_w_put(d, ", ", 2), counts[i], strlen(counts[i]));
      *d++ = '}';
      continue;
    }
    if (amp) *d++ = '&';
    d = og_w_put(og_w_put(d, ids[i], strlen(ids[i])), ", 1}", 4);
  }
  og_w_close(w, og_w_put(d, "};\n", 3));
}

static void wrapper_args(og_writer *w, const og_c_file *f, const og_op *op) {
  const og_cn_scoped *n = og_c_scoped(f, op);
  if (op->ninputs) {
    og_w_printf(w, "const opr_input op_inputs[%zu] = {", op->ninputs);
    arg_items(w, op->inputs, n->in, n->in_count, op->ninputs, true);
  }
  if (op->nattrs) {
    og_w_line(w, "opr_attr_value op_attrs[%zu] = {", op->nattrs);
    og_w_indent(w);
    for (size_t i = 0; i < op->nattrs; i++) {
      attr_value(w, f, op, &op->attrs[i]);
      og_w_line(w, ", /* %s */", op->attrs[i].name);
    }
    og_w_dedent(w);
    og_w_line(w, "};");
  }
  if (op->noutputs) {
    og_w_printf(w, "opr_output op_outputs[%zu] = {", op->noutputs);
    arg_items(w, op->outputs, n->out, n->out_count, op->noutputs, false);
  }
}

/* The allocating wrapper's parameters and `bool into`. */
static og_c_params body_params(const og_c_file *f, const og_op *op) {
  og_c_params p = og_c_wrapper_params(f, op), q = p;
  q.decls = og_arena_array(f->arena, p.count + 1, sizeof *q.decls);
  q.names = og_arena_array(f->arena, p.count + 1, sizeof *q.names);
  memcpy(q.decls, p.decls, p.count * sizeof *q.decls);
  memcpy(q.names, p.names, p.count * sizeof *q.names);
  q.decls[q.count] = "bool into";
  q.names[q.count++] = "into";
  return q;
}

/* The body of the typed wrapper and of its caller-owned form, said once:
 * `into` picks opr_invoke_into (the caller's tensors) or opr_invoke.
 * Static inline, so that each wrapper compiles to its own form. */
static void wrapper_body(og_writer *w, const og_c_file *f, const og_op *op) {
  og_c_params p = body_params(f, op);
  og_w_line(w, "/* The body of both wrappers of %s. */", op->name);
  og_c_signature(w, "static inline opr_status", og_cn_op(f, op, OG_CN_CALL),
                 &p, " {");
  og_w_indent(w);
  if (og_c_has_attrs_struct(op))
    og_w_line(w, "static const %s op_defaults = %s;\n"
                 "if (!attrs) attrs = &op_defaults;",
              og_cn_op(f, op, OG_CN_ATTRS), og_cn_op(f, op, OG_CN_ATTRS_DEFAULT));
  for (size_t i = 0; i < op->nattrs; i++)
    if (og_c_attr_is_enum(&op->attrs[i]) && !op->attrs[i].inferred)
      enum_guard(w, f, op, &op->attrs[i]);
  wrapper_args(w, f, op);
  og_w_line(w, "opr_call op_call = {\n"
               "  .op = &%s,\n"
               "  .inputs = %s,\n"
               "  .attrs = %s,\n"
               "  .outputs = %s,\n"
               "};",
            og_cn_op(f, op, OG_CN_DEF), op->ninputs ? "op_inputs" : "NULL",
            op->nattrs ? "op_attrs" : "NULL",
            op->noutputs ? "op_outputs" : "NULL");
  if (og_c_has_fast_path(op)) og_c_fast_path(w, f, op);
  og_w_dedent(w);
  og_w_line(w, "  return into ? opr_invoke_into(ctx, &op_call) : "
               "opr_invoke(ctx, &op_call);\n"
               "}");
}

/* Whether `name` is a single output's parameter (the _into form passes
 * its address to the body). */
static bool single_output(const og_c_file *f, const og_op *op,
                          const char *name) {
  const og_cn_scoped *n = og_c_scoped(f, op);
  for (size_t i = 0; i < op->noutputs; i++)
    if (n->out[i] == name) return !og_c_arg_is_list(&op->outputs[i]);
  return false;
}

/* "return body(a, b, ..., into);" at indentation 1, composed in place:
 * the arguments run on, wrapped before column 80 under four more
 * spaces; the _into form passes a single output's address. */
static void body_call(og_writer *w, const og_c_file *f, const og_op *op,
                      bool into) {
  enum { WIDTH = 80, PAD = 2, MORE = 4 };
  og_c_params p = og_c_wrapper_params(f, op);
  const char *body = og_cn_op(f, op, OG_CN_CALL);
  size_t lbody = strlen(body), n = p.count + 1, width = og_w_pad_width(w);
  size_t room = lbody + 16 + n * (4 + width + MORE) + 5;
  for (size_t i = 0; i < p.count; i++) room += strlen(p.names[i]) + 1;
  char *d = og_w_open(w, room);
  d = og_w_put(og_w_put(d, "return ", 7), body, lbody);
  *d++ = '(';
  size_t col = PAD + 7 + lbody + 1;
  for (size_t i = 0; i < n; i++) {
    const char *arg = i < p.count ? p.names[i] : into ? "true" : "false";
    bool amp = i < p.count && into && single_output(f, op, arg);
    size_t la = strlen(arg), len = amp + la + (i + 1 < n ? 1 : 2);
    if (i && col + 1 + len > WIDTH) { /* "," or ");" after it */
      d = og_w_put_spaces(og_w_pad(w, og_w_put(d, ",\n", 2)), MORE);
      col = PAD + MORE;
    } else if (i) {
      d = og_w_put(d, ", ", 2);
      col += 2;
    }
    if (amp) *d++ = '&';
    d = og_w_put(d, arg, la);
    col += len - 1;
  }
  og_w_close(w, og_w_put(d, ");\n", 3));
}

/* The typed wrapper, or (`into`) its form with caller-owned outputs: a
 * call of the body, or for an op the runtime checks itself
 * (og_c_has_exec_fast_path), one call of the runtime. */
static void wrapper(og_writer *w, const og_c_file *f, const og_op *op,
                    bool into) {
  og_c_params p = into ? og_c_into_params(f, op) : og_c_wrapper_params(f, op);
  og_c_signature(w, "opr_status",
                 into ? og_cn_op(f, op, OG_CN_INTO) : og_c_op_name(f, op), &p,
                 " {");
  og_w_indent(w);
  if (og_c_has_exec_fast_path(op)) og_c_unary_body(w, f, op, into);
  else body_call(w, f, op, into);
  og_w_dedent(w);
  og_w_line(w, "}");
}

static void op_code(og_writer *w, const og_c_file *f, const og_op *op) {
  og_w_line(w, "/* ---- %s ---- */", op->name);
  og_w_newline(w);
  attr_defs(w, f, op);
  arg_defs(w, f, op, OG_CN_INPUT_DEFS, op->inputs, op->ninputs);
  arg_defs(w, f, op, OG_CN_OUTPUT_DEFS, op->outputs, op->noutputs);
  og_w_newline(w);
  check_fn(w, f, op);
  og_w_newline(w);
  if (op->nshape_rules && !op->shape_fn) {
    og_c_shape_fn(w, f, op);
    og_w_newline(w);
  }
  op_def(w, f, op);
  og_w_newline(w);
  if (!og_c_has_exec_fast_path(op)) {
    wrapper_body(w, f, op);
    og_w_newline(w);
  }
  wrapper(w, f, op, false);
  og_w_newline(w);
  wrapper(w, f, op, true);
  og_w_newline(w);
}

static void register_fn(og_writer *w, const og_c_file *f) {
  og_w_line(w, "opr_status %s(void) {", og_cn_file(f, OG_CN_REGISTER_OPS));
  og_w_indent(w);
  if (f->nops) {
    og_w_line(w, "static const opr_op_def *const ops[%zu] = {", f->nops);
    og_w_indent(w);
    for (size_t i = 0; i < f->nops; i++)
      og_w_line(w, "&%s,", og_cn_op(f, f->ops[i], OG_CN_DEF));
    og_w_dedent(w);
    og_w_line(w, "};");
    og_w_line(w, "for (size_t i = 0; i < %zu; i++) {", f->nops);
    og_w_indent(w);
    og_w_line(w, "opr_status s = opr_register_op(ops[i]);");
    og_w_line(w, "if (s) return s;");
    og_w_dedent(w);
    og_w_line(w, "}");
  }
  og_w_line(w, "return OPR_OK;");
  og_w_dedent(w);
  og_w_line(w, "}");
}

/* Whether an op's statements compile to a shape function, which calls
 * the expression API. */
static bool compiles_shapes(const og_c_file *f) {
  for (size_t i = 0; i < f->nops; i++)
    if (f->ops[i]->nshape_rules && !f->ops[i]->shape_fn) return true;
  return false;
}

void og_emit_c_source_head(const og_c_file *f, og_writer *w, size_t end) {
  og_c_banner(w, f, og_arena_printf(f->arena, "%s: registration tables, checks and "
                                              "wrappers for the ops of %s.",
                                    og_cn_file(f, OG_CN_OPS_C), f->spec));
  og_w_line(w, "#include \"%s\"", og_cn_file(f, OG_CN_OPS_H));
  if (compiles_shapes(f)) og_w_line(w, "#include \"opr/shape_expr.h\"");
  if (og_c_defaults_need_math(f)) og_w_line(w, "#include <math.h>");
  og_w_newline(w);
  for (size_t i = 0; i < end; i++) op_code(w, f, f->ops[i]);
}

void og_emit_c_source_tail(const og_c_file *f, og_writer *w, size_t begin) {
  for (size_t i = begin; i < f->nops; i++) op_code(w, f, f->ops[i]);
  register_fn(w, f);
}

void og_emit_c_source(const og_c_file *f, og_writer *w) {
  og_emit_c_source_head(f, w, f->nops);
  og_emit_c_source_tail(f, w, f->nops);
}
