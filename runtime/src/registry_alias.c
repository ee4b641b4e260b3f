/* Twins: a second table of a registered op with an identical definition
 * (same opr_op_def_hash), typically a host that compiled a library's spec
 * for its typed wrappers. The twin is not listed or found by name; it
 * binds to the registered (canonical) op: its state is marked registered
 * and always holds the canonical op's kernel table, so that a call through
 * either table finds the same kernels with the same one atomic load. */
#include "library_internal.h"

#include <stdlib.h>

typedef struct twin {
  const opr_op_def *canon, *twin;
} twin;

static twin *twins; /* under the registry lock */
static size_t ntwins, twins_cap;

bool opr_twins_reserve_locked(size_t more) {
  if (ntwins + more <= twins_cap) return true;
  size_t cap = twins_cap ? twins_cap : 16;
  while (cap < ntwins + more) cap *= 2;
  twin *grown = realloc(twins, cap * sizeof *grown);
  if (!grown) return false;
  twins = grown;
  twins_cap = cap;
  return true;
}

opr_status opr_twin_bind_locked(const opr_op_def *canon,
                                const opr_op_def *def) {
  for (size_t i = 0; i < ntwins; i++)
    if (twins[i].twin == def) return OPR_OK; /* bound already */
  if (!opr_twins_reserve_locked(1))
    return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory", def->name);
  twins[ntwins++] = (twin){canon, def};
  opr_state_publish_kernels(def->state,
                            opr_state_kernels(canon->state,
                                              __ATOMIC_RELAXED));
  opr_state_set_registered(def->state);
  return OPR_OK;
}

void opr_twins_publish_locked(const opr_op_def *canon,
                              struct opr_kernel_table *t) {
  for (size_t i = 0; i < ntwins; i++)
    if (twins[i].canon == canon)
      opr_state_publish_kernels(twins[i].twin->state, t);
}
