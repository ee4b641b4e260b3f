/* opr_tape_gradient: reverse mode over a tape's records. The calls to
 * differentiate are those on a path from a source to a target: reached
 * forward from the sources (in record order) and backward from the
 * targets (in reverse order). The gradients live in a map from tensor
 * address to running sum; a call's output gradients are dropped once its
 * gradient function has run (every consumer of an output was recorded
 * after it), so memory stays bounded by the widest cut of the graph, not
 * its length. */
#include "tape_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REL_FORWARD = 1, REL_BOTH = 2 }; /* a record's relevance */

typedef struct grad_run {
  opr_tape *tape;
  opr_context *ctx;
  tape_map map;
  unsigned char *rel; /* [tape->count] */
} grad_run;

static unsigned flags_of(const grad_run *g, const opr_tensor *t) {
  const tape_slot *s = tape_map_find(&g->map, t);
  return s ? s->flags : 0;
}

static opr_status oom(void) {
  return opr_error(OPR_RESOURCE_EXHAUSTED, "opr_tape_gradient: out of "
                   "memory");
}

/* Marks `t` (and returns false when out of memory). */
static bool mark(grad_run *g, const opr_tensor *t, unsigned flags) {
  tape_slot *s = tape_map_add(&g->map, t);
  if (s) s->flags |= flags;
  return s != NULL;
}

/* Records reached forward from the sources, and the tensors they make. */
static opr_status mark_forward(grad_run *g, const opr_tensor *const *sources,
                               size_t nsources) {
  for (size_t i = 0; i < nsources; i++)
    if (!mark(g, sources[i], TM_FORWARD | TM_SOURCE)) return oom();
  for (size_t r = 0; r < g->tape->count; r++) {
    const tape_record *rec = g->tape->records[r];
    bool reached = false;
    for (size_t i = 0; i < rec->ninputs && !reached; i++)
      reached = flags_of(g, rec->inputs[i]) & TM_FORWARD;
    if (!reached) continue;
    g->rel[r] = REL_FORWARD;
    for (size_t o = 0; o < rec->noutputs; o++)
      if (!mark(g, rec->outputs[o], TM_FORWARD)) return oom();
  }
  return OPR_OK;
}

/* Of those, the records from which a target is reached. */
static opr_status mark_backward(grad_run *g, const opr_tensor *const *targets,
                                size_t ntargets) {
  for (size_t i = 0; i < ntargets; i++)
    if (!mark(g, targets[i], TM_BACKWARD)) return oom();
  for (size_t r = g->tape->count; r-- > 0;) {
    const tape_record *rec = g->tape->records[r];
    if (g->rel[r] != REL_FORWARD) continue;
    bool reaches = false;
    for (size_t o = 0; o < rec->noutputs && !reaches; o++)
      reaches = flags_of(g, rec->outputs[o]) & TM_BACKWARD;
    if (!reaches) continue;
    g->rel[r] = REL_BOTH;
    for (size_t i = 0; i < rec->ninputs; i++) {
      tape_slot *s = tape_map_find(&g->map, rec->inputs[i]);
      if (s && (s->flags & TM_FORWARD)) s->flags |= TM_BACKWARD;
    }
  }
  return OPR_OK;
}

/* Adds `grad` (taken) to the running sum of `t`. */
static opr_status accumulate(grad_run *g, const opr_tensor *t,
                             opr_tensor *grad) {
  tape_slot *s = tape_map_add(&g->map, t);
  if (!s) {
    opr_tensor_unref(grad);
    return oom();
  }
  if (!s->grad) {
    s->grad = grad;
    return OPR_OK;
  }
  opr_tensor *sum = NULL;
  opr_status st = opr_tensor_add(s->grad, grad, &sum);
  opr_tensor_unref(grad);
  if (st) return st;
  opr_tensor_unref(s->grad);
  s->grad = sum;
  return OPR_OK;
}

