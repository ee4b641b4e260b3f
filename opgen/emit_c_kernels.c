/* The kernel-author header of a spec file: typed access to a kernel's
 * inputs, attrs and outputs, the types each type attr may take (to
 * instantiate one body per type), and typed kernel registration. */
#include "emit_c_internal.h"

#include <string.h>

/* The array that holds a string too long for a literal: "<what>_name<i>"
 * ("name<i>" without `what`); NULL for a short string, which needs none
 * (og_c_string_static and og_c_string_or do not read it then). */
static const char *long_name(const og_c_file *f, const char *what, size_t i,
                             size_t len) {
  if (og_c_string_fits(len)) return NULL;
  return what ? og_arena_printf(f->arena, "%s_name%zu", what, i)
              : og_arena_printf(f->arena, "name%zu", i);
}

static const char *attr_long_name(const og_c_file *f, const og_op *op,
                                  size_t i) {
  return long_name(f, "attr", i, strlen(op->attrs[i].name));
}

static void accessor_head(og_writer *w, const char *ret, const char *name,
                          const char *params) {
  og_w_line(w, "static inline %s%s%s(%s) {", ret,
            ret[strlen(ret) - 1] == '*' ? "" : " ", name, params);
  og_w_indent(w);
}

static void accessor_end(og_writer *w) {
  og_w_dedent(w);
  og_w_line(w, "}");
}

/* Each accessor is one format of a few lines (its body a level in):
 * some 20,000 of them in a corpus run. */
static void input_accessors(og_writer *w, const og_c_file *f, const og_op *op) {
  for (size_t i = 0; i < op->ninputs; i++) {
    const char *fn = og_cn_arg(f, op, &op->inputs[i], OG_CN_INPUT);
    if (!og_c_arg_is_list(&op->inputs[i])) {
      og_w_line(w, "static inline const opr_tensor *%s(const opr_kernel_ctx *k) {\n"
                   "  return k->call->inputs[%zu].tensors[0];\n"
                   "}", fn, i);
      continue;
    }
    og_w_line(w, "static inline size_t %s(const opr_kernel_ctx *k) {\n"
                 "  return k->call->inputs[%zu].count;\n"
                 "}\n"
                 "static inline const opr_tensor *%s(const opr_kernel_ctx *k, size_t i) {\n"
                 "  return k->call->inputs[%zu].tensors[i];\n"
                 "}",
              og_cn_arg(f, op, &op->inputs[i], OG_CN_INPUT_COUNT), i, fn, i);
  }
}

static void enum_accessor(og_writer *w, const og_c_file *f, const og_op *op,
                          size_t index, const char *fn) {
  const og_attr *a = &op->attrs[index];
  const char *type = og_c_attr_ctype(f, op, a);
  accessor_head(w, type, fn, "const opr_kernel_ctx *k");
  const og_value *items = a->allowed->u.list.items;
  for (size_t i = 0; i < a->allowed->u.list.count; i++)
    og_c_string_static(w, long_name(f, NULL, i, items[i].u.s.len),
                       items[i].u.s.ptr, items[i].u.s.len);
  og_w_line(w, "static const opr_str names[%zu] = {", a->allowed->u.list.count);
  og_w_indent(w);
  for (size_t i = 0; i < a->allowed->u.list.count; i++) {
    const og_bytes *s = &items[i].u.s;
    og_w_puts(w, "{");
    og_c_string_or(w, long_name(f, NULL, i, s->len), s->ptr, s->len);
    og_w_line(w, ", %zu},", s->len);
  }
  og_w_dedent(w);
  og_w_line(w, "};");
  og_w_line(w, "opr_str s = k->call->attrs[%zu].u.s;", index);
  og_w_line(w, "for (size_t i = 1; i < %zu; i++)", a->allowed->u.list.count);
  og_w_indent(w);
  og_w_line(w, "if (s.len == names[i].len && memcmp(s.ptr, names[i].ptr, s.len) == 0)");
  og_w_indent(w);
  og_w_line(w, "return (%s)i;", type);
  og_w_dedent(w);
  og_w_dedent(w);
  og_w_line(w, "return (%s)0; /* the check let only these values through */",
            type);
  accessor_end(w);
}

