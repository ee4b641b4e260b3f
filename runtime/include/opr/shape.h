/* Shape inference: the runtime's equivalent of TensorFlow's
 * InferenceContext.
 *
 * An op's shape function (opr_op_def.shape_fn) receives an opr_infer_ctx
 * holding the op, the shapes of its inputs, the values of inputs where
 * they are known, and the resolved attrs; it checks what the op requires
 * of them and sets the shape of each output. opgen generates the function
 * from the `shape` and `require` statements of a spec; `shape_fn NAME;`
 * names a hand-written one instead, written with the helpers below.
 * opr/shape_expr.h has every operation of the shape language (version 2)
 * as a C function, for generated and hand-written functions alike.
 *
 * Shapes may be partial, everywhere: an opr_shape (opr/attr.h) of rank
 * OPR_UNKNOWN_RANK says nothing; a known rank with dims of
 * OPR_UNKNOWN_DIM fixes the rank only. Every helper works on partial
 * information, as TensorFlow's do:
 *
 *   - a check that cannot be decided yet passes (dim 1 of [2, ?] against
 *     3; the rank of ? against 2);
 *   - a dim that cannot be computed is unknown (? + 1, dim 0 of ?), except
 *     where the known operand decides it (0 * ? is 0, 1 * x is x);
 *   - combining shapes keeps what either knows (merging [2, ?] and
 *     [?, 3] gives [2, 3]).
 *
 * The same function serves two callers. opr_invoke runs it on the actual
 * input shapes before the kernel: an error stops the call, and when every
 * output shape comes out fully known the outputs are allocated before the
 * kernel runs (opr_kernel_alloc_output then hands the kernel those
 * tensors). Graph builders call opr_infer_shapes with what they know.
 *
 * Errors are INVALID_ARGUMENT statuses whose message starts with the op's
 * name and names the input, the rule and the shapes, e.g.
 *   MatMulLike: dim 1 of 'a' (3) must equal dim 0 of 'b' (4)
 *
 * Memory: shapes the helpers return live in the context, until the shape
 * function's caller is done with it; input shapes are borrowed from the
 * caller. A shape function never frees anything.
 *
 * A sketch of a hand-written function (the op: input `x`, output `y`):
 *
 *   opr_status my_shape_fn(opr_infer_ctx *c) {
 *     opr_shape x;
 *     int64_t rows;
 *     opr_status s;
 *     if ((s = opr_infer_input_shape(c, 0, &x))) return s;
 *     if ((s = opr_infer_with_rank(c, x, 2, "'x'", &x))) return s;
 *     if ((s = opr_infer_dim(c, x, 0, "'x'", &rows))) return s;
 *     return opr_infer_set_output_dims(c, 0, 2, (const int64_t[]){rows, 3});
 *   }
 */
#ifndef OPR_SHAPE_H
#define OPR_SHAPE_H

#include "opr/attr.h"
#include "opr/op.h"
#include "opr/status.h"
#include "opr/tensor.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- partial shapes and dims ----
 * The partial-shape type is opr_shape (opr/attr.h): rank and dims, the
 * dims borrowed. A dim is an int64_t: >= 0 when known. */

enum { OPR_UNKNOWN_RANK = -1 };
#define OPR_UNKNOWN_DIM ((int64_t)-1)

/* The shape nothing is known about: "?". */
static inline opr_shape opr_shape_unknown(void) {
  opr_shape s = {OPR_UNKNOWN_RANK, NULL};
  return s;
}

static inline bool opr_shape_rank_known(opr_shape s) { return s.rank >= 0; }

/* The rank as a dim: unknown for an unknown rank. */
static inline int64_t opr_shape_rank_dim(opr_shape s) {
  return s.rank >= 0 ? s.rank : OPR_UNKNOWN_DIM;
}

/* Rank and every dim known. */
bool opr_shape_fully_defined(opr_shape s);
/* The same knowledge: equal ranks (or both unknown) and equal dims,
 * unknown matching unknown only. */
bool opr_shape_same(opr_shape a, opr_shape b);
/* Whether the two can describe one tensor (what merging needs). */
bool opr_shape_compatible(opr_shape a, opr_shape b);

/* ---- the context ---- */

/* opr_infer_ctx and opr_shape_fn are declared in opr/op.h. */

/* The op whose shapes are being inferred. */
const opr_op_def *opr_infer_op(const opr_infer_ctx *c);

