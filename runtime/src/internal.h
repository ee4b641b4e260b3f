/* What the runtime's files share and nobody else sees. */
#ifndef OPR_INTERNAL_H
#define OPR_INTERNAL_H

#include "opr/opr.h"

#include <stdbool.h>
#include <stddef.h>

struct opr_context {
  opr_device_kind device;
};

/* A type constraint with its attr name resolved to an index. */
typedef struct opr_kernel_match {
  size_t attr;
  opr_dtype_set allowed;
} opr_kernel_match;

/* A registered kernel: the copied definition (strings and arrays owned by
 * the record) and its constraints resolved for the hot path. Never freed:
 * a published table may still be read by a running call. */
typedef struct opr_kernel_rec {
  opr_kernel_def def;
  size_t nmatch;
  opr_kernel_match match[];
} opr_kernel_rec;

/* An op's kernels in selection order (priority high to low, then
 * registration order). Immutable once published through
 * opr_op_state.kernels; a registration publishes a new table. */
struct opr_kernel_table {
  struct opr_kernel_table *retired_next; /* kept reachable once replaced */
  size_t count;
  const opr_kernel_rec *recs[];
};

/* True when dt is a dtype value present in `set`; safe for any value. */
static inline bool opr_dtype_in_set(opr_dtype dt, opr_dtype_set set) {
  return (unsigned)dt < 64 && (set >> (unsigned)dt & 1u);
}

/* One lock guards both registries (registration is rare; calls never
 * take it). */
void opr_registry_lock(void);
void opr_registry_unlock(void);
/* opr_find_op with the lock already held. */
const opr_op_def *opr_find_op_locked(const char *name);

/* "Op: attr 'a' must be int, got string". */
opr_status opr_attr_kind_error(const opr_op_def *op, const opr_attr_def *d,
                               const opr_attr_value *v);

/* opr_invoke after the op's check: outputs, kernel, run. */
opr_status opr_invoke_checked(opr_context *ctx, opr_call *call);

#endif
