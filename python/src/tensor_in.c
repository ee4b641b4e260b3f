/* Python objects to tensors. numpy arrays (and buffers, which numpy
 * views) of a runtime dtype become tensors over their memory when
 * C-contiguous and aligned: the tensor holds a reference to the array and
 * drops it with its last reference. Other layouts are copied. __dlpack__
 * objects go through numpy.from_dlpack. Scalars and nested lists convert
 * as tf.convert_to_tensor does: the hint dtype when given, else int ->
 * int32 (int64 when a value does not fit), float -> float32, complex ->
 * complex128, bool -> bool, bytes/str -> string. */
#include "opy_numpy.h"

#include "tensor_in.h"

#include <stdarg.h>

/* ---- errors naming the argument ---- */

/* InvalidArgumentError "<op>: <kind> '<arg>': <message>". */
static void conv_error(const opy_arg_name *who, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  PyOS_vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (who->op)
    opy_invalid("%s: %s '%s': %s", who->op, who->kind, who->arg, msg);
  else
    opy_invalid("%s '%s': %s", who->kind, who->arg, msg);
}

/* The pending exception, restated as a conversion error. */
static void conv_error_from_pending(const opy_arg_name *who,
                                    const char *what) {
#if PY_VERSION_HEX >= 0x030C0000
  PyObject *value = PyErr_GetRaisedException();
#else
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  Py_XDECREF(type);
  Py_XDECREF(tb);
#endif
  PyObject *s = value ? PyObject_Str(value) : NULL;
  const char *m = opy_utf8_or(s, NULL);
  PyErr_Clear();
  conv_error(who, "%s: %s", what, m ? m : "(no message)");
  Py_XDECREF(s);
  Py_XDECREF(value);
}

/* ---- arrays ---- */

/* Drops the array a wrapped tensor was made over, from any thread. */
static void release_array(void *arg) {
  if (PyGILState_Check()) {
    Py_DECREF((PyObject *)arg);
    return;
  }
  if (opy_is_finalizing()) return; /* the interpreter is going: leave it */
  PyGILState_STATE g = PyGILState_Ensure();
  Py_DECREF((PyObject *)arg);
  PyGILState_Release(g);
}

/* A tensor over `a`'s memory (C-contiguous, aligned, native order);
 * takes a new reference to `a`. */
static opr_tensor *wrap_array(PyArrayObject *a, opr_dtype dt,
                              const opy_arg_name *who) {
  int64_t dims[NPY_MAXDIMS];
  int rank = PyArray_NDIM(a);
  for (int i = 0; i < rank; i++) dims[i] = (int64_t)PyArray_DIM(a, i);
  opr_tensor *t = NULL;
  Py_INCREF(a);
  opr_status s = opr_tensor_wrap(dt, rank, dims, PyArray_DATA(a),
                                 (size_t)PyArray_NBYTES(a), release_array, a,
                                 &t);
  if (s) {
    Py_DECREF(a);
    conv_error(who, "%s", opr_status_message(s));
    opr_status_free(s);
    return NULL;
  }
  return t;
}

/* A string tensor of the elements of an object, bytes or str array. */
static opr_tensor *strings_from_array(PyArrayObject *a,
                                      const opy_arg_name *who) {
  PyArrayObject *flat = (PyArrayObject *)PyArray_Ravel(a, NPY_CORDER);
  if (!flat) return NULL;
  int64_t dims[NPY_MAXDIMS];
  int rank = PyArray_NDIM(a);
  for (int i = 0; i < rank; i++) dims[i] = (int64_t)PyArray_DIM(a, i);
  opr_tensor *t = NULL;
  opr_status s = opr_tensor_new(OPR_DT_STRING, rank, dims, &t);
  npy_intp n = PyArray_SIZE(flat);
  for (npy_intp i = 0; !s && i < n; i++) {
    PyObject *item = PyArray_GETITEM(flat, PyArray_GETPTR1(flat, i));
    if (!item) break;
    const char *p = NULL;
    Py_ssize_t len = 0;
    if (PyBytes_Check(item)) {
      p = PyBytes_AS_STRING(item);
      len = PyBytes_GET_SIZE(item);
    } else if (PyUnicode_Check(item)) {
      if (!(p = PyUnicode_AsUTF8AndSize(item, &len))) {
        PyErr_Clear();
        conv_error(who, "a str cannot be encoded as UTF-8");
      }
    } else {
      conv_error(who, "cannot convert %.100s to a tensor%s",
                 opy_type_name(item),
                 n > 1 || rank > 0 ? " (of strings)" : "");
    }
    if (p) s = opr_tensor_set_string(t, i, p, (size_t)len);
    Py_DECREF(item);
    if (!p) break;
  }
  Py_DECREF(flat);
  if (s) {
    conv_error(who, "%s", opr_status_message(s));
    opr_status_free(s);
  }
  if (PyErr_Occurred()) {
    opr_tensor_unref(t);
    return NULL;
  }
  return t;
}