static bool same_type_and_shape(const opr_tensor *a, const opr_tensor *b) {
  return a->dtype == b->dtype && a->rank == b->rank &&
         (a->rank == 0 ||
          memcmp(a->dims, b->dims, (size_t)a->rank * sizeof *a->dims) == 0);
}

/* "[2, 3] and dtype float" into buf. */
static const char *describe(const opr_tensor *t, char *buf, size_t n) {
  char shape[96];
  snprintf(buf, n, "shape %s and dtype %s",
           opr_shape_text(t->rank, t->dims, shape, sizeof shape),
           opr_dtype_name(t->dtype));
  return buf;
}

/* The gradient flowing into each target: given (checked), or ones. */
static opr_status seed_targets(grad_run *g, const opr_tensor *const *targets,
                               const opr_tensor *const *target_grads,
                               size_t ntargets) {
  for (size_t i = 0; i < ntargets; i++) {
    const opr_tensor *given = target_grads ? target_grads[i] : NULL;
    if (given && !same_type_and_shape(given, targets[i])) {
      char a[128], b[128];
      return opr_error(OPR_INVALID_ARGUMENT, "opr_tape_gradient: "
                       "target_grads[%zu] has %s; target %zu has %s", i,
                       describe(given, a, sizeof a), i,
                       describe(targets[i], b, sizeof b));
    }
    /* No source reaches it, or nothing to seed: a target of no number
     * type (bool, string) has no gradient unless one is given. */
    if (!(flags_of(g, targets[i]) & TM_FORWARD) ||
        (!given && !opr_dtype_is_number(targets[i]->dtype)))
      continue;
    opr_tensor *seed = given ? opr_tape_hold(given) : NULL;
    opr_status s = given && !seed ? oom()
                   : seed ? OPR_OK
                          : opr_tensor_fill_like(targets[i], 1, &seed);
    if (!s) s = accumulate(g, targets[i], seed);
    if (s) return s;
  }
  return OPR_OK;
}

/* The input argument that flattened input `i` belongs to, and its index
 * in that argument's list. */
static size_t input_arg(const tape_record *r, size_t i, size_t *elem) {
  size_t a = 0;
  while (a + 1 < r->op->ninputs && r->input_starts[a + 1] <= i) a++;
  *elem = i - r->input_starts[a];
  return a;
}

/* INVALID_ARGUMENT unless each gradient set has its input's type and
 * shape. */
static opr_status check_in_grads(const tape_record *r,
                                 opr_tensor *const *in_grads) {
  for (size_t i = 0; i < r->ninputs; i++) {
    if (!in_grads[i] || same_type_and_shape(in_grads[i], r->inputs[i]))
      continue;
    size_t elem, a = input_arg(r, i, &elem);
    const opr_arg_def *arg = &r->op->inputs[a];
    bool list = arg->number_attr != OPR_NO_ATTR ||
                arg->type_list_attr != OPR_NO_ATTR;
    char which[32] = "", got[128], want[128];
    if (list) snprintf(which, sizeof which, " element %zu", elem);
    return opr_error(OPR_INVALID_ARGUMENT, "%s: the gradient of input "
                     "'%s'%s has %s; the input has %s", r->op->name,
                     arg->name, which, describe(in_grads[i], got, sizeof got),
                     describe(r->inputs[i], want, sizeof want));
  }
  return OPR_OK;
}

/* The output gradients of a record: borrowed sums, or zeros (owned,
 * flagged in `zeros`; of any dtype: false, empty strings). False in *any
 * when no output has a gradient. */
static opr_status gather_out_grads(grad_run *g, const tape_record *r,
                                   const opr_tensor **out_grads,
                                   bool *zeros, bool *any) {
  *any = false;
  for (size_t o = 0; o < r->noutputs; o++) {
    const tape_slot *s = tape_map_find(&g->map, r->outputs[o]);
    out_grads[o] = s ? s->grad : NULL;
    *any = *any || out_grads[o];
  }
  for (size_t o = 0; *any && o < r->noutputs; o++) {
    if (out_grads[o]) continue;
    opr_tensor *z = NULL;
    const opr_tensor *like = r->outputs[o];
    opr_status s = opr_tensor_new(like->dtype, like->rank, like->dims, &z);
    if (s) return s;
    out_grads[o] = z;
    zeros[o] = true;
  }
  return OPR_OK;
}

