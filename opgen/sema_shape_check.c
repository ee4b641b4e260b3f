/* Statements that can never hold, found from literals alone: an axis
 * beyond a literal rank, a negative literal index where none may be, a
 * literal divisor, stride or rank below what is allowed. Each is an
 * error at the spec (op-language.md, "Axes"). */
#include "sema_shape_internal.h"

#include <inttypes.h>

/* The rank of `s` when literals alone fix it, else -1: [...],
 * unknown(n), [D for k < n] without `if`, and what ++, set, insert and
 * remove make of those. */
static int64_t literal_rank(const og_sexpr *s) {
  int64_t a, b;
  switch (s->kind) {
  case OG_SX_LIST: return (int64_t)s->nargs;
  case OG_SX_UNKNOWN_RANK:
    return s->args[0].kind == OG_SX_INT && s->args[0].i >= 0 ? s->args[0].i
                                                             : -1;
  case OG_SX_COMPREHENSION:
    if (s->fold != OG_FOLD_DIMS || s->nargs != 2) return -1;
    return s->args[0].kind == OG_SX_INT && s->args[0].i >= 0 ? s->args[0].i
                                                             : -1;
  case OG_SX_CONCAT_SHAPES:
    a = literal_rank(&s->args[0]), b = literal_rank(&s->args[1]);
    return a < 0 || b < 0 || a > INT32_MAX || b > INT32_MAX ? -1 : a + b;
  case OG_SX_SET: return literal_rank(&s->args[0]);
  case OG_SX_INSERT:
    a = literal_rank(&s->args[0]);
    return a < 0 || a > INT32_MAX ? -1 : a + 1;
  case OG_SX_REMOVE:
    a = literal_rank(&s->args[0]);
    return a <= 0 ? -1 : a - 1;
  default: return -1;
  }
}

bool og_sx_check_axis(og_sx *x, const og_sexpr *s, const og_sexpr *i,
                      bool insert) {
  int64_t n = literal_rank(s);
  if (n < 0 || i->kind != OG_SX_INT) return true;
  int64_t lo = insert ? -n - 1 : -n, hi = insert ? n : n - 1;
  if (i->i >= lo && i->i <= hi) return true;
  if (lo > hi) {
    og_diag_report(x->s->diag, OG_SEV_ERROR, i->pos,
                   "'%s' has rank 0: no axis lies in it (always an error)",
                   s->text);
    return false;
  }
  og_diag_report(x->s->diag, OG_SEV_ERROR, i->pos,
                 "axis %" PRId64 " is outside [%" PRId64 ", %" PRId64
                 "] for the rank %" PRId64 " of '%s': always an error",
                 i->i, lo, hi, n, s->text);
  return false;
}

bool og_sx_check_nonneg(og_sx *x, const og_sexpr *i, const char *what) {
  if (i->kind != OG_SX_INT || i->i >= 0) return true;
  og_diag_report(x->s->diag, OG_SEV_ERROR, i->pos,
                 "%s is never negative (%" PRId64 " does not count from the "
                 "end here): always an error", what, i->i);
  return false;
}

bool og_sx_check_min(og_sx *x, const og_sexpr *v, int64_t min,
                     const char *what) {
  if (v->kind != OG_SX_INT || v->i >= min) return true;
  og_diag_report(x->s->diag, OG_SEV_ERROR, v->pos,
                 "%s of %" PRId64 " is always an error (it must be at least "
                 "%" PRId64 ")", what, v->i, min);
  return false;
}
