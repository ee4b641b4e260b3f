/* Folds of the shape language (opr/shape_expr.h): sum, product, min, max,
 * merge, join, broadcast, all, any and [D for k < N], one element at a
 * time, with the contract's results for unknown elements and for none. */
#include "shape_expr_internal.h"

#include <inttypes.h>
#include <string.h>

typedef char shape_text[256];

opr_status opr_sx_fold_init_dims(opr_infer_ctx *c, opr_sx_fold *f,
                                 size_t n) {
  int64_t *dims;
  memset(f, 0, sizeof *f);
  f->op = OPR_FOLD_DIMS;
  f->num = opr_sx_unknown_num();
  f->cond = OPR_COND_FALSE;
  f->cap = n < OPR_MAX_RANK ? n : OPR_MAX_RANK;
  opr_status s = opr_sx_alloc(c, f->cap, &dims);
  f->shape = (opr_shape){0, dims};
  return s;
}

/* ---- numbers ---- */

OPR_COLD static opr_status merge_error(opr_infer_ctx *c, int64_t a,
                                       int64_t b, const char *what) {
  return opr_infer_error(c, "%s: dims %" PRId64 " and %" PRId64 " do not "
                         "merge", sx_what(what), a, b);
}

static opr_status push_dim(opr_infer_ctx *c, opr_sx_fold *f, opr_num x,
                           const char *what) {
  int64_t d;
  opr_status s = opr_sx_as_dim(c, x, what, &d);
  if (s) return s;
  if ((size_t)f->shape.rank >= f->cap)
    return opr_infer_error(c, "%s has more dims than the highest rank %d",
                           sx_what(what), OPR_MAX_RANK);
  ((int64_t *)f->shape.dims)[f->shape.rank++] = d;
  return OPR_OK;
}

static opr_status fold_merge_num(opr_infer_ctx *c, opr_sx_fold *f,
                                 opr_num x, const char *what) {
  int64_t d;
  opr_status s = opr_sx_as_dim(c, x, what, &d);
  if (s || d < 0) return s;
  if (f->num.known && f->num.v != d) return merge_error(c, f->num.v, d, what);
  f->num = opr_sx_dim_num(d);
  return OPR_OK;
}

static void fold_join_num(opr_sx_fold *f, opr_num x) {
  if (f->count == 0) f->num = x;
  else if (f->num.known && x.known && f->num.v == x.v)
    f->num.direct = f->num.direct && x.direct;
  else f->partial = true;
}

/* min, max: the least/greatest known element; `partial` notes unknowns. */
static void fold_extreme(opr_sx_fold *f, opr_num x) {
  if (!x.known) {
    f->partial = true;
    return;
  }
  bool better = f->op == OPR_FOLD_MIN ? x.v < f->num.v : x.v > f->num.v;
  if (!f->num.known || better) f->num = opr_sx_computed(x);
}

opr_status opr_sx_fold_num_general(opr_infer_ctx *c, opr_sx_fold *f,
                                   opr_num x, const char *what) {
  opr_status s = OPR_OK;
  switch (f->op) {
  case OPR_FOLD_DIMS: s = push_dim(c, f, x, what); break;
  case OPR_FOLD_SUM:
    if (!x.known) f->partial = true;
    else s = opr_sx_add(c, f->num, x, what, &f->num);
    break;
  case OPR_FOLD_PRODUCT:
    if (!x.known) f->partial = true;
    else if (x.v == 0) f->zero = true;
    else if (!f->overflow)
      f->overflow = __builtin_mul_overflow(f->num.v, x.v, &f->num.v);
    break;
  case OPR_FOLD_MIN:
  case OPR_FOLD_MAX: fold_extreme(f, x); break;
  case OPR_FOLD_MERGE: s = fold_merge_num(c, f, x, what); break;
  case OPR_FOLD_JOIN: fold_join_num(f, x); break;
  default:
    s = opr_infer_error(c, "%s: a number folded by a fold of another kind "
                        "(%d)", sx_what(what), (int)f->op);
  }
  f->count++;
  return s;
}

opr_status opr_sx_fold_end_num_general(opr_infer_ctx *c, opr_sx_fold *f,
                                       const char *what, opr_num *out) {
  *out = opr_sx_unknown_num();
  if (f->count == 0 && !f->unknown &&
      (f->op == OPR_FOLD_MIN || f->op == OPR_FOLD_MAX))
    return opr_infer_error(c, "%s: %s of no elements", sx_what(what),
                           f->op == OPR_FOLD_MIN ? "min" : "max");
  if (f->op == OPR_FOLD_PRODUCT && f->zero) {
    *out = opr_sx_dim_num(0); /* a 0 decides it, whatever the others are */
    return OPR_OK;
  }
  if (f->unknown) return OPR_OK;
  switch (f->op) {
  case OPR_FOLD_PRODUCT:
    if (!f->partial && f->overflow)
      return opr_infer_error(c, "%s overflows", sx_what(what));
    break;
  case OPR_FOLD_MIN: /* unknowns are dims: a known 0 is the least */
    if (f->partial && f->num.known && f->num.v == 0) {
      *out = f->num;
      return OPR_OK;
    }
    break;
  default: break;
  }
  if (!f->partial) *out = f->op == OPR_FOLD_JOIN ? f->num
                                                 : opr_sx_computed(f->num);
  return OPR_OK;
}

/* ---- shapes ---- */

/* One position of broadcast (TensorFlow's
 * BroadcastBinaryOpOutputShapeFnHelper); false when x and y conflict. */