/* Runs the gradient function of record r, recording paused. */
static opr_status run_fn(grad_run *g, const tape_record *r,
                         const opr_tensor *const *out_grads,
                         opr_tensor **in_grads) {
  opr_gradient_fn fn = NULL;
  void *user = NULL;
  if (!opr_find_gradient(r->op->name, &fn, &user))
    return opr_error(OPR_NOT_FOUND, "no gradient is registered for op '%s'",
                     r->op->name);
  opr_grad_op view = {
      .op = r->op, .attrs = r->attrs,
      .inputs = (const opr_tensor *const *)r->inputs, .ninputs = r->ninputs,
      .outputs = (const opr_tensor *const *)r->outputs,
      .noutputs = r->noutputs, .input_starts = r->input_starts,
      .output_starts = r->output_starts, .ctx = g->ctx};
  opr_tape *top = opr_tape_pause();
  opr_status s = fn(&view, out_grads, in_grads, user);
  opr_tape_resume(top);
  return s;
}

/* Drops the output gradients of a differentiated record (a source's
 * stays: it is an answer) and the zeros made for it. */
static void drop_out_grads(grad_run *g, const tape_record *r,
                           const opr_tensor **out_grads, const bool *zeros) {
  for (size_t o = 0; o < r->noutputs; o++) {
    if (zeros[o]) opr_tensor_unref((opr_tensor *)out_grads[o]);
    tape_slot *s = tape_map_find(&g->map, r->outputs[o]);
    if (s && s->grad && !(s->flags & TM_SOURCE)) {
      opr_tensor_unref(s->grad);
      s->grad = NULL;
    }
  }
}

/* Adds the input gradients (taken) to their inputs' sums: those of
 * inputs a source reaches; the others are dropped. */
static opr_status add_in_grads(grad_run *g, const tape_record *r,
                               opr_tensor **in_grads) {
  opr_status s = OPR_OK;
  for (size_t i = 0; i < r->ninputs; i++) {
    opr_tensor *d = in_grads[i];
    in_grads[i] = NULL;
    if (!d) continue;
    if (s || !(flags_of(g, r->inputs[i]) & TM_FORWARD))
      opr_tensor_unref(d);
    else
      s = accumulate(g, r->inputs[i], d);
  }
  return s;
}

/* One record's step of the reverse pass. */
static opr_status differentiate(grad_run *g, const tape_record *r,
                                void *scratch) {
  const opr_tensor **out_grads = scratch;
  opr_tensor **in_grads = (opr_tensor **)(out_grads + r->noutputs);
  bool *zeros = (bool *)(in_grads + r->ninputs);
  memset(zeros, 0, r->noutputs * sizeof *zeros);
  memset(in_grads, 0, r->ninputs * sizeof *in_grads);
  bool any = false;
  opr_status s = gather_out_grads(g, r, out_grads, zeros, &any);
  if (!s && any) s = run_fn(g, r, out_grads, in_grads);
  if (!s && any) s = check_in_grads(r, in_grads);
  drop_out_grads(g, r, out_grads, zeros);
  if (s) {
    for (size_t i = 0; i < r->ninputs; i++) opr_tensor_unref(in_grads[i]);
    return s;
  }
  return add_in_grads(g, r, in_grads);
}

static opr_status reverse_pass(grad_run *g) {
  size_t most = 0;
  for (size_t r = 0; r < g->tape->count; r++) {
    const tape_record *rec = g->tape->records[r];
    size_t need = rec->noutputs * (sizeof(void *) + sizeof(bool)) +
                  rec->ninputs * sizeof(void *);
    if (g->rel[r] == REL_BOTH && need > most) most = need;
  }
  void *scratch = malloc(most ? most : 1);
  if (!scratch) return oom();
  opr_status s = OPR_OK;
  for (size_t r = g->tape->count; !s && r-- > 0;)
    if (g->rel[r] == REL_BOTH) s = differentiate(g, g->tape->records[r],
                                                 scratch);
  free(scratch);
  return s;
}

