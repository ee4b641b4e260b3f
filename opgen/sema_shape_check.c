/* Statements that can never hold, found from literals alone: an axis
 * beyond a literal rank, a negative literal index where none may be, a
 * literal divisor, stride or rank below what is allowed. Each is an
 * error at the spec (op-language.md, "Axes"). */
#include "sema_shape_internal.h"

#include <inttypes.h>

bool og_sx_check_axis(og_sx *x, const og_sexpr *s, const og_sexpr *i,
                      bool insert) {
  if (s->kind != OG_SX_LIST || i->kind != OG_SX_INT) return true;
  int64_t n = (int64_t)s->nargs;
  int64_t lo = insert ? -n - 1 : -n, hi = insert ? n : n - 1;
  if (i->i >= lo && i->i <= hi) return true;
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