static void attr_accessors(og_writer *w, const og_c_file *f, const og_op *op) {
  static const char *const member[] = {
      [OG_ATTR_STRING] = "s", [OG_ATTR_INT] = "i",      [OG_ATTR_FLOAT] = "f",
      [OG_ATTR_BOOL] = "b",   [OG_ATTR_TYPE] = "type",  [OG_ATTR_SHAPE] = "shape",
      [OG_ATTR_TENSOR] = "tensor", [OG_ATTR_FUNC] = "func"};
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    const char *fn = og_cn_attr(f, op, a, OG_CN_ACCESSOR);
    const char *type = og_c_attr_ctype(f, op, a);
    if (og_c_attr_is_enum(a)) {
      enum_accessor(w, f, op, i, fn);
    } else if (a->type.is_list) {
      const char *elem = og_c_list_elem(f, type);
      /* The cast C++ needs (no implicit conversion from void *). */
      og_w_line(w, "static inline size_t %s(const opr_kernel_ctx *k) {\n"
                   "  return k->call->attrs[%zu].u.list.count;\n"
                   "}\n"
                   "static inline %s*%s(const opr_kernel_ctx *k) {\n"
                   "  return (%s*)k->call->attrs[%zu].u.list.items;\n"
                   "}",
                og_cn_attr(f, op, a, OG_CN_ACCESSOR_COUNT), i, elem, fn,
                elem, i);
    } else {
      if (a->type.kind == OG_ATTR_STRING) type = "opr_str";
      og_w_line(w, "static inline %s%s%s(const opr_kernel_ctx *k) {\n"
                   "  return k->call->attrs[%zu].u.%s;\n"
                   "}",
                type, type[strlen(type) - 1] == '*' ? "" : " ", fn, i,
                member[a->type.kind]);
    }
  }
}

static void output_accessors(og_writer *w, const og_c_file *f, const og_op *op) {
  for (size_t i = 0; i < op->noutputs; i++) {
    const og_arg *arg = &op->outputs[i];
    const char *alloc = og_cn_arg(f, op, arg, OG_CN_ALLOC);
    if (!og_c_arg_is_list(arg)) {
      og_w_line(w, "static inline opr_status %s(opr_kernel_ctx *k, int rank, "
                   "const int64_t *dims,\n"
                   "    opr_tensor **out) {\n"
                   "  return opr_kernel_alloc_output(k, %zu, 0, rank, dims, out);\n"
                   "}", alloc, i);
      continue;
    }
    og_w_line(w, "static inline size_t %s(const opr_kernel_ctx *k) {\n"
                 "  return opr_output_count(k->call, %zu);\n"
                 "}\n"
                 "static inline opr_status %s(opr_kernel_ctx *k, size_t i, "
                 "int rank, const int64_t *dims, opr_tensor **out) {\n"
                 "  return opr_kernel_alloc_output(k, %zu, i, rank, dims, out);\n"
                 "}",
              og_cn_arg(f, op, arg, OG_CN_OUTPUT_COUNT), i, alloc, i);
  }
}

static bool is_type_attr(const og_attr *a) {
  return a->type.kind == OG_ATTR_TYPE && !a->type.is_list;
}

/* X(ID, CTYPE) for every type a type attr may take, the X lines
 * composed in place (some 13,000 in a corpus run). */
static void types_macro(og_writer *w, const og_c_file *f, const og_op *op,
                        const og_attr *a) {
  og_w_line(w, "/* The types %s's attr %s may take, as X(ID, C type): expand a "
               "kernel body once per type. */",
            op->name, a->name);
  og_w_printf(w, "#define %s(X)", og_cn_attr(f, op, a, OG_CN_TYPES));
  const char *id[OG_DT_COUNT], *ctype[OG_DT_COUNT];
  size_t lid[OG_DT_COUNT], lc[OG_DT_COUNT], room = 2, n = 0;
  for (int dt = 1; dt < OG_DT_COUNT; dt++) {
    if (a->allowed_types && !(a->allowed_types & OG_DTYPE_BIT(dt))) continue;
    id[n] = og_dtype_enum_id((og_dtype)dt);
    ctype[n] = og_dtype_ctype((og_dtype)dt);
    lid[n] = strlen(id[n]), lc[n] = strlen(ctype[n]);
    room += 10 + og_w_pad_width(w) + lid[n] + lc[n];
    n++;
  }
  char *d = og_w_open(w, room);
  for (size_t i = 0; i < n; i++) { /* " \\", then "  X(ID, ctype)" */
    d = og_w_pad(w, og_w_put(d, " \\\n", 3));
    d = og_w_put(og_w_put(d, "  X(", 4), id[i], lid[i]);
    d = og_w_put(og_w_put(d, ", ", 2), ctype[i], lc[i]);
    *d++ = ')';
  }
  og_w_close(w, og_w_put(d, "\n\n", 2));
}

