/* The operations of the shape language, version 2 (op-language.md,
 * "The full expression language"), as C functions: what opgen compiles
 * an op's `shape`, `require` and `let` statements into, and what a
 * hand-written shape_fn may call to get the same rules.
 *
 * Three kinds of value:
 *   - a number (opr_num): an exact int64_t or unknown. `direct` marks a
 *     number taken directly from a literal, an attr or an input value:
 *     where a number becomes a dim (opr_sx_as_dim), a direct -1 is the
 *     unknown dim and any other negative value an error;
 *   - a condition (opr_cond): true, false or undecided;
 *   - a shape (opr_shape, opr/attr.h): rank OPR_UNKNOWN_RANK is `?`; dims
 *     are >= 0 or OPR_UNKNOWN_DIM. Shapes made here live in the context
 *     (no allocation for typical ranks) until inference ends.
 *
 * Every function that can fail returns an opr_status (OPR_OK or an
 * INVALID_ARGUMENT "<Op>: <message>"); `what` is the source text of the
 * expression (NULL allowed), quoted in messages, e.g.
 *   ConcatV2: axis 3 is out of range for rank 2 in concat(values,
 *   value(axis)); it must be in [-2, 2)
 * Every rule works on partial shapes as the contract says: what cannot
 * be decided passes, what cannot be computed is unknown. On an error the
 * outputs are unknown; nothing is ever freed by the caller (the one
 * exception: statuses, which the join_branches functions free).
 *
 * Axes (dim, set, remove, reduce, permute, concat, sum) count from the end
 * when negative and must lie in [-rank, rank) of a known rank ([-rank-1,
 * rank] for insert); an unknown axis leaves the dims it decides unknown.
 *
 * Storage: results borrow from their operands where they can (a slice, a
 * shape attr, int64 values) and otherwise live in the context's dims
 * storage (opr_infer_alloc_dims: no allocation while the inference's
 * dims fit its inline room). */
#ifndef OPR_SHAPE_EXPR_H
#define OPR_SHAPE_EXPR_H

#include "opr/shape.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The small operations are inline, and forced so: a generated function
 * calls them at every step and its size would talk the compiler out of
 * it. */
#if defined(__GNUC__) || defined(__clang__)
#define OPR_SX_INLINE static inline __attribute__((always_inline))
#else
#define OPR_SX_INLINE static inline
#endif

typedef struct opr_num {
  int64_t v;   /* meaningful when known */
  bool known;
  bool direct; /* taken directly from a literal, an attr or a value */
} opr_num;

typedef enum opr_cond {
  OPR_COND_FALSE = 0,
  OPR_COND_TRUE = 1,
  OPR_COND_UNDECIDED = 2,
} opr_cond;

/* ---- numbers ---- */

static inline opr_num opr_sx_int(int64_t v) { /* a literal: direct */
  opr_num n = {v, true, true};
  return n;
}
static inline opr_num opr_sx_unknown_num(void) {
  opr_num n = {0, false, false};
  return n;
}
/* A dim of a shape as a number: OPR_UNKNOWN_DIM is unknown. */
static inline opr_num opr_sx_dim_num(int64_t dim) {
  opr_num n = {dim, dim >= 0, false};
  return n;
}
/* The same number, no longer direct (a let's parameter). */
static inline opr_num opr_sx_computed(opr_num n) {
  n.direct = false;
  return n;
}

/* The small operations below are inline: a generated function calls them
 * at every step. Their errors (and anything not the common case) go to
 * these out-of-line functions, which the inline ones call. */
typedef enum opr_sx_arith_op {
  OPR_SX_ADD,
  OPR_SX_SUB,
  OPR_SX_MUL,
  OPR_SX_DIV,
  OPR_SX_MOD,
  OPR_SX_CEIL_DIV,
} opr_sx_arith_op;
/* The error of opr_sx_as_dim for n (known, negative, not a direct -1). */
opr_status opr_sx_negative_dim(opr_infer_ctx *c, opr_num n,
                               const char *what);
