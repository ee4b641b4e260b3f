/* The model of generated C names: every identifier, macro, member, file
 * name and include guard a `gen` run emits is spelled here, and checked
 * here against the others of the run and against the names C, C++, the
 * standard headers and the runtime keep (see docs/generated-code.md, "Generated names").
 * Emitters ask for names; none builds one itself. */
#ifndef OPGEN_EMIT_C_NAMES_H
#define OPGEN_EMIT_C_NAMES_H

#include "diag.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct og_c_file og_c_file;

/* Reserved names (emit_c_reserved.c). BREAKING: keywords, macros and
 * typedefs, wrong in any scope; FUNCTION: wrong only as a global. */
typedef enum og_c_reserved_kind {
  OG_C_FREE,
  OG_C_FUNCTION,
  OG_C_BREAKING,
} og_c_reserved_kind;
og_c_reserved_kind og_c_reserved(const char *name);
/* opr_... and OPR_...: the runtime's. */
bool og_c_in_runtime_namespace(const char *name);
/* _X... and anything with "__": the implementation's. */
bool og_c_reserved_spelling(const char *name);

/* An op's global names. */
typedef enum og_cn_op_part {
  OG_CN_WRAPPER,         /* demo_foo */
  OG_CN_ATTRS,           /* demo_foo_attrs: struct tag and typedef */
  OG_CN_ATTRS_DEFAULT,   /* DEMO_FOO_ATTRS_DEFAULT */
  OG_CN_DEF,             /* demo_foo_def */
  OG_CN_STATE,           /* demo_foo_state */
  OG_CN_CHECK,           /* demo_foo_check */
  OG_CN_SHAPE,           /* demo_foo_shape: from shape statements */
  OG_CN_SHAPE_VALUES,    /* demo_foo_shape_values: its values read once */
  OG_CN_INPUT_DEFS,      /* demo_foo_input_defs */
  OG_CN_OUTPUT_DEFS,     /* demo_foo_output_defs */
  OG_CN_ATTR_DEFS,       /* demo_foo_attr_defs */
  OG_CN_KERNEL,          /* demo_foo_kernel_def: struct tag and typedef */
  OG_CN_REGISTER_KERNEL, /* demo_foo_register_kernel */
  OG_CN_INTO,            /* demo_foo_into: the caller-owned form */
  OG_CN_CALL,            /* demo_foo_call: the body both wrappers call */
  OG_CN_OP_PARTS
} og_cn_op_part;
const char *og_cn_op(const og_c_file *f, const og_op *op, og_cn_op_part part);

/* The let functions of an op's compiled shape function (one static
 * function per `let`): demo_pad_let_before. */
const char *og_cn_shape_let(const og_c_file *f, const og_op *op,
                            const og_shape_let *let);

/* The locals of a compiled shape (or let) function. The fixed ones are
 * the parameters and the status; the numbered families are temporaries
 * (n0, b0, sh0, ...), bound names (k0: slot 0), parameters (p0) and
 * labels (done0). None contains '_', so none meets a global name, and
 * none is a C or C++ keyword or a runtime macro. */
typedef enum og_cn_local {
  OG_CN_L_CTX,    /* c: the opr_infer_ctx */
  OG_CN_L_STATUS, /* s: the function's status */
  OG_CN_L_OUT,    /* out: a let's result */
  OG_CN_L_VALS,   /* l: the values read once (demo_foo_shape_values) */
  /* numbered */
  OG_CN_L_NUM,    /* n0: opr_num */
  OG_CN_L_COND,   /* b0: opr_cond */
  OG_CN_L_SHAPE,  /* sh0: opr_shape */
  OG_CN_L_FOLD,   /* f0: opr_sx_fold */
  OG_CN_L_BOUND,  /* k0: a bound name's slot, int64_t */
  OG_CN_L_COUNT,  /* m0: a comprehension's element count, size_t */
  OG_CN_L_KNOWN,  /* kn0: whether that count is known, bool */
  OG_CN_L_NUMS,   /* a0: opr_num[] of a literal shape */
  OG_CN_L_SHAPES, /* v0: opr_shape[] of same() */
  OG_CN_L_WHATS,  /* w0: the texts of a literal shape's elements */
  OG_CN_L_TEXT,   /* t0: a string attr's value */
  OG_CN_L_INTS,   /* q0: opr_sx_ints */
  OG_CN_L_ERR,    /* e0: the status of an undecided branch */
  OG_CN_L_PARAM,  /* p0: a let's parameter */
  OG_CN_L_LABEL,  /* done0: where a failing branch goes */
  OG_CN_L_INPUT,  /* in0: input 0's shape, read once */
  OG_CN_L_LET,    /* let0: the value of let 0 (no parameters), once */
  OG_CN_L_INPUT_SET, /* inset0: in0 is read (first read in a branch) */
  OG_CN_L_LET_SET,   /* letset0: let0 is evaluated (likewise) */
  OG_CN_L_ATTR,      /* av0: attr 0 read once (a bool's opr_cond, a
                        string's text) */
  OG_CN_L_ATTR_SET,  /* avset0: av0 is read (likewise) */
  OG_CN_LOCALS
} og_cn_local;
const char *og_cn_shape_local(const og_c_file *f, og_cn_local kind,
                              size_t n);

