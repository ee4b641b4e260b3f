/* What the registries and the library loader share. */
#ifndef OPR_LIBRARY_INTERNAL_H
#define OPR_LIBRARY_INTERNAL_H

#include "internal.h"

/* ---- staging (library_stage.c) ----
 * While a thread loads an op library (from before dlopen, which runs the
 * library's constructors, until its ops are committed) or hashes a
 * library's ops, what it registers is collected in a stage instead of
 * reaching the registries: a refused library then leaves no pointer into
 * its memory anywhere. Stages nest (a hash inside a load). */

/* An op collected, with the order it came in (so that of two identical
 * definitions of one name the first is kept, whatever the sort does). */
typedef struct opr_staged_op {
  const opr_op_def *def;
  size_t seq;
} opr_staged_op;

typedef struct opr_stage {
  struct opr_stage *outer;
  const char *path; /* the library being loaded; NULL when hashing */
  bool open;        /* collecting; false once the library is committed */
  bool out_of_memory; /* a registration could not be collected */
  opr_staged_op *ops; /* sorted by name once settled */
  size_t nops, ops_cap;
  opr_kernel_rec **kernels; /* copies, not resolved; NULL once handed on */
  size_t nkernels, kernels_cap;
} opr_stage;

/* Makes `st` this thread's stage, collecting, for the library at `path`
 * (NULL: hashing). */
void opr_stage_begin(opr_stage *st, const char *path);
/* Stops collecting: registrations go to the registries again, but the
 * thread still counts as loading (see opr_stage_loading). */
void opr_stage_close(opr_stage *st);
/* Pops `st` (this thread's innermost stage) and frees what it holds. */
void opr_stage_end(opr_stage *st);
/* The innermost load in progress on this thread, or NULL. */
const opr_stage *opr_stage_loading(void);
/* Sorts the ops by name and drops repeated identical definitions; an
 * op name defined twice differently is INVALID_ARGUMENT naming it (and
 * `path` when loading), as is a registration that ran out of memory. */
opr_status opr_stage_settle(opr_stage *st);

/* While this thread's stage collects, collects `def` (already checked)
 * and returns true, *s the outcome; returns false otherwise (the op
 * registers as usual). */
bool opr_library_stage_op(const opr_op_def *def, opr_status *s);
/* The same for a kernel definition (already checked): a copy is kept,
 * resolved against its op when the library commits. */
bool opr_library_stage_kernel(const opr_kernel_def *kd, opr_status *s);

/* ---- the op registry (registry.c), with the registry lock held ---- */

/* opr_register_op for a checked def. */
opr_status opr_register_op_locked(const opr_op_def *def);
/* Room for `more` new ops, so that registering up to that many cannot
 * fail; false when out of memory. */
bool opr_registry_reserve_locked(size_t more);

/* ---- twins (registry_alias.c), registry lock held ---- */

/* Binds `def`, a table defined identically to the registered `canon`
 * (another table of the same name), to canon: calls through def use
 * canon's kernels. Binding it again is a no-op. */
opr_status opr_twin_bind_locked(const opr_op_def *canon,
                                const opr_op_def *def);
/* Room for `more` twins, so that binding that many cannot fail. */
bool opr_twins_reserve_locked(size_t more);
/* Publishes canon's new kernel table `t` to its twins too. */
void opr_twins_publish_locked(const opr_op_def *canon,
                              struct opr_kernel_table *t);

/* ---- kernel records (kernel_registry.c) ---- */

/* A record holding a deep copy of `kd` (its function pointer aside);
 * NULL when out of memory. */
opr_kernel_rec *opr_kernel_rec_copy(const opr_kernel_def *kd);
/* Resolves the record's constraints and host-memory names against `op`. */
opr_status opr_kernel_rec_resolve(opr_kernel_rec *r, const opr_op_def *op);
/* Publishes a resolved record for `op` (which takes it, even on failure);
 * registry lock held. */
opr_status opr_kernel_publish_locked(const opr_op_def *op,
                                     opr_kernel_rec *r);
void opr_kernel_rec_free(opr_kernel_rec *r);

/* ---- hashing (library_hash.c) ---- */

/* For two definitions of one name that hash differently: which part
 * differs, as "their inputs differ". */
const char *opr_op_def_difference(const opr_op_def *a, const opr_op_def *b);
/* The hash of one attr value (NULL: none), as the definition hash has it. */
uint64_t opr_attr_value_hash(const opr_attr_value *v);

#endif