/* a op b with every rule: what opr_sx_add ... opr_sx_ceil_div do. */
opr_status opr_sx_arith(opr_infer_ctx *c, opr_sx_arith_op op, opr_num a,
                        opr_num b, const char *what, opr_num *out);

/* A number where a dim is needed (an element of [...], the D of set and
 * insert): unknown -> OPR_UNKNOWN_DIM; a direct -1 -> OPR_UNKNOWN_DIM;
 * another negative value is an error. */
OPR_SX_INLINE opr_status opr_sx_as_dim(opr_infer_ctx *c, opr_num n,
                                       const char *what, int64_t *dim) {
  if (n.known && n.v >= 0) {
    *dim = n.v;
    return OPR_OK;
  }
  *dim = OPR_UNKNOWN_DIM;
  if (!n.known || (n.direct && n.v == -1)) return OPR_OK;
  return opr_sx_negative_dim(c, n, what);
}

/* + - * / % ceil_div and unary -, with the contract's rules for unknowns
 * and zero (0 * ? is 0, 1 * x is x; -1 % 4 is 3; ceil_div rounds toward
 * plus infinity); overflow of 64 bits, an inexact `/` of known operands
 * and a known divisor <= 0 (whatever the dividend) are errors. Results
 * are not direct. */
OPR_SX_INLINE opr_status opr_sx_add(opr_infer_ctx *c, opr_num a, opr_num b,
                                    const char *what, opr_num *out) {
  int64_t r;
  if (a.known && b.known && !__builtin_add_overflow(a.v, b.v, &r)) {
    out->v = r;
    out->known = true;
    out->direct = false;
    return OPR_OK;
  }
  return opr_sx_arith(c, OPR_SX_ADD, a, b, what, out);
}
OPR_SX_INLINE opr_status opr_sx_sub(opr_infer_ctx *c, opr_num a, opr_num b,
                                    const char *what, opr_num *out) {
  int64_t r;
  if (a.known && b.known && !__builtin_sub_overflow(a.v, b.v, &r)) {
    out->v = r;
    out->known = true;
    out->direct = false;
    return OPR_OK;
  }
  return opr_sx_arith(c, OPR_SX_SUB, a, b, what, out);
}
OPR_SX_INLINE opr_status opr_sx_mul(opr_infer_ctx *c, opr_num a, opr_num b,
                                    const char *what, opr_num *out) {
  int64_t r;
  if (a.known && b.known && !__builtin_mul_overflow(a.v, b.v, &r)) {
    out->v = r;
    out->known = true;
    out->direct = false;
    return OPR_OK;
  }
  return opr_sx_arith(c, OPR_SX_MUL, a, b, what, out);
}
OPR_SX_INLINE opr_status opr_sx_div(opr_infer_ctx *c, opr_num a, opr_num b,
                                    const char *what, opr_num *out) {
  if (a.known && b.known && b.v > 0 && a.v % b.v == 0) { /* exact */
    out->v = a.v / b.v;
    out->known = true;
    out->direct = false;
    return OPR_OK;
  }
  return opr_sx_arith(c, OPR_SX_DIV, a, b, what, out);
}
OPR_SX_INLINE opr_status opr_sx_mod(opr_infer_ctx *c, opr_num a, opr_num b,
                                    const char *what, opr_num *out) {
  if (a.known && b.known && b.v > 0) { /* b > 0: no overflow */
    int64_t r = a.v % b.v;
    out->v = r < 0 ? r + b.v : r;
    out->known = true;
    out->direct = false;
    return OPR_OK;
  }
  return opr_sx_arith(c, OPR_SX_MOD, a, b, what, out);
}
OPR_SX_INLINE opr_status opr_sx_ceil_div(opr_infer_ctx *c, opr_num a,
                                         opr_num b, const char *what,
                                         opr_num *out) {
  return opr_sx_arith(c, OPR_SX_CEIL_DIV, a, b, what, out);
}
opr_status opr_sx_neg(opr_infer_ctx *c, opr_num a, const char *what,
                      opr_num *out);