/* The global names of an attr. */
typedef enum og_cn_attr_part {
  OG_CN_ENUM,           /* demo_foo_mode: enum tag and typedef */
  OG_CN_ALLOWED,        /* demo_foo_mode_allowed */
  OG_CN_DEFAULT,        /* demo_foo_mode_default: list default array */
  OG_CN_DEFAULT_VALUE,  /* demo_foo_mode_default_value */
  OG_CN_DEFAULT_DIMS,   /* demo_foo_mode_default_dims */
  OG_CN_DEFAULT_TENSOR, /* demo_foo_mode_default_tensor */
  OG_CN_DEFAULT_TEXT,   /* demo_foo_mode_default_text: a long string */
  OG_CN_TYPES,          /* DEMO_FOO_MODE_TYPES */
  OG_CN_ACCESSOR,       /* demo_foo_attr_mode */
  OG_CN_ACCESSOR_COUNT, /* demo_foo_attr_mode_count */
  OG_CN_ATTR_PARTS
} og_cn_attr_part;
const char *og_cn_attr(const og_c_file *f, const og_op *op, const og_attr *a,
                       og_cn_attr_part part);
/* Item i of a list default: ..._default_dims_<i>, ..._default_tensor_<i>. */
const char *og_cn_default_item(const og_c_file *f, const og_op *op,
                               const og_attr *a, bool tensor, size_t i);
/* The statics behind a tensor literal named `tensor`: <tensor>_dims,
 * <tensor>_data. */
const char *og_cn_tensor_dims(const og_c_file *f, const char *tensor);
const char *og_cn_tensor_data(const og_c_file *f, const char *tensor);

/* The global names of an input or output. */
typedef enum og_cn_arg_part {
  OG_CN_INPUT,        /* demo_foo_input_x */
  OG_CN_INPUT_COUNT,  /* demo_foo_input_x_count */
  OG_CN_OUTPUT_COUNT, /* demo_foo_output_y_count */
  OG_CN_ALLOC,        /* demo_foo_alloc_y */
} og_cn_arg_part;
const char *og_cn_arg(const og_c_file *f, const og_op *op, const og_arg *arg,
                      og_cn_arg_part part);

/* The index constants of an op's attrs, inputs or outputs, in table
 * order: DEMO_FOO_ATTR_MODE, DEMO_FOO_INPUT_X, DEMO_FOO_OUTPUT_Y (the op's
 * C name and the spec name upper-cased). Names that fold to one spelling
 * ('T' and 't') get their index: DEMO_FOO_ATTR_T_0, DEMO_FOO_ATTR_T_1. */
typedef enum og_cn_index_kind {
  OG_CN_ATTR_INDEXES,
  OG_CN_INPUT_INDEXES,
  OG_CN_OUTPUT_INDEXES,
} og_cn_index_kind;
const char **og_cn_indexes(const og_c_file *f, const og_op *op,
                           og_cn_index_kind kind);

/* A spec file's names. */
typedef enum og_cn_file_part {
  OG_CN_REGISTER_OPS,  /* demo_register_ops */
  OG_CN_OPS_H,         /* demo_ops.h (after the stem) */
  OG_CN_OPS_C,         /* demo_ops.c */
  OG_CN_KERNELS_H,     /* demo_kernels.h */
  OG_CN_OPS_H_GUARD,   /* DEMO_OPS_H */
  OG_CN_KERNELS_H_GUARD,
  OG_CN_FILE_PARTS
} og_cn_file_part;
const char *og_cn_file(const og_c_file *f, og_cn_file_part part);

/* The names an op's scopes give its spec names: wrapper parameters
 * (arrays by input, output and attr index; NULL where there is none),
 * attrs-struct members, kernel-struct members. Each is the spec name, or
 * that name mangled (docs/generated-code.md, "Generated names"). */
typedef struct og_cn_scoped {
  const char **in, **in_count, **out, **out_count;
  const char **param, **param_count; /* required attrs */
  const char **field, **field_count; /* optional attrs */
  const char **kernel_type;          /* type attrs */
  const char **host_in, **host_out;  /* host_memory members */
} og_cn_scoped;

/* The name check of a run (files[0..n)), in three steps, so that the
 * renders can run beside the longest one (emit_c.c):
 * og_cn_prepare gives each op of each file the names the renders ask its
 * cache slot for (og_cn_op, og_cn_indexes, the scoped names and with
 * `params` the wrapper parameters); the scoped names as if no global name
 * of the run took them. og_cn_check then checks every global name,
 * reports clashes to diag, and looks the scoped names up among the
 * global ones; it only reads the cache slots. og_cn_finish names anew,
 * reporting, the scopes of each file where a global name took a scoped
 * one (then *renamed: renders made before are stale) or a scoped name is
 * reserved; frees the run; false if there was any error. The
 * diagnostics are those of one pass in that order. */
typedef struct og_cn_run og_cn_run;
og_cn_run *og_cn_prepare(og_c_file *files, size_t n, bool params);
bool og_cn_check(og_cn_run *run, og_diag *diag);
bool og_cn_finish(og_cn_run *run, og_diag *diag, bool *renamed);
/* The three in a row. */
bool og_cn_check_run(og_c_file *files, size_t n, bool params,
                     og_diag *diag);
/* A file of this many ops or more is checked on two threads (the later
 * half of its ops on a second one); the names and diagnostics are the
 * same either way. */
extern size_t og_cn_split_ops;

#endif