static opr_status check_args(const opr_tape *tape, const opr_context *ctx,
                             const opr_tensor *const *targets,
                             size_t ntargets,
                             const opr_tensor *const *sources,
                             size_t nsources, opr_tensor **grads) {
  const char *bad = !tape ? "the tape is NULL"
                    : !ctx ? "the context is NULL"
                    : ntargets && !targets ? "targets is NULL"
                    : nsources && !sources ? "sources is NULL"
                    : nsources && !grads ? "grads is NULL" : NULL;
  for (size_t i = 0; !bad && i < ntargets; i++)
    if (!targets[i]) bad = "a target is NULL";
  for (size_t i = 0; !bad && i < nsources; i++)
    if (!sources[i]) bad = "a source is NULL";
  if (bad)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_tape_gradient: %s", bad);
  if (tape->lost)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "opr_tape_gradient: the tape "
                     "missed a call of '%s' (out of memory while "
                     "recording)", tape->lost_op);
  return OPR_OK;
}

/* A gradient the caller may change: one held elsewhere too (a target
 * gradient passed in, a tensor a gradient function keeps, the same
 * source twice) is copied. */
static opr_status make_own(opr_tensor **t) {
  opr_tensor *g = *t;
  if (__atomic_load_n(&g->refcount, __ATOMIC_ACQUIRE) == 1 ||
      g->device != OPR_DEVICE_CPU || g->dtype == OPR_DT_STRING)
    return OPR_OK;
  opr_tensor *c = NULL;
  opr_status s = opr_tensor_from_data(g->dtype, g->rank, g->dims, g->data,
                                      g->nbytes, &c);
  if (s) return s;
  opr_tensor_unref(g);
  *t = c;
  return OPR_OK;
}

/* Each source's sum into grads (NULL where none reached it). */
static opr_status collect(grad_run *g, const opr_tensor *const *sources,
                          size_t nsources, opr_tensor **grads) {
  for (size_t i = 0; i < nsources; i++) {
    const tape_slot *s = tape_map_find(&g->map, sources[i]);
    grads[i] = s && s->grad ? opr_tensor_ref(s->grad) : NULL;
  }
  tape_map_free(&g->map); /* before make_own: the map's references go */
  opr_status st = OPR_OK;
  for (size_t i = 0; !st && i < nsources; i++)
    if (grads[i]) st = make_own(&grads[i]);
  return st;
}

opr_status opr_tape_gradient(opr_tape *tape, opr_context *ctx,
                             const opr_tensor *const *targets,
                             const opr_tensor *const *target_grads,
                             size_t ntargets,
                             const opr_tensor *const *sources,
                             size_t nsources, opr_tensor **grads) {
  for (size_t i = 0; grads && i < nsources; i++) grads[i] = NULL;
  opr_status s = check_args(tape, ctx, targets, ntargets, sources, nsources,
                            grads);
  if (s) return s;
  grad_run g = {.tape = tape, .ctx = ctx};
  g.rel = calloc(tape->count ? tape->count : 1, 1);
  if (!g.rel) return oom();
  s = mark_forward(&g, sources, nsources);
  if (!s) s = mark_backward(&g, targets, ntargets);
  if (!s) s = seed_targets(&g, targets, target_grads, ntargets);
  if (!s) s = reverse_pass(&g);
  if (!s) s = collect(&g, sources, nsources, grads);
  tape_map_free(&g.map);
  free(g.rel);
  if (s)
    for (size_t i = 0; i < nsources; i++) {
      opr_tensor_unref(grads[i]);
      grads[i] = NULL;
    }
  return s;
}