/* window(D, size, stride, dilation, padding): padding "VALID" ((D -
 * window) / stride + 1, window = (size - 1) * dilation + 1; D below the
 * window is an error) or "SAME" (ceil_div(D, stride)); any other padding,
 * NULL included, is an error, and so is a known stride or dilation < 1. */
opr_status opr_sx_window(opr_infer_ctx *c, opr_num d, opr_num size,
                         opr_num stride, opr_num dilation,
                         const char *padding, const char *what,
                         opr_num *out);

/* ---- conditions ---- */

/* a cmp b (OPR_DIM_EQ ... from opr/shape.h); undecided when either is
 * unknown. */
OPR_SX_INLINE opr_cond opr_sx_compare(opr_num a, opr_dim_cmp cmp,
                                      opr_num b) {
  bool r;
  if (!a.known || !b.known) return OPR_COND_UNDECIDED;
  switch (cmp) {
  case OPR_DIM_EQ: r = a.v == b.v; break;
  case OPR_DIM_NE: r = a.v != b.v; break;
  case OPR_DIM_LT: r = a.v < b.v; break;
  case OPR_DIM_LE: r = a.v <= b.v; break;
  case OPR_DIM_GT: r = a.v > b.v; break;
  case OPR_DIM_GE: r = a.v >= b.v; break;
  default: return OPR_COND_UNDECIDED;
  }
  return r ? OPR_COND_TRUE : OPR_COND_FALSE;
}
/* x in [lo, hi]: lo <= x <= hi; undecided when any of them is unknown. */
opr_cond opr_sx_in(opr_num x, opr_num lo, opr_num hi);
static inline opr_cond opr_sx_not(opr_cond a) {
  return a == OPR_COND_UNDECIDED ? a : (opr_cond)!a;
}
/* bit(n, i); i known outside [0, 64) is an error. */
opr_status opr_sx_bit(opr_infer_ctx *c, opr_num n, opr_num i,
                      const char *what, opr_cond *out);
/* same(S, ...): decided now: true when they merge, else false. */
opr_cond opr_sx_same(opr_infer_ctx *c, const opr_shape *shapes, size_t n);
/* known(D), known(S): decided now (a shape: rank and every dim). */
OPR_SX_INLINE opr_cond opr_sx_known_num(opr_num n) {
  return n.known ? OPR_COND_TRUE : OPR_COND_FALSE;
}
opr_cond opr_sx_known_shape(opr_shape s);
/* `require C;`: an error when `cond` is false (undecided passes). `what`
 * is the statement's condition; `detail` (or NULL) the operands' values:
 *   Pad: rank(input) == dim(paddings, 0) does not hold (3 vs 2) */
opr_status opr_sx_require_failed(opr_infer_ctx *c, const char *what,
                                 const char *detail);
OPR_SX_INLINE opr_status opr_sx_require(opr_infer_ctx *c, opr_cond cond,
                                        const char *what,
                                        const char *detail) {
  if (cond != OPR_COND_FALSE) return OPR_OK;
  return opr_sx_require_failed(c, what, detail);
}
/* `require a cmp b;` with the values in the message. */
opr_status opr_sx_require_compare_failed(opr_infer_ctx *c, opr_num a,
                                         opr_num b, const char *what);
OPR_SX_INLINE opr_status opr_sx_require_compare(opr_infer_ctx *c, opr_num a,
                                                opr_dim_cmp cmp, opr_num b,
                                                const char *what) {
  if (opr_sx_compare(a, cmp, b) != OPR_COND_FALSE) return OPR_OK;
  return opr_sx_require_compare_failed(c, a, b, what);
}

/* `require x in [lo, hi];` with the values in the message:
 *   X: rank(x) in [1, 3] does not hold (4 is not in [1, 3]) */
