/* Attr values: Python -> runtime by the attr's type (with messages that
 * name op, attr and rule), runtime -> Python. */
#include "opy_numpy.h"

#include "tensor_in.h"

#include <math.h>
#include <string.h>

/* ---- the arena: what converted values point into ---- */

void *opy_arena_alloc(opy_arena *a, size_t n) {
  void *p = PyMem_RawMalloc(n ? n : 1);
  if (!p) {
    PyErr_NoMemory();
    return NULL;
  }
  if (a->nblocks < sizeof a->blocks / sizeof a->blocks[0]) {
    a->blocks[a->nblocks++] = p;
    return p;
  }
  if (a->nmore == a->capmore) {
    size_t cap = a->capmore ? 2 * a->capmore : 16;
    void **m = PyMem_RawRealloc(a->more, cap * sizeof *m);
    if (!m) {
      PyMem_RawFree(p);
      PyErr_NoMemory();
      return NULL;
    }
    a->more = m;
    a->capmore = cap;
  }
  a->more[a->nmore++] = p;
  return p;
}

/* Takes the reference `t`, dropped by opy_arena_free. */
int opy_arena_keep(opy_arena *a, opr_tensor *t) {
  if (a->ntensors < sizeof a->tensors / sizeof a->tensors[0]) {
    a->tensors[a->ntensors++] = t;
    return 0;
  }
  if (a->ntmore == a->captmore) {
    size_t cap = a->captmore ? 2 * a->captmore : 16;
    opr_tensor **m = PyMem_RawRealloc(a->tmore, cap * sizeof *m);
    if (!m) {
      opr_tensor_unref(t);
      PyErr_NoMemory();
      return -1;
    }
    a->tmore = m;
    a->captmore = cap;
  }
  a->tmore[a->ntmore++] = t;
  return 0;
}

void opy_arena_free(opy_arena *a) {
  if (!a->nblocks && !a->ntensors) return; /* the common call */
  for (size_t i = 0; i < a->ntensors; i++) opr_tensor_unref(a->tensors[i]);
  for (size_t i = 0; i < a->ntmore; i++) opr_tensor_unref(a->tmore[i]);
  PyMem_RawFree(a->tmore);
  for (size_t i = 0; i < a->nblocks; i++) PyMem_RawFree(a->blocks[i]);
  for (size_t i = 0; i < a->nmore; i++) PyMem_RawFree(a->more[i]);
  PyMem_RawFree(a->more);
  memset(a, 0, sizeof *a);
}

/* ---- Python -> runtime ---- */

typedef struct {
  const opr_op_def *op;
  const opr_attr_def *def;
} attr_ctx;

static int attr_fail(const attr_ctx *c, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  PyOS_vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  opy_invalid("%s: attr '%s': %s", c->op->name, c->def->name, msg);
  return -1;
}

static int conv_string(const attr_ctx *c, PyObject *o, opy_arena *a,
                       opr_str *out) {
  const char *p;
  Py_ssize_t n;
  if (PyUnicode_Check(o)) {
    if (!(p = PyUnicode_AsUTF8AndSize(o, &n))) {
      PyErr_Clear();
      return attr_fail(c, "the str cannot be encoded as UTF-8");
    }
  } else if (PyBytes_Check(o)) {
    p = PyBytes_AS_STRING(o);
    n = PyBytes_GET_SIZE(o);
  } else {
    return attr_fail(c, "expected a str or bytes, got %.100s",
                     opy_type_name(o));
  }
  char *copy = opy_arena_alloc(a, (size_t)n + 1);
  if (!copy) return -1;
  memcpy(copy, p, (size_t)n);
  copy[n] = '\0';
  out->ptr = copy;
  out->len = (size_t)n;
  return 0;
}

