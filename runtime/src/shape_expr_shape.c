/* Shape forms of the shape language (opr/shape_expr.h): literal shapes,
 * unknown(n), dims, slices, ++, set, insert, remove and product. Results
 * borrow from their operands where they can (a slice allocates nothing). */
#include "shape_expr_internal.h"

#include <inttypes.h>
#include <string.h>

opr_status opr_sx_shape(opr_infer_ctx *c, const opr_num *dims, size_t n,
                        const char *const *whats, opr_shape *out) {
  int64_t *d;
  *out = opr_shape_unknown();
  if (n > OPR_MAX_RANK)
    return opr_infer_error(c, "a shape of %zu dims, more than the highest "
                           "rank %d", n, OPR_MAX_RANK);
  opr_status s = opr_sx_alloc(c, n, &d);
  size_t k = 0;
  /* Known dims (the usual case) straight in; the rest by the rules. */
  while (!s && k < n && dims[k].known && dims[k].v >= 0) {
    d[k] = dims[k].v;
    k++;
  }
  for (; !s && k < n; k++)
    s = opr_sx_as_dim(c, dims[k], whats ? whats[k] : NULL, &d[k]);
  if (!s) *out = (opr_shape){(int)n, n ? d : NULL};
  return s;
}

opr_status opr_sx_unknown_rank(opr_infer_ctx *c, opr_num n, const char *what,
                               opr_shape *out) {
  *out = opr_shape_unknown();
  if (!n.known) return OPR_OK;
  if (n.v < 0)
    return opr_infer_error(c, "%s: a rank of %" PRId64 " is negative",
                           sx_what(what), n.v);
  return opr_sx_unknown_of_rank(c, n.v, what, out);
}

OPR_COLD opr_status opr_sx_dim_out_of_range(opr_infer_ctx *c, opr_shape s,
                                            opr_num i, const char *what) {
  int axis;
  return opr_sx_axis(c, i.v, s.rank, 0, what, &axis);
}

opr_status opr_sx_append(opr_infer_ctx *c, opr_shape a, opr_shape b,
                         opr_shape *out) {
  *out = opr_shape_unknown();
  if (a.rank < 0 || b.rank < 0) return OPR_OK;
  if (b.rank == 0 || a.rank == 0) {
    *out = b.rank == 0 ? a : b;
    return OPR_OK;
  }
  if (a.rank + b.rank > OPR_MAX_RANK)
    return opr_infer_error(c, "a shape of rank %d ++ one of rank %d has more "
                           "dims than the highest rank %d", a.rank, b.rank,
                           OPR_MAX_RANK);
  int64_t *d;
  opr_status s = opr_sx_alloc(c, (size_t)(a.rank + b.rank), &d);
  if (s) return s;
  for (int i = 0; i < a.rank; i++) d[i] = a.dims[i]; /* few: no memcpy */
  for (int i = 0; i < b.rank; i++) d[a.rank + i] = b.dims[i];
  *out = (opr_shape){a.rank + b.rank, d};
  return OPR_OK;
}

opr_status opr_sx_append_dims(opr_infer_ctx *c, opr_shape a,
                              const opr_num *dims, size_t n,
                              const char *const *whats, opr_shape *out) {
  size_t k = 0;
  while (k < n && dims[k].known && dims[k].v >= 0) k++;
  /* Known dims after a known rank (the usual case): one copy. */
  if (k == n && n > 0 && a.rank >= 0 &&
      (size_t)a.rank + n <= OPR_MAX_RANK) {
    int64_t *d;
    opr_status s = opr_sx_alloc(c, (size_t)a.rank + n, &d);
    *out = opr_shape_unknown();
    if (s) return s;
    for (int i = 0; i < a.rank; i++) d[i] = a.dims[i];
    for (k = 0; k < n; k++) d[a.rank + k] = dims[k].v;
    *out = (opr_shape){a.rank + (int)n, d};
    return OPR_OK;
  }
  opr_shape b;
  opr_status s = opr_sx_shape(c, dims, n, whats, &b);
  if (s) {
    *out = opr_shape_unknown();
    return s;
  }
  return opr_sx_append(c, a, b, out);
}

