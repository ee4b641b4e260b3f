/* _opgen.load_library(path): loads an op library (opr_load_library) and
 * says what it holds. */
#include "opy_numpy.h"

static PyObject *library_tuple(const opr_library *lib) {
  size_t n = opr_library_ops(lib, NULL, 0);
  const opr_op_def **defs = PyMem_RawMalloc((n ? n : 1) * sizeof *defs);
  if (!defs) return PyErr_NoMemory();
  size_t total = opr_library_ops(lib, defs, n);
  PyObject *names = opy_op_names(defs, total < n ? total : n);
  PyMem_RawFree(defs);
  if (!names) return NULL;
  PyObject *name = PyUnicode_DecodeFSDefault(opr_library_name(lib));
  PyObject *path = PyUnicode_DecodeFSDefault(opr_library_path(lib));
  PyObject *r = name && path ? PyTuple_Pack(3, name, path, names) : NULL;
  Py_XDECREF(name);
  Py_XDECREF(path);
  Py_DECREF(names);
  return r;
}

static PyObject *py_load_library(PyObject *m, PyObject *arg) {
  (void)m;
  PyObject *bytes = NULL;
  if (!PyUnicode_FSConverter(arg, &bytes)) return NULL;
  const char *path = PyBytes_AS_STRING(bytes);
  if (strlen(path) != (size_t)PyBytes_GET_SIZE(bytes)) {
    Py_DECREF(bytes);
    return opy_invalid("load_library: the path contains a NUL byte");
  }
  opr_library *lib = NULL;
  opr_status s;
  Py_BEGIN_ALLOW_THREADS
  s = opr_load_library(path, &lib);
  Py_END_ALLOW_THREADS
  Py_DECREF(bytes);
  /* Already loaded: the loaded one is what the caller wants. */
  if (s && opr_status_code(s) == OPR_ALREADY_EXISTS && lib) {
    opr_status_free(s);
    s = OPR_OK;
  }
  if (s) return opy_raise_status(s);
  return library_tuple(lib);
}

static PyMethodDef library_functions[] = {
    {"load_library", py_load_library, METH_O,
     "load_library(path) -> (name, path, [op names]): loads the op library "
     "at path (opr_load_library; the path it was first loaded from for a "
     "library already loaded). Failures raise the runtime's status."},
    {NULL, NULL, 0, NULL},
};

int opy_library_init(PyObject *module) {
  return PyModule_AddFunctions(module, library_functions);
}
