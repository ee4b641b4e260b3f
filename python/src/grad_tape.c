/* opgen.GradientTape: `with` starts and stops a runtime tape on the
 * calling thread; tape.gradient asks it. While tapes record on a thread,
 * each keeps the identity of the Python objects converted to tensors
 * (id -> (object, tensor)), so that using one array twice gives one
 * tensor (gradients sum over the fan-out) and tape.gradient finds the
 * tensor of a source array. An op's output array needs no entry: it maps
 * to its tensor by itself (opy_tensor_of_array). */
#include "grad_internal.h"

#include <pythread.h>
#include <structmember.h>

/* The innermost tape recording on this thread; the chain holds a
 * reference to each tape on it. Every converted input reads it:
 * initial-exec makes that one load, not a __tls_get_addr call, in this
 * shared object (as the runtime does for its own tape stack). */
#if defined(__GNUC__)
#define OPY_TLS_FAST __attribute__((tls_model("initial-exec")))
#else
#define OPY_TLS_FAST
#endif
static _Thread_local opy_tape_object *tls_top OPY_TLS_FAST;

static const char capsule_name[] = "opgen._opgen.tape_tensor";

static void capsule_free(PyObject *cap) {
  opr_tensor_unref(PyCapsule_GetPointer(cap, capsule_name));
}

/* (obj, capsule holding a reference to t). */
static PyObject *entry_new(PyObject *obj, opr_tensor *t) {
  PyObject *cap = PyCapsule_New(t, capsule_name, capsule_free);
  if (!cap) return NULL;
  opr_tensor_ref(t);
  PyObject *e = PyTuple_Pack(2, obj, cap);
  Py_DECREF(cap);
  return e;
}

static opr_tensor *entry_tensor(PyObject *e) {
  return PyCapsule_GetPointer(PyTuple_GET_ITEM(e, 1), capsule_name);
}

/* Objects whose identity says nothing: values that convert anew at each
 * use, the op's dtype guiding them (Python numbers and their subclasses
 * such as numpy.float64, strings, lists). Everything else (arrays,
 * buffers, __dlpack__ objects, other numpy scalars) is kept. */
static int identity_kept(PyObject *obj) {
  return !(obj == Py_None || PyLong_Check(obj) || PyFloat_Check(obj) ||
           PyComplex_Check(obj) || PyUnicode_Check(obj) ||
           PyBytes_Check(obj) || PyList_Check(obj) || PyTuple_Check(obj) ||
           PyDict_Check(obj));
}

/* The entry of `key` (id of an object) in tape p, borrowed, or NULL. */
static PyObject *lookup(opy_tape_object *p, PyObject *key) {
  PyObject *e = PyDict_GetItemWithError(p->ids, key);
  if (!e) PyErr_Clear();
  return e;
}

opr_tensor *opy_tape_find(PyObject *obj) {
  if (!tls_top || !identity_kept(obj)) return NULL;
  PyObject *key = PyLong_FromVoidPtr(obj), *e = NULL;
  if (!key) {
    PyErr_Clear();
    return NULL;
  }
  opy_tape_object *hit = tls_top;
  while (hit && !(e = lookup(hit, key))) hit = hit->outer;
  /* Known to an outer tape only (converted before the inner one began):
   * the inner ones learn it, as their records will name its tensor. */
  for (opy_tape_object *p = tls_top; e && p != hit; p = p->outer)
    if (PyDict_SetItem(p->ids, key, e) < 0) PyErr_Clear();
  Py_DECREF(key);
  return e ? entry_tensor(e) : NULL;
}

int opy_tape_keep(PyObject *obj, opr_tensor *t) {
  if (!tls_top || !identity_kept(obj)) return 0;
  PyObject *key = PyLong_FromVoidPtr(obj);
  PyObject *e = key ? entry_new(obj, t) : NULL;
  int rc = e ? 0 : -1;
  for (opy_tape_object *p = tls_top; e && p; p = p->outer)
    if (PyDict_SetItem(p->ids, key, e) < 0) rc = -1;
  Py_XDECREF(e);
  Py_XDECREF(key);
  return rc;
}

/* The tensor a source or target stands for on this tape, or NULL. */
opr_tensor *opy_tape_resolve(opy_tape_object *self, PyObject *obj) {
  opr_tensor *t = opy_tensor_of_array(obj);
  if (t || !identity_kept(obj)) return t;
  PyObject *key = PyLong_FromVoidPtr(obj);
  PyObject *e = key ? lookup(self, key) : NULL;
  if (!key) PyErr_Clear();
  Py_XDECREF(key);
  return e ? entry_tensor(e) : NULL;
}

/* Drops the records and identities (a non-persistent tape, once asked). */
void opy_tape_release(opy_tape_object *self) {
  opr_tape_free(self->tape);
  self->tape = NULL;
  PyDict_Clear(self->ids);
}

int opy_tape_check_idle(opy_tape_object *self, const char *what) {
  if (!self->busy) return 0;
  PyErr_Format(PyExc_RuntimeError, "GradientTape.%s: the tape is "
               "computing a gradient", what);
  return -1;
}

/* ---- the type ---- */

static PyObject *tape_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"persistent", NULL};
  int persistent = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|p:GradientTape", kwlist,
                                   &persistent))
    return NULL;
  opy_tape_object *self = (opy_tape_object *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->persistent = (char)persistent;
  self->ids = PyDict_New();
  if (!self->ids) Py_CLEAR(self);
  return (PyObject *)self;
}

