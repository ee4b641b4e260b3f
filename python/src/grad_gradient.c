/* tape.gradient(target, sources, output_gradients=None): resolves the
 * Python objects to the tape's tensors, runs opr_tape_gradient without
 * the GIL, and gives the results back in the structure of `sources`. */
#include "grad_internal.h"

#include <pythread.h>

/* A single value, or a list or tuple of them, as a tuple. */
typedef struct flat {
  PyObject *items;
  char kind; /* 's'ingle, 'l'ist, 't'uple */
} flat;

static int flatten(PyObject *obj, flat *f) {
  f->kind = PyList_Check(obj) ? 'l' : PyTuple_Check(obj) ? 't' : 's';
  f->items = f->kind == 's' ? PyTuple_Pack(1, obj) : PySequence_Tuple(obj);
  return f->items ? 0 : -1;
}

/* The results (a tuple, stolen) in f's structure. */
static PyObject *pack(const flat *f, PyObject *results) {
  PyObject *r = results;
  if (f->kind == 's') r = Py_NewRef(PyTuple_GET_ITEM(results, 0));
  else if (f->kind == 'l') r = PySequence_List(results);
  if (r != results) Py_DECREF(results);
  return r;
}

/* The tensors of one call, references owned. Targets not on the tape and
 * sources it does not know are left out: their slot is -1. */
typedef struct job {
  size_t ntargets, nsources;
  opr_tensor **targets, **target_grads, **sources, **grads;
  Py_ssize_t *slot; /* per given source: index into sources, or -1 */
} job;

static int job_alloc(job *j, Py_ssize_t nt, Py_ssize_t ns) {
  size_t n = 2 * (size_t)nt + 2 * (size_t)ns + 1;
  j->ntargets = j->nsources = 0;
  j->targets = PyMem_Calloc(n, sizeof(opr_tensor *));
  j->slot = PyMem_Calloc((size_t)ns + 1, sizeof(Py_ssize_t));
  if (!j->targets || !j->slot) {
    PyMem_Free(j->targets);
    PyMem_Free(j->slot);
    PyErr_NoMemory();
    return -1;
  }
  j->target_grads = j->targets + nt;
  j->sources = j->target_grads + nt;
  j->grads = j->sources + ns;
  return 0;
}

static void job_free(job *j, Py_ssize_t nt, Py_ssize_t ns) {
  for (Py_ssize_t i = 0; i < nt; i++) {
    opr_tensor_unref(j->targets[i]);
    opr_tensor_unref(j->target_grads[i]);
  }
  for (Py_ssize_t i = 0; i < ns; i++) {
    opr_tensor_unref(j->sources[i]);
    opr_tensor_unref(j->grads[i]);
  }
  PyMem_Free(j->targets);
  PyMem_Free(j->slot);
}

/* output_gradients[i] converted to the target's dtype, of its shape. */
static opr_tensor *target_grad(PyObject *obj, const opr_tensor *t,
                               Py_ssize_t i) {
  opr_tensor *g = opy_tensor_from_object(obj, t->dtype,
                                         "GradientTape.gradient",
                                         "output_gradients");
  if (!g) return NULL;
  int same = g->dtype == t->dtype && g->rank == t->rank;
  for (int d = 0; same && d < t->rank; d++) same = g->dims[d] == t->dims[d];
  if (same) return g;
  char gs[64], ts[64];
  PyErr_Format(opy_error_class(OPR_INVALID_ARGUMENT),
               "GradientTape.gradient: output_gradients[%zd] is %s %s, the "
               "target %s %s", i, opr_dtype_name(g->dtype),
               opr_shape_text(g->rank, g->dims, gs, sizeof gs),
               opr_dtype_name(t->dtype),
               opr_shape_text(t->rank, t->dims, ts, sizeof ts));
  opr_tensor_unref(g);
  return NULL;
}

static int job_targets(opy_tape_object *self, job *j, const flat *targets,
                       PyObject *ograds) {
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(targets->items); i++) {
    opr_tensor *t =
        opy_tape_resolve(self, PyTuple_GET_ITEM(targets->items, i));
    if (!t) continue; /* not computed on the tape: nothing depends */
    PyObject *og = ograds ? PyTuple_GET_ITEM(ograds, i) : Py_None;
    j->targets[j->ntargets] = opr_tensor_ref(t); /* job_free drops it */
    if (og != Py_None &&
        !(j->target_grads[j->ntargets] = target_grad(og, t, i)))
      return -1;
    j->ntargets++;
  }
  return 0;
}

