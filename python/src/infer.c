/* _opgen.infer_shapes(op, shapes, attrs=None, values=None): the op's
 * shape function on partial shapes, for graph builders. A shape is None
 * (unknown rank) or a list of ints >= 0 and None (unknown dims); a list
 * input takes a list of shapes. The result is one shape per output
 * tensor, flattened. */
#include "opy_numpy.h"

#include "tensor_in.h"

#include <string.h>

static int is_list_arg(const opr_arg_def *a) {
  return a->number_attr != OPR_NO_ATTR || a->type_list_attr != OPR_NO_ATTR;
}

static int shape_fail(const opr_op_def *op, const opr_arg_def *a,
                      const char *fmt, PyObject *what, Py_ssize_t i) {
  PyObject *r = what ? PyObject_Repr(what) : NULL;
  char msg[300];
  PyOS_snprintf(msg, sizeof msg, fmt, i, opy_utf8_or(r, "?"));
  Py_XDECREF(r);
  PyErr_Clear();
  opy_invalid("%s: input '%s': %s", op->name, a->name, msg);
  return -1;
}

/* One shape: None or a sequence of dims. */
static int parse_shape(const opr_op_def *op, const opr_arg_def *a,
                       PyObject *o, opy_arena *arena, opr_shape *out) {
  if (o == Py_None) {
    *out = opr_shape_unknown();
    return 0;
  }
  if (!PyList_Check(o) && !PyTuple_Check(o))
    return opy_invalid("%s: input '%s': a shape is a list of dims or "
                       "None, not %.100s", op->name, a->name,
                       opy_type_name(o)) ? -1 : -1;
  PyObject *seq = PySequence_Tuple(o);
  if (!seq) return -1;
  Py_ssize_t n = PyTuple_GET_SIZE(seq);
  int r = 0;
  int64_t *dims = NULL;
  if (n > OPR_MAX_RANK)
    r = opy_invalid("%s: input '%s': a shape of rank %zd is over the "
                    "maximum rank %d", op->name, a->name, n,
                    (int)OPR_MAX_RANK) ? -1 : -1;
  else if (!(dims = opy_arena_alloc(arena, (size_t)n * sizeof *dims)))
    r = -1;
  for (Py_ssize_t i = 0; r == 0 && i < n; i++) {
    PyObject *d = PyTuple_GET_ITEM(seq, i);
    long long v = -1;
    int overflow = 0;
    if (d != Py_None) {
      if (PyBool_Check(d) || !PyLong_Check(d))
        r = shape_fail(op, a, "dim %zd is %.100s; a dim is an int >= 0 or "
                       "None", d, i);
      else if ((v = PyLong_AsLongLongAndOverflow(d, &overflow)) < -1 ||
               overflow)
        r = shape_fail(op, a, "dim %zd is %.100s; a dim is an int >= 0 or "
                       "None", d, i);
    }
    if (r == 0) dims[i] = v;
  }
  Py_DECREF(seq);
  if (r < 0) return -1;
  out->rank = (int)n;
  out->dims = dims;
  return 0;
}

/* The shapes of input `a` (entry `o` of `shapes`) into in->shapes. */
static int parse_input(const opr_op_def *op, const opr_arg_def *a,
                       PyObject *o, opy_arena *arena, opr_shape_input *in) {
  memset(in, 0, sizeof *in);
  if (!is_list_arg(a)) {
    opr_shape *s = opy_arena_alloc(arena, sizeof *s);
    if (!s || parse_shape(op, a, o, arena, s) < 0) return -1;
    in->shapes = s;
    in->count = 1;
    return 0;
  }
  if (!PyList_Check(o) && !PyTuple_Check(o))
    return opy_invalid("%s: input '%s': a list input takes a list of "
                       "shapes, not %.100s", op->name, a->name,
                       opy_type_name(o)) ? -1 : -1;
  PyObject *seq = PySequence_Tuple(o);
  if (!seq) return -1;
  Py_ssize_t n = PyTuple_GET_SIZE(seq);
  opr_shape *s = opy_arena_alloc(arena, (size_t)n * sizeof *s);
  int r = s ? 0 : -1;
  for (Py_ssize_t i = 0; r == 0 && i < n; i++)
    r = parse_shape(op, a, PyTuple_GET_ITEM(seq, i), arena, &s[i]);
  Py_DECREF(seq);
  if (r < 0) return -1;
  in->shapes = s;
  in->count = (size_t)n;
  return 0;
}