static opr_tensor *from_array(PyArrayObject *a, const opy_arg_name *who) {
  PyArray_Descr *d = PyArray_DESCR(a);
  opr_dtype dt = opy_dtype_of_descr(d);
  if (dt == OPR_DT_INVALID) {
    PyObject *r = PyObject_Str((PyObject *)d);
    conv_error(who, "cannot convert an array of dtype %s to a tensor",
               opy_utf8_or(r, "?"));
    Py_XDECREF(r);
    return NULL;
  }
  if (dt == OPR_DT_STRING) return strings_from_array(a, who);
  if (PyArray_ISCARRAY_RO(a) && PyArray_ISNOTSWAPPED(a))
    return wrap_array(a, dt, who);
  /* A C-ordered, aligned copy in native byte order. */
  PyArray_Descr *nd = PyArray_DescrNewByteorder(d, NPY_NATIVE);
  if (!nd) return NULL;
  PyArrayObject *c = (PyArrayObject *)PyArray_FromArray(
      a, nd, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED |
                 NPY_ARRAY_ENSURECOPY);
  if (!c) return NULL;
  opr_tensor *t = wrap_array(c, dt, who);
  Py_DECREF(c);
  return t;
}

/* ---- Python scalars and nested lists ---- */

static bool int_hint(opr_dtype dt, int64_t *lo, uint64_t *hi) {
  switch (dt) {
  case OPR_DT_INT8: *lo = INT8_MIN; *hi = INT8_MAX; return true;
  case OPR_DT_INT16: *lo = INT16_MIN; *hi = INT16_MAX; return true;
  case OPR_DT_INT32: *lo = INT32_MIN; *hi = INT32_MAX; return true;
  case OPR_DT_INT64: *lo = INT64_MIN; *hi = INT64_MAX; return true;
  case OPR_DT_UINT8: *lo = 0; *hi = UINT8_MAX; return true;
  case OPR_DT_UINT16: *lo = 0; *hi = UINT16_MAX; return true;
  case OPR_DT_UINT32: *lo = 0; *hi = UINT32_MAX; return true;
  case OPR_DT_UINT64: *lo = 0; *hi = UINT64_MAX; return true;
  default: return false;
  }
}

/* Whether every element of an int64 or uint64 array is in [lo, hi]. */
static bool ints_in_range(PyArrayObject *a, int64_t lo, uint64_t hi) {
  npy_intp n = PyArray_SIZE(a);
  if (PyArray_TYPE(a) == NPY_UINT64) {
    const uint64_t *u = PyArray_DATA(a);
    for (npy_intp i = 0; i < n; i++)
      if (u[i] > hi) return false;
    return true;
  }
  const int64_t *v = PyArray_DATA(a);
  for (npy_intp i = 0; i < n; i++)
    if (v[i] < lo || (v[i] > 0 && (uint64_t)v[i] > hi)) return false;
  return true;
}

/* The dtype a value of numpy kind `kind` takes without a hint. */
static opr_dtype default_dtype(PyArrayObject *a) {
  switch (PyArray_DESCR(a)->kind) {
  case 'b': return OPR_DT_BOOL;
  case 'i': return ints_in_range(a, INT32_MIN, INT32_MAX) ? OPR_DT_INT32
                                                          : OPR_DT_INT64;
  case 'u': return OPR_DT_UINT64; /* numpy's pick for ints over int64 */
  case 'f': return OPR_DT_FLOAT;
  case 'c': return OPR_DT_COMPLEX128;
  default: return OPR_DT_INVALID;
  }
}

/* Whether values of numpy kind `kind` may become `hint` (as TensorFlow
 * allows: ints to any number type, floats to float and complex types,
 * complex to complex, bool to bool only). */