static int conv_int(const attr_ctx *c, PyObject *o, int64_t *out) {
  if (PyBool_Check(o) || PyFloat_Check(o) || !PyIndex_Check(o))
    return attr_fail(c, "expected an int, got %.100s", opy_type_name(o));
  PyObject *i = PyNumber_Index(o);
  if (!i) {
    PyErr_Clear();
    return attr_fail(c, "expected an int, got %.100s", opy_type_name(o));
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
  Py_DECREF(i);
  if (overflow) return attr_fail(c, "the value is out of the range of int64");
  if (v == -1 && PyErr_Occurred()) return -1;
  *out = v;
  return 0;
}

static int conv_float(const attr_ctx *c, PyObject *o, float *out) {
  if (PyBool_Check(o) ||
      !(PyFloat_Check(o) || PyLong_Check(o) || PyArray_IsScalar(o, Number)))
    return attr_fail(c, "expected a float, got %.100s", opy_type_name(o));
  double d = PyFloat_AsDouble(o);
  if (d == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    return attr_fail(c, "expected a float, got %.100s", opy_type_name(o));
  }
  *out = (float)d;
  return 0;
}

static int conv_bool(const attr_ctx *c, PyObject *o, bool *out) {
  if (PyBool_Check(o)) *out = o == Py_True;
  else if (PyArray_IsScalar(o, Bool)) *out = PyObject_IsTrue(o) == 1;
  else return attr_fail(c, "expected a bool, got %.100s", opy_type_name(o));
  return 0;
}

static int conv_type(const attr_ctx *c, PyObject *o, opr_dtype *out) {
  if (opy_dtype_from_python(o, out) == 0) return 0;
  PyErr_Clear();
  PyObject *r = PyObject_Repr(o);
  attr_fail(c, "expected a dtype, got %.200s", opy_utf8_or(r, "?"));
  Py_XDECREF(r);
  return -1;
}

/* None: unknown rank; a sequence of ints >= -1 or None (unknown dim). */
static int conv_shape(const attr_ctx *c, PyObject *o, opy_arena *a,
                      opr_shape *out) {
  if (o == Py_None) {
    out->rank = -1;
    out->dims = NULL;
    return 0;
  }
  if (!PyList_Check(o) && !PyTuple_Check(o))
    return attr_fail(c, "expected a shape (a list of ints or None, or "
                     "None), got %.100s", opy_type_name(o));
  PyObject *seq = PySequence_Tuple(o); /* a snapshot */
  if (!seq) return -1;
  Py_ssize_t n = PyTuple_GET_SIZE(seq);
  int r = 0;
  int64_t *dims = NULL;
  if (n > OPR_MAX_RANK)
    r = attr_fail(c, "a shape of rank %zd is over the maximum rank %d", n,
                  (int)OPR_MAX_RANK);
  else if (!(dims = opy_arena_alloc(a, (size_t)n * sizeof *dims)))
    r = -1;
  for (Py_ssize_t i = 0; r == 0 && i < n; i++) {
    PyObject *d = PyTuple_GET_ITEM(seq, i);
    int64_t v = -1;
    if (d != Py_None && (r = conv_int(c, d, &v)) == 0 && v < -1)
      r = attr_fail(c, "dim %zd is %lld; dims must be >= 0 (or -1 or "
                    "None: unknown)", i, (long long)v);
    dims[i] = v;
  }
  Py_DECREF(seq);
  if (r < 0) return -1;
  out->rank = (int)n;
  out->dims = dims;
  return 0;
}

static int conv_tensor(const attr_ctx *c, PyObject *o, opy_arena *a,
                       const opr_tensor **out) {
  opy_arg_name who = {c->op->name, "attr", c->def->name, false};
  opr_tensor *t = opy_tensor_convert(o, OPR_DT_INVALID, &who);
  if (!t || opy_arena_keep(a, t) < 0) return -1;
  *out = t;
  return 0;
}

static int conv_func(const attr_ctx *c, PyObject *o, opy_arena *a,
                     const char **out) {
  opr_str s;
  if (!PyUnicode_Check(o))
    return attr_fail(c, "expected a function name (str), got %.100s",
                     opy_type_name(o));
  if (conv_string(c, o, a, &s) < 0) return -1;
  *out = s.ptr;
  return 0;
}

/* One element of kind `kind` into `slot`. */
static int conv_one(const attr_ctx *c, opr_attr_kind kind, PyObject *o,
                    opy_arena *a, void *slot) {
  switch (kind) {
  case OPR_ATTR_STRING: return conv_string(c, o, a, slot);
  case OPR_ATTR_INT: return conv_int(c, o, slot);
  case OPR_ATTR_FLOAT: return conv_float(c, o, slot);
  case OPR_ATTR_BOOL: return conv_bool(c, o, slot);
  case OPR_ATTR_TYPE: return conv_type(c, o, slot);
  case OPR_ATTR_SHAPE: return conv_shape(c, o, a, slot);
  case OPR_ATTR_TENSOR: return conv_tensor(c, o, a, slot);
  case OPR_ATTR_FUNC: return conv_func(c, o, a, slot);
  default: return attr_fail(c, "its type is not supported");
  }
}

static int conv_list(const attr_ctx *c, PyObject *o, opy_arena *a,
                     opr_attr_value *out) {
  opr_attr_kind kind = c->def->type.kind;
  if (!PyList_Check(o) && !PyTuple_Check(o))
    return attr_fail(c, "expected a list (%s), got %.100s",
                     opr_attr_type_name(c->def->type), opy_type_name(o));
  /* A snapshot: converting an item cannot change the list under us. */
  PyObject *seq = PySequence_Tuple(o);
  if (!seq) return -1;
  Py_ssize_t n = PyTuple_GET_SIZE(seq);
  size_t size = opr_attr_item_size(kind);
  char *items = opy_arena_alloc(a, (size_t)n * size);
  int r = items ? 0 : -1;
  for (Py_ssize_t i = 0; r == 0 && i < n; i++)
    r = conv_one(c, kind, PyTuple_GET_ITEM(seq, i), a, items + i * size);
  Py_DECREF(seq);
  if (r < 0) return -1;
  *out = opr_attr_list(kind, items, (size_t)n);
  return 0;
}

int opy_attr_from_python(const opr_op_def *op, const opr_attr_def *def,
                         PyObject *obj, opy_arena *arena,
                         opr_attr_value *out) {
  attr_ctx c = {op, def};
  memset(out, 0, sizeof *out);
  if (def->type.is_list) return conv_list(&c, obj, arena, out);
  out->kind = def->type.kind;
  out->is_list = false;
  switch (def->type.kind) {
  case OPR_ATTR_STRING: return conv_string(&c, obj, arena, &out->u.s);
  case OPR_ATTR_INT: return conv_int(&c, obj, &out->u.i);
  case OPR_ATTR_FLOAT: return conv_float(&c, obj, &out->u.f);
  case OPR_ATTR_BOOL: return conv_bool(&c, obj, &out->u.b);
  case OPR_ATTR_TYPE: return conv_type(&c, obj, &out->u.type);
  case OPR_ATTR_SHAPE: return conv_shape(&c, obj, arena, &out->u.shape);
  case OPR_ATTR_TENSOR: return conv_tensor(&c, obj, arena, &out->u.tensor);
  case OPR_ATTR_FUNC: return conv_func(&c, obj, arena, &out->u.func);
  default: return attr_fail(&c, "its type is not supported");
  }
}

/* ---- runtime -> Python ---- */

static PyObject *shape_to_python(opr_shape s) {
  if (s.rank < 0) Py_RETURN_NONE;
  PyObject *l = PyList_New(s.rank);
  for (int i = 0; l && i < s.rank; i++) {
    PyObject *d = s.dims[i] < 0 ? Py_NewRef(Py_None)
                                : PyLong_FromLongLong(s.dims[i]);
    if (!d) {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, i, d);
  }
  return l;
}

static PyObject *one_to_python(opr_attr_kind kind, const void *p) {
  switch (kind) {
  case OPR_ATTR_STRING: {
    const opr_str *s = p;
    return PyUnicode_DecodeUTF8(s->ptr ? s->ptr : "", (Py_ssize_t)s->len,
                                "surrogateescape");
  }
  case OPR_ATTR_INT: return PyLong_FromLongLong(*(const int64_t *)p);
  case OPR_ATTR_FLOAT: return PyFloat_FromDouble(*(const float *)p);
  case OPR_ATTR_BOOL: return PyBool_FromLong(*(const bool *)p);
  case OPR_ATTR_TYPE: return opy_dtype_to_numpy(*(const opr_dtype *)p);
  case OPR_ATTR_SHAPE: return shape_to_python(*(const opr_shape *)p);
  case OPR_ATTR_TENSOR: {
    const opr_tensor *t = *(const opr_tensor *const *)p;
    if (!t) Py_RETURN_NONE;
    return opy_array_copy(t);
  }
  case OPR_ATTR_FUNC: {
    const char *f = *(const char *const *)p;
    return f ? PyUnicode_FromString(f) : Py_NewRef(Py_None);
  }
  default: Py_RETURN_NONE;
  }
}

PyObject *opy_attr_to_python(const opr_attr_value *v) {
  if (!v || v->kind == OPR_ATTR_UNSET) Py_RETURN_NONE;
  if (!v->is_list) return one_to_python(v->kind, &v->u);
  size_t size = opr_attr_item_size(v->kind);
  if (v->u.list.count > (size_t)PY_SSIZE_T_MAX) return PyErr_NoMemory();
  PyObject *l = PyList_New((Py_ssize_t)v->u.list.count);
  const char *items = v->u.list.items;
  for (size_t i = 0; l && i < v->u.list.count; i++) {
    PyObject *x = one_to_python(v->kind, items + i * size);
    if (!x) {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, (Py_ssize_t)i, x);
  }
  return l;
}
