/* numpy dtypes <-> runtime dtypes. bfloat16, the float8 types and int4
 * map to ml_dtypes' types when ml_dtypes is installed. */
#include "opy_numpy.h"

#include <string.h>

/* ml_dtypes' types by runtime dtype; type_num 0 until loaded. */
typedef struct {
  opr_dtype dt;
  const char *name; /* attribute of ml_dtypes */
  int type_num;
  PyArray_Descr *descr;
} ml_type;

static ml_type ml_types[] = {
    {OPR_DT_BFLOAT16, "bfloat16", 0, NULL},
    {OPR_DT_FLOAT8_E5M2, "float8_e5m2", 0, NULL},
    {OPR_DT_FLOAT8_E4M3FN, "float8_e4m3fn", 0, NULL},
    {OPR_DT_FLOAT8_E4M3FNUZ, "float8_e4m3fnuz", 0, NULL},
    {OPR_DT_FLOAT8_E4M3B11FNUZ, "float8_e4m3b11fnuz", 0, NULL},
    {OPR_DT_FLOAT8_E5M2FNUZ, "float8_e5m2fnuz", 0, NULL},
    {OPR_DT_INT4, "int4", 0, NULL},
    {OPR_DT_UINT4, "uint4", 0, NULL},
};
enum { NML = sizeof ml_types / sizeof ml_types[0] };
static int ml_state; /* 0: not tried, 1: loaded, -1: not installed */

/* Loads ml_dtypes' types: imports ml_dtypes when `import`, else only
 * reads it when already imported. Never leaves an exception. */
static void ml_load(int import) {
  if (ml_state) return;
  static PyObject *name;
  if (!name && !(name = PyUnicode_InternFromString("ml_dtypes"))) {
    PyErr_Clear();
    return;
  }
  PyObject *mod = import ? PyImport_Import(name) : PyImport_GetModule(name);
  if (!mod) {
    PyErr_Clear();
    if (import) ml_state = -1;
    return;
  }
  for (size_t i = 0; i < NML; i++) {
    PyObject *t = PyObject_GetAttrString(mod, ml_types[i].name);
    PyArray_Descr *d = NULL;
    if (!t || !PyArray_DescrConverter(t, &d)) {
      PyErr_Clear();
      Py_XDECREF(t);
      continue;
    }
    Py_DECREF(t);
    ml_types[i].descr = d;
    ml_types[i].type_num = d->type_num;
  }
  Py_DECREF(mod);
  ml_state = 1;
}

static opr_dtype ml_dtype_of(int type_num) {
  ml_load(0);
  for (size_t i = 0; i < NML; i++)
    if (ml_types[i].type_num == type_num && type_num) return ml_types[i].dt;
  return OPR_DT_INVALID;
}

opr_dtype opy_dtype_of_descr(PyArray_Descr *d) {
  int n = d->type_num;
  switch (n) {
  case NPY_FLOAT: return OPR_DT_FLOAT;
  case NPY_DOUBLE: return OPR_DT_DOUBLE;
  case NPY_BOOL: return OPR_DT_BOOL;
  case NPY_HALF: return OPR_DT_HALF;
  case NPY_CFLOAT: return OPR_DT_COMPLEX64;
  case NPY_CDOUBLE: return OPR_DT_COMPLEX128;
  case NPY_OBJECT: case NPY_STRING: case NPY_UNICODE: return OPR_DT_STRING;
  default: break;
  }
  if (n >= NPY_USERDEF) return ml_dtype_of(n);
  if (PyTypeNum_ISSIGNED(n) || PyTypeNum_ISUNSIGNED(n)) {
    bool u = PyTypeNum_ISUNSIGNED(n);
    switch (PyDataType_ELSIZE(d)) {
    case 1: return u ? OPR_DT_UINT8 : OPR_DT_INT8;
    case 2: return u ? OPR_DT_UINT16 : OPR_DT_INT16;
    case 4: return u ? OPR_DT_UINT32 : OPR_DT_INT32;
    case 8: return u ? OPR_DT_UINT64 : OPR_DT_INT64;
    default: break;
    }
  }
  return OPR_DT_INVALID;
}