opr_status opr_sx_require_in_failed(opr_infer_ctx *c, opr_num x, opr_num lo,
                                    opr_num hi, const char *what);
OPR_SX_INLINE opr_status opr_sx_require_in(opr_infer_ctx *c, opr_num x,
                                           opr_num lo, opr_num hi,
                                           const char *what) {
  if (opr_sx_in(x, lo, hi) != OPR_COND_FALSE) return OPR_OK;
  return opr_sx_require_in_failed(c, x, lo, hi, what);
}

/* ---- inputs (arg: the op's input index) ---- */

/* x: the input's shape, merged with the shape of its value when the value
 * is known; a list input: the merge of its tensors (an error when two
 * disagree). */
opr_status opr_sx_input(opr_infer_ctx *c, size_t arg, opr_shape *out);
/* x[i] of a list input: i outside [0, length) is an error, unknown: `?`. */
opr_status opr_sx_input_at(opr_infer_ctx *c, size_t arg, opr_num i,
                           const char *what, opr_shape *out);
/* length(L): the number of tensors of list input `arg`. */
opr_num opr_sx_length(opr_infer_ctx *c, size_t arg);
/* value(x) of tensor `index` of input `arg` (0 for a single input). Only
 * int32/int64 values are read (others count as not known). As a shape:
 * x (merged with the value's shape) of a known rank other than 1 is an
 * error; a -1 is the unknown dim, other negative values an error;
 * unknown values give unknown(dim(x, 0)). As one number (direct): a known
 * value of another count than 1 is an error. Element i (direct,
 * row-major whatever x's rank): a negative i is an error, an i past the
 * last value an error when the values are known; unknown values or i:
 * unknown. */
opr_status opr_sx_value_shape(opr_infer_ctx *c, size_t arg, size_t index,
                              const char *what, opr_shape *out);
opr_status opr_sx_value_num(opr_infer_ctx *c, size_t arg, size_t index,
                            const char *what, opr_num *out);
opr_status opr_sx_value_at(opr_infer_ctx *c, size_t arg, size_t index,
                           opr_num i, const char *what, opr_num *out);
opr_cond opr_sx_value_known(opr_infer_ctx *c, size_t arg, size_t index);
/* sum(L, i) and concat(L, axis) over the tensors of list input `arg`
 * (each merged with its value's shape). sum: unknown when a tensor's dim
 * or rank is; of no tensors 0. concat: the tensors' known ranks must
 * agree; the dims merge except at `axis`, where they add up; an unknown
 * axis gives unknown dims of that rank; no known rank gives `?`. */
opr_status opr_sx_sum_dims(opr_infer_ctx *c, size_t arg, opr_num i,
                           const char *what, opr_num *out);
opr_status opr_sx_concat(opr_infer_ctx *c, size_t arg, opr_num axis,
                         const char *what, opr_shape *out);

/* ---- attrs (attr: the op's attr index); reading an attr with no value
 * and no default is an error ---- */

opr_status opr_sx_attr_num(opr_infer_ctx *c, size_t attr, const char *what,
                           opr_num *out);   /* int: direct */
opr_status opr_sx_attr_cond(opr_infer_ctx *c, size_t attr, const char *what,
                            opr_cond *out); /* bool */
/* shape attr; list(int) as dims (-1 the unknown dim, below -1 an error);
 * a tensor attr's value's shape. */
opr_status opr_sx_attr_shape(opr_infer_ctx *c, size_t attr, const char *what,
                             opr_shape *out);
/* attr(l)[i]: a list(int) element (direct; i negative or past the end an
 * error, unknown: unknown), a shape attr's dim i (from the end when
 * negative). */
opr_status opr_sx_attr_at(opr_infer_ctx *c, size_t attr, opr_num i,
                          const char *what, opr_num *out);
/* attr(l)[i] of a list(shape) attr. */
opr_status opr_sx_attr_shape_at(opr_infer_ctx *c, size_t attr, opr_num i,
                                const char *what, opr_shape *out);
