/* Shared by the C emitters: one spec file's ops, and the naming and
 * spelling rules of the generated C. */
#ifndef OPGEN_EMIT_C_INTERNAL_H
#define OPGEN_EMIT_C_INTERNAL_H

#include "emit_c_names.h"
#include "model.h"
#include "writer.h"

/* The ops of one spec file, sorted by name. */
struct og_c_file {
  og_arena *arena;   /* scratch for names, freed after emitting */
  const char *path;  /* the spec file as given */
  const char *spec;  /* its base name, for banners */
  const char *stem;  /* spec without its last extension: names the files */
  const char *prefix;
  const og_op **ops;
  size_t nops;
  og_srcpos package_pos;    /* line 0: no `package` or `c_prefix` */
  bool c_prefix;            /* the prefix is a `c_prefix` statement's */
  bool prefix_strip;        /* `c_prefix NAME strip;` */
  struct og_c_cache *cache; /* per-op names, see og_c_cache_init */
};

/* Builds f->cache (in f->arena) once f->ops is final: the emitters ask
 * for an op's C name and wrapper parameters many times each, and
 * computing them anew each time was a large part of a corpus run. */
void og_c_cache_init(og_c_file *f);

void og_emit_c_header(const og_c_file *f, og_writer *w);
void og_emit_c_source(const og_c_file *f, og_writer *w);
/* The source in two parts that concatenate to it, for two threads: the
 * head (the banner, the includes, ops [0, end)) and the tail (ops
 * [begin, nops), the registration function), begin == end. */
void og_emit_c_source_head(const og_c_file *f, og_writer *w, size_t end);
void og_emit_c_source_tail(const og_c_file *f, og_writer *w, size_t begin);
void og_emit_c_kernels(const og_c_file *f, og_writer *w);

/* "demo_zero_out": the prefix and the op's snake_case name (cached). */
const char *og_c_op_name(const og_c_file *f, const og_op *op);
/* The same and its length (kept with it: names are built from it). */
const char *og_c_op_name_len(const og_c_file *f, const og_op *op, size_t *len);
const char *og_c_compute_op_name(const og_c_file *f, const og_op *op);
/* Upper-cased copy ("DEMO_ZERO_OUT"). */
const char *og_c_upper(const og_c_file *f, const char *s);
/* The op's parameter and member names (og_cn_check_run sets them). */
void og_c_cache_set_scoped(const og_c_file *f, const og_op *op,
                           const og_cn_scoped *n);
const og_cn_scoped *og_c_scoped(const og_c_file *f, const og_op *op);
/* The index constants og_cn_check_run computed (NULL before it ran):
 * set once on the serial path, only read by the render threads. */
void og_c_cache_set_indexes(const og_c_file *f, const og_op *op,
                            og_cn_index_kind kind, const char **names);
const char **og_c_cached_indexes(const og_c_file *f, const og_op *op,
                                 og_cn_index_kind kind);
/* An og_cn_op name og_cn_check_run built (NULL if it did not), alike. */
void og_c_cache_set_op_part(const og_c_file *f, const og_op *op,
                            og_cn_op_part part, const char *name);
const char *og_c_cached_op_part(const og_c_file *f, const og_op *op,
                                og_cn_op_part part);

/* An attr is a wrapper parameter when the caller must give it (no
 * default, not inferred), an attrs-struct field when it is optional, and
 * absent from the wrapper when it is inferred. */
bool og_c_attr_required(const og_attr *a);
bool og_c_attr_optional(const og_attr *a);
bool og_c_has_attrs_struct(const og_op *op);
/* String attrs with allowed values become C enums. */
bool og_c_attr_is_enum(const og_attr *a);
/* The enumerators of the allowed values, in order ("DEMO_PAD_MODE_REFLECT"). */
const char **og_c_enumerators(const og_c_file *f, const og_op *op,
                              const og_attr *a);
/* The C type of an attr (of one element for lists) in the wrapper API. */
const char *og_c_attr_ctype(const og_c_file *f, const og_op *op,
                            const og_attr *a);
/* The pointee of a list of `type`, ready for a '*': "const int64_t ",
 * "const opr_tensor *const ". */
const char *og_c_list_elem(const og_c_file *f, const char *type);
/* "OPR_ATTR_INT" ... */
const char *og_c_attr_kind(og_attr_kind k);
/* An input or output that is a list of tensors. */
bool og_c_arg_is_list(const og_arg *arg);
/* Index of the attr named `name`, or -1 ("" too). */
int og_c_attr_index(const og_op *op, const char *name);

/* The parameters of the op's typed wrapper, in order: ctx, inputs,
 * required attrs, the attrs struct, outputs. Computed once per op and
 * shared: read-only for callers. */
typedef struct og_c_params {
  const char **decls; /* "const opr_tensor *to_zero" */
  const char **names; /* "to_zero" */
  size_t count;
} og_c_params;
og_c_params og_c_wrapper_params(const og_c_file *f, const og_op *op);
/* The parameters of the wrapper's caller-owned form (name_into): a
 * single output is `opr_tensor *name`, the caller's tensor
 * (emit_c_fast.c). */
og_c_params og_c_into_params(const og_c_file *f, const og_op *op);
/* Whether the op's wrapper gets the specialised fast path, and the path
 * itself (in the wrappers' body, after op_call is built; its `into`
 * picks the caller-owned form). */
