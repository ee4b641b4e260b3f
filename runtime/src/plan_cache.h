/* Per-thread plans of the generic entry (plan_cache.c). A call by
 * opr_execute_op that its op's general path ran without named attrs
 * leaves a plan: what the op's check resolved (the attrs), the kernel it
 * selected, and the shapes it inferred, keyed by everything those depend
 * on: the op and its kernel table (a registration publishes a new one;
 * published tables are never freed, so a pointer names one table), and
 * each input tensor's dtype, rank and dims. A later call with the same
 * key runs the kernel at once: the check, the selection and the shape
 * function would give the same answers (they read no input values: a
 * shape function that reads one leaves no plan).
 *
 * Plans hold no tensors and no pointers into a call, only scalar attrs
 * (int, float, bool, type, string defaults of the op def). They live in
 * this thread's table, so no lock or atomic is needed; the table is
 * freed when the thread exits. */
#ifndef OPR_PLAN_CACHE_H
#define OPR_PLAN_CACHE_H

#include "internal.h"

/* Bounds of a plan: calls beyond them take the general path each time. */
enum {
  OPR_PLAN_TENSORS = 4, /* input tensors, all arguments together */
  OPR_PLAN_ARGS = 4,    /* input and output arguments, each */
  OPR_PLAN_DIMS = 4,    /* rank of every input and output */
  OPR_PLAN_ATTRS = 8,
  OPR_PLAN_OUTPUTS = 4, /* output tensors */
  OPR_PLAN_SLOTS = 8    /* plans a thread keeps (one per slot) */
};

typedef struct opr_plan_shape {
  opr_dtype dtype;
  int rank;
  int64_t dims[OPR_PLAN_DIMS];
} opr_plan_shape;

typedef struct opr_plan {
  const opr_op_def *op; /* NULL: no plan in this slot */
  const struct opr_kernel_table *table;
  const opr_kernel_rec *kernel;
  bool preallocate; /* outputs from `out` (else the kernel allocates) */
  unsigned char in_counts[OPR_PLAN_ARGS], out_counts[OPR_PLAN_ARGS];
  unsigned char nin, nout; /* input and output tensors */
  opr_plan_shape in[OPR_PLAN_TENSORS];
  opr_plan_shape out[OPR_PLAN_OUTPUTS];
  opr_attr_value attrs[OPR_PLAN_ATTRS];
} opr_plan;

typedef struct opr_plans {
  opr_plan slot[OPR_PLAN_SLOTS];
  /* Planned calls running on this thread: while one runs (its kernel may
   * make calls of its own), no plan is replaced, so that its call can
   * read the attrs in its plan. */
  unsigned busy;
} opr_plans;

/* This thread's plans; NULL until its first plan, then a retired table
 * (never written) once the thread has exited. */
extern _Thread_local opr_plans *opr_plans_mine OPR_TLS_FAST;

static inline size_t opr_plan_slot(const opr_op_def *op) {
  uintptr_t p = (uintptr_t)op >> 4;
  return (size_t)((p ^ (p >> 5)) % OPR_PLAN_SLOTS);
}

/* The plan for `op` whose key the inputs match, or NULL. */
opr_plan *opr_plan_find(opr_plans *ps, const opr_op_def *op,
                        const opr_input *inputs);

/* What the general path found for a call (opr_invoke_checked_plan). */
typedef struct opr_plan_info {
  const struct opr_kernel_table *table;
  const opr_kernel_rec *kernel;
  bool preallocated; /* from shapes inferred without reading values */
  bool values_read;
} opr_plan_info;

/* opr_invoke_checked, and what a plan of the call would hold in *info
 * (set once the kernel is selected and the shapes inferred). */
opr_status opr_invoke_checked_plan(opr_context *ctx, opr_call *call,
                                   opr_plan_info *info);

/* This thread may have a plan for `op` (one load and a compare). */
static inline bool opr_plan_maybe(const opr_op_def *op) {
  const opr_plans *ps = opr_plans_mine;
  return ps && ps->slot[opr_plan_slot(op)].op == op;
}

/* opr_execute_op with no named attrs by this thread's plan of the call,
 * where there is one for these inputs and the outputs have room; else
 * opr_execute_op_general, which also says why a call fails. */
opr_status opr_plan_execute(opr_context *ctx, const opr_op_def *op,
                            const opr_input *inputs, size_t ninputs,
                            opr_tensor **outputs, size_t max_outputs,
                            size_t *noutputs);
/* opr_execute_op with no named attrs, by the general path (execute.c). */
opr_status opr_execute_op_general(opr_context *ctx, const opr_op_def *op,
                                  const opr_input *inputs, size_t ninputs,
                                  opr_tensor **outputs, size_t max_outputs,
                                  size_t *noutputs);

/* Keeps the plan of `call`, which the general path ran successfully on
 * the host, when it fits the bounds. */
void opr_plan_store(const opr_call *call, const opr_plan_info *info);

/* Plans kept by this thread (tests). */
size_t opr_plan_thread_count(void);

#endif