/* The number of tensors of input argument `arg` (1 unless it is a list). */
size_t opr_infer_num_inputs(const opr_infer_ctx *c, size_t arg);
/* The shape of tensor `index` of input `arg`, as given (unknown when
 * out of range). */
opr_shape opr_infer_input(const opr_infer_ctx *c, size_t arg, size_t index);
/* Its value when known, else NULL: always during a call (host tensors;
 * a tensor in device memory counts as unknown), only where the caller
 * passed it for opr_infer_shapes. For value-dependent shapes (Pad's
 * paddings). */
const opr_tensor *opr_infer_input_value(const opr_infer_ctx *c, size_t arg,
                                        size_t index);
/* The value of attr `attr` (the op's attr index): resolved during a call,
 * the given or default value for opr_infer_shapes, where attrs read off
 * input types are OPR_ATTR_UNSET (lengths of lists are known). NULL when
 * out of range. */
const opr_attr_value *opr_infer_attr(const opr_infer_ctx *c, size_t attr);
/* The number of tensors of output argument `arg`. */
size_t opr_infer_num_outputs(const opr_infer_ctx *c, size_t arg);

/* ---- inputs and attrs, named in errors by the op's own names ---- */

/* The shape of input `arg`: a single input's shape, or the merge of the
 * shapes of all tensors of a list input (unknown for an empty list; an
 * error when two tensors disagree). */
opr_status opr_infer_input_shape(opr_infer_ctx *c, size_t arg,
                                 opr_shape *out);
/* rank(x) and dim(x, index) of that shape; a negative index counts from
 * the end (-1: the last dim). An index outside a known rank is an error;
 * with an unknown rank the dim is unknown. */
opr_status opr_infer_input_rank(opr_infer_ctx *c, size_t arg, int64_t *out);
opr_status opr_infer_input_dim(opr_infer_ctx *c, size_t arg, int64_t index,
                               int64_t *out);
/* A shape attr as a shape, an int attr as a dim (-1 is unknown, other
 * negative values are errors). An unset attr is unknown. */
opr_status opr_infer_attr_shape(opr_infer_ctx *c, size_t attr,
                                opr_shape *out);
opr_status opr_infer_attr_dim(opr_infer_ctx *c, size_t attr, int64_t *out);

/* ---- shapes ----
 * `what` names the operand(s) in error messages, as a noun phrase:
 * "'x'", "'a' and 'b'", "the tensors of 'inputs'". */

/* A shape of `rank` with a copy of `dims` (NULL: all unknown; rank
 * OPR_UNKNOWN_RANK: unknown). Dims must be >= -1. */
opr_status opr_infer_make_shape(opr_infer_ctx *c, int rank,
                                const int64_t *dims, opr_shape *out);
/* `s` with its rank checked: unknown becomes `rank` unknown dims.
 *   X: 'x' must have rank 2, but has shape [1, 2, 3] */
opr_status opr_infer_with_rank(opr_infer_ctx *c, opr_shape s, int rank,
                               const char *what, opr_shape *out);
opr_status opr_infer_with_rank_at_least(opr_infer_ctx *c, opr_shape s,
                                        int rank, const char *what,
                                        opr_shape *out);
opr_status opr_infer_with_rank_at_most(opr_infer_ctx *c, opr_shape s,
                                       int rank, const char *what,
                                       opr_shape *out);
/* Dim `index` of `s` (negative: from the end).
 *   X: 'x' has no dim 2: its shape is [4, 5] */
opr_status opr_infer_dim(opr_infer_ctx *c, opr_shape s, int64_t index,
                         const char *what, int64_t *out);
/* What both shapes say at once; an error when they contradict.
 *   X: 'a' and 'b' must have compatible shapes, but are [2, 3] and [2, 4] */
opr_status opr_infer_merge(opr_infer_ctx *c, opr_shape a, opr_shape b,
                           const char *what, opr_shape *out);
/*   X: dim 0 of 'a' and 'b' must be equal, but are 2 and 3 */
opr_status opr_infer_merge_dim(opr_infer_ctx *c, int64_t a, int64_t b,
                               const char *what, int64_t *out);
/* Numpy broadcasting: dims aligned from the end, a 1 stretches. With an
 * unknown rank the result is unknown; an unknown dim against 1 is
 * unknown, against n > 1 (or 0) it is n.
 *   X: 'x' and 'y' must be broadcast-compatible, but are [2, 3] and [4] */