PyArray_Descr *opy_descr_of_dtype(opr_dtype dt) {
  int n = -1;
  switch (dt) {
  case OPR_DT_FLOAT: n = NPY_FLOAT; break;
  case OPR_DT_DOUBLE: n = NPY_DOUBLE; break;
  case OPR_DT_INT32: n = NPY_INT32; break;
  case OPR_DT_UINT8: n = NPY_UINT8; break;
  case OPR_DT_INT16: n = NPY_INT16; break;
  case OPR_DT_INT8: n = NPY_INT8; break;
  case OPR_DT_STRING: n = NPY_OBJECT; break;
  case OPR_DT_COMPLEX64: n = NPY_COMPLEX64; break;
  case OPR_DT_INT64: n = NPY_INT64; break;
  case OPR_DT_BOOL: n = NPY_BOOL; break;
  case OPR_DT_UINT16: n = NPY_UINT16; break;
  case OPR_DT_COMPLEX128: n = NPY_COMPLEX128; break;
  case OPR_DT_HALF: n = NPY_HALF; break;
  case OPR_DT_UINT32: n = NPY_UINT32; break;
  case OPR_DT_UINT64: n = NPY_UINT64; break;
  /* The quantized types hold plain integers. */
  case OPR_DT_QINT8: n = NPY_INT8; break;
  case OPR_DT_QUINT8: n = NPY_UINT8; break;
  case OPR_DT_QINT16: n = NPY_INT16; break;
  case OPR_DT_QUINT16: n = NPY_UINT16; break;
  case OPR_DT_QINT32: n = NPY_INT32; break;
  default: break;
  }
  if (n >= 0) return PyArray_DescrFromType(n);
  ml_load(1);
  for (size_t i = 0; i < NML; i++)
    if (ml_types[i].dt == dt && ml_types[i].descr) {
      Py_INCREF(ml_types[i].descr);
      return ml_types[i].descr;
    }
  return NULL;
}

PyObject *opy_dtype_to_numpy(opr_dtype dt) {
  PyArray_Descr *d = opy_descr_of_dtype(dt);
  if (!d)
    return opy_invalid("dtype %s has no numpy dtype%s", opr_dtype_name(dt),
                       opr_dtype_valid(dt) && dt != OPR_DT_RESOURCE &&
                               dt != OPR_DT_VARIANT
                           ? " (install ml_dtypes)"
                           : "");
  return (PyObject *)d;
}

/* A runtime dtype by its name, alias or enum spelling ("DT_FLOAT"). */
static opr_dtype dtype_by_name(const char *s) {
  static const struct {
    const char *id, *name, *alias;
    opr_dtype dt;
  } names[] = {
#define OPR_DTYPE(ID, VALUE, NAME, ALIAS, CTYPE, N, R, Q) \
  {#ID, NAME, ALIAS, OPR_DT_##ID},
#include "opr/dtypes.def"
#undef OPR_DTYPE
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(s, names[i].name) == 0 ||
        (names[i].alias && strcmp(s, names[i].alias) == 0) ||
        (strncmp(s, "DT_", 3) == 0 && strcmp(s + 3, names[i].id) == 0))
      return names[i].dt;
  }
  if (strcmp(s, "str") == 0 || strcmp(s, "bytes") == 0) return OPR_DT_STRING;
  return OPR_DT_INVALID;
}

int opy_dtype_from_python(PyObject *obj, opr_dtype *out) {
  *out = OPR_DT_INVALID;
  if (PyUnicode_Check(obj)) {
    const char *s = PyUnicode_AsUTF8(obj);
    if (!s) return -1;
    *out = dtype_by_name(s);
  } else if (obj == (PyObject *)&PyBytes_Type ||
             obj == (PyObject *)&PyUnicode_Type) {
    *out = OPR_DT_STRING;
  }
  if (*out == OPR_DT_INVALID && obj != Py_None) {
    PyArray_Descr *d = NULL;
    ml_load(0);
    if (PyArray_DescrConverter2(obj, &d) && d) {
      *out = opy_dtype_of_descr(d);
      Py_DECREF(d);
    }
    PyErr_Clear();
  }
  if (*out != OPR_DT_INVALID) return 0;
  PyObject *r = PyObject_Repr(obj);
  opy_invalid("cannot interpret %.200s as a dtype",
              opy_utf8_or(r, "the value"));
  Py_XDECREF(r);
  return -1;
}

static PyObject *py_dtype(PyObject *m, PyObject *obj) {
  (void)m;
  opr_dtype dt;
  if (opy_dtype_from_python(obj, &dt) < 0) return NULL;
  return opy_dtype_to_numpy(dt);
}

static PyObject *py_dtype_name(PyObject *m, PyObject *obj) {
  (void)m;
  opr_dtype dt;
  if (opy_dtype_from_python(obj, &dt) < 0) return NULL;
  return PyUnicode_FromString(opr_dtype_name(dt));
}

static PyMethodDef dtype_functions[] = {
    {"as_dtype", py_dtype, METH_O,
     "as_dtype(x): the numpy dtype of a dtype given as a numpy dtype, a "
     "scalar type or a name (\"float\", \"float32\", \"DT_FLOAT\")."},
    {"dtype_name", py_dtype_name, METH_O,
     "dtype_name(x): the runtime's name of a dtype (\"float\")."},
    {NULL, NULL, 0, NULL},
};

int opy_dtypes_init(PyObject *module) {
  return PyModule_AddFunctions(module, dtype_functions);
}
