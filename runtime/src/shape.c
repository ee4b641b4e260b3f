/* The shape inference helpers of opr/shape.h: partial shapes and dims
 * combined, checked and computed. Unknown stays unknown; a check passes
 * until both sides are known. */
#include "shape_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef char shape_text[256];

static const char *text(opr_shape s, shape_text buf) {
  return opr_infer_shape_text(s, buf, sizeof(shape_text));
}

static opr_status out_of_memory(const opr_infer_ctx *c) {
  return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory inferring "
                   "shapes", c->op->name);
}

/* ---- shapes as values ---- */

bool opr_shape_fully_defined(opr_shape s) {
  if (s.rank < 0) return false;
  for (int i = 0; i < s.rank; i++)
    if (s.dims[i] < 0) return false;
  return true;
}

bool opr_shape_same(opr_shape a, opr_shape b) {
  if (a.rank < 0 || b.rank < 0) return a.rank < 0 && b.rank < 0;
  if (a.rank != b.rank) return false;
  for (int i = 0; i < a.rank; i++) {
    int64_t x = a.dims[i] < 0 ? -1 : a.dims[i];
    int64_t y = b.dims[i] < 0 ? -1 : b.dims[i];
    if (x != y) return false;
  }
  return true;
}

bool opr_shape_compatible(opr_shape a, opr_shape b) {
  if (a.rank < 0 || b.rank < 0) return true;
  if (a.rank != b.rank) return false;
  for (int i = 0; i < a.rank; i++)
    if (a.dims[i] >= 0 && b.dims[i] >= 0 && a.dims[i] != b.dims[i])
      return false;
  return true;
}

opr_status opr_infer_make_shape(opr_infer_ctx *c, int rank,
                                const int64_t *dims, opr_shape *out) {
  *out = opr_shape_unknown();
  if (rank < OPR_UNKNOWN_RANK || rank > OPR_MAX_RANK)
    return opr_infer_error(c, "a shape of rank %d; the rank must be in "
                           "[0, %d] (or -1: unknown)", rank, OPR_MAX_RANK);
  if (rank <= 0) {
    out->rank = rank;
    return OPR_OK;
  }
  int64_t *copy = opr_infer_alloc_dims(c, (size_t)rank);
  if (!copy) return out_of_memory(c);
  for (int i = 0; i < rank; i++) {
    int64_t d = dims ? dims[i] : OPR_UNKNOWN_DIM;
    if (d < OPR_UNKNOWN_DIM)
      return opr_infer_error(c, "dim %d of a shape is %" PRId64 "; a dim "
                             "must be >= 0 (or -1: unknown)", i, d);
    copy[i] = d;
  }
  *out = (opr_shape){rank, copy};
  return OPR_OK;
}

/* ---- rank checks ---- */

typedef enum rank_rule { RANK_EXACTLY, RANK_AT_LEAST, RANK_AT_MOST } rank_rule;

static opr_status with_rank(opr_infer_ctx *c, opr_shape s, int rank,
                            rank_rule rule, const char *what,
                            opr_shape *out) {
  static const char *const words[] = {"", " at least", " at most"};
  *out = s;
  if (rank < 0 || rank > OPR_MAX_RANK)
    return opr_infer_error(c, "%s: rank %d asked for; a rank must be in "
                           "[0, %d]", opr_text_or(what, "the shape"), rank,
                           OPR_MAX_RANK);
  if (s.rank < 0)
    return rule == RANK_EXACTLY ? opr_infer_make_shape(c, rank, NULL, out)
                                : OPR_OK;
  bool ok = rule == RANK_EXACTLY    ? s.rank == rank
            : rule == RANK_AT_LEAST ? s.rank >= rank
                                    : s.rank <= rank;
  if (ok) return OPR_OK;
  shape_text t;
  return opr_infer_error(c, "%s must have rank%s %d, but has shape %s",
                         opr_text_or(what, "the shape"), words[rule], rank,
                         text(s, t));
}

opr_status opr_infer_with_rank(opr_infer_ctx *c, opr_shape s, int rank,
                               const char *what, opr_shape *out) {
  return with_rank(c, s, rank, RANK_EXACTLY, what, out);
}

opr_status opr_infer_with_rank_at_least(opr_infer_ctx *c, opr_shape s,
                                        int rank, const char *what,
                                        opr_shape *out) {
  return with_rank(c, s, rank, RANK_AT_LEAST, what, out);
}

opr_status opr_infer_with_rank_at_most(opr_infer_ctx *c, opr_shape s,
                                       int rank, const char *what,
                                       opr_shape *out) {
  return with_rank(c, s, rank, RANK_AT_MOST, what, out);
}