static bool broadcast_dim(int64_t x, int64_t y, int64_t *out) {
  if (x < 0 || y < 0) {
    *out = x > 1 ? x : y > 1 ? y : x == 1 ? y : y == 1 ? x : OPR_UNKNOWN_DIM;
    return true;
  }
  if (x == y || y == 1) *out = x;
  else if (x == 1) *out = y;
  else return false;
  return true;
}

static bool same_dims(const int64_t *a, const int64_t *b, int n) {
  int i = 0;
  while (i < n && a[i] == b[i]) i++;
  return i == n;
}

OPR_COLD static opr_status broadcast_error(opr_infer_ctx *c, opr_shape a,
                                           opr_shape b, const char *what) {
  shape_text ta, tb;
  return opr_infer_error(c, "%s: %s and %s do not broadcast", sx_what(what),
                         opr_infer_shape_text(a, ta, sizeof ta),
                         opr_infer_shape_text(b, tb, sizeof tb));
}

/* Known ranks. The result is made in the context's storage, which is
 * given back when it equals a or b (their dims are used instead). */
static opr_status broadcast(opr_infer_ctx *c, opr_shape a, opr_shape b,
                            const char *what, opr_shape *out) {
  int rank = a.rank > b.rank ? a.rank : b.rank;
  if (a.rank == 0 || b.rank == 0) { /* [] changes nothing */
    *out = a.rank == 0 ? b : a;
    return OPR_OK;
  }
  int64_t *r;
  opr_status s = opr_sx_alloc(c, (size_t)rank, &r);
  if (s) return s;
  for (int i = 1; i <= rank; i++) {
    int64_t x = i <= a.rank ? a.dims[a.rank - i] : 1;
    int64_t y = i <= b.rank ? b.dims[b.rank - i] : 1;
    if (!broadcast_dim(x, y, &r[rank - i])) {
      opr_sx_give_back(c, r, (size_t)rank);
      return broadcast_error(c, a, b, what);
    }
  }
  if (a.rank == rank && same_dims(a.dims, r, rank)) *out = a;
  else if (b.rank == rank && same_dims(b.dims, r, rank)) *out = b;
  else {
    *out = (opr_shape){rank, r};
    return OPR_OK;
  }
  opr_sx_give_back(c, r, (size_t)rank);
  return OPR_OK;
}

opr_status opr_sx_broadcast(opr_infer_ctx *c, opr_shape a, opr_shape b,
                            const char *what, opr_shape *out) {
  if (a.rank < 0 || b.rank < 0) { /* the fold's partial result */
    *out = opr_shape_unknown();
    return OPR_OK;
  }
  return broadcast(c, a, b, what, out);
}

OPR_COLD static opr_status shape_merge_error(opr_infer_ctx *c, opr_shape a,
                                             opr_shape b, const char *what) {
  shape_text ta, tb;
  return opr_infer_error(c, "%s: %s and %s do not merge", sx_what(what),
                         opr_infer_shape_text(a, ta, sizeof ta),
                         opr_infer_shape_text(b, tb, sizeof tb));
}

opr_status opr_sx_fold_shape(opr_infer_ctx *c, opr_sx_fold *f, opr_shape x,
                             const char *what) {
  opr_status s = OPR_OK;
  if (f->op == OPR_FOLD_BROADCAST) { /* the known ones must still agree */
    if (x.rank < 0) f->partial = true;
    else if (f->shape.rank == 0) f->shape = x; /* [] broadcasts to x */
    else if ((s = broadcast(c, f->shape, x, what, &f->shape))) return s;
    f->count++;
    return OPR_OK;
  }
  if (f->count++ == 0 && f->op != OPR_FOLD_DIMS) {
    f->shape = x;
    return OPR_OK;
  }
  switch (f->op) {
  case OPR_FOLD_MERGE:
    if (!opr_shape_compatible(f->shape, x))
      return shape_merge_error(c, f->shape, x, what);
    return opr_infer_merge(c, f->shape, x, NULL, &f->shape);
  case OPR_FOLD_JOIN: return opr_sx_join_shapes(c, f->shape, x, &f->shape);
  default:
    s = opr_infer_error(c, "%s: a shape folded by a fold of another kind "
                        "(%d)", sx_what(what), (int)f->op);
  }
  return s;
}

opr_status opr_sx_fold_end_shape(opr_infer_ctx *c, opr_sx_fold *f,
                                 const char *what, opr_shape *out) {
  (void)c;
  (void)what;
  *out = f->unknown || f->partial ? opr_shape_unknown() : f->shape;
  if (f->op == OPR_FOLD_DIMS && out->rank == 0) out->dims = NULL;
  return OPR_OK;
}

/* ---- conditions ---- */

opr_cond opr_sx_fold_end_cond(opr_sx_fold *f) {
  if (f->cond == (f->op == OPR_FOLD_ALL ? OPR_COND_FALSE : OPR_COND_TRUE))
    return f->cond; /* decided by an element */
  return f->unknown || f->partial ? OPR_COND_UNDECIDED : f->cond;
}

/* ---- the N of a comprehension ---- */

OPR_COLD opr_status opr_sx_count_error(opr_infer_ctx *c, opr_num n,
                                       const char *what) {
  if (n.v < 0)
    return opr_infer_error(c, "%s: the count %" PRId64 " is negative",
                           sx_what(what), n.v);
  return opr_infer_error(c, "%s: the count %" PRId64 " is beyond the "
                         "limit of %d elements", sx_what(what), n.v,
                         OPR_SX_MAX_COUNT);
}