/* A copy of `s` with dims [0, at) kept, then a hole of one dim (insert:
 * grow 1, set: grow 0) or none (remove: grow -1), then the dims after
 * `at` (from `at` itself for insert). The caller fills the hole. */
static opr_status rebuild(opr_infer_ctx *c, opr_shape s, int at, int grow,
                          opr_shape *out) {
  int rank = s.rank + grow;
  int src = at + (grow <= 0), dst = at + (grow >= 0);
  int64_t *d;
  opr_status st = opr_sx_alloc(c, (size_t)rank, &d);
  if (st) return st;
  if (at > 0) memcpy(d, s.dims, (size_t)at * sizeof *d);
  if (s.rank > src)
    memcpy(d + dst, s.dims + src, (size_t)(s.rank - src) * sizeof *d);
  *out = (opr_shape){rank, rank ? d : NULL};
  return OPR_OK;
}

/* set/insert/remove: rank `s.rank + grow`, axis checked unless unknown;
 * an unknown axis leaves every dim unknown. */
static opr_status edit(opr_infer_ctx *c, opr_shape s, opr_num i, int grow,
                       int64_t dim, const char *what, opr_shape *out) {
  int at;
  *out = opr_shape_unknown();
  if (s.rank < 0) return OPR_OK;
  if (!i.known) {
    if (s.rank + grow < 0) /* remove from a scalar */
      return opr_infer_error(c, "%s: a scalar has no dim to remove",
                             sx_what(what));
    return opr_sx_unknown_of_rank(c, s.rank + grow, what, out);
  }
  opr_status st = opr_sx_axis(c, i.v, s.rank, grow > 0, what, &at);
  if (!st && s.rank + grow > OPR_MAX_RANK)
    st = opr_infer_error(c, "%s has more dims than the highest rank %d",
                         sx_what(what), OPR_MAX_RANK);
  if (!st) st = rebuild(c, s, at, grow, out);
  if (!st && grow >= 0) ((int64_t *)out->dims)[at] = dim;
  return st;
}

opr_status opr_sx_set(opr_infer_ctx *c, opr_shape s, opr_num i, opr_num d,
                      const char *what, opr_shape *out) {
  int64_t dim;
  opr_status st = opr_sx_as_dim(c, d, what, &dim);
  if (st) {
    *out = opr_shape_unknown();
    return st;
  }
  return edit(c, s, i, 0, dim, what, out);
}

opr_status opr_sx_insert(opr_infer_ctx *c, opr_shape s, opr_num i,
                         opr_num d, const char *what, opr_shape *out) {
  int64_t dim;
  opr_status st = opr_sx_as_dim(c, d, what, &dim);
  if (st) {
    *out = opr_shape_unknown();
    return st;
  }
  return edit(c, s, i, 1, dim, what, out);
}

opr_status opr_sx_remove(opr_infer_ctx *c, opr_shape s, opr_num i,
                         const char *what, opr_shape *out) {
  return edit(c, s, i, -1, 0, what, out);
}

opr_status opr_sx_product(opr_infer_ctx *c, opr_shape s, const char *what,
                          opr_num *out) {
  *out = opr_sx_unknown_num();
  if (s.rank < 0) return OPR_OK;
  bool unknown = false, overflow = false;
  int64_t p = 1;
  for (int i = 0; i < s.rank; i++) {
    if (s.dims[i] == 0) {
      *out = opr_sx_dim_num(0); /* 0 whatever the others are */
      return OPR_OK;
    }
    if (s.dims[i] < 0) unknown = true;
    else if (!overflow) overflow = __builtin_mul_overflow(p, s.dims[i], &p);
  }
  if (unknown) return OPR_OK;
  if (overflow)
    return opr_infer_error(c, "%s overflows: the dims multiply past %" PRId64,
                           sx_what(what), INT64_MAX);
  *out = opr_sx_dim_num(p);
  return OPR_OK;
}