opr_status opr_infer_dim(opr_infer_ctx *c, opr_shape s, int64_t index,
                         const char *what, int64_t *out) {
  *out = OPR_UNKNOWN_DIM;
  if (s.rank < 0) return OPR_OK;
  int64_t i = index < 0 ? index + s.rank : index;
  if (i < 0 || i >= s.rank) {
    shape_text t;
    return opr_infer_error(c, "%s has no dim %" PRId64 ": its shape is %s",
                           opr_text_or(what, "the shape"), index,
                           text(s, t));
  }
  *out = s.dims[i] < 0 ? OPR_UNKNOWN_DIM : s.dims[i];
  return OPR_OK;
}

/* ---- combining shapes ---- */

/* True when every dim `a` knows, `b` knows too (same rank). */
static bool covers(opr_shape a, opr_shape b) {
  for (int i = 0; i < a.rank; i++)
    if (a.dims[i] < 0 && b.dims[i] >= 0) return false;
  return true;
}

opr_status opr_infer_merge(opr_infer_ctx *c, opr_shape a, opr_shape b,
                           const char *what, opr_shape *out) {
  if (!opr_shape_compatible(a, b)) {
    shape_text ta, tb;
    *out = a;
    return opr_infer_error(c, "%s must have compatible shapes, but are %s "
                           "and %s", opr_text_or(what, "the shapes"),
                           text(a, ta), text(b, tb));
  }
  if (b.rank < 0 || (a.rank >= 0 && covers(a, b))) {
    *out = a; /* a says everything: the usual case, nothing allocated */
    return OPR_OK;
  }
  if (a.rank < 0 || covers(b, a)) {
    *out = b;
    return OPR_OK;
  }
  opr_status s = opr_infer_make_shape(c, a.rank, a.dims, out);
  if (s) return s;
  int64_t *dims = (int64_t *)out->dims;
  for (int i = 0; i < a.rank; i++)
    if (dims[i] < 0) dims[i] = b.dims[i] < 0 ? OPR_UNKNOWN_DIM : b.dims[i];
  return OPR_OK;
}

opr_status opr_infer_merge_dim(opr_infer_ctx *c, int64_t a, int64_t b,
                               const char *what, int64_t *out) {
  *out = a >= 0 ? a : b >= 0 ? b : OPR_UNKNOWN_DIM;
  if (a < 0 || b < 0 || a == b) return OPR_OK;
  return opr_infer_error(c, "%s must be equal, but are %" PRId64 " and %"
                         PRId64, opr_text_or(what, "the dims"), a, b);
}

/* One position of a broadcast: x and y aligned from the end (1 where a
 * shape is shorter). False when they conflict. */
static bool broadcast_dim(int64_t x, int64_t y, int64_t *out) {
  if (x < 0 && y < 0) *out = OPR_UNKNOWN_DIM;
  else if (x < 0) *out = y == 1 ? OPR_UNKNOWN_DIM : y;
  else if (y < 0) *out = x == 1 ? OPR_UNKNOWN_DIM : x;
  else if (x == y || y == 1) *out = x;
  else if (x == 1) *out = y;
  else return false;
  return true;
}

opr_status opr_infer_broadcast(opr_infer_ctx *c, opr_shape a, opr_shape b,
                               const char *what, opr_shape *out) {
  *out = opr_shape_unknown();
  if (a.rank < 0 || b.rank < 0) return OPR_OK;
  int rank = a.rank > b.rank ? a.rank : b.rank;
  opr_status s = opr_infer_make_shape(c, rank, NULL, out);
  if (s) return s;
  int64_t *dims = (int64_t *)out->dims;
  for (int i = 1; i <= rank; i++) {
    int64_t x = i <= a.rank ? a.dims[a.rank - i] : 1;
    int64_t y = i <= b.rank ? b.dims[b.rank - i] : 1;
    if (!broadcast_dim(x, y, &dims[rank - i])) {
      shape_text ta, tb;
      *out = opr_shape_unknown();
      return opr_infer_error(c, "%s must be broadcast-compatible, but are "
                             "%s and %s", opr_text_or(what, "the shapes"),
                             text(a, ta), text(b, tb));
    }
  }
  return OPR_OK;
}

/* ---- dim arithmetic ---- */

/* "dim(x, 0) - 5 is negative (3 - 5)"; an unknown operand shows as ?. */
static opr_status arith_error(opr_infer_ctx *c, const char *what,
                              const char *problem, int64_t a, char op,
                              int64_t b) {
  char ta[24] = "?", tb[24] = "?";
  if (a >= 0) snprintf(ta, sizeof ta, "%" PRId64, a);
  if (b >= 0) snprintf(tb, sizeof tb, "%" PRId64, b);
  return opr_infer_error(c, "%s %s (%s %c %s)",
                         opr_text_or(what, "the result"), problem, ta, op,
                         tb);
}

