/* The kernel registry. Each op's kernels form an immutable table
 * published through the op's state with one atomic store, so a call
 * selects a kernel without a lock; registration builds a new table under
 * the registry lock. Replaced tables and all records stay allocated (a
 * running call may still read them). */
#include "internal.h"
#include "library_internal.h"

#include <stdlib.h>
#include <string.h>

/* Tables replaced by newer ones, reachable from here. */
static struct opr_kernel_table *retired_tables;

static char *copy_text(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  return c ? memcpy(c, s, n) : NULL;
}

void opr_kernel_rec_free(opr_kernel_rec *r) {
  if (!r) return;
  for (size_t i = 0; i < r->def.nconstraints; i++)
    free((char *)r->def.constraints[i].attr);
  for (size_t i = 0; i < r->def.nhost_memory; i++)
    free((char *)r->def.host_memory[i]);
  free((void *)r->def.constraints);
  free((void *)r->def.host_memory);
  free((char *)r->def.op);
  free((char *)r->def.label);
  free(r);
}

/* Deep copy of the definition's strings and arrays into r->def (NULL
 * names stay NULL, for rec_resolve to report). */
static bool rec_copy(opr_kernel_rec *r, const opr_kernel_def *kd) {
  size_t nc = kd->nconstraints, nh = kd->nhost_memory;
  opr_type_constraint *c = nc ? calloc(nc, sizeof *c) : NULL;
  const char **h = nh ? calloc(nh, sizeof *h) : NULL;
  r->def = *kd;
  r->def.constraints = c;
  r->def.host_memory = h;
  r->def.nconstraints = c ? nc : 0;
  r->def.nhost_memory = h ? nh : 0;
  r->def.op = copy_text(kd->op);
  r->def.label = copy_text(kd->label);
  bool ok = (c || !nc) && (h || !nh) && r->def.op &&
            (r->def.label || !kd->label);
  for (size_t i = 0; c && i < nc; i++) {
    c[i] = kd->constraints[i];
    c[i].attr = copy_text(kd->constraints[i].attr);
    ok = ok && (c[i].attr || !kd->constraints[i].attr);
  }
  for (size_t i = 0; h && i < nh; i++) {
    h[i] = copy_text(kd->host_memory[i]);
    ok = ok && (h[i] || !kd->host_memory[i]);
  }
  return ok;
}

static bool is_arg(const opr_op_def *op, const char *name) {
  for (size_t i = 0; i < op->ninputs; i++)
    if (strcmp(op->inputs[i].name, name) == 0) return true;
  for (size_t i = 0; i < op->noutputs; i++)
    if (strcmp(op->outputs[i].name, name) == 0) return true;
  return false;
}

/* Resolves constraints to attr indexes and checks host-memory names. */
static opr_status rec_resolve(opr_kernel_rec *r, const opr_op_def *op,
                              const opr_kernel_def *kd) {
  for (size_t i = 0; i < kd->nconstraints; i++) {
    const char *name = kd->constraints[i].attr;
    size_t a = 0;
    while (a < op->nattrs &&
           !(name && strcmp(op->attrs[a].name, name) == 0 &&
             op->attrs[a].type.kind == OPR_ATTR_TYPE &&
             !op->attrs[a].type.is_list))
      a++;
    if (a == op->nattrs)
      return opr_error(OPR_INVALID_ARGUMENT, "%s: kernel constraint on "
                       "'%s', which is no type attr of the op", op->name,
                       name ? name : "(null)");
    r->match[i].attr = a;
    r->match[i].allowed = kd->constraints[i].allowed;
  }
  r->nmatch = kd->nconstraints;
  for (size_t i = 0; i < kd->nhost_memory; i++)
    if (!kd->host_memory[i] || !is_arg(op, kd->host_memory[i]))
      return opr_error(OPR_INVALID_ARGUMENT, "%s: kernel host_memory '%s' "
                       "is no argument of the op", op->name,
                       kd->host_memory[i] ? kd->host_memory[i] : "(null)");
  return OPR_OK;
}