static bool kind_fits(char kind, opr_dtype hint) {
  bool is_float = hint == OPR_DT_FLOAT || hint == OPR_DT_DOUBLE ||
                  hint == OPR_DT_HALF || hint == OPR_DT_BFLOAT16;
  bool is_complex = hint == OPR_DT_COMPLEX64 || hint == OPR_DT_COMPLEX128;
  int64_t lo;
  uint64_t hi;
  switch (kind) {
  case 'b': return hint == OPR_DT_BOOL;
  case 'i': case 'u': return is_float || is_complex || int_hint(hint, &lo, &hi);
  case 'f': return is_float || is_complex;
  case 'c': return is_complex;
  default: return false;
  }
}

static opr_tensor *cast_and_wrap(PyArrayObject *a, opr_dtype dt,
                                 const opy_arg_name *who) {
  PyArray_Descr *d = opy_descr_of_dtype(dt);
  if (!d) {
    if (!PyErr_Occurred())
      conv_error(who, "a value of type %s needs ml_dtypes",
                 opr_dtype_name(dt));
    return NULL;
  }
  PyArrayObject *c = (PyArrayObject *)PyArray_CastToType(a, d, 0);
  if (!c) return NULL; /* CastToType stole d */
  opr_tensor *t = wrap_array(c, dt, who);
  Py_DECREF(c);
  return t;
}

/* The type name of the first element of an object array that is no
 * number, bytes or str (`obj`'s own for a 0-d array). */
static const char *first_odd_type(PyArrayObject *a, PyObject *obj) {
  if (PyArray_NDIM(a) == 0) return opy_type_name(obj);
  PyObject **items = PyArray_DATA(a); /* fresh: C-contiguous */
  for (npy_intp i = 0; i < PyArray_SIZE(a); i++) {
    PyObject *x = items[i];
    if (!x || !(PyLong_Check(x) || PyFloat_Check(x) || PyComplex_Check(x)))
      return x ? opy_type_name(x) : "NULL";
  }
  return opy_type_name(obj);
}

/* Whether a Python int is beyond int64. */
static bool int_overflows(PyObject *o) {
  int overflow = 0;
  PyLong_AsLongLongAndOverflow(o, &overflow);
  return overflow != 0;
}

/* The first element of an object array that is neither bytes nor str
 * (borrowed), or NULL. */
static PyObject *first_non_string(PyArrayObject *a) {
  PyObject **items = PyArray_DATA(a); /* fresh: C-contiguous */
  for (npy_intp i = 0; i < PyArray_SIZE(a); i++)
    if (!items[i] || !(PyBytes_Check(items[i]) || PyUnicode_Check(items[i])))
      return items[i] ? items[i] : Py_None;
  return NULL;
}

/* A tensor of a nested list or scalar, inferred by numpy, then typed. */
static opr_tensor *from_python(PyObject *obj, opr_dtype hint,
                               const opy_arg_name *who) {
  PyArrayObject *a = (PyArrayObject *)PyArray_FromAny(obj, NULL, 0, 0,
                                                      NPY_ARRAY_DEFAULT,
                                                      NULL);
  if (!a) {
    conv_error_from_pending(who, "cannot convert it to a tensor");
    return NULL;
  }
  char kind = PyArray_DESCR(a)->kind;
  if ((kind == 'S' || kind == 'U') &&
      (PyList_Check(obj) || PyTuple_Check(obj))) {
    /* numpy turns [b"1", 2.5] into bytes; TensorFlow refuses the mix. */
    PyArrayObject *o = (PyArrayObject *)PyArray_FromAny(
        obj, PyArray_DescrFromType(NPY_OBJECT), 0, 0, NPY_ARRAY_DEFAULT, NULL);
    if (!o) {
      PyErr_Clear();
    } else {
      Py_SETREF(a, o);
      kind = 'O';
    }
  }
  opr_tensor *t = NULL;
  int64_t lo;
  uint64_t hi;
  if (who->preferred && hint != OPR_DT_INVALID &&
      (!kind_fits(kind, hint) ||
       ((kind == 'i' || kind == 'u') && int_hint(hint, &lo, &hi) &&
        !ints_in_range(a, lo, hi))))
    hint = OPR_DT_INVALID;
  bool no_hint = hint == OPR_DT_INVALID || hint == OPR_DT_STRING;
  PyObject *odd = kind == 'O' ? first_non_string(a) : NULL;
  if (kind == 'O' && no_hint && !odd) {
    t = strings_from_array(a, who);
  } else if (odd && PyLong_Check(odd) && !PyBool_Check(odd) &&
             int_overflows(odd)) {
    conv_error(who, "a value is out of range of int64");
  } else if (kind == 'O') {
    conv_error(who, "cannot convert %.100s to a tensor",
               odd ? opy_type_name(odd) : first_odd_type(a, obj));
  } else if ((kind == 'S' || kind == 'U') && no_hint) {
    t = strings_from_array(a, who);
  } else if (kind == 'S' || kind == 'U') {
    conv_error(who, "cannot convert %s to a tensor of type %s",
               kind == 'S' ? "bytes" : "str", opr_dtype_name(hint));
  } else if (hint == OPR_DT_STRING) {
    conv_error(who, "cannot convert %s values to a tensor of type string",
               kind == 'b' ? "bool" : kind == 'f' ? "float"
               : kind == 'c' ? "complex" : "int");
  } else if (hint == OPR_DT_INVALID) {
    opr_dtype dt = default_dtype(a);
    if (dt == OPR_DT_INVALID)
      conv_error(who, "cannot convert %.100s to a tensor",
                 opy_type_name(obj));
    else
      t = cast_and_wrap(a, dt, who);
  } else if (!kind_fits(kind, hint)) {
    conv_error(who, "cannot convert %s values to a tensor of type %s",
               kind == 'b' ? "bool" : kind == 'f' ? "float"
               : kind == 'c' ? "complex" : "int",
               opr_dtype_name(hint));
  } else {
    if ((kind == 'i' || kind == 'u') && int_hint(hint, &lo, &hi) &&
        !ints_in_range(a, lo, hi))
      conv_error(who, "a value is out of range of %s", opr_dtype_name(hint));
    else
      t = cast_and_wrap(a, hint, who);
  }
  Py_DECREF(a);
  return t;
}