bool og_c_has_fast_path(const og_op *op);
/* The fast path, and no attr but the type attr: opr_op_def.has_fast_path. */
bool og_c_has_exec_fast_path(const og_op *op);
/* The whole body of a wrapper of an op with og_c_has_exec_fast_path: one
 * call of opr_invoke_unary(_into), which makes the op's checks. */
void og_c_unary_body(og_writer *w, const og_c_file *f, const og_op *op,
                     bool into);
void og_c_fast_path(og_writer *w, const og_c_file *f, const og_op *op);
/* Where the wrapper reads attr a: a parameter or a field of *attrs. */
const char *og_c_attr_source(const og_c_file *f, const og_op *op,
                             const og_attr *a);
/* `ret name(params)`, wrapped one parameter per line past 80 columns;
 * ends with `end` (";" or " {"). */
void og_c_signature(og_writer *w, const char *ret, const char *name,
                    const og_c_params *p, const char *end);

/* Defaults (emit_c_values.c). The arrays behind list and shape defaults
 * are extern consts, declared in the public header (the attrs-struct
 * initializer points at them) and defined in the source. */
void og_c_default_decls(og_writer *w, const og_c_file *f, const og_op *op);
void og_c_default_defs(og_writer *w, const og_c_file *f, const og_op *op);
/* The attrs-struct initializer of an optional attr: positional, for C++17
 * has no designated initializers; a comment naming the field precedes
 * the value ("0"; lists: "..., 2" with x and x_count named). */
void og_c_field_default(og_writer *w, const og_c_file *f, const og_op *op,
                        const og_attr *a);
/* An optional scalar string or func default too long for one C string
 * literal (its text, in *text): the header's defaults macro names an
 * extern array (OG_CN_DEFAULT_TEXT) instead. */
bool og_c_long_default_text(const og_attr *a, og_bytes *text);
/* The name of the static opr_attr_value holding attr a's default in the
 * source (defined by og_c_default_defs). */
const char *og_c_default_name(const og_c_file *f, const og_op *op,
                              const og_attr *a);
/* Whether some default of the file is an infinity or a NaN: the source
 * then includes <math.h> for INFINITY and NAN. */
bool og_c_defaults_need_math(const og_c_file *f);
/* A C expression for one scalar value (a float as 1.5f, a type as
 * OPR_DT_INT32, ...). */
void og_c_scalar(og_writer *w, const og_value *v, og_attr_kind kind);

/* Whether og_c_string writes s as it is between quotes (printable ASCII
 * with nothing to escape, up to 62 bytes: names): a format may then
 * spell the literal "\"%s\"", one write with the rest of its line. */
bool og_c_string_plain(const char *s, size_t len);
/* Writes a C string literal, escaped; longer than OG_C_STRING_MAX, a C
 * compound literal of character constants (C only: see og_c_string_or). */
void og_c_string(og_writer *w, const char *s, size_t len);
/* Long strings (emit_c_literals.c). The longest string literal C11
 * guarantees, and what -pedantic accepts. */
#define OG_C_STRING_MAX 4095
bool og_c_string_fits(size_t len);
/* "{'a', 'b', 0}": an initializer for a char array. */
void og_c_char_list(og_writer *w, const char *s, size_t len);
/* "(const char[]){'a', 'b', 0}". */
void og_c_long_string(og_writer *w, const char *s, size_t len);
/* For code that C++ also compiles (no compound literals): a string too
 * long for a literal becomes `static const char name[] = {...};` (written
 * by og_c_string_static, nothing for a short one), which og_c_string_or
 * then names; a short one stays a literal (`name` is not read then: it
 * may be NULL). */
void og_c_string_static(og_writer *w, const char *name, const char *s,
                        size_t len);
void og_c_string_or(og_writer *w, const char *name, const char *s,
                    size_t len);
/* Writes text as the lines of a comment block body (" * ..."). */
void og_c_doc_lines(og_writer *w, const char *text);
/* A whole comment: one line when short, else a block. */
void og_c_comment(og_writer *w, const char *text);
/* Text inside a comment: "* /" for a terminator, "/ *" for an opener,
 * "? ?" for a trigraph. */
void og_c_comment_text(og_writer *w, const char *p, size_t n);
/* "OPR_DTYPE_BIT(OPR_DT_FLOAT) | ..." for a set, or "0". */
void og_c_dtype_set(og_writer *w, og_dtype_set set);
/* Shape functions (emit_c_shape*.c, docs/generated-code.md "How
 * statements compile"). The name an op's table points at:
 * the function compiled from its shape statements, the user's
 * `shape_fn`, or NULL when the op has neither. */
const char *og_c_shape_fn_name(const og_c_file *f, const og_op *op);
/* The static function compiled from the op's shape statements, after
 * the static functions of the lets it uses (nothing for an op without
 * statements or with a shape_fn). */
void og_c_shape_fn(og_writer *w, const og_c_file *f, const og_op *op);
/* Whether that function keeps its values read once (input shapes, lets
 * without parameters) in a struct shared with its let functions: when
 * it uses a let. */
bool og_c_shape_has_values(const og_c_file *f, const og_op *op);
/* A shape or require statement as the spec writes it ("require
 * rank(a) == 2;"). */
const char *og_c_shape_rule_text(const og_c_file *f, const og_op *op,
                                 const og_shape_rule *r);
/* The banner every generated file starts with. */
void og_c_banner(og_writer *w, const og_c_file *f, const char *what);

#endif
