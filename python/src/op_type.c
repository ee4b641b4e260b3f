/* opgen._opgen.Op: the function object of one registered op. Op(name)
 * binds to the op's definition once; calls go through vectorcall
 * (op_call.c). Parameters: the inputs in order, then the required attrs,
 * then the attrs with defaults (attrs read off the inputs are not
 * parameters); a name that is a Python keyword gets a trailing '_'. */
#include "op.h"

#include <stddef.h>
#include <string.h>

static PyObject *is_keyword; /* keyword.iskeyword */

static PyObject *param_name(const char *name) {
  PyObject *s = PyUnicode_FromString(name);
  if (!s) return NULL;
  PyObject *k = PyObject_CallOneArg(is_keyword, s);
  int kw = k ? PyObject_IsTrue(k) : -1;
  Py_XDECREF(k);
  if (kw < 0) {
    Py_DECREF(s);
    return NULL;
  }
  if (kw) Py_SETREF(s, PyUnicode_FromFormat("%s_", name));
  if (s) PyUnicode_InternInPlace(&s);
  return s;
}

/* Order: inputs, required attrs, attrs with defaults. */
static int build_params(opy_op *self) {
  const opr_op_def *op = self->op;
  size_t cap = op->ninputs + op->nattrs;
  self->params = PyMem_Calloc(cap ? cap : 1, sizeof *self->params);
  if (!self->params) return PyErr_NoMemory() ? -1 : -1;
  Py_ssize_t n = 0;
  for (size_t i = 0; i < op->ninputs; i++) {
    opy_param *p = &self->params[n++];
    p->is_input = true;
    p->index = (int)i;
    if (!(p->name = param_name(op->inputs[i].name))) return -1;
    self->has_lists |= op->inputs[i].number_attr != OPR_NO_ATTR ||
                       op->inputs[i].type_list_attr != OPR_NO_ATTR;
  }
  for (int pass = 0; pass < 2; pass++)
    for (size_t a = 0; a < op->nattrs; a++) {
      const opr_attr_def *d = &op->attrs[a];
      if (d->inferred || (pass == 0) != !d->default_value) continue;
      opy_param *p = &self->params[n++];
      p->index = (int)a;
      p->has_default = d->default_value != NULL;
      if (!(p->name = param_name(d->name))) return -1;
    }
  self->nparams = n;
  for (size_t o = 0; o < op->noutputs; o++)
    self->has_lists |= op->outputs[o].number_attr != OPR_NO_ATTR ||
                       op->outputs[o].type_list_attr != OPR_NO_ATTR;
  return 0;
}

/* _params: ((name, "input"|"attr", has_default, default), ...). */
static PyObject *params_tuple(const opy_op *self) {
  PyObject *t = PyTuple_New(self->nparams);
  for (Py_ssize_t i = 0; t && i < self->nparams; i++) {
    const opy_param *p = &self->params[i];
    PyObject *def = Py_NewRef(Py_None);
    if (p->has_default) {
      Py_SETREF(def, opy_attr_to_python(
                         self->op->attrs[p->index].default_value));
      if (!def) { /* a default without a Python value (no ml_dtypes) */
        PyErr_Clear();
        def = Py_NewRef(Py_None);
      }
    }
    PyObject *item = Py_BuildValue("(OsON)", p->name,
                                   p->is_input ? "input" : "attr",
                                   p->has_default ? Py_True : Py_False, def);
    if (!item) Py_CLEAR(t);
    else PyTuple_SET_ITEM(t, i, item);
  }
  return t;
}

static int set_dict_str(PyObject *d, const char *key, const char *value) {
  PyObject *v = PyUnicode_FromString(value);
  int r = v ? PyDict_SetItemString(d, key, v) : -1;
  Py_XDECREF(v);
  return r;
}