/* A 0-d tensor of one Python float or int, the common literal. */
static opr_tensor *scalar_fast(PyObject *obj, opr_dtype hint) {
  opr_tensor *t = NULL;
  if (PyFloat_CheckExact(obj) &&
      (hint == OPR_DT_INVALID || hint == OPR_DT_FLOAT ||
       hint == OPR_DT_DOUBLE)) {
    double v = PyFloat_AS_DOUBLE(obj);
    opr_dtype dt = hint == OPR_DT_DOUBLE ? OPR_DT_DOUBLE : OPR_DT_FLOAT;
    opr_status s = opr_tensor_new(dt, 0, NULL, &t);
    if (s) {
      opy_raise_status(s);
      return NULL;
    }
    if (dt == OPR_DT_DOUBLE) *(double *)t->data = v;
    else *(float *)t->data = (float)v;
    return t;
  }
  if (PyLong_CheckExact(obj) &&
      (hint == OPR_DT_INVALID || hint == OPR_DT_INT32)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow || v < INT32_MIN || v > INT32_MAX) return NULL;
    opr_status s = opr_tensor_new(OPR_DT_INT32, 0, NULL, &t);
    if (s) {
      opy_raise_status(s);
      return NULL;
    }
    *(int32_t *)t->data = (int32_t)v;
    return t;
  }
  return NULL;
}

/* The dtype a flat list of exact ints and floats takes, as from_python
 * would give it; OPR_DT_INVALID to leave the list to from_python (other
 * items, a hint it does not fit). */
static opr_dtype flat_list_dtype(PyObject *seq, opr_dtype hint,
                                 bool preferred) {
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  bool has_float = false, all_int32 = true;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *x = PySequence_Fast_GET_ITEM(seq, i);
    if (PyFloat_CheckExact(x)) {
      has_float = true;
    } else if (PyLong_CheckExact(x)) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
      if (overflow) return OPR_DT_INVALID;
      all_int32 &= v >= INT32_MIN && v <= INT32_MAX;
    } else {
      return OPR_DT_INVALID;
    }
  }
  if (hint == OPR_DT_FLOAT || hint == OPR_DT_DOUBLE) return hint;
  if (hint == OPR_DT_INT64 && !has_float) return hint;
  if (hint == OPR_DT_INT32 && !has_float && all_int32) return hint;
  /* Another hint, or one the values do not fit: from_python decides (an
   * error for a strict hint), except that a preferred int hint the
   * values do not fit gives way to their own type here too. */
  bool gives_way = preferred && (hint == OPR_DT_INT32 ||
                                 hint == OPR_DT_INT64);
  if (hint != OPR_DT_INVALID && !gives_way) return OPR_DT_INVALID;
  if (has_float) return OPR_DT_FLOAT;
  return all_int32 ? OPR_DT_INT32 : OPR_DT_INT64;
}

/* A 1-d tensor of a flat list of Python ints and floats, without numpy's
 * discovery and cast; NULL (no exception) to take the general path. */
