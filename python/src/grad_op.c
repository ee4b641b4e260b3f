/* The `op` a Python gradient function receives, as TensorFlow's
 * Operation looks to a RegisterGradient function: op.type, op.name,
 * op.inputs and op.outputs (flattened, read-only arrays sharing the
 * recorded tensors' memory), op.attrs and op.get_attr(name). */
#include "grad_internal.h"

#include <structmember.h>

typedef struct {
  PyObject_HEAD
  PyObject *type;    /* str: the op's name */
  PyObject *inputs;  /* list of arrays */
  PyObject *outputs; /* list of arrays */
  PyObject *attrs;   /* dict: attr name -> value */
} grad_op_object;

static void grad_op_dealloc(grad_op_object *self) {
  Py_XDECREF(self->type);
  Py_XDECREF(self->inputs);
  Py_XDECREF(self->outputs);
  Py_XDECREF(self->attrs);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *grad_op_get_attr(grad_op_object *self, PyObject *name) {
  PyObject *v = PyDict_GetItemWithError(self->attrs, name);
  if (v) return Py_NewRef(v);
  if (!PyErr_Occurred())
    PyErr_Format(PyExc_ValueError, "Operation '%U' has no attr named '%S'",
                 self->type, name);
  return NULL;
}

static PyObject *grad_op_repr(grad_op_object *self) {
  return PyUnicode_FromFormat("<opgen gradient op %U: %zd inputs, %zd "
                              "outputs>", self->type,
                              PyList_GET_SIZE(self->inputs),
                              PyList_GET_SIZE(self->outputs));
}

static PyMethodDef grad_op_methods[] = {
    {"get_attr", (PyCFunction)grad_op_get_attr, METH_O,
     "get_attr($self, name)\n--\n\nThe value of the call's attr `name`."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef grad_op_members[] = {
    {"type", T_OBJECT_EX, offsetof(grad_op_object, type), READONLY,
     "The op's name (\"ZeroOut\")."},
    {"name", T_OBJECT_EX, offsetof(grad_op_object, type), READONLY,
     "The op's name, as type (calls have no node names)."},
    {"inputs", T_OBJECT_EX, offsetof(grad_op_object, inputs), READONLY,
     "The call's input tensors, flattened, as read-only arrays."},
    {"outputs", T_OBJECT_EX, offsetof(grad_op_object, outputs), READONLY,
     "The call's output tensors, flattened, as read-only arrays."},
    {"attrs", T_OBJECT_EX, offsetof(grad_op_object, attrs), READONLY,
     "The call's attrs, every one resolved, by name."},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject grad_op_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "opgen._opgen.GradientOp",
    .tp_basicsize = sizeof(grad_op_object),
    .tp_dealloc = (destructor)grad_op_dealloc,
    .tp_repr = (reprfunc)grad_op_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A recorded call, as a gradient function sees it.",
    .tp_methods = grad_op_methods,
    .tp_members = grad_op_members,
};

PyObject *opy_grad_readonly_array(const opr_tensor *t) {
  PyObject *arr = opy_array_from_tensor((opr_tensor *)t);
  if (!arr) return NULL;
  PyObject *view = PyObject_CallMethod(arr, "view", NULL);
  Py_DECREF(arr);
  if (!view) return NULL;
  PyObject *flags = PyObject_GetAttrString(view, "flags");
  int rc = flags ? PyObject_SetAttrString(flags, "writeable", Py_False) : -1;
  Py_XDECREF(flags);
  if (rc < 0) Py_CLEAR(view);
  return view;
}

static PyObject *array_list(const opr_tensor *const *ts, size_t n) {
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    PyObject *a = opy_grad_readonly_array(ts[i]);
    if (!a) Py_CLEAR(list);
    else PyList_SET_ITEM(list, (Py_ssize_t)i, a);
  }
  return list;
}

static PyObject *attr_dict(const opr_grad_op *op) {
  PyObject *d = PyDict_New();
  for (size_t i = 0; d && i < op->op->nattrs; i++) {
    PyObject *v = opy_attr_to_python(&op->attrs[i]);
    if (!v || PyDict_SetItemString(d, op->op->attrs[i].name, v) < 0)
      Py_CLEAR(d);
    Py_XDECREF(v);
  }
  return d;
}

PyObject *opy_grad_op_new(const opr_grad_op *op) {
  grad_op_object *o = PyObject_New(grad_op_object, &grad_op_type);
  if (!o) return NULL;
  o->type = PyUnicode_FromString(op->op->name);
  o->inputs = array_list(op->inputs, op->ninputs);
  o->outputs = array_list(op->outputs, op->noutputs);
  o->attrs = attr_dict(op);
  if (!o->type || !o->inputs || !o->outputs || !o->attrs) Py_CLEAR(o);
  return (PyObject *)o;
}

int opy_grad_op_init(PyObject *module) {
  if (PyType_Ready(&grad_op_type) < 0) return -1;
  return PyModule_AddObjectRef(module, "GradientOp",
                               (PyObject *)&grad_op_type);
}