opr_kernel_rec *opr_kernel_rec_copy(const opr_kernel_def *kd) {
  opr_kernel_rec *r =
      calloc(1, sizeof *r + kd->nconstraints * sizeof r->match[0]);
  if (r && !rec_copy(r, kd)) {
    opr_kernel_rec_free(r);
    r = NULL;
  }
  return r;
}

opr_status opr_kernel_rec_resolve(opr_kernel_rec *r, const opr_op_def *op) {
  return rec_resolve(r, op, &r->def);
}

/* The same registration again (a register function called twice). */
static bool same_kernel(const opr_kernel_rec *a, const opr_kernel_rec *b) {
  if (a->def.fn != b->def.fn || a->def.device != b->def.device ||
      a->def.priority != b->def.priority || a->nmatch != b->nmatch)
    return false;
  for (size_t i = 0; i < a->nmatch; i++)
    if (a->match[i].attr != b->match[i].attr ||
        a->match[i].allowed != b->match[i].allowed)
      return false;
  return true;
}

/* Publishes old + r, r after every kernel of at least its priority. */
opr_status opr_kernel_publish_locked(const opr_op_def *op,
                                     opr_kernel_rec *r) {
  opr_op_state *st = op->state;
  struct opr_kernel_table *old = opr_state_kernels(st, __ATOMIC_RELAXED);
  size_t n = old ? old->count : 0, pos = 0;
  for (size_t i = 0; i < n; i++)
    if (same_kernel(old->recs[i], r)) {
      opr_kernel_rec_free(r);
      return OPR_OK;
    }
  struct opr_kernel_table *t =
      malloc(sizeof *t + (n + 1) * sizeof t->recs[0]);
  if (!t) {
    opr_kernel_rec_free(r);
    return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory", op->name);
  }
  while (pos < n && old->recs[pos]->def.priority >= r->def.priority) pos++;
  t->retired_next = NULL;
  memset(t->cpu_by_dtype, 0, sizeof t->cpu_by_dtype);
  t->count = n + 1;
  for (size_t i = 0; i < pos; i++) t->recs[i] = old->recs[i];
  t->recs[pos] = r;
  for (size_t i = pos; i < n; i++) t->recs[i + 1] = old->recs[i];
  opr_state_publish_kernels(st, t);
  opr_twins_publish_locked(op, t);
  if (old) {
    old->retired_next = retired_tables;
    retired_tables = old;
  }
  return OPR_OK;
}

opr_status opr_register_kernel(const opr_kernel_def *kd) {
  static const char who[] = "opr_register_kernel";
  if (!kd || !kd->op)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: the kernel names no op",
                     who);
  if (!kd->fn || (kd->device != OPR_DEVICE_CPU &&
                  kd->device != OPR_DEVICE_GPU) ||
      (kd->nconstraints && !kd->constraints) ||
      (kd->nhost_memory && !kd->host_memory))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: kernel has %s", kd->op,
                     !kd->fn ? "no function" : "an invalid definition");
  opr_status s;
  /* A library being loaded: its kernels wait for its ops. */
  if (opr_library_stage_kernel(kd, &s)) return s;
  opr_kernel_rec *r = opr_kernel_rec_copy(kd);
  if (!r)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory", kd->op);
  opr_registry_lock();
  const opr_op_def *op = opr_find_op_locked(kd->op);
  s = op ? opr_kernel_rec_resolve(r, op)
         : opr_error(OPR_NOT_FOUND, "no op named '%s' is registered", kd->op);
  if (!s) s = opr_kernel_publish_locked(op, r);
  else opr_kernel_rec_free(r);
  opr_registry_unlock();
  return s;
}

size_t opr_list_kernels(const opr_op_def *op, const opr_kernel_def **out,
                        size_t max) {
  if (!op || !op->state) return 0;
  const struct opr_kernel_table *t =
      opr_state_kernels(op->state, __ATOMIC_ACQUIRE);
  size_t n = t ? t->count : 0;
  for (size_t i = 0; i < n && i < max && out; i++) out[i] = &t->recs[i]->def;
  return n;
}