opr_status opr_infer_add(opr_infer_ctx *c, int64_t a, int64_t b,
                         const char *what, int64_t *out) {
  *out = OPR_UNKNOWN_DIM;
  if (a < 0 || b < 0) return OPR_OK;
  if (a > INT64_MAX - b) return arith_error(c, what, "overflows", a, '+', b);
  *out = a + b;
  return OPR_OK;
}

opr_status opr_infer_sub(opr_infer_ctx *c, int64_t a, int64_t b,
                         const char *what, int64_t *out) {
  *out = b == 0 ? a : OPR_UNKNOWN_DIM;
  if (a < 0 || b < 0) return OPR_OK;
  if (a < b) return arith_error(c, what, "is negative", a, '-', b);
  *out = a - b;
  return OPR_OK;
}

opr_status opr_infer_mul(opr_infer_ctx *c, int64_t a, int64_t b,
                         const char *what, int64_t *out) {
  /* 0 * ? is 0 and 1 * x is x, known or not. */
  if (a == 0 || b == 0) *out = 0;
  else if (a == 1 || b == 1) *out = a == 1 ? b : a;
  else *out = OPR_UNKNOWN_DIM;
  if (a <= 1 || b <= 1) return OPR_OK;
  if (a > INT64_MAX / b) {
    *out = OPR_UNKNOWN_DIM;
    return arith_error(c, what, "overflows", a, '*', b);
  }
  *out = a * b;
  return OPR_OK;
}

opr_status opr_infer_div(opr_infer_ctx *c, int64_t a, int64_t b,
                         const char *what, int64_t *out) {
  *out = b == 1 ? a : OPR_UNKNOWN_DIM;
  if (b == 0) return arith_error(c, what, "divides by zero", a, '/', b);
  if (a < 0 || b < 0) return OPR_OK;
  if (a % b != 0) return arith_error(c, what, "is not a whole number", a, '/', b);
  *out = a / b;
  return OPR_OK;
}

/* ---- requirements ---- */

/* "dim 0 of 'b' (4)", "4" for a literal, "dim 0 of 'b'" when unknown. */
static const char *side(char *buf, size_t n, const char *what, int64_t v) {
  if (v < 0) snprintf(buf, n, "%s", what ? what : "?");
  else if (!what) snprintf(buf, n, "%" PRId64, v);
  else snprintf(buf, n, "%s (%" PRId64 ")", what, v);
  return buf;
}

opr_status opr_infer_require(opr_infer_ctx *c, int64_t a, opr_dim_cmp cmp,
                             int64_t b, const char *a_what,
                             const char *b_what) {
  static const char *const verbs[] = {
      [OPR_DIM_EQ] = "equal",         [OPR_DIM_NE] = "differ from",
      [OPR_DIM_LT] = "be less than",  [OPR_DIM_LE] = "be at most",
      [OPR_DIM_GT] = "be greater than", [OPR_DIM_GE] = "be at least"};
  if (a < 0 || b < 0) return OPR_OK;
  bool ok;
  switch (cmp) {
  case OPR_DIM_EQ: ok = a == b; break;
  case OPR_DIM_NE: ok = a != b; break;
  case OPR_DIM_LT: ok = a < b; break;
  case OPR_DIM_LE: ok = a <= b; break;
  case OPR_DIM_GT: ok = a > b; break;
  case OPR_DIM_GE: ok = a >= b; break;
  default:
    return opr_error(OPR_INVALID_ARGUMENT, "%s: opr_infer_require: invalid "
                     "comparison (value %d)", c->op->name, (int)cmp);
  }
  if (ok) return OPR_OK;
  char ta[256], tb[256];
  return opr_infer_error(c, "%s must %s %s",
                         side(ta, sizeof ta, a_what, a), verbs[cmp],
                         side(tb, sizeof tb, b_what, b));
}

opr_status opr_infer_require_in(opr_infer_ctx *c, int64_t x, int64_t lo,
                                int64_t hi, const char *x_what,
                                const char *lo_what, const char *hi_what) {
  if (x < 0 || ((lo < 0 || x >= lo) && (hi < 0 || x <= hi))) return OPR_OK;
  char tx[256], tlo[256], thi[256];
  return opr_infer_error(c, "%s must be in [%s, %s]",
                         side(tx, sizeof tx, x_what, x),
                         side(tlo, sizeof tlo, lo_what, lo),
                         side(thi, sizeof thi, hi_what, hi));
}