static opr_tensor *flat_list_fast(PyObject *obj, opr_dtype hint,
                                  bool preferred) {
  if (!PyList_CheckExact(obj) && !PyTuple_CheckExact(obj)) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(obj);
  opr_dtype dt = n > 0 ? flat_list_dtype(obj, hint, preferred)
                       : OPR_DT_INVALID;
  if (dt == OPR_DT_INVALID) return NULL;
  int64_t dims[1] = {n};
  opr_tensor *t = NULL;
  opr_status s = opr_tensor_new(dt, 1, dims, &t);
  if (s) {
    opy_raise_status(s);
    return NULL;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *x = PySequence_Fast_GET_ITEM(obj, i);
    double d = PyFloat_CheckExact(x) ? PyFloat_AS_DOUBLE(x) : 0;
    long long v = PyFloat_CheckExact(x) ? 0 : PyLong_AsLongLong(x);
    if (!PyFloat_CheckExact(x)) d = (double)v;
    switch (dt) {
    case OPR_DT_FLOAT: ((float *)t->data)[i] = (float)d; break;
    case OPR_DT_DOUBLE: ((double *)t->data)[i] = d; break;
    case OPR_DT_INT32: ((int32_t *)t->data)[i] = (int32_t)v; break;
    default: ((int64_t *)t->data)[i] = (int64_t)v; break;
    }
  }
  return t;
}

static opr_tensor *from_dlpack(PyObject *obj, const opy_arg_name *who) {
  static PyObject *from_dlpack_fn;
  if (!from_dlpack_fn) {
    PyObject *np = PyImport_ImportModule("numpy");
    if (!np) return NULL;
    from_dlpack_fn = PyObject_GetAttrString(np, "from_dlpack");
    Py_DECREF(np);
    if (!from_dlpack_fn) return NULL;
  }
  PyObject *a = PyObject_CallOneArg(from_dlpack_fn, obj);
  if (!a || !PyArray_Check(a)) {
    if (a) PyErr_SetString(PyExc_TypeError, "not an array");
    Py_XDECREF(a);
    conv_error_from_pending(who, "cannot convert it through __dlpack__");
    return NULL;
  }
  opr_tensor *t = from_array((PyArrayObject *)a, who);
  Py_DECREF(a);
  return t;
}

opr_tensor *opy_tensor_convert(PyObject *obj, opr_dtype hint,
                               const opy_arg_name *who) {
  opr_tensor *t = opy_tensor_of_array(obj);
  if (t) return opr_tensor_ref(t);
  if ((t = opy_tape_find(obj))) return opr_tensor_ref(t);
  if (PyArray_Check(obj)) {
    t = from_array((PyArrayObject *)obj, who);
  } else if ((t = scalar_fast(obj, hint)) || PyErr_Occurred() ||
             (t = flat_list_fast(obj, hint, who->preferred)) ||
             PyErr_Occurred()) {
    /* done */
  } else if (PyObject_CheckBuffer(obj) && !PyBytes_Check(obj)) {
    PyObject *a = PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (!a) conv_error_from_pending(who, "cannot convert its buffer");
    else t = from_array((PyArrayObject *)a, who);
    Py_XDECREF(a);
  } else if (PyObject_HasAttrString((PyObject *)Py_TYPE(obj),
                                    "__dlpack__")) {
    t = from_dlpack(obj, who);
  } else if (PyList_Check(obj) || PyTuple_Check(obj) || PyLong_Check(obj) ||
             PyFloat_Check(obj) || PyComplex_Check(obj) ||
             PyBytes_Check(obj) || PyUnicode_Check(obj)) {
    t = from_python(obj, hint, who);
  } else { /* numpy scalars, __array__ objects: their own dtype */
    PyObject *a = PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (!a) conv_error_from_pending(who, "cannot convert it to a tensor");
    else if (PyArray_TYPE((PyArrayObject *)a) == NPY_OBJECT)
      conv_error(who, "cannot convert %.100s to a tensor",
                 opy_type_name(obj));
    else t = from_array((PyArrayObject *)a, who);
    Py_XDECREF(a);
  }
  if (t && opy_tape_keep(obj, t) < 0) {
    opr_tensor_unref(t);
    return NULL;
  }
  return t;
}

opr_tensor *opy_tensor_from_object(PyObject *obj, opr_dtype hint,
                                   const char *op, const char *arg) {
  opy_arg_name who = {op, "input", arg ? arg : "?", false};
  return opy_tensor_convert(obj, hint, &who);
}