static void kernel_struct(og_writer *w, const og_c_file *f, const og_op *op) {
  const char *name = og_cn_op(f, op, OG_CN_KERNEL);
  const og_cn_scoped *n = og_c_scoped(f, op);
  /* Lines a level in are spelled with two spaces, the indentation's
   * width: fewer, longer writes. */
  og_w_line(w, "/* A kernel of %s, for %s. */\n"
               "typedef struct %s {\n"
               "  opr_kernel_fn fn;\n"
               "  opr_device_kind device;",
            op->name, og_cn_op(f, op, OG_CN_REGISTER_KERNEL), name);
  for (size_t i = 0; i < op->nattrs; i++)
    if (is_type_attr(&op->attrs[i]))
      og_w_line(w, "  opr_dtype_set %s; /* types of %s it takes; 0: all */",
                n->kernel_type[i], op->attrs[i].name);
  og_w_line(w, "  int priority; /* the highest-priority match runs */\n"
               "  const char *label;");
  if (op->ninputs + op->noutputs) {
    og_w_line(w, "  struct { /* arguments kept in host memory on a device */");
    for (size_t i = 0; i < op->ninputs; i++)
      og_w_line(w, "    bool %s;", n->host_in[i]);
    for (size_t i = 0; i < op->noutputs; i++)
      og_w_line(w, "    bool %s;", n->host_out[i]);
    og_w_line(w, "  } host_memory;");
  }
  og_w_line(w, "} %s;\n", name);
}

static size_t count_type_attrs(const og_op *op) {
  size_t n = 0;
  for (size_t i = 0; i < op->nattrs; i++) n += is_type_attr(&op->attrs[i]);
  return n;
}

/* Names too long for a literal, as static arrays (C++ compiles this
 * header too: no compound literals); `what` tells them apart. */
static void long_names(og_writer *w, const og_c_file *f, const char *what,
                       const og_arg *args, size_t n) {
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(args[i].name);
    og_c_string_static(w, long_name(f, what, i, len),
                       args[i].name, len);
  }
}

static void host_marks(og_writer *w, const og_c_file *f, const char *what,
                       const char *const *members, const og_arg *args,
                       size_t n) {
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(args[i].name);
    if (og_c_string_plain(args[i].name, len)) { /* one write */
      og_w_line(w, "if (kernel->host_memory.%s) host[nhost++] = \"%s\";",
                members[i], args[i].name);
      continue;
    }
    og_w_printf(w, "if (kernel->host_memory.%s) host[nhost++] = ",
                members[i]);
    og_c_string_or(w, long_name(f, what, i, len), args[i].name,
                   len);
    og_w_line(w, ";");
  }
}