opr_status opr_infer_broadcast(opr_infer_ctx *c, opr_shape a, opr_shape b,
                               const char *what, opr_shape *out);

/* ---- dim arithmetic: unknown in, unknown out ----
 * `what` is the expression, for messages:
 *   X: dim(x, 0) - 5 is negative (3 - 5)
 *   X: dim(x, 0) / 2 is not a whole number (7 / 2) */
opr_status opr_infer_add(opr_infer_ctx *c, int64_t a, int64_t b,
                         const char *what, int64_t *out);
opr_status opr_infer_sub(opr_infer_ctx *c, int64_t a, int64_t b,
                         const char *what, int64_t *out);
opr_status opr_infer_mul(opr_infer_ctx *c, int64_t a, int64_t b,
                         const char *what, int64_t *out);
/* Exact division: a remainder or a zero divisor is an error. */
opr_status opr_infer_div(opr_infer_ctx *c, int64_t a, int64_t b,
                         const char *what, int64_t *out);

/* ---- requirements: pass unless both sides are known ---- */

typedef enum opr_dim_cmp {
  OPR_DIM_EQ, /* == */
  OPR_DIM_NE, /* != */
  OPR_DIM_LT, /* <  */
  OPR_DIM_LE, /* <= */
  OPR_DIM_GT, /* >  */
  OPR_DIM_GE, /* >= */
} opr_dim_cmp;

/* a cmp b. a_what and b_what name the sides; NULL for a literal (its
 * value is its name).
 *   X: dim 1 of 'a' (3) must equal dim 0 of 'b' (4)
 *   X: rank of 'p' (3) must equal 2 */
opr_status opr_infer_require(opr_infer_ctx *c, int64_t a, opr_dim_cmp cmp,
                             int64_t b, const char *a_what,
                             const char *b_what);
/* lo <= x <= hi, each bound checked when known.
 *   X: rank of 'x' (4) must be in [1, 3] */
opr_status opr_infer_require_in(opr_infer_ctx *c, int64_t x, int64_t lo,
                                int64_t hi, const char *x_what,
                                const char *lo_what, const char *hi_what);

/* ---- outputs (unknown until set) ---- */

/* Every tensor of output `arg` gets shape `s` (copied). */
opr_status opr_infer_set_output(opr_infer_ctx *c, size_t arg, opr_shape s);
opr_status opr_infer_set_output_dims(opr_infer_ctx *c, size_t arg, int rank,
                                     const int64_t *dims);
/* Tensor `index` of a list output only. */
opr_status opr_infer_set_output_at(opr_infer_ctx *c, size_t arg,
                                   size_t index, opr_shape s);
/* What output `arg`, tensor `index`, has so far. */
opr_shape opr_infer_output(const opr_infer_ctx *c, size_t arg, size_t index);

/* INVALID_ARGUMENT "<Op>: <message>", for rules of one's own. */
opr_status opr_infer_error(const opr_infer_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- the standalone entry, for graph builders ---- */

/* What is known of one input argument: a shape per tensor (one for a
 * single input), and optionally their values. */
typedef struct opr_shape_input {
  const opr_shape *shapes;         /* [count] */
  const opr_tensor *const *values; /* NULL, or [count] (NULL: unknown) */
  size_t count;
} opr_shape_input;

/* The output shapes: one per output tensor, output arguments in order
 * (a list output contributes its length). Owned by the caller:
 * opr_inferred_shapes_free. */
typedef struct opr_inferred_shapes {
  opr_shape *shapes;
  size_t count;
} opr_inferred_shapes;

/* Runs the op's shape function on partial inputs (`ninputs` must be the
 * op's input count) and named attrs (as opr_execute takes them; unset
 * attrs take their defaults, list lengths are read off the inputs).
 * Without a shape function every output is unknown. On failure *out is
 * empty. */
opr_status opr_infer_shapes(const opr_op_def *op,
                            const opr_shape_input *inputs, size_t ninputs,
                            const opr_named_attr *attrs, size_t nattrs,
                            opr_inferred_shapes *out);
/* The same for a registered op by name (NOT_FOUND when there is none). */
opr_status opr_infer_shapes_by_name(const char *op,
                                    const opr_shape_input *inputs,
                                    size_t ninputs,
                                    const opr_named_attr *attrs,
                                    size_t nattrs, opr_inferred_shapes *out);
void opr_inferred_shapes_free(opr_inferred_shapes *shapes);

#ifdef __cplusplus
}
#endif

#endif
