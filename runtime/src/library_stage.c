/* Stages: the registrations a thread makes while it loads an op library
 * or hashes one's ops, collected instead of registered (see
 * library_internal.h). Per thread: a program registering its own ops on
 * another thread is no part of the load. */
#include "library_internal.h"
#include "op_diff.h"
#include "opr/library.h"

#include <stdlib.h>
#include <string.h>

static _Thread_local opr_stage *current;

void opr_stage_begin(opr_stage *st, const char *path) {
  *st = (opr_stage){.outer = current, .path = path, .open = true};
  current = st;
}

void opr_stage_close(opr_stage *st) { st->open = false; }

void opr_stage_end(opr_stage *st) {
  current = st->outer;
  for (size_t i = 0; i < st->nkernels; i++)
    opr_kernel_rec_free(st->kernels[i]);
  free(st->kernels);
  free(st->ops);
  *st = (opr_stage){0};
}

const opr_stage *opr_stage_loading(void) {
  const opr_stage *st = current;
  while (st && !st->path) st = st->outer;
  return st;
}

static opr_stage *collecting(void) {
  return current && current->open ? current : NULL;
}

/* `p` (an array of `size`-byte items, `count` of *cap used) with room
 * for one more; NULL when out of memory (p is then still valid). */
static void *room_for_one(void *p, size_t size, size_t count, size_t *cap) {
  if (count < *cap) return p;
  size_t n = *cap ? 2 * *cap : 16;
  void *grown = realloc(p, n * size);
  if (grown) *cap = n;
  return grown;
}

static opr_status stage_full(opr_stage *st, const char *what) {
  st->out_of_memory = true;
  return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory", what);
}

bool opr_library_stage_op(const opr_op_def *def, opr_status *s) {
  opr_stage *st = collecting();
  if (!st) return false;
  *s = OPR_OK;
  for (size_t i = 0; i < st->nops; i++)
    if (st->ops[i].def == def) return true; /* registered twice: once */
  opr_staged_op *ops =
      room_for_one(st->ops, sizeof *ops, st->nops, &st->ops_cap);
  if (!ops) {
    *s = stage_full(st, def->name);
    return true;
  }
  st->ops = ops;
  st->ops[st->nops] = (opr_staged_op){def, st->nops};
  st->nops++;
  return true;
}

bool opr_library_stage_kernel(const opr_kernel_def *kd, opr_status *s) {
  opr_stage *st = collecting();
  if (!st) return false;
  *s = OPR_OK;
  opr_kernel_rec **recs = room_for_one(st->kernels, sizeof *recs,
                                       st->nkernels, &st->kernels_cap);
  if (recs) st->kernels = recs;
  opr_kernel_rec *r = recs ? opr_kernel_rec_copy(kd) : NULL;
  if (!r) *s = stage_full(st, kd->op);
  else st->kernels[st->nkernels++] = r;
  return true;
}

static int by_name(const void *a, const void *b) {
  const opr_staged_op *x = a, *y = b;
  int c = strcmp(x->def->name, y->def->name);
  return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* `s` restated as the load's or the hash's: takes s. */
static opr_status restate(const opr_stage *st, opr_status s) {
  opr_status r =
      st->path ? opr_error(opr_status_code(s), "opr_load_library: '%s': %s",
                           st->path, opr_status_message(s))
               : opr_error(opr_status_code(s), "opr_library_hash_ops: %s",
                           opr_status_message(s));
  opr_status_free(s);
  return r;
}

opr_status opr_stage_settle(opr_stage *st) {
  if (st->out_of_memory)
    return restate(st, opr_error(OPR_RESOURCE_EXHAUSTED, "out of memory "
                                 "while collecting its ops and kernels"));
  if (st->nops > 1) qsort(st->ops, st->nops, sizeof *st->ops, by_name);
  size_t kept = 0;
  char diff[OPR_OP_DIFF_MAX];
  for (size_t i = 0; i < st->nops; i++) {
    const opr_op_def *def = st->ops[i].def;
    const opr_op_def *prev = kept ? st->ops[kept - 1].def : NULL;
    if (!prev || strcmp(prev->name, def->name) != 0)
      st->ops[kept++] = st->ops[i];
    else if (opr_op_def_hash(prev) != opr_op_def_hash(def))
      return restate(st, opr_error(OPR_INVALID_ARGUMENT, "two different "
                                   "definitions of op '%s' are registered "
                                   "(%s)", def->name,
                                   opr_op_def_diff(prev, def, diff,
                                                   sizeof diff)));
  }
  st->nops = kept;
  return OPR_OK;
}

opr_status opr_library_hash_ops(opr_status (*register_ops)(void),
                                uint64_t *hash) {
  if (!hash)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_library_hash_ops: hash is "
                     "NULL");
  opr_stage st;
  opr_stage_begin(&st, NULL);
  opr_status s = register_ops ? register_ops() : OPR_OK;
  if (!s) s = opr_stage_settle(&st);
  const opr_op_def **defs =
      !s && st.nops ? malloc(st.nops * sizeof *defs) : NULL;
  if (!s && st.nops && !defs)
    s = opr_error(OPR_RESOURCE_EXHAUSTED, "opr_library_hash_ops: out of "
                  "memory");
  for (size_t i = 0; defs && i < st.nops; i++) defs[i] = st.ops[i].def;
  if (!s) *hash = opr_op_defs_hash(defs, st.nops);
  free(defs);
  opr_stage_end(&st);
  return s;
}
