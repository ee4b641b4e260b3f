/* Per-thread plans of the generic entry (see plan_cache.h): the table of
 * this thread, finding a plan by its key, and keeping one. */
#include "plan_cache.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

_Thread_local opr_plans *opr_plans_mine OPR_TLS_FAST;

/* What a thread's pointer becomes once its table is freed (or could not
 * be made): no plans, and none kept. Never written. */
static opr_plans retired;

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t key;
static bool key_ok;

static void thread_exit(void *arg) {
  opr_plans_mine = &retired;
  free(arg);
}

/* The thread calling exit() (whose key destructors do not run) frees
 * its table too, so that leak checkers see nothing held. */
static void process_exit(void) {
  opr_plans *ps = opr_plans_mine;
  if (!ps || ps == &retired) return;
  opr_plans_mine = &retired;
  if (key_ok) pthread_setspecific(key, NULL);
  free(ps);
}

static void make_key(void) {
  key_ok = pthread_key_create(&key, thread_exit) == 0;
  if (key_ok) atexit(process_exit);
}

/* This thread's table, made on first use; NULL when it has none. */
static opr_plans *mine(void) {
  opr_plans *ps = opr_plans_mine;
  if (ps) return ps == &retired ? NULL : ps;
  pthread_once(&key_once, make_key);
  ps = key_ok ? calloc(1, sizeof *ps) : NULL;
  if (ps && pthread_setspecific(key, ps) != 0) {
    free(ps);
    ps = NULL;
  }
  opr_plans_mine = ps ? ps : &retired;
  return ps;
}

static inline bool same_shape(const opr_plan_shape *p, const opr_tensor *t) {
  if (!t || t->dtype != p->dtype || t->rank != p->rank ||
      t->device != OPR_DEVICE_CPU)
    return false;
  for (int i = 0; i < p->rank; i++)
    if (t->dims[i] != p->dims[i]) return false;
  return true;
}

opr_plan *opr_plan_find(opr_plans *ps, const opr_op_def *op,
                        const opr_input *inputs) {
  opr_plan *p = &ps->slot[opr_plan_slot(op)];
  if (p->op != op ||
      p->table != opr_state_kernels(op->state, __ATOMIC_ACQUIRE))
    return NULL;
  const opr_plan_shape *sh = p->in;
  const unsigned char *count = p->in_counts;
  for (const opr_input *in = inputs, *end = in + op->ninputs; in < end;
       in++) {
    size_t n = in->count;
    if (n != *count++) return NULL;
    if (n == 0) continue;
    if (!in->tensors) return NULL;
    for (const opr_tensor *const *t = in->tensors, *const *te = t + n;
         t < te; t++)
      if (!same_shape(sh++, *t)) return NULL;
  }
  return p;
}

/* Attrs a plan may copy: no pointer into the call. */
static bool scalar_attr(const opr_attr_value *v) {
  if (v->is_list) return false;
  return v->kind == OPR_ATTR_INT || v->kind == OPR_ATTR_FLOAT ||
         v->kind == OPR_ATTR_BOOL || v->kind == OPR_ATTR_TYPE ||
         v->kind == OPR_ATTR_STRING;
}

static bool small_tensor(const opr_tensor *t) {
  return t && t->device == OPR_DEVICE_CPU && t->rank <= OPR_PLAN_DIMS;
}

/* The call's inputs, outputs and attrs fit a plan. */
static bool fits(const opr_call *call, bool preallocated) {
  const opr_op_def *op = call->op;
  if (op->ninputs > OPR_PLAN_ARGS || op->noutputs > OPR_PLAN_ARGS ||
      op->nattrs > OPR_PLAN_ATTRS)
    return false;
  for (size_t i = 0; i < op->nattrs; i++)
    if (!scalar_attr(&call->attrs[i])) return false;
  size_t n = 0;
  for (size_t a = 0; a < op->ninputs; a++) {
    const opr_input *in = &call->inputs[a];
    if (in->count > OPR_PLAN_TENSORS - n) return false;
    for (size_t j = 0; j < in->count; j++)
      if (!small_tensor(in->tensors[j])) return false;
    n += in->count;
  }
  n = 0;
  for (size_t o = 0; o < op->noutputs; o++) {
    size_t count = opr_output_count_fast(call, o);
    if (count > OPR_PLAN_OUTPUTS - n) return false;
    for (size_t j = 0; preallocated && j < count; j++)
      if (!small_tensor(call->outputs[o].tensors[j])) return false;
    n += count;
  }
  return true;
}

static void keep_shape(opr_plan_shape *p, const opr_tensor *t) {
  p->dtype = t->dtype;
  p->rank = t->rank;
  for (int i = 0; i < t->rank; i++) p->dims[i] = t->dims[i];
}

void opr_plan_store(const opr_call *call, const opr_plan_info *info) {
  if (info->values_read || !fits(call, info->preallocated)) return;
  opr_plans *ps = mine();
  if (!ps || ps->busy) return;
  const opr_op_def *op = call->op;
  opr_plan *p = &ps->slot[opr_plan_slot(op)];
  p->op = op;
  p->table = info->table;
  p->kernel = info->kernel;
  p->preallocate = info->preallocated;
  size_t n = 0;
  for (size_t a = 0; a < op->ninputs; a++) {
    const opr_input *in = &call->inputs[a];
    p->in_counts[a] = (unsigned char)in->count;
    for (size_t j = 0; j < in->count; j++)
      keep_shape(&p->in[n++], in->tensors[j]);
  }
  p->nin = (unsigned char)n;
  n = 0;
  for (size_t o = 0; o < op->noutputs; o++) {
    size_t count = opr_output_count_fast(call, o);
    p->out_counts[o] = (unsigned char)count;
    for (size_t j = 0; j < count; j++, n++)
      if (info->preallocated)
        keep_shape(&p->out[n], call->outputs[o].tensors[j]);
  }
  p->nout = (unsigned char)n;
  for (size_t i = 0; i < op->nattrs; i++) p->attrs[i] = call->attrs[i];
}

size_t opr_plan_thread_count(void) {
  const opr_plans *ps = opr_plans_mine;
  size_t n = 0;
  for (size_t i = 0; ps && i < OPR_PLAN_SLOTS; i++)
    n += ps->slot[i].op != NULL;
  return n;
}
