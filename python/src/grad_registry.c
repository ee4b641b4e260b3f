/* Gradient functions written in Python: register_gradient puts a C
 * trampoline into the runtime's registry with the Python callable as its
 * user pointer; the trampoline calls fn(op, *grads) and converts what it
 * returns into the input gradients. */
#include "grad_internal.h"

#include <stdlib.h>
#include <string.h>

/* The input argument flattened input `i` belongs to, for messages. */
static const char *input_name(const opr_grad_op *op, size_t i) {
  for (size_t a = 0; a < op->op->ninputs; a++)
    if (i < op->input_starts[a + 1]) return op->op->inputs[a].name;
  return "?";
}

/* fn's result as a sequence of one item per flattened input: a single
 * value (or a list or tuple of one) stands for the only input's; None
 * for every input's. */
static PyObject *result_items(const opr_grad_op *op, PyObject *res) {
  int seq = PyList_Check(res) || PyTuple_Check(res);
  if (res == Py_None) {
    PyObject *items = PyTuple_New((Py_ssize_t)op->ninputs);
    for (size_t i = 0; items && i < op->ninputs; i++)
      PyTuple_SET_ITEM(items, (Py_ssize_t)i, Py_NewRef(Py_None));
    return items;
  }
  if (op->ninputs == 1 && !(seq && PySequence_Size(res) == 1))
    return PyTuple_Pack(1, res);
  if (!seq || (size_t)PySequence_Size(res) != op->ninputs) {
    PyErr_Format(opy_error_class(OPR_INVALID_ARGUMENT),
                 "%s: the gradient function returned %zd value%s for %zu "
                 "input%s", op->op->name, seq ? PySequence_Size(res) : 1,
                 seq && PySequence_Size(res) == 1 ? "" : "s", op->ninputs,
                 op->ninputs == 1 ? "" : "s");
    return NULL;
  }
  return PySequence_Tuple(res);
}

/* Converts the result; on failure sets nothing (exception pending). */
static int convert_result(const opr_grad_op *op, PyObject *res,
                          opr_tensor **in_grads) {
  PyObject *items = result_items(op, res);
  if (!items) return -1;
  for (size_t i = 0; i < op->ninputs; i++) {
    PyObject *item = PyTuple_GET_ITEM(items, (Py_ssize_t)i);
    if (item == Py_None) continue;
    in_grads[i] = opy_tensor_from_object(item, op->inputs[i]->dtype,
                                         op->op->name, input_name(op, i));
    if (in_grads[i]) continue;
    for (size_t j = 0; j < i; j++) {
      opr_tensor_unref(in_grads[j]);
      in_grads[j] = NULL;
    }
    Py_DECREF(items);
    return -1;
  }
  Py_DECREF(items);
  return 0;
}

/* (op, grad, ...) for the call. */
static PyObject *call_args(const opr_grad_op *op,
                           const opr_tensor *const *out_grads) {
  PyObject *args = PyTuple_New((Py_ssize_t)op->noutputs + 1);
  PyObject *o = args ? opy_grad_op_new(op) : NULL;
  if (!o) {
    Py_XDECREF(args);
    return NULL;
  }
  PyTuple_SET_ITEM(args, 0, o);
  for (size_t j = 0; j < op->noutputs; j++) {
    PyObject *g = opy_grad_readonly_array(out_grads[j]);
    if (!g) {
      Py_DECREF(args);
      return NULL;
    }
    PyTuple_SET_ITEM(args, (Py_ssize_t)j + 1, g);
  }
  return args;
}

static opr_status call_python(const opr_grad_op *op,
                              const opr_tensor *const *out_grads,
                              opr_tensor **in_grads, PyObject *fn) {
  PyObject *args = call_args(op, out_grads);
  PyObject *res = args ? PyObject_Call(fn, args, NULL) : NULL;
  Py_XDECREF(args);
  int rc = res ? convert_result(op, res, in_grads) : -1;
  Py_XDECREF(res);
  return rc < 0 ? opy_grad_stash_error(op->op->name) : OPR_OK;
}

static opr_status trampoline(const opr_grad_op *op,
                             const opr_tensor *const *out_grads,
                             opr_tensor **in_grads, void *user) {
  if (!Py_IsInitialized() || opy_is_finalizing())
    return opr_error(OPR_FAILED_PRECONDITION, "%s: the gradient is a "
                     "Python function and Python is ending", op->op->name);
  PyGILState_STATE g = PyGILState_Ensure();
  opr_status s = call_python(op, out_grads, in_grads, user);
  PyGILState_Release(g);
  return s;
}

/* ---- C gradients replaced by Python ones, restored on unregister ---- */

typedef struct saved_grad {
  char *op;
  opr_gradient_fn fn;
  void *user;
  struct saved_grad *next;
} saved_grad;

static saved_grad *saved; /* GIL held */

static saved_grad **find_saved(const char *op) {
  saved_grad **p = &saved;
  while (*p && strcmp((*p)->op, op) != 0) p = &(*p)->next;
  return p;
}

static int save_c_gradient(const char *op, opr_gradient_fn fn, void *user) {
  if (*find_saved(op)) return 0;
  saved_grad *g = malloc(sizeof *g);
  char *name = strdup(op);
  if (!g || !name) {
    free(g);
    free(name);
    PyErr_NoMemory();
    return -1;
  }
  *g = (saved_grad){name, fn, user, saved};
  saved = g;
  return 0;
}

