/* Output tensors as numpy arrays. An array shares its tensor's memory;
 * its base is a small owner object holding the tensor's reference, so the
 * tensor lives as long as any array (or view) over it. Strings become
 * object arrays of bytes (copied); bfloat16 without ml_dtypes becomes
 * float32 (copied). */
#include "opy_numpy.h"

#include <string.h>

typedef struct {
  PyObject_HEAD
  opr_tensor *t;
} owner_object;

static void owner_dealloc(PyObject *op) {
  opr_tensor_unref(((owner_object *)op)->t);
  PyObject_Free(op);
}

static PyTypeObject owner_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "opgen._opgen.TensorOwner",
    .tp_basicsize = sizeof(owner_object),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Keeps a runtime tensor alive for the arrays over it.",
    .tp_dealloc = owner_dealloc,
};

static int dims_of(const opr_tensor *t, npy_intp *dims) {
  if (t->rank > NPY_MAXDIMS) {
    opy_invalid("a tensor of rank %d has no numpy array (at most %d dims)",
                t->rank, (int)NPY_MAXDIMS);
    return -1;
  }
  for (int i = 0; i < t->rank; i++) dims[i] = (npy_intp)t->dims[i];
  return 0;
}

static PyObject *strings_array(const opr_tensor *t, const npy_intp *dims) {
  PyObject *arr = PyArray_SimpleNew(t->rank, (npy_intp *)dims, NPY_OBJECT);
  if (!arr) return NULL;
  const opr_string *s = t->data;
  PyObject **items = (PyObject **)PyArray_DATA((PyArrayObject *)arr);
  for (int64_t i = 0; i < t->num_elements; i++) {
    PyObject *b = PyBytes_FromStringAndSize(s[i].data ? s[i].data : "",
                                            (Py_ssize_t)s[i].len);
    if (!b) {
      Py_DECREF(arr);
      return NULL;
    }
    Py_XSETREF(items[i], b);
  }
  return arr;
}

static PyObject *bfloat16_as_float32(const opr_tensor *t,
                                     const npy_intp *dims) {
  PyObject *arr = PyArray_SimpleNew(t->rank, (npy_intp *)dims, NPY_FLOAT);
  if (!arr) return NULL;
  float *f = PyArray_DATA((PyArrayObject *)arr);
  const opr_bfloat16 *b = t->data;
  for (int64_t i = 0; i < t->num_elements; i++)
    f[i] = opr_bfloat16_to_float(b[i]);
  return arr;
}

/* The array of a tensor that numpy cannot view (strings, bfloat16
 * without ml_dtypes), copied, or an exception; or NULL with *d set to the
 * descr (a new reference) of a tensor it can. */
static PyObject *array_or_descr(const opr_tensor *t, npy_intp *dims,
                                PyArray_Descr **d) {
  *d = NULL;
  if (dims_of(t, dims) < 0) return NULL;
  if (t->device != OPR_DEVICE_CPU)
    return opy_invalid("a %s tensor has no numpy array: copy it to the host "
                       "first", opr_device_name(t->device));
  if (t->dtype == OPR_DT_STRING) return strings_array(t, dims);
  if ((*d = opy_descr_of_dtype(t->dtype)) || PyErr_Occurred()) return NULL;
  if (t->dtype == OPR_DT_BFLOAT16) return bfloat16_as_float32(t, dims);
  return opy_invalid("a tensor of type %s has no numpy array%s",
                     opr_dtype_name(t->dtype),
                     t->dtype == OPR_DT_RESOURCE || t->dtype == OPR_DT_VARIANT
                         ? ""
                         : " (install ml_dtypes)");
}

PyObject *opy_array_from_tensor(opr_tensor *t) {
  npy_intp dims[NPY_MAXDIMS];
  PyArray_Descr *d;
  PyObject *special = array_or_descr(t, dims, &d);
  if (!d) return special;
  owner_object *owner = PyObject_New(owner_object, &owner_type);
  if (!owner) {
    Py_DECREF(d);
    return NULL;
  }
  owner->t = opr_tensor_ref(t);
  /* A tensor with a release function does not own its memory: it wraps
   * someone's (an input array a gradient passed through, say), which may
   * be read-only. Its array is read-only too. */
  int flags = NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED |
              (t->release ? 0 : NPY_ARRAY_WRITEABLE);
  /* Steals d. An empty tensor may have no memory: numpy allocates then. */
  PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, d, t->rank, dims, NULL,
                                       t->num_elements > 0 ? t->data : NULL,
                                       flags, NULL);
  if (!arr) {
    Py_DECREF(owner);
    return NULL;
  }
  if (t->num_elements == 0) { /* numpy's own memory: the owner goes */
    Py_DECREF(owner);
    return arr;
  }
  if (PyArray_SetBaseObject((PyArrayObject *)arr, (PyObject *)owner) < 0) {
    Py_DECREF(arr); /* SetBaseObject stole owner even on failure */
    return NULL;
  }
  return arr;
}

PyObject *opy_array_copy(const opr_tensor *t) {
  npy_intp dims[NPY_MAXDIMS];
  PyArray_Descr *d;
  PyObject *special = array_or_descr(t, dims, &d);
  if (!d) return special;
  PyObject *arr = PyArray_SimpleNewFromDescr(t->rank, dims, d);
  if (arr && t->nbytes > 0 &&
      (size_t)PyArray_NBYTES((PyArrayObject *)arr) == t->nbytes)
    memcpy(PyArray_DATA((PyArrayObject *)arr), t->data, t->nbytes);
  return arr;
}

opr_tensor *opy_tensor_of_array(PyObject *obj) {
  if (!PyArray_CheckExact(obj)) return NULL;
  PyArrayObject *a = (PyArrayObject *)obj;
  PyObject *base = PyArray_BASE(a);
  if (!base || Py_TYPE(base) != &owner_type) return NULL;
  opr_tensor *t = ((owner_object *)base)->t;
  /* The whole tensor, as made: not a view, not reshaped or retyped. */
  if (PyArray_DATA(a) != t->data || PyArray_NDIM(a) != t->rank ||
      !PyArray_IS_C_CONTIGUOUS(a) ||
      opy_dtype_of_descr(PyArray_DESCR(a)) != t->dtype)
    return NULL;
  const npy_intp *dims = PyArray_DIMS(a);
  for (int i = 0; i < t->rank; i++)
    if (dims[i] != t->dims[i]) return NULL;
  return t;
}

int opy_tensor_out_init(PyObject *module) {
  (void)module;
  return PyType_Ready(&owner_type);
}
