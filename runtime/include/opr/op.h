/* Op definitions (generated const tables), calls, and the op registry. */
#ifndef OPR_OP_H
#define OPR_OP_H

#include "opr/attr.h"
#include "opr/status.h"
#include "opr/tensor.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { OPR_NO_ATTR = -1 };

/* An input or output argument. The *_attr fields are attr indexes, or
 * OPR_NO_ATTR. */
typedef struct opr_arg_def {
  const char *name;
  opr_dtype type; /* fixed type, or OPR_DT_INVALID */
  int type_attr;
  int number_attr;
  int type_list_attr;
  bool is_ref;
} opr_arg_def;

typedef struct opr_attr_def {
  const char *name;
  opr_attr_type type;
  bool has_minimum;
  int64_t minimum;
  opr_dtype_set allowed_types;   /* type attrs; 0: any type */
  const opr_str *allowed_strings; /* string attrs; NULL: any string */
  size_t nallowed_strings;
  const opr_attr_value *default_value; /* NULL: required */
  bool inferred; /* read off the inputs */
} opr_attr_def;

typedef struct opr_op_def opr_op_def;
struct opr_kernel_table;

/* The registry's mutable record of one op. Generated code defines one per
 * op, zero-initialized, and points the op's const table at it, so that a
 * call finds its kernels without any lookup. Only the runtime touches
 * the fields, and only atomically; they are plain (not _Atomic) so that
 * the struct means the same to C and C++. */
typedef struct opr_op_state {
  struct opr_kernel_table *kernels;
  bool registered;
} opr_op_state;

/* One input argument of a call: one tensor (count 1) or a list. */
typedef struct opr_input {
  const opr_tensor *const *tensors;
  size_t count;
} opr_input;

/* One output argument: `count` slots the kernel fills. On success the
 * caller owns the tensors (opr_tensor_unref each). */
typedef struct opr_output {
  opr_tensor **tensors;
  size_t count;
} opr_output;

enum { OPR_CALL_INLINE_TYPES = 16 };

/* A call being checked and run. attrs[i].kind == OPR_ATTR_UNSET for an
 * attr the caller did not give; the op's check fills inferred attrs and
 * defaults, so after it every attr is set. */
typedef struct opr_call {
  const opr_op_def *op;
  const opr_input *inputs;  /* [op->ninputs] */
  opr_attr_value *attrs;    /* [op->nattrs] */
  opr_output *outputs;      /* [op->noutputs] */
  /* Storage for list(type) attrs inferred from inputs. */
  opr_dtype inline_types[OPR_CALL_INLINE_TYPES];
  size_t inline_types_used;
  opr_dtype *heap_types;
} opr_call;

/* The generated per-op check: validates the inputs and attrs of a call,
 * infers and defaults attrs. Messages name the op, the argument and the
 * rule. */
typedef opr_status (*opr_check_fn)(opr_call *call);

/* The shape function: checks the input shapes and sets the output shapes
 * through the inference context (opr/shape.h). */
typedef struct opr_infer_ctx opr_infer_ctx;
typedef opr_status (*opr_shape_fn)(opr_infer_ctx *c);

struct opr_op_def {
  const char *name;
  const char *summary;
  const opr_arg_def *inputs, *outputs;
  size_t ninputs, noutputs;
  const opr_attr_def *attrs;
  size_t nattrs;
  bool is_stateful, is_commutative, is_aggregate;
  bool allows_uninitialized_input;
  /* Set by opgen where the op's check is only this: one tensor input of
   * its type attr's allowed types (or its fixed type), the only attr; one
   * output of that type shaped like the input. opr_execute_op then runs
   * such a call as the typed wrapper's fast path does. */
  bool has_fast_path;
  opr_check_fn check;
  opr_shape_fn shape_fn; /* NULL: output shapes are not inferred */
  opr_op_state *state; /* mutable registry record; see opr_register_op */
};

/* Registers an op (a generated table that lives as long as the process).
 * Registering the same table again is a no-op. Another table with the
 * same name and an identical definition (opr_op_def_hash; e.g. a host's
 * tables for an op of a loaded op library) binds to the registered op:
 * calls through it run the registered op's kernels, and opr_find_op
 * still returns the registered table. One defined differently fails with
 * ALREADY_EXISTS saying what differs. Thread-safe. */
opr_status opr_register_op(const opr_op_def *def);
/* NULL when no op of that name is registered. */
const opr_op_def *opr_find_op(const char *name);
/* Registered ops sorted by name: fills up to `max`, returns the total. */
size_t opr_list_ops(const opr_op_def **out, size_t max);

/* ---- building blocks of the generated checks (runtime/src/check.c) ---- */

/* Input `arg` is one non-NULL tensor. */
opr_status opr_check_single_input(opr_call *call, size_t arg);
/* Every tensor of input `arg` is non-NULL; a list respects its minimum. */
opr_status opr_check_list_input(opr_call *call, size_t arg);
/* Every tensor of input `arg` has dtype `type`. */
opr_status opr_check_input_type(opr_call *call, size_t arg, opr_dtype type);
/* Infers type attr `attr` from input `arg` (or checks agreement with the
 * value already there) and checks it against the allowed types. */
opr_status opr_infer_type_attr(opr_call *call, size_t arg, size_t attr);
/* Infers int attr `attr` from the length of list input `arg`. */
opr_status opr_infer_number_attr(opr_call *call, size_t arg, size_t attr);
/* Infers list(type) attr `attr` from the dtypes of list input `arg`. */
opr_status opr_infer_type_list_attr(opr_call *call, size_t arg, size_t attr);
/* Applies the default of every unset attr, then checks every attr: kind,
 * required, allowed values, minimum. */
opr_status opr_check_attrs(opr_call *call);
/* Checks each output slot array against the length the attrs give. */
opr_status opr_check_outputs(opr_call *call);

/* `dt` is a dtype value in `set`: the generated fast paths' type test. */
static inline bool opr_dtype_set_has(opr_dtype_set set, opr_dtype dt) {
  return (unsigned)dt < 64u && ((set >> (unsigned)dt) & 1u);
}

/* The dtype of output `arg`, element `index`, once attrs are resolved. */
opr_dtype opr_output_dtype(const opr_call *call, size_t arg, size_t index);
/* The number of tensors output `arg` has, once attrs are resolved. */
size_t opr_output_count(const opr_call *call, size_t arg);
/* Frees what a call allocated (inferred type lists); not the outputs.
 * opr_invoke does it before returning; safe to call again. */
void opr_call_cleanup(opr_call *call);

#ifdef __cplusplus
}
#endif

#endif