/* Removes op's gradient: a Python one is released, a C one it replaced
 * comes back. */
static int remove_gradient(const char *op, int restore) {
  opr_gradient_fn fn = NULL;
  void *user = NULL;
  opr_find_gradient(op, &fn, NULL);
  opr_status s = opr_unregister_gradient(op, &user);
  if (s) {
    opy_raise_status(s);
    return -1;
  }
  if (fn == trampoline) opy_grad_retire(user);
  saved_grad **p = find_saved(op), *g = *p;
  if (!restore || !g) return 0;
  *p = g->next;
  s = opr_register_gradient(op, g->fn, g->user);
  free(g->op);
  free(g);
  if (s) opy_raise_status(s);
  return s ? -1 : 0;
}

/* ---- module functions ---- */

static int replace_existing(const char *op, PyObject *fn, int override) {
  opr_gradient_fn old = NULL;
  void *user = NULL;
  if (!opr_find_gradient(op, &old, &user)) return 0;
  if (old == trampoline && user == fn) return 1;
  if (!override) { /* the runtime's ALREADY_EXISTS and message */
    opr_status s = opr_register_gradient(op, trampoline, fn);
    if (!s) { /* removed meanwhile by another thread: registered now */
      Py_INCREF(fn);
      return 1;
    }
    opy_raise_status(s);
    return -1;
  }
  if (old != trampoline && save_c_gradient(op, old, user) < 0) return -1;
  return remove_gradient(op, 0);
}

/* functools.partial(register_gradient, op, override=override): what
 * @register_gradient("Op") applies to the function below it. */
static PyObject *decorator(PyObject *module, const char *op, int override) {
  PyObject *self = PyObject_GetAttrString(module, "register_gradient");
  PyObject *functools = self ? PyImport_ImportModule("functools") : NULL;
  PyObject *partial = functools
      ? PyObject_GetAttrString(functools, "partial") : NULL;
  PyObject *args = partial ? Py_BuildValue("(Os)", self, op) : NULL;
  PyObject *kw = args ? Py_BuildValue("{sO}", "override",
                                      override ? Py_True : Py_False)
                      : NULL;
  PyObject *dec = kw ? PyObject_Call(partial, args, kw) : NULL;
  Py_XDECREF(kw);
  Py_XDECREF(args);
  Py_XDECREF(partial);
  Py_XDECREF(functools);
  Py_XDECREF(self);
  return dec;
}

static PyObject *register_gradient(PyObject *module, PyObject *args,
                                   PyObject *kw) {
  static char *kwlist[] = {"op_name", "fn", "override", NULL};
  const char *op;
  PyObject *fn = Py_None;
  int override = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "s|O$p:register_gradient",
                                   kwlist, &op, &fn, &override))
    return NULL;
  if (fn == Py_None) return decorator(module, op, override);
  if (!PyCallable_Check(fn))
    return PyErr_Format(PyExc_TypeError, "register_gradient: the gradient "
                        "of '%s' must be callable, not %.100s", op,
                        Py_TYPE(fn)->tp_name);
  int rc = replace_existing(op, fn, override);
  if (rc < 0) return NULL;
  if (rc == 0) {
    opr_status s = opr_register_gradient(op, trampoline, Py_NewRef(fn));
    if (s) {
      Py_DECREF(fn);
      return opy_raise_status(s);
    }
  }
  return Py_NewRef(fn);
}

static PyObject *unregister_gradient(PyObject *module, PyObject *arg) {
  (void)module;
  const char *op;
  if (!PyArg_Parse(arg, "s:unregister_gradient", &op)) return NULL;
  if (remove_gradient(op, 1) < 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject *has_gradient(PyObject *module, PyObject *arg) {
  (void)module;
  const char *op;
  if (!PyArg_Parse(arg, "s:has_gradient", &op)) return NULL;
  return PyBool_FromLong(opr_find_gradient(op, NULL, NULL));
}

static PyMethodDef registry_functions[] = {
    {"register_gradient", (PyCFunction)(void (*)(void))register_gradient,
     METH_VARARGS | METH_KEYWORDS,
     "register_gradient(op_name, fn=None, *, override=False)\n--\n\n"
     "Registers fn(op, *grads) as the gradient of the op named op_name:\n"
     "it receives the recorded call (op.inputs, op.outputs, op.attrs,\n"
     "op.get_attr(name), op.type) and one gradient per flattened output,\n"
     "and returns one gradient per flattened input (None where an input\n"
     "is not differentiable; a single value for an op of one input).\n"
     "Without fn, returns a decorator. An op that has a gradient raises\n"
     "AlreadyExistsError unless override is true. Returns fn."},
    {"unregister_gradient", unregister_gradient, METH_O,
     "unregister_gradient(op_name)\n--\n\n"
     "Removes the gradient of op_name; a C gradient that a Python one\n"
     "replaced (override=True) comes back. NotFoundError when none."},
    {"has_gradient", has_gradient, METH_O,
     "has_gradient(op_name)\n--\n\n"
     "Whether a gradient (C or Python) is registered for op_name."},
    {NULL, NULL, 0, NULL},
};

int opy_grad_registry_init(PyObject *module) {
  return PyModule_AddFunctions(module, registry_functions);
}

int opy_grad_init(PyObject *module) {
  if (opy_grad_registry_init(module) < 0) return -1;
  if (opy_grad_op_init(module) < 0) return -1;
  return opy_grad_tape_init(module);
}