/* values[name]: one array (a list of arrays, None where unknown, for a
 * list input). */
static int parse_values(const opr_op_def *op, PyObject *values,
                        opy_arena *arena, opr_shape_input *ins) {
  if (values == Py_None) return 0;
  if (!PyDict_Check(values))
    return opy_invalid("%s: values must be a dict of input name to "
                       "array, not %.100s", op->name,
                       opy_type_name(values)) ? -1 : -1;
  PyObject *key, *val;
  Py_ssize_t pos = 0;
  while (PyDict_Next(values, &pos, &key, &val)) {
    const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    size_t i = 0;
    while (k && i < op->ninputs && strcmp(op->inputs[i].name, k) != 0) i++;
    if (!k || i == op->ninputs) {
      PyErr_Clear();
      PyObject *r = PyObject_Repr(key);
      opy_invalid("%s: values: no input named %.100s", op->name,
                  opy_utf8_or(r, "?"));
      Py_XDECREF(r);
      return -1;
    }
    const opr_arg_def *a = &op->inputs[i];
    opy_arg_name who = {op->name, "input", a->name, false};
    const opr_tensor **vals = opy_arena_alloc(
        arena, (ins[i].count ? ins[i].count : 1) * sizeof *vals);
    if (!vals) return -1;
    PyObject *seq = NULL;
    if (is_list_arg(a)) {
      if (!PyList_Check(val) && !PyTuple_Check(val))
        return opy_invalid("%s: input '%s': the value of a list input is a "
                           "list of arrays", op->name, a->name) ? -1 : -1;
      if (!(seq = PySequence_Tuple(val))) return -1;
      if ((size_t)PyTuple_GET_SIZE(seq) != ins[i].count) {
        Py_DECREF(seq);
        return opy_invalid("%s: input '%s': %zd values for %zu shapes",
                           op->name, a->name, PyTuple_GET_SIZE(val),
                           ins[i].count) ? -1 : -1;
      }
    }
    int r = 0;
    for (size_t j = 0; r == 0 && j < ins[i].count; j++) {
      PyObject *v = seq ? PyTuple_GET_ITEM(seq, (Py_ssize_t)j) : val;
      opr_tensor *t = NULL;
      if (v != Py_None &&
          (!(t = opy_tensor_convert(v, a->type, &who)) ||
           opy_arena_keep(arena, t) < 0))
        r = -1;
      vals[j] = t;
    }
    Py_XDECREF(seq);
    if (r < 0) return -1;
    ins[i].values = vals;
  }
  return 0;
}

static int parse_attrs(const opr_op_def *op, PyObject *attrs,
                       opy_arena *arena, opr_named_attr **out, size_t *n) {
  *n = 0;
  if (attrs == Py_None) return 0;
  if (!PyDict_Check(attrs))
    return opy_invalid("%s: attrs must be a dict of attr name to value, "
                       "not %.100s", op->name, opy_type_name(attrs))
               ? -1 : -1;
  Py_ssize_t size = PyDict_GET_SIZE(attrs), pos = 0;
  opr_named_attr *named = opy_arena_alloc(arena, (size_t)size * sizeof *named);
  if (!named) return -1;
  PyObject *key, *val;
  while (PyDict_Next(attrs, &pos, &key, &val) && *n < (size_t)size) {
    const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    size_t i = 0;
    while (k && i < op->nattrs && strcmp(op->attrs[i].name, k) != 0) i++;
    if (!k || i == op->nattrs) {
      PyErr_Clear();
      PyObject *r = PyObject_Repr(key);
      opy_invalid("%s: no attr named %.100s", op->name,
                  opy_utf8_or(r, "?"));
      Py_XDECREF(r);
      return -1;
    }
    named[*n].name = op->attrs[i].name;
    if (opy_attr_from_python(op, &op->attrs[i], val, arena,
                             &named[*n].value) < 0)
      return -1;
    (*n)++;
  }
  *out = named;
  return 0;
}

