/* What the registry knows, for Python: op_def dicts, the registered and
 * the shipped op names. */
#include "opy_numpy.h"

static PyObject *shipped; /* tuple of names, snapshot at import */

static PyObject *name_or_none(const opr_op_def *op, int attr) {
  if (attr == OPR_NO_ATTR || attr < 0 || (size_t)attr >= op->nattrs)
    Py_RETURN_NONE;
  return PyUnicode_FromString(op->attrs[attr].name);
}

/* Sets d[key] = value, stealing value. */
static int set_item(PyObject *d, const char *key, PyObject *value) {
  if (!value) return -1;
  int r = PyDict_SetItemString(d, key, value);
  Py_DECREF(value);
  return r;
}

static PyObject *arg_dict(const opr_op_def *op, const opr_arg_def *a) {
  PyObject *d = PyDict_New();
  if (!d) return NULL;
  if (set_item(d, "name", PyUnicode_FromString(a->name)) < 0 ||
      set_item(d, "type", a->type != OPR_DT_INVALID
                              ? PyUnicode_FromString(opr_dtype_name(a->type))
                              : Py_NewRef(Py_None)) < 0 ||
      set_item(d, "type_attr", name_or_none(op, a->type_attr)) < 0 ||
      set_item(d, "number_attr", name_or_none(op, a->number_attr)) < 0 ||
      set_item(d, "type_list_attr", name_or_none(op, a->type_list_attr)) < 0 ||
      set_item(d, "is_ref", PyBool_FromLong(a->is_ref)) < 0) {
    Py_DECREF(d);
    return NULL;
  }
  return d;
}

static PyObject *allowed_list(const opr_attr_def *a) {
  if (a->type.kind == OPR_ATTR_TYPE && a->allowed_types) {
    PyObject *l = PyList_New(0);
    for (int dt = 1; l && dt < 64; dt++) {
      if (!(a->allowed_types >> dt & 1) || !opr_dtype_valid((opr_dtype)dt))
        continue;
      PyObject *n = PyUnicode_FromString(opr_dtype_name((opr_dtype)dt));
      if (!n || PyList_Append(l, n) < 0) Py_CLEAR(l);
      Py_XDECREF(n);
    }
    return l;
  }
  if (a->type.kind == OPR_ATTR_STRING && a->allowed_strings) {
    PyObject *l = PyList_New((Py_ssize_t)a->nallowed_strings);
    for (size_t i = 0; l && i < a->nallowed_strings; i++) {
      const opr_str *s = &a->allowed_strings[i];
      PyObject *n = PyUnicode_DecodeUTF8(s->ptr, (Py_ssize_t)s->len,
                                         "surrogateescape");
      if (!n) Py_CLEAR(l);
      else PyList_SET_ITEM(l, (Py_ssize_t)i, n);
    }
    return l;
  }
  Py_RETURN_NONE;
}

static PyObject *attr_dict(const opr_attr_def *a) {
  PyObject *d = PyDict_New();
  if (!d) return NULL;
  int r = set_item(d, "name", PyUnicode_FromString(a->name));
  if (!r) r = set_item(d, "type", PyUnicode_FromString(
                                      opr_attr_type_name(a->type)));
  if (!r) r = set_item(d, "minimum", a->has_minimum
                                         ? PyLong_FromLongLong(a->minimum)
                                         : Py_NewRef(Py_None));
  if (!r) r = set_item(d, "allowed", allowed_list(a));
  if (!r && a->default_value) {
    PyObject *v = opy_attr_to_python(a->default_value);
    if (!v && a->default_value->kind == OPR_ATTR_TYPE &&
        !a->default_value->is_list) { /* no numpy dtype: its name */
      PyErr_Clear();
      v = PyUnicode_FromString(opr_dtype_name(a->default_value->u.type));
    }
    r = set_item(d, "default", v);
  }
  if (!r) r = set_item(d, "inferred", PyBool_FromLong(a->inferred));
  if (r < 0) Py_CLEAR(d);
  return d;
}