static PyObject *op_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"op_name", NULL};
  const char *name;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "s:Op", kwlist, &name))
    return NULL;
  const opr_op_def *op = opy_find_op(name);
  if (!op) return NULL;
  opy_op *self = (opy_op *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->vectorcall = opy_op_vectorcall;
  self->op = op;
  if (build_params(self) < 0 || !(self->params_tuple = params_tuple(self)) ||
      !(self->dict = PyDict_New()) ||
      set_dict_str(self->dict, "__name__", op->name) < 0 ||
      set_dict_str(self->dict, "__qualname__", op->name) < 0 ||
      set_dict_str(self->dict, "__module__", "opgen") < 0 ||
      set_dict_str(self->dict, "__doc__", op->summary ? op->summary : "") <
          0) {
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

static int op_traverse(PyObject *o, visitproc visit, void *arg) {
  opy_op *self = (opy_op *)o;
  Py_VISIT(self->dict);
  Py_VISIT(self->op_def);
  Py_VISIT(self->params_tuple);
  return 0;
}

static int op_clear(PyObject *o) {
  opy_op *self = (opy_op *)o;
  Py_CLEAR(self->dict);
  Py_CLEAR(self->op_def);
  Py_CLEAR(self->params_tuple);
  return 0;
}

static void op_dealloc(PyObject *o) {
  opy_op *self = (opy_op *)o;
  PyObject_GC_UnTrack(o);
  op_clear(o);
  if (self->params)
    for (Py_ssize_t i = 0; i < self->nparams; i++)
      Py_XDECREF(self->params[i].name);
  PyMem_Free(self->params);
  Py_TYPE(o)->tp_free(o);
}

static PyObject *op_get_name(PyObject *o, void *c) {
  (void)c;
  return PyUnicode_FromString(((opy_op *)o)->op->name);
}

static PyObject *op_get_def(PyObject *o, void *c) {
  (void)c;
  opy_op *self = (opy_op *)o;
  if (!self->op_def && !(self->op_def = opy_op_def_dict(self->op)))
    return NULL;
  return Py_NewRef(self->op_def);
}

static PyObject *op_get_params(PyObject *o, void *c) {
  (void)c;
  return Py_NewRef(((opy_op *)o)->params_tuple);
}

/* Stored on a class, an op stays unbound (as a staticmethod); being a
 * method descriptor also makes pydoc's help() show its signature. */
static PyObject *op_descr_get(PyObject *self, PyObject *obj, PyObject *type) {
  (void)obj;
  (void)type;
  return Py_NewRef(self);
}

static PyObject *op_repr(PyObject *o) {
  return PyUnicode_FromFormat("<opgen op %s>", ((opy_op *)o)->op->name);
}

static PyGetSetDef op_getset[] = {
    {"op_name", op_get_name, NULL, "The op's registered name.", NULL},
    {"op_def", op_get_def, NULL, "The op's definition, as a dict.", NULL},
    {"_params", op_get_params, NULL,
     "((name, \"input\"|\"attr\", has_default, default), ...)", NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL,
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject op_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "opgen._opgen.Op",
    .tp_basicsize = sizeof(opy_op),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC |
                Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "Op(op_name): the function of a registered op. Arguments: "
              "the inputs, then the required attrs, then the attrs with "
              "defaults, each positional or keyword.",
    .tp_new = op_new,
    .tp_dealloc = op_dealloc,
    .tp_traverse = op_traverse,
    .tp_clear = op_clear,
    .tp_repr = op_repr,
    .tp_descr_get = op_descr_get,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(opy_op, vectorcall),
    .tp_dictoffset = offsetof(opy_op, dict),
    .tp_getset = op_getset,
};

int opy_op_init(PyObject *module) {
  if (!is_keyword) {
    PyObject *kw = PyImport_ImportModule("keyword");
    if (!kw) return -1;
    is_keyword = PyObject_GetAttrString(kw, "iskeyword");
    Py_DECREF(kw);
    if (!is_keyword) return -1;
  }
  if (PyType_Ready(&op_type) < 0) return -1;
  return PyModule_AddObjectRef(module, "Op", (PyObject *)&op_type);
}