static void job_sources(opy_tape_object *self, job *j, const flat *sources) {
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(sources->items); i++) {
    opr_tensor *s =
        opy_tape_resolve(self, PyTuple_GET_ITEM(sources->items, i));
    j->slot[i] = s ? (Py_ssize_t)j->nsources : -1;
    if (s) j->sources[j->nsources++] = opr_tensor_ref(s);
  }
}

/* opr_tape_gradient without the GIL; a Python gradient function's
 * exception is raised again as itself. */
static int job_run(opy_tape_object *self, job *j) {
  if (!self->tape || !j->ntargets || !j->nsources) return 0;
  opr_context *ctx = opy_current_context();
  if (!ctx) return -1;
  opy_grad_frame frame;
  opy_grad_frame_push(&frame);
  opy_grad_enter();
  self->busy = 1;
  opr_status s;
  Py_BEGIN_ALLOW_THREADS
  s = opr_tape_gradient(self->tape, ctx,
                        (const opr_tensor *const *)j->targets,
                        (const opr_tensor *const *)j->target_grads,
                        j->ntargets, (const opr_tensor *const *)j->sources,
                        j->nsources, j->grads);
  Py_END_ALLOW_THREADS
  self->busy = 0;
  opy_grad_leave();
  if (s && opy_grad_frame_raise(&frame)) opr_status_free(s);
  else if (s) opy_raise_status(s);
  opy_grad_frame_pop(&frame);
  return s ? -1 : 0;
}

static PyObject *job_results(job *j, Py_ssize_t ns) {
  PyObject *res = PyTuple_New(ns);
  for (Py_ssize_t i = 0; res && i < ns; i++) {
    opr_tensor *g = j->slot[i] < 0 ? NULL : j->grads[j->slot[i]];
    PyObject *a = g ? opy_array_from_tensor(g) : Py_NewRef(Py_None);
    if (!a) Py_CLEAR(res);
    else PyTuple_SET_ITEM(res, i, a);
  }
  return res;
}

/* output_gradients flattened as the targets are; NULL for none. */
static int flatten_ograds(PyObject *og, const flat *targets, PyObject **out) {
  *out = NULL;
  if (og == Py_None) return 0;
  Py_ssize_t n = PyTuple_GET_SIZE(targets->items);
  if (targets->kind == 's') return (*out = PyTuple_Pack(1, og)) ? 0 : -1;
  if ((PyList_Check(og) || PyTuple_Check(og)) && PySequence_Size(og) == n)
    return (*out = PySequence_Tuple(og)) ? 0 : -1;
  PyErr_Format(PyExc_ValueError, "GradientTape.gradient: "
               "output_gradients must be a list or tuple of %zd (one per "
               "target)", n);
  return -1;
}

static int check_askable(opy_tape_object *self) {
  if (opy_tape_check_idle(self, "gradient") < 0) return -1;
  if (self->used && !self->persistent) {
    PyErr_SetString(PyExc_RuntimeError, "A non-persistent GradientTape "
                    "can only be used to compute one set of gradients; use "
                    "GradientTape(persistent=True) to ask it again");
    return -1;
  }
  if (self->recording && self->thread != PyThread_get_thread_ident()) {
    PyErr_SetString(PyExc_RuntimeError, "GradientTape.gradient: the tape "
                    "records on another thread");
    return -1;
  }
  return 0;
}

static PyObject *gradient(opy_tape_object *self, const flat *t,
                          const flat *s, PyObject *ograds) {
  Py_ssize_t nt = PyTuple_GET_SIZE(t->items), ns = PyTuple_GET_SIZE(s->items);
  job j;
  if (job_alloc(&j, nt, ns) < 0) return NULL;
  PyObject *res = NULL;
  if (job_targets(self, &j, t, ograds) == 0) {
    job_sources(self, &j, s);
    if (job_run(self, &j) == 0) res = job_results(&j, ns);
  }
  job_free(&j, nt, ns);
  if (!res) return NULL;
  if (!self->persistent) {
    self->used = 1;
    if (!self->recording) opy_tape_release(self);
  }
  return pack(s, res);
}

PyObject *opy_tape_gradient(PyObject *obj, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"target", "sources", "output_gradients", NULL};
  opy_tape_object *self = (opy_tape_object *)obj;
  PyObject *target, *sources, *og = Py_None, *ograds = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:gradient", kwlist,
                                   &target, &sources, &og) ||
      check_askable(self) < 0)
    return NULL;
  flat t = {NULL, 's'}, s = {NULL, 's'};
  PyObject *res = NULL;
  if (flatten(target, &t) == 0 && flatten(sources, &s) == 0 &&
      flatten_ograds(og, &t, &ograds) == 0)
    res = gradient(self, &t, &s, ograds);
  Py_XDECREF(t.items);
  Py_XDECREF(s.items);
  Py_XDECREF(ograds);
  return res;
}
