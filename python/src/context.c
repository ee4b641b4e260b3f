/* opgen.Context: the runtime context calls run on (threads for the CPU
 * kernels, the device). `with opgen.Context(threads=1): ...` makes it the
 * calling thread's context until the block ends; contexts nest. */
#include "opgen_py.h"

typedef struct {
  PyObject_HEAD
  opr_context *ctx;
  int threads;
  opr_device_kind device;
} context_object;

/* The innermost entered context of this thread: a C thread-local for the
 * call path, mirrored by a list in the thread state's dict, which holds
 * the references and goes away with the thread. */
static _Thread_local opr_context *current;
static opr_context *default_ctx;
static PyObject *stack_key; /* interned "opgen.context_stack" */

opr_context *opy_current_context(void) {
  return current ? current : default_ctx;
}

static int parse_device(PyObject *obj, opr_device_kind *out) {
  const char *s = obj ? PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL
                      : "CPU";
  if (s && (strcmp(s, "CPU") == 0 || strcmp(s, "cpu") == 0)) {
    *out = OPR_DEVICE_CPU;
    return 0;
  }
  if (s && (strcmp(s, "GPU") == 0 || strcmp(s, "gpu") == 0)) {
    *out = OPR_DEVICE_GPU;
    return 0;
  }
  PyErr_Clear();
  PyErr_SetString(opy_error_class(OPR_INVALID_ARGUMENT),
                  "Context: device must be \"CPU\" or \"GPU\"");
  return -1;
}

static PyObject *context_new(PyTypeObject *type, PyObject *args,
                             PyObject *kwds) {
  static char *kwlist[] = {"threads", "device", NULL};
  PyObject *threads_obj = Py_None, *device_obj = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O$O:Context", kwlist,
                                   &threads_obj, &device_obj))
    return NULL;
  long threads = 0;
  if (threads_obj != Py_None) {
    if (!PyLong_Check(threads_obj) || PyBool_Check(threads_obj)) {
      PyErr_Format(PyExc_TypeError, "Context: threads must be an int or "
                   "None, not %.100s", Py_TYPE(threads_obj)->tp_name);
      return NULL;
    }
    int overflow = 0;
    threads = PyLong_AsLongAndOverflow(threads_obj, &overflow);
    if (overflow || threads < 0 || threads > 1024) {
      PyErr_SetString(opy_error_class(OPR_INVALID_ARGUMENT),
                      "Context: threads must be in [0, 1024] (0 or None: "
                      "one per core)");
      return NULL;
    }
  }
  opr_context_options o = {.threads = (int)threads};
  if (parse_device(device_obj, &o.device) < 0) return NULL;
  opr_context *ctx = NULL;
  opr_status s;
  Py_BEGIN_ALLOW_THREADS
  s = opr_context_new(&o, &ctx);
  Py_END_ALLOW_THREADS
  if (s) return opy_raise_status(s);
  context_object *self = (context_object *)type->tp_alloc(type, 0);
  if (!self) {
    opr_context_free(ctx);
    return NULL;
  }
  self->ctx = ctx;
  self->threads = (int)threads;
  self->device = o.device;
  return (PyObject *)self;
}

static void context_dealloc(PyObject *op) {
  context_object *self = (context_object *)op;
  /* Never the current context of a thread: the stack holds a reference. */
  Py_BEGIN_ALLOW_THREADS
  opr_context_free(self->ctx);
  Py_END_ALLOW_THREADS
  Py_TYPE(op)->tp_free(op);
}

/* This thread's stack (borrowed), created when `create`. */
static PyObject *thread_stack(int create) {
  PyObject *d = PyThreadState_GetDict();
  if (!d) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_RuntimeError, "Context: no thread state");
    return NULL;
  }
  PyObject *stack = PyDict_GetItemWithError(d, stack_key);
  if (stack || PyErr_Occurred() || !create) return stack;
  stack = PyList_New(0);
  if (!stack) return NULL;
  int r = PyDict_SetItem(d, stack_key, stack);
  Py_DECREF(stack);
  return r < 0 ? NULL : stack;
}