static void register_fn(og_writer *w, const og_c_file *f, const og_op *op) {
  const og_cn_scoped *n = og_c_scoped(f, op);
  size_t ntypes = count_type_attrs(op), nargs = op->ninputs + op->noutputs;
  og_w_line(w, "static inline opr_status %s(\n"
               "    const %s *kernel) {",
            og_cn_op(f, op, OG_CN_REGISTER_KERNEL),
            og_cn_op(f, op, OG_CN_KERNEL));
  og_w_indent(w);
  og_c_string_static(w, "op_name", op->name, strlen(op->name));
  long_names(w, f, "input", op->inputs, op->ninputs);
  long_names(w, f, "output", op->outputs, op->noutputs);
  for (size_t i = 0; i < op->nattrs; i++)
    if (is_type_attr(&op->attrs[i]))
      og_c_string_static(w, attr_long_name(f, op, i), op->attrs[i].name,
                         strlen(op->attrs[i].name));
  if (ntypes) {
    og_w_line(w, "opr_type_constraint constraints[%zu];\n"
                 "size_t nconstraints = 0;", ntypes);
    for (size_t i = 0; i < op->nattrs; i++) {
      if (!is_type_attr(&op->attrs[i])) continue;
      const char *id = n->kernel_type[i], *name = op->attrs[i].name;
      if (og_c_string_plain(name, strlen(name))) { /* one write */
        og_w_line(w, "if (kernel->%s) {\n"
                     "  constraints[nconstraints].attr = \"%s\";\n"
                     "  constraints[nconstraints++].allowed = kernel->%s;\n"
                     "}", id, name, id);
        continue;
      }
      og_w_line(w, "if (kernel->%s) {", id);
      og_w_indent(w);
      og_w_puts(w, "constraints[nconstraints].attr = ");
      og_c_string_or(w, attr_long_name(f, op, i), op->attrs[i].name,
                     strlen(op->attrs[i].name));
      og_w_line(w, ";");
      og_w_line(w, "constraints[nconstraints++].allowed = kernel->%s;", id);
      og_w_dedent(w);
      og_w_line(w, "}");
    }
  }
  if (nargs) {
    og_w_line(w, "const char *host[%zu];\n"
                 "size_t nhost = 0;", nargs);
    host_marks(w, f, "input", n->host_in, op->inputs, op->ninputs);
    host_marks(w, f, "output", n->host_out, op->outputs, op->noutputs);
  }
  /* Plain assignments, not designated initializers or compound
   * literals: this function is compiled as C and as C++. */
  og_w_line(w, "opr_kernel_def def;\n"
               "memset(&def, 0, sizeof def);");
  if (og_c_string_plain(op->name, strlen(op->name))) {
    og_w_line(w, "def.op = \"%s\";", op->name);
  } else {
    og_w_puts(w, "def.op = ");
    og_c_string_or(w, "op_name", op->name, strlen(op->name));
    og_w_line(w, ";");
  }
  og_w_line(w, "def.device = kernel->device;");
  if (ntypes)
    og_w_line(w, "def.constraints = constraints;\n"
                 "def.nconstraints = nconstraints;");
  if (nargs)
    og_w_line(w, "def.host_memory = host;\n"
                 "def.nhost_memory = nhost;");
  og_w_line(w, "def.priority = kernel->priority;\n"
               "def.fn = kernel->fn;\n"
               "def.label = kernel->label;\n"
               "return opr_register_kernel(&def);");
  og_w_dedent(w);
  og_w_line(w, "}\n");
}

static void op_kernel_decls(og_writer *w, const og_c_file *f, const og_op *op) {
  og_w_line(w, "/* ---- %s ---- */", op->name);
  og_w_newline(w);
  input_accessors(w, f, op);
  attr_accessors(w, f, op);
  output_accessors(w, f, op);
  og_w_newline(w);
  for (size_t i = 0; i < op->nattrs; i++)
    if (is_type_attr(&op->attrs[i])) types_macro(w, f, op, &op->attrs[i]);
  kernel_struct(w, f, op);
  register_fn(w, f, op);
}

void og_emit_c_kernels(const og_c_file *f, og_writer *w) {
  const char *guard = og_cn_file(f, OG_CN_KERNELS_H_GUARD);
  og_c_banner(w, f, og_arena_printf(f->arena, "%s: for authors of kernels of the "
                                              "ops of %s.",
                                    og_cn_file(f, OG_CN_KERNELS_H), f->spec));
  og_w_line(w, "#ifndef %s", guard);
  og_w_line(w, "#define %s", guard);
  og_w_newline(w);
  og_w_line(w, "#include \"%s\"", og_cn_file(f, OG_CN_OPS_H));
  og_w_newline(w);
  og_w_line(w, "#include <string.h>");
  og_w_newline(w);
  og_w_line(w, "#ifdef __cplusplus");
  og_w_line(w, "extern \"C\" {");
  og_w_line(w, "#endif");
  og_w_newline(w);
  for (size_t i = 0; i < f->nops; i++) op_kernel_decls(w, f, f->ops[i]);
  og_w_line(w, "#ifdef __cplusplus");
  og_w_line(w, "}");
  og_w_line(w, "#endif");
  og_w_newline(w);
  og_w_line(w, "#endif /* %s */", guard);
}