opr_status opr_sx_attr_length(opr_infer_ctx *c, size_t attr,
                              const char *what, opr_num *out);
/* attr(s) == 'text' for a string attr; attr(t) == dtype for a type attr
 * (an attr read off an input type that is not known: undecided). */
opr_status opr_sx_attr_is_string(opr_infer_ctx *c, size_t attr,
                                 const char *text, const char *what,
                                 opr_cond *out);
opr_status opr_sx_attr_is_type(opr_infer_ctx *c, size_t attr,
                               opr_dtype type, const char *what,
                               opr_cond *out);
/* The string value of a string attr, for window()'s padding (a copy in
 * the context when it is not a padding name). */
opr_status opr_sx_attr_string(opr_infer_ctx *c, size_t attr,
                              const char *what, const char **out);
/* size_of(t): bytes per element, 0 for string, resource, variant, int4
 * and uint4 (TensorFlow's DataTypeSize); unknown for an inferred type
 * attr not known. */
opr_status opr_sx_size_of(opr_infer_ctx *c, size_t attr, const char *what,
                          opr_num *out);

/* A list of integers: the axes of reduce, the perm of permute. The
 * integers are read raw (a -1 is the last axis). value_ints: x of a known
 * rank above 1 is an error. num_ints: one integer. */
typedef struct opr_sx_ints {
  const int64_t *v; /* [n] when known */
  size_t n;
  bool known;
} opr_sx_ints;
opr_status opr_sx_attr_ints(opr_infer_ctx *c, size_t attr, const char *what,
                            opr_sx_ints *out);
opr_status opr_sx_value_ints(opr_infer_ctx *c, size_t arg, size_t index,
                             const char *what, opr_sx_ints *out);
opr_status opr_sx_num_ints(opr_infer_ctx *c, opr_num n, opr_sx_ints *out);

/* ---- shapes ---- */

static inline opr_shape opr_sx_unknown_shape(void) {
  return opr_shape_unknown();
}
/* [D, ...]: each through opr_sx_as_dim (`whats[k]` names element k). */
opr_status opr_sx_shape(opr_infer_ctx *c, const opr_num *dims, size_t n,
                        const char *const *whats, opr_shape *out);
opr_status opr_sx_unknown_rank(opr_infer_ctx *c, opr_num n, const char *what,
                               opr_shape *out); /* unknown(n) */
OPR_SX_INLINE opr_num opr_sx_rank(opr_shape s) {
  return opr_sx_dim_num(s.rank);
}
/* S[i], dim(x, i): i counts from the end when negative. */
opr_status opr_sx_dim_out_of_range(opr_infer_ctx *c, opr_shape s, opr_num i,
                                   const char *what);
OPR_SX_INLINE opr_status opr_sx_dim(opr_infer_ctx *c, opr_shape s, opr_num i,
                                    const char *what, opr_num *out) {
  *out = opr_sx_unknown_num();
  if (!i.known || s.rank < 0) return OPR_OK;
  int64_t at = i.v < 0 ? i.v + s.rank : i.v;
  if (i.v < -(int64_t)s.rank || at >= s.rank)
    return opr_sx_dim_out_of_range(c, s, i, what);
  *out = opr_sx_dim_num(s.dims[at]);
  return OPR_OK;
}
/* S[lo:hi]; has_lo/has_hi false for a bound left out. Python's rules,
 * bounds clamped, never an error; `?` for an unknown rank or bound. */