static void tape_dealloc(opy_tape_object *self) {
  opr_tape_free(self->tape); /* never recording here: the chain holds it */
  Py_XDECREF(self->ids);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *tape_enter(opy_tape_object *self, PyObject *unused) {
  (void)unused;
  if (opy_tape_check_idle(self, "__enter__") < 0) return NULL;
  if (!self->persistent && self->used) { /* begins afresh */
    opy_tape_release(self);
    self->used = 0;
  }
  opr_status s = self->tape ? OPR_OK : opr_tape_new(&self->tape);
  if (!s) s = opr_tape_start(self->tape);
  if (s) return opy_raise_status(s);
  self->recording = 1;
  self->thread = PyThread_get_thread_ident();
  self->outer = tls_top;
  tls_top = (opy_tape_object *)Py_NewRef(self);
  return Py_NewRef(self);
}

static PyObject *tape_exit(opy_tape_object *self, PyObject *args) {
  (void)args;
  if (opy_tape_check_idle(self, "__exit__") < 0) return NULL;
  if (!self->recording)
    return PyErr_Format(PyExc_RuntimeError, "GradientTape.__exit__: the "
                        "tape is not recording");
  if (self->thread != PyThread_get_thread_ident())
    return PyErr_Format(PyExc_RuntimeError, "GradientTape.__exit__: the "
                        "tape records on another thread");
  opr_status s = opr_tape_stop(self->tape);
  if (s) return opy_raise_status(s);
  opy_tape_object **p = &tls_top;
  while (*p && *p != self) p = &(*p)->outer;
  if (*p) *p = self->outer;
  self->outer = NULL;
  self->recording = 0;
  Py_DECREF(self); /* the chain's; the caller holds another */
  Py_RETURN_FALSE;
}

static int watch_one(opy_tape_object *self, PyObject *x) {
  if (PyList_Check(x) || PyTuple_Check(x)) {
    if (Py_EnterRecursiveCall(" in GradientTape.watch")) return -1;
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE(x); i++)
      rc = watch_one(self, PySequence_Fast_GET_ITEM(x, i));
    Py_LeaveRecursiveCall();
    return rc;
  }
  if (!identity_kept(x)) {
    PyErr_Format(PyExc_TypeError, "GradientTape.watch: cannot watch a "
                 "%.100s: pass an array (numpy.asarray(x)) and use that "
                 "array in the calls", Py_TYPE(x)->tp_name);
    return -1;
  }
  if (opy_tensor_of_array(x)) return 0; /* an output: known by itself */
  PyObject *key = PyLong_FromVoidPtr(x);
  if (!key) return -1;
  int rc = 0;
  if (!lookup(self, key)) {
    opr_tensor *t = opy_tensor_from_object(x, OPR_DT_INVALID,
                                           "GradientTape.watch", "tensor");
    PyObject *e = t ? entry_new(x, t) : NULL;
    rc = e ? PyDict_SetItem(self->ids, key, e) : -1;
    Py_XDECREF(e);
    opr_tensor_unref(t);
  }
  Py_DECREF(key);
  return rc;
}

static PyObject *tape_watch(opy_tape_object *self, PyObject *x) {
  if (opy_tape_check_idle(self, "watch") < 0 || watch_one(self, x) < 0)
    return NULL;
  Py_RETURN_NONE;
}

static PyMethodDef tape_methods[] = {
    {"__enter__", (PyCFunction)tape_enter, METH_NOARGS,
     "Starts recording the calls made on this thread."},
    {"__exit__", (PyCFunction)tape_exit, METH_VARARGS,
     "Stops recording."},
    {"watch", (PyCFunction)tape_watch, METH_O,
     "watch($self, x)\n--\n\n"
     "Makes x (an array, or a list or tuple of them) a tensor the tape\n"
     "knows, so that tape.gradient(y, x) finds it."},
    {"gradient", (PyCFunction)(void (*)(void))opy_tape_gradient,
     METH_VARARGS | METH_KEYWORDS,
     "gradient($self, target, sources, output_gradients=None)\n--\n\n"
     "The gradients of target (an array or a list of them) with respect\n"
     "to sources (an array, or a list or tuple of them), in the\n"
     "structure of sources; None where a source is not connected.\n"
     "output_gradients (like target) default to ones. A non-persistent\n"
     "tape can be asked once."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef tape_members[] = {
    {"persistent", T_BOOL, offsetof(opy_tape_object, persistent), READONLY,
     "Whether gradient may be called more than once."},
    {"recording", T_BOOL, offsetof(opy_tape_object, recording), READONLY,
     "Whether the tape is recording."},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject tape_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "opgen.GradientTape",
    .tp_basicsize = sizeof(opy_tape_object),
    .tp_dealloc = (destructor)tape_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "GradientTape(persistent=False)\n--\n\n"
              "Records the calls run on this thread inside `with`, so that\n"
              "tape.gradient(target, sources) can differentiate them.",
    .tp_methods = tape_methods,
    .tp_members = tape_members,
    .tp_new = tape_new,
};

int opy_grad_tape_is(PyObject *obj) {
  return PyObject_TypeCheck(obj, &tape_type);
}

int opy_grad_tape_init(PyObject *module) {
  if (PyType_Ready(&tape_type) < 0) return -1;
  return PyModule_AddObjectRef(module, "GradientTape",
                               (PyObject *)&tape_type);
}