/* A list of f(item) for each of n items. */
#define BUILD_LIST(n, expr)                                      \
  do {                                                           \
    list = PyList_New((Py_ssize_t)(n));                          \
    for (size_t i = 0; list && i < (n); i++) {                   \
      PyObject *x_ = (expr);                                     \
      if (!x_) Py_CLEAR(list);                                   \
      else PyList_SET_ITEM(list, (Py_ssize_t)i, x_);             \
    }                                                            \
  } while (0)

PyObject *opy_op_def_dict(const opr_op_def *op) {
  PyObject *d = PyDict_New(), *list;
  if (!d) return NULL;
  int r = set_item(d, "name", PyUnicode_FromString(op->name));
  if (!r) r = set_item(d, "summary", PyUnicode_FromString(
                                         op->summary ? op->summary : ""));
  BUILD_LIST(op->ninputs, arg_dict(op, &op->inputs[i]));
  if (!r) r = set_item(d, "inputs", list);
  else Py_XDECREF(list);
  BUILD_LIST(op->noutputs, arg_dict(op, &op->outputs[i]));
  if (!r) r = set_item(d, "outputs", list);
  else Py_XDECREF(list);
  BUILD_LIST(op->nattrs, attr_dict(&op->attrs[i]));
  if (!r) r = set_item(d, "attrs", list);
  else Py_XDECREF(list);
  if (!r) r = set_item(d, "is_stateful", PyBool_FromLong(op->is_stateful));
  if (!r) r = set_item(d, "is_commutative",
                       PyBool_FromLong(op->is_commutative));
  if (!r) r = set_item(d, "is_aggregate", PyBool_FromLong(op->is_aggregate));
  if (r < 0) Py_CLEAR(d);
  return d;
}

const opr_op_def *opy_find_op(const char *name) {
  const opr_op_def *op = opr_find_op(name);
  if (!op)
    opy_raise_status(opr_error(OPR_NOT_FOUND, "no op named '%s' is "
                               "registered", name));
  return op;
}

PyObject *opy_op_names(const opr_op_def *const *defs, size_t n) {
  PyObject *l = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; l && i < n; i++) {
    PyObject *s = PyUnicode_FromString(defs[i]->name);
    if (!s) Py_CLEAR(l);
    else PyList_SET_ITEM(l, (Py_ssize_t)i, s);
  }
  return l;
}

/* The registered op names, sorted, as a list. */
static PyObject *registered_names(void) {
  size_t n = opr_list_ops(NULL, 0);
  const opr_op_def **defs = PyMem_RawMalloc((n ? n : 1) * sizeof *defs);
  if (!defs) return PyErr_NoMemory();
  size_t total = opr_list_ops(defs, n); /* may have grown meanwhile */
  PyObject *l = opy_op_names(defs, total < n ? total : n);
  PyMem_RawFree(defs);
  return l;
}

int opy_op_info_snapshot_shipped(void) {
  if (shipped) return 0; /* a second import: libraries may be loaded */
  PyObject *l = registered_names();
  if (!l) return -1;
  Py_XSETREF(shipped, PyList_AsTuple(l));
  Py_DECREF(l);
  return shipped ? 0 : -1;
}

static PyObject *py_registered_ops(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  return registered_names();
}

static PyObject *py_shipped_ops(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  return PySequence_List(shipped);
}

static PyObject *py_op_def(PyObject *m, PyObject *name) {
  (void)m;
  if (!PyUnicode_Check(name))
    return PyErr_Format(PyExc_TypeError, "op_def: the op name must be a "
                        "str, not %.100s", opy_type_name(name));
  const char *s = PyUnicode_AsUTF8(name);
  if (!s) return NULL;
  const opr_op_def *op = opy_find_op(s);
  return op ? opy_op_def_dict(op) : NULL;
}

static PyMethodDef info_functions[] = {
    {"registered_ops", py_registered_ops, METH_NOARGS,
     "registered_ops(): the names of every registered op, sorted."},
    {"shipped_ops", py_shipped_ops, METH_NOARGS,
     "shipped_ops(): the names of the ops the extension registers itself "
     "(the shipped ops of specs/), sorted."},
    {"op_def", py_op_def, METH_O,
     "op_def(name): the definition of a registered op, as a dict."},
    {NULL, NULL, 0, NULL},
};

int opy_op_info_init(PyObject *module) {
  return PyModule_AddFunctions(module, info_functions);
}