static inline int opr_sx_slice_bound(opr_num b, bool has, int missing,
                                      int rank) { /* clamped to [0, rank] */
  if (!has) return missing;
  if (b.v < 0) return b.v < -(int64_t)rank ? 0 : (int)(b.v + rank);
  return b.v > rank ? rank : (int)b.v;
}
OPR_SX_INLINE opr_status opr_sx_slice(opr_infer_ctx *c, opr_shape s,
                                      bool has_lo, opr_num lo, bool has_hi,
                                      opr_num hi, opr_shape *out) {
  (void)c;
  *out = opr_sx_unknown_shape();
  if (s.rank < 0 || (has_lo && !lo.known) || (has_hi && !hi.known))
    return OPR_OK;
  int a = opr_sx_slice_bound(lo, has_lo, 0, s.rank);
  int b = opr_sx_slice_bound(hi, has_hi, s.rank, s.rank);
  out->rank = b > a ? b - a : 0;
  out->dims = b > a ? s.dims + a : NULL;
  return OPR_OK;
}
opr_status opr_sx_append(opr_infer_ctx *c, opr_shape a, opr_shape b,
                         opr_shape *out); /* a ++ b */
/* a ++ [D, ...]: opr_sx_append of a and opr_sx_shape(dims, n, whats), the
 * same results and messages, in one step. */
opr_status opr_sx_append_dims(opr_infer_ctx *c, opr_shape a,
                              const opr_num *dims, size_t n,
                              const char *const *whats, opr_shape *out);
/* set, insert, remove: D through opr_sx_as_dim; an unknown i keeps the
 * rank they would give, every dim unknown; S unknown: `?`. */
opr_status opr_sx_set(opr_infer_ctx *c, opr_shape s, opr_num i, opr_num d,
                      const char *what, opr_shape *out);
opr_status opr_sx_insert(opr_infer_ctx *c, opr_shape s, opr_num i,
                         opr_num d, const char *what, opr_shape *out);
opr_status opr_sx_remove(opr_infer_ctx *c, opr_shape s, opr_num i,
                         const char *what, opr_shape *out);
/* reduce: each axis (one listed twice counts once) set to 1 (keep) or
 * removed; keep undecided: `?`; axes unknown: unknown(rank(S)) if keep,
 * else `?`. permute: dim perm[k] at k; a known perm's length must equal
 * a known rank, its entries lie in [-length, length); S unknown:
 * unknown(length); perm unknown: unknown(rank(S)) (`?` if S is). */
opr_status opr_sx_reduce(opr_infer_ctx *c, opr_shape s, opr_sx_ints axes,
                         opr_cond keep, const char *what, opr_shape *out);
opr_status opr_sx_permute(opr_infer_ctx *c, opr_shape s, opr_sx_ints perm,
                          const char *what, opr_shape *out);
/* product(S): 0 when a dim is 0, else unknown when a dim or the rank is;
 * overflow is an error. */
opr_status opr_sx_product(opr_infer_ctx *c, opr_shape s, const char *what,
                          opr_num *out);

/* ---- folds: merge, join, broadcast, min, max, sum, product, all, any,
 * and [D for k < N], whether written with operands or as
 * comprehensions. Init, one step per element in order, then end. ---- */

typedef enum opr_sx_fold_op {
  OPR_FOLD_DIMS,      /* [D for k < N]: init with the count N */
  OPR_FOLD_SUM,
  OPR_FOLD_PRODUCT,
  OPR_FOLD_MIN,
  OPR_FOLD_MAX,
  OPR_FOLD_MERGE,     /* numbers or shapes */
  OPR_FOLD_JOIN,      /* numbers or shapes */
  OPR_FOLD_BROADCAST, /* shapes */
  OPR_FOLD_ALL,
  OPR_FOLD_ANY,
} opr_sx_fold_op;

/* The fold's state: set by opr_sx_fold_init, read by nobody else. */
typedef struct opr_sx_fold {
  opr_sx_fold_op op;
  size_t count;   /* elements folded so far */
  bool unknown;   /* the result is unknown / `?` / undecided regardless */
  bool partial;   /* an element was unknown (undecided for all/any) */
  bool zero;      /* product: an element was 0 */
  bool overflow;  /* product: the known elements overflowed */
  opr_num num;    /* number folds */
  opr_shape shape; /* shape folds, and DIMS (dims filled so far) */
  size_t cap;     /* DIMS: room in shape.dims */
  opr_cond cond;  /* all, any */
} opr_sx_fold;