static PyObject *context_enter(PyObject *op, PyObject *unused) {
  (void)unused;
  PyObject *stack = thread_stack(1);
  if (!stack || PyList_Append(stack, op) < 0) return NULL;
  current = ((context_object *)op)->ctx;
  return Py_NewRef(op);
}

static PyObject *context_exit(PyObject *op, PyObject *args) {
  (void)args;
  PyObject *stack = thread_stack(0);
  Py_ssize_t n = stack ? PyList_GET_SIZE(stack) : 0;
  if (n == 0 || PyList_GET_ITEM(stack, n - 1) != op) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_RuntimeError, "Context: exited in another "
                      "order or on another thread than entered");
    return NULL;
  }
  current = n >= 2 ? ((context_object *)PyList_GET_ITEM(stack, n - 2))->ctx
                   : NULL;
  /* The item's reference goes last: `current` no longer points at it. */
  if (PyList_SetSlice(stack, n - 1, n, NULL) < 0) return NULL;
  Py_RETURN_FALSE;
}

static PyObject *context_get_threads(PyObject *op, void *closure) {
  (void)closure;
  return PyLong_FromLong(((context_object *)op)->threads);
}

static PyObject *context_get_device(PyObject *op, void *closure) {
  (void)closure;
  return PyUnicode_FromString(
      opr_device_name(((context_object *)op)->device));
}

static PyObject *context_repr(PyObject *op) {
  context_object *self = (context_object *)op;
  return PyUnicode_FromFormat("opgen.Context(threads=%d, device=\"%s\")",
                              self->threads, opr_device_name(self->device));
}

static PyMethodDef context_methods[] = {
    {"__enter__", context_enter, METH_NOARGS,
     "Makes this the context of the calling thread's calls."},
    {"__exit__", context_exit, METH_VARARGS, "Restores the previous one."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef context_getset[] = {
    {"threads", context_get_threads, NULL,
     "Threads for multithreaded CPU kernels (0: one per core).", NULL},
    {"device", context_get_device, NULL, "\"CPU\" or \"GPU\".", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject context_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "opgen.Context",
    .tp_basicsize = sizeof(context_object),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Context(threads=None, *, device=\"CPU\"): where and with how "
              "many threads ops run. `with Context(...):` makes it the "
              "context of the calls on this thread. threads=None or 0: one "
              "per core. A GPU context without a usable device raises "
              "FailedPreconditionError.",
    .tp_new = context_new,
    .tp_dealloc = context_dealloc,
    .tp_repr = context_repr,
    .tp_methods = context_methods,
    .tp_getset = context_getset,
};

static PyObject *get_current_context(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  PyObject *stack = thread_stack(0);
  if (!stack) {
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
  }
  Py_ssize_t n = PyList_GET_SIZE(stack);
  if (n == 0) Py_RETURN_NONE;
  return Py_NewRef(PyList_GET_ITEM(stack, n - 1));
}

static PyMethodDef context_functions[] = {
    {"current_context", get_current_context, METH_NOARGS,
     "The innermost Context entered on this thread, or None (the default "
     "context: one thread per core, CPU)."},
    {NULL, NULL, 0, NULL},
};

int opy_context_init(PyObject *module) {
  if (!default_ctx) {
    opr_status s = opr_context_new(NULL, &default_ctx);
    if (s) {
      opy_raise_status(s);
      return -1;
    }
  }
  if (!stack_key && !(stack_key = PyUnicode_InternFromString(
                          "opgen.context_stack")))
    return -1;
  if (PyType_Ready(&context_type) < 0) return -1;
  if (PyModule_AddObjectRef(module, "Context", (PyObject *)&context_type) <
      0)
    return -1;
  return PyModule_AddFunctions(module, context_functions);
}