static PyObject *result_list(const opr_inferred_shapes *r) {
  PyObject *l = PyList_New((Py_ssize_t)r->count);
  for (size_t i = 0; l && i < r->count; i++) {
    opr_shape s = r->shapes[i];
    PyObject *x;
    if (s.rank < 0) {
      x = Py_NewRef(Py_None);
    } else {
      x = PyList_New(s.rank);
      for (int d = 0; x && d < s.rank; d++) {
        PyObject *v = s.dims[d] < 0 ? Py_NewRef(Py_None)
                                    : PyLong_FromLongLong(s.dims[d]);
        if (!v) Py_CLEAR(x);
        else PyList_SET_ITEM(x, d, v);
      }
    }
    if (!x) Py_CLEAR(l);
    else PyList_SET_ITEM(l, (Py_ssize_t)i, x);
  }
  return l;
}

static PyObject *infer(const opr_op_def *op, PyObject *shapes,
                       PyObject *attrs, PyObject *values, opy_arena *arena) {
  if (!PyList_Check(shapes) && !PyTuple_Check(shapes))
    return opy_invalid("%s: shapes must be a list, one entry per input "
                       "argument, not %.100s", op->name,
                       opy_type_name(shapes));
  PyObject *seq = PySequence_Tuple(shapes);
  if (!seq) return NULL;
  Py_ssize_t n = PyTuple_GET_SIZE(seq);
  opr_shape_input *ins = NULL;
  int r = 0;
  if ((size_t)n != op->ninputs)
    r = opy_invalid("%s: takes %zu input %s, got %zd shapes", op->name,
                    op->ninputs, op->ninputs == 1 ? "argument" : "arguments",
                    n) ? -1 : -1;
  else if (!(ins = opy_arena_alloc(arena, (size_t)n * sizeof *ins)))
    r = -1;
  for (Py_ssize_t i = 0; r == 0 && i < n; i++)
    r = parse_input(op, &op->inputs[i], PyTuple_GET_ITEM(seq, i), arena,
                    &ins[i]);
  Py_DECREF(seq);
  opr_named_attr *named = NULL;
  size_t nattrs = 0;
  if (r == 0) r = parse_values(op, values, arena, ins);
  if (r == 0) r = parse_attrs(op, attrs, arena, &named, &nattrs);
  if (r < 0) return NULL;
  opr_inferred_shapes out = {NULL, 0};
  opr_status s = opr_infer_shapes(op, ins, (size_t)n, named, nattrs, &out);
  if (s) return opy_raise_status(s);
  PyObject *l = result_list(&out);
  opr_inferred_shapes_free(&out);
  return l;
}

static PyObject *py_infer_shapes(PyObject *m, PyObject *args,
                                 PyObject *kwds) {
  (void)m;
  static char *kwlist[] = {"op", "shapes", "attrs", "values", NULL};
  PyObject *name, *shapes, *attrs = Py_None, *values = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "UO|OO:infer_shapes", kwlist,
                                   &name, &shapes, &attrs, &values))
    return NULL;
  const char *s = PyUnicode_AsUTF8(name);
  if (!s) return NULL;
  const opr_op_def *op = opy_find_op(s);
  if (!op) return NULL;
  opy_arena arena;
  memset(&arena, 0, sizeof arena);
  PyObject *r = infer(op, shapes, attrs, values, &arena);
  opy_arena_free(&arena);
  return r;
}

static PyMethodDef infer_functions[] = {
    {"infer_shapes", (PyCFunction)(void (*)(void))py_infer_shapes,
     METH_VARARGS | METH_KEYWORDS,
     "infer_shapes(op, shapes, attrs=None, values=None): the output shapes "
     "of op (a flat list, one per output tensor: a list of int|None, or "
     "None for an unknown rank) from the input shapes (one per input "
     "argument: None, or a list of int|None; a list of those for a list "
     "input), attrs by name and known input values by input name."},
    {NULL, NULL, 0, NULL},
};

int opy_infer_init(PyObject *module) {
  return PyModule_AddFunctions(module, infer_functions);
}