/* `n` is the element count for OPR_FOLD_DIMS (room for that many dims, at
 * most OPR_MAX_RANK: more kept dims are an error), ignored otherwise.
 * Each element of a number fold goes to opr_sx_fold_num (DIMS and merge
 * pass it through opr_sx_as_dim), of a shape fold to opr_sx_fold_shape,
 * of all/any to opr_sx_fold_cond. Of no elements: sum 0, product 1,
 * merge and join unknown (`?`), broadcast `[]`, all true, any false, min
 * and max an error (at end). Number folds: sum/max unknown when an
 * element is; product 0 when an element is 0; min 0 when the least known
 * element is 0, else unknown when one is; join keeps `direct` when every
 * element is direct and equal. The `what` of an element may be its own
 * text or the whole fold's ("merge(rank(x), dim(p, 0)): dims 1 and 2 do
 * not merge"); that of the end, the whole fold's. */
opr_status opr_sx_fold_init_dims(opr_infer_ctx *c, opr_sx_fold *f,
                                 size_t n); /* init for OPR_FOLD_DIMS */
OPR_SX_INLINE opr_status opr_sx_fold_init(opr_infer_ctx *c, opr_sx_fold *f,
                                          opr_sx_fold_op op, size_t n) {
  if (op == OPR_FOLD_DIMS) return opr_sx_fold_init_dims(c, f, n);
  memset(f, 0, sizeof *f);
  f->op = op;
  f->num = op == OPR_FOLD_SUM       ? opr_sx_dim_num(0)
           : op == OPR_FOLD_PRODUCT ? opr_sx_dim_num(1)
                                    : opr_sx_unknown_num();
  f->shape = opr_sx_unknown_shape();
  if (op == OPR_FOLD_BROADCAST) f->shape.rank = 0; /* [] */
  f->cond = op == OPR_FOLD_ALL ? OPR_COND_TRUE : OPR_COND_FALSE;
  return OPR_OK;
}
/* opr_sx_fold_num with every rule; the inline one takes the usual steps
 * (a known element of sum, product or [D for k < N]) itself. */
opr_status opr_sx_fold_num_general(opr_infer_ctx *c, opr_sx_fold *f,
                                   opr_num x, const char *what);
OPR_SX_INLINE opr_status opr_sx_fold_num(opr_infer_ctx *c, opr_sx_fold *f,
                                         opr_num x, const char *what) {
  int64_t r;
  if (x.known && f->op == OPR_FOLD_SUM && f->num.known &&
      !__builtin_add_overflow(f->num.v, x.v, &r)) {
    f->num.v = r;
    f->num.direct = false;
  } else if (x.known && f->op == OPR_FOLD_PRODUCT && x.v != 0 &&
             !f->overflow) {
    f->overflow = __builtin_mul_overflow(f->num.v, x.v, &f->num.v);
  } else if (x.known && f->op == OPR_FOLD_DIMS && x.v >= 0 &&
             (size_t)f->shape.rank < f->cap) {
    ((int64_t *)f->shape.dims)[f->shape.rank++] = x.v;
  } else {
    return opr_sx_fold_num_general(c, f, x, what);
  }
  f->count++;
  return OPR_OK;
}
opr_status opr_sx_fold_shape(opr_infer_ctx *c, opr_sx_fold *f, opr_shape x,
                             const char *what);
/* broadcast(a, b): the fold of exactly two shapes, without its state
 * (the same result and message). */
opr_status opr_sx_broadcast(opr_infer_ctx *c, opr_shape a, opr_shape b,
                            const char *what, opr_shape *out);
OPR_SX_INLINE void opr_sx_fold_cond(opr_sx_fold *f, opr_cond x) {
  opr_cond decides = f->op == OPR_FOLD_ALL ? OPR_COND_FALSE : OPR_COND_TRUE;
  f->count++;
  if (x == decides) f->cond = decides;
  else if (x == OPR_COND_UNDECIDED) f->partial = true;
}
/* The most elements a comprehension or fold runs: a larger N (an attr
 * of 2^62, say) is an error rather than a loop of years. Real counts
 * are ranks, list lengths and the values of a tensor. */
enum { OPR_SX_MAX_COUNT = 1 << 24 };
/* The N of a comprehension: *count = N when known (negative, or above
 * OPR_SX_MAX_COUNT: an error); *known false when unknown (then
 * opr_sx_fold_unknown, no elements). */
opr_status opr_sx_count_error(opr_infer_ctx *c, opr_num n,
                              const char *what);
OPR_SX_INLINE opr_status opr_sx_count(opr_infer_ctx *c, opr_num n,
                                      const char *what, size_t *count,
                                      bool *known) {
  *count = 0;
  *known = n.known;
  if (!n.known) return OPR_OK;
  if (n.v < 0 || n.v > OPR_SX_MAX_COUNT)
    return opr_sx_count_error(c, n, what);
  *count = (size_t)n.v;
  return OPR_OK;
}
/* N unknown, or an `if` undecided for some element: the result is
 * unknown (a decided all/any stays decided). */
OPR_SX_INLINE void opr_sx_fold_unknown(opr_sx_fold *f) { f->unknown = true; }
/* all/any decided: later elements are not evaluated. */
OPR_SX_INLINE bool opr_sx_fold_done(const opr_sx_fold *f) {
  return (f->op == OPR_FOLD_ALL && f->cond == OPR_COND_FALSE) ||
         (f->op == OPR_FOLD_ANY && f->cond == OPR_COND_TRUE) ||
         (f->op == OPR_FOLD_PRODUCT && f->zero);
}
/* opr_sx_fold_end_num with every rule; the inline one ends a sum or a
 * product of known elements itself. */
opr_status opr_sx_fold_end_num_general(opr_infer_ctx *c, opr_sx_fold *f,
                                       const char *what, opr_num *out);
OPR_SX_INLINE opr_status opr_sx_fold_end_num(opr_infer_ctx *c,
                                             opr_sx_fold *f,
                                             const char *what,
                                             opr_num *out) {
  if ((f->op == OPR_FOLD_SUM || f->op == OPR_FOLD_PRODUCT) && !f->unknown &&
      !f->partial && !f->zero && !f->overflow) {
    out->v = f->num.v;
    out->known = f->num.known;
    out->direct = false;
    return OPR_OK;
  }
  return opr_sx_fold_end_num_general(c, f, what, out);
}
opr_status opr_sx_fold_end_shape(opr_infer_ctx *c, opr_sx_fold *f,
                                 const char *what, opr_shape *out);
opr_cond opr_sx_fold_end_cond(opr_sx_fold *f);

/* ---- C ? X : Y undecided: both branches evaluated; a branch that failed
 * (its status given here, and freed) is left out, both failing is the
 * first one's error ---- */
opr_status opr_sx_join_branches_num(opr_status sx, opr_num x, opr_status sy,
                                    opr_num y, opr_num *out);
opr_status opr_sx_join_branches_shape(opr_infer_ctx *c, opr_status sx,
                                      opr_shape x, opr_status sy,
                                      opr_shape y, opr_shape *out);
opr_status opr_sx_join_branches_cond(opr_status sx, opr_cond x,
                                     opr_status sy, opr_cond y,
                                     opr_cond *out);

/* ---- outputs ---- */
/* opr_infer_set_output / opr_infer_set_output_at (opr/shape.h).
 * opr_sx_set_output is opr_infer_set_output (the same results and
 * messages) that keeps a shape already in the inference's own storage
 * (one these operations made) instead of copying it. */
opr_status opr_sx_set_output(opr_infer_ctx *c, size_t arg, opr_shape s);

#ifdef __cplusplus
}
#endif

#endif
