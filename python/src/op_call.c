/* A call of an op function: bind the arguments, convert attrs and inputs,
 * run the op (opr_execute_op, the GIL released), wrap the outputs. The
 * common case (a few single inputs and attrs, a few outputs) uses stack
 * storage only. */
#include "op.h"

#include "tensor_in.h"

#include <string.h>

enum {
  INLINE_PARAMS = 16,
  INLINE_TENSORS = 16,
  INLINE_ATTRS = 8,
  MAX_OUTPUTS = 1 << 20, /* room offered at most: bounds memory */
};

/* ---- binding ---- */

static const char *fn_name(const opy_op *self) {
  PyObject *n = self->dict ? PyDict_GetItemString(self->dict, "__name__")
                           : NULL;
  const char *s = n && PyUnicode_Check(n) ? PyUnicode_AsUTF8(n) : NULL;
  if (!s) PyErr_Clear();
  return s ? s : self->op->name;
}

static Py_ssize_t find_param(const opy_op *self, PyObject *key) {
  for (Py_ssize_t i = 0; i < self->nparams; i++)
    if (self->params[i].name == key) return i;
  for (Py_ssize_t i = 0; i < self->nparams; i++)
    if (PyUnicode_Compare(self->params[i].name, key) == 0) return i;
  PyErr_Clear();
  return -1;
}

/* bound[i]: the argument of parameter i (borrowed), or NULL. */
static int bind(const opy_op *self, PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames, PyObject **bound) {
  if (nargs > self->nparams) {
    PyErr_Format(PyExc_TypeError, "%s() takes %zd positional argument%s but "
                 "%zd %s given", fn_name(self), self->nparams,
                 self->nparams == 1 ? "" : "s", nargs,
                 nargs == 1 ? "was" : "were");
    return -1;
  }
  for (Py_ssize_t i = 0; i < nargs; i++) bound[i] = args[i];
  for (Py_ssize_t i = nargs; i < self->nparams; i++) bound[i] = NULL;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; k++) {
    PyObject *key = PyTuple_GET_ITEM(kwnames, k);
    Py_ssize_t i = find_param(self, key);
    if (i < 0) {
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword "
                   "argument '%U'", fn_name(self), key);
      return -1;
    }
    if (bound[i]) {
      PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument "
                   "'%U'", fn_name(self), key);
      return -1;
    }
    bound[i] = args[nargs + k];
  }
  for (Py_ssize_t i = nargs; i < self->nparams; i++)
    if (!bound[i] && !self->params[i].has_default) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%U'",
                   fn_name(self), self->params[i].name);
      return -1;
    }
  return 0;
}

/* ---- the call's storage ---- */

typedef struct call_state {
  const opr_op_def *op;
  PyObject **bound;
  opr_named_attr *attrs;
  size_t nattrs;
  opr_input *inputs;
  const opr_tensor **tensors; /* every input tensor, flattened */
  size_t ntensors, captensors;
  opr_dtype *resolved;        /* [op->nattrs]: type attrs seen so far */
  opy_arena arena;
} call_state;

/* The attr value given in the call for attr `a`, or NULL. */
static const opr_attr_value *given_attr(const call_state *c, int a) {
  for (size_t i = 0; i < c->nattrs; i++)
    if (c->attrs[i].name == c->op->attrs[a].name) return &c->attrs[i].value;
  return NULL;
}

static int convert_attrs(const opy_op *self, call_state *c) {
  for (Py_ssize_t i = 0; i < self->nparams; i++) {
    const opy_param *p = &self->params[i];
    if (p->is_input || !c->bound[i]) continue;
    opr_named_attr *na = &c->attrs[c->nattrs++];
    na->name = c->op->attrs[p->index].name;
    if (opy_attr_from_python(c->op, &c->op->attrs[p->index], c->bound[i],
                             &c->arena, &na->value) < 0)
      return -1;
  }
  return 0;
}

/* The dtype of a numpy array, else OPR_DT_INVALID. */
static opr_dtype array_dtype(PyObject *o) {
  if (!PyArray_Check(o)) return OPR_DT_INVALID;
  return opy_dtype_of_descr(PyArray_DESCR((PyArrayObject *)o));
}

/* The dtype an input of type attr `ta` should take when it is no array:
 * the type already read off an earlier input, else the first array among
 * the inputs of that attr, else the attr's default. */
static opr_dtype hint_of(const opy_op *self, call_state *c, int ta,
                         bool *preferred) {
  *preferred = false;
  if (ta == OPR_NO_ATTR) return OPR_DT_INVALID;
  if (c->resolved[ta] != OPR_DT_INVALID) return c->resolved[ta];
  const opr_attr_value *g = given_attr(c, ta);
  if (g && g->kind == OPR_ATTR_TYPE && !g->is_list) return g->u.type;
  for (Py_ssize_t i = 0; i < self->nparams; i++) {
    const opy_param *p = &self->params[i];
    if (!p->is_input || c->op->inputs[p->index].type_attr != ta) continue;
    PyObject *o = c->bound[i];
    opr_dtype dt = o ? array_dtype(o) : OPR_DT_INVALID;
    bool seq = o && (PyList_Check(o) || PyTuple_Check(o));
    Py_ssize_t n = seq ? PySequence_Fast_GET_SIZE(o) : 0;
    for (Py_ssize_t j = 0; dt == OPR_DT_INVALID && j < n; j++)
      dt = array_dtype(PySequence_Fast_GET_ITEM(o, j));
    if (dt != OPR_DT_INVALID) return dt;
  }
  const opr_attr_value *d = c->op->attrs[ta].default_value;
  *preferred = true;
  if (d && d->kind == OPR_ATTR_TYPE && !d->is_list) return d->u.type;
  return OPR_DT_INVALID;
}

static int push_tensor(call_state *c, opr_tensor *t) {
  if (c->ntensors == c->captensors) {
    size_t cap = 2 * c->captensors;
    const opr_tensor **m = opy_arena_alloc(&c->arena, cap * sizeof *m);
    if (!m) {
      opr_tensor_unref(t);
      return -1;
    }
    memcpy(m, c->tensors, c->ntensors * sizeof *m);
    c->tensors = m;
    c->captensors = cap;
  }
  c->tensors[c->ntensors++] = t;
  return 0;
}

static int convert_hinted(call_state *c, const opr_arg_def *a, PyObject *o,
                          opr_dtype hint, bool preferred);

static int convert_one(const opy_op *self, call_state *c,
                       const opr_arg_def *a, PyObject *o) {
  bool preferred = false;
  /* An array keeps its own dtype: no hint to look for. */
  opr_dtype hint = a->type != OPR_DT_INVALID ? a->type
                   : PyArray_Check(o)
                       ? OPR_DT_INVALID
                       : hint_of(self, c, a->type_attr, &preferred);
  return convert_hinted(c, a, o, hint, preferred);
}

static int convert_hinted(call_state *c, const opr_arg_def *a, PyObject *o,
                          opr_dtype hint, bool preferred) {
  opy_arg_name who = {c->op->name, "input", a->name, preferred};
  opr_tensor *t = opy_tensor_convert(o, hint, &who);
  if (!t || push_tensor(c, t) < 0) return -1;
  if (a->type_attr != OPR_NO_ATTR &&
      c->resolved[a->type_attr] == OPR_DT_INVALID)
    c->resolved[a->type_attr] = t->dtype;
  return 0;
}

static int convert_list(const opy_op *self, call_state *c,
                        const opr_arg_def *a, PyObject *o) {
  if (!PyList_Check(o) && !PyTuple_Check(o)) {
    opy_invalid("%s: input '%s': expected a list of tensors, got %.100s",
                c->op->name, a->name, opy_type_name(o));
    return -1;
  }
  PyObject *seq = PySequence_Tuple(o); /* a snapshot */
  if (!seq) return -1;
  const opr_attr_value *types =
      a->type_list_attr != OPR_NO_ATTR ? given_attr(c, a->type_list_attr)
                                       : NULL;
  int r = 0;
  for (Py_ssize_t j = 0; r == 0 && j < PyTuple_GET_SIZE(seq); j++) {
    PyObject *x = PyTuple_GET_ITEM(seq, j);
    if (types && types->is_list && (size_t)j < types->u.list.count)
      r = convert_hinted(c, a, x,
                         ((const opr_dtype *)types->u.list.items)[j], false);
    else
      r = convert_one(self, c, a, x);
  }
  Py_DECREF(seq);
  return r;
}

/* Every input argument, into c->inputs (pointing into c->tensors once
 * all are converted: the array may move while it grows). */
static int convert_inputs(const opy_op *self, call_state *c) {
  const opr_op_def *op = c->op;
  size_t starts_inline[INLINE_ATTRS + 1];
  size_t *starts = op->ninputs <= INLINE_ATTRS
                       ? starts_inline
                       : opy_arena_alloc(&c->arena, (op->ninputs + 1) *
                                                        sizeof *starts);
  if (!starts) return -1;
  for (size_t i = 0; i < op->ninputs; i++) {
    const opr_arg_def *a = &op->inputs[i];
    PyObject *o = c->bound[i]; /* inputs are the first parameters */
    starts[i] = c->ntensors;
    bool list = a->number_attr != OPR_NO_ATTR ||
                a->type_list_attr != OPR_NO_ATTR;
    int r = list ? convert_list(self, c, a, o) : convert_one(self, c, a, o);
    if (r < 0) return -1;
  }
  starts[op->ninputs] = c->ntensors;
  for (size_t i = 0; i < op->ninputs; i++) {
    c->inputs[i].tensors = c->tensors + starts[i];
    c->inputs[i].count = starts[i + 1] - starts[i];
  }
  return 0;
}

/* ---- outputs ---- */

/* The number of tensors output `o` will have, from the attrs given, the
 * input lists and the defaults. */
static size_t output_count(const call_state *c, size_t o) {
  const opr_op_def *op = c->op;
  const opr_arg_def *a = &op->outputs[o];
  int attr = a->number_attr != OPR_NO_ATTR ? a->number_attr
                                           : a->type_list_attr;
  if (attr == OPR_NO_ATTR) return 1;
  const opr_attr_value *v = given_attr(c, attr);
  for (size_t i = 0; !v && i < op->ninputs; i++)
    if (op->inputs[i].number_attr == attr ||
        op->inputs[i].type_list_attr == attr)
      return c->inputs[i].count;
  if (!v) v = op->attrs[attr].default_value;
  if (!v) return 0;
  if (v->kind == OPR_ATTR_INT && !v->is_list)
    return v->u.i > 0 && v->u.i < MAX_OUTPUTS ? (size_t)v->u.i : 0;
  return v->is_list ? v->u.list.count : 0;
}

static PyObject *wrap_outputs(const call_state *c, opr_tensor **outs,
                              size_t nouts) {
  const opr_op_def *op = c->op;
  if (op->noutputs == 0) Py_RETURN_NONE;
  bool single = op->noutputs == 1;
  PyObject *result = single ? NULL : PyTuple_New((Py_ssize_t)op->noutputs);
  if (!single && !result) return NULL;
  size_t next = 0;
  for (size_t o = 0; o < op->noutputs; o++) {
    const opr_arg_def *a = &op->outputs[o];
    bool list = a->number_attr != OPR_NO_ATTR ||
                a->type_list_attr != OPR_NO_ATTR;
    size_t n = list ? output_count(c, o) : 1;
    PyObject *x = NULL;
    if (n > nouts - next) {
      PyErr_Format(opy_error_class(OPR_INTERNAL), "%s: output '%s' has "
                   "fewer tensors than expected", op->name, a->name);
    } else if (!list) {
      x = opy_array_from_tensor(outs[next++]);
    } else {
      x = PyList_New((Py_ssize_t)n);
      for (size_t j = 0; x && j < n; j++) {
        PyObject *arr = opy_array_from_tensor(outs[next++]);
        if (!arr) Py_CLEAR(x);
        else PyList_SET_ITEM(x, (Py_ssize_t)j, arr);
      }
    }
    if (!x) {
      Py_XDECREF(result);
      return NULL;
    }
    if (single) return x;
    PyTuple_SET_ITEM(result, (Py_ssize_t)o, x);
  }
  return result;
}

/* ---- the call ---- */

static PyObject *run(call_state *c) {
  const opr_op_def *op = c->op;
  size_t max = 0;
  for (size_t o = 0; o < op->noutputs; o++) {
    size_t n = output_count(c, o);
    max = n > MAX_OUTPUTS - max ? MAX_OUTPUTS : max + n;
  }
  opr_tensor *outs_inline[INLINE_TENSORS];
  opr_tensor **outs = outs_inline;
  if (max > INLINE_TENSORS &&
      !(outs = opy_arena_alloc(&c->arena, max * sizeof *outs)))
    return NULL;
  if (max > INLINE_TENSORS) memset(outs, 0, max * sizeof *outs);
  opr_context *ctx = opy_current_context();
  size_t nouts = 0;
  opr_status s;
  Py_BEGIN_ALLOW_THREADS
  s = opr_execute_op(ctx, op, c->inputs, op->ninputs, c->attrs, c->nattrs,
                     outs, max, &nouts);
  Py_END_ALLOW_THREADS
  if (s) return opy_raise_status(s);
  PyObject *r = wrap_outputs(c, outs, nouts);
  for (size_t i = 0; i < nouts; i++) opr_tensor_unref(outs[i]);
  return r;
}

PyObject *opy_op_vectorcall(PyObject *callable, PyObject *const *args,
                            size_t nargsf, PyObject *kwnames) {
  const opy_op *self = (const opy_op *)callable;
  const opr_op_def *op = self->op;
  PyObject *bound_inline[INLINE_PARAMS];
  opr_named_attr attrs_inline[INLINE_ATTRS];
  opr_input inputs_inline[INLINE_ATTRS];
  const opr_tensor *tensors_inline[INLINE_TENSORS];
  opr_dtype resolved_inline[INLINE_ATTRS];
  call_state c;
  c.op = op;
  c.nattrs = 0;
  c.ntensors = 0;
  c.tensors = tensors_inline;
  c.captensors = INLINE_TENSORS;
  memset(&c.arena, 0, sizeof c.arena);
  PyObject *result = NULL;
  bool small = self->nparams <= INLINE_PARAMS && op->nattrs <= INLINE_ATTRS &&
               op->ninputs <= INLINE_ATTRS;
  c.bound = small ? bound_inline
                  : opy_arena_alloc(&c.arena, (size_t)self->nparams *
                                                  sizeof *c.bound + 1);
  c.attrs = small ? attrs_inline
                  : opy_arena_alloc(&c.arena, op->nattrs * sizeof *c.attrs +
                                                  1);
  c.inputs = small ? inputs_inline
                   : opy_arena_alloc(&c.arena, op->ninputs *
                                                   sizeof *c.inputs + 1);
  c.resolved = small ? resolved_inline
                     : opy_arena_alloc(&c.arena, op->nattrs *
                                                     sizeof *c.resolved + 1);
  if (c.bound && c.attrs && c.inputs && c.resolved) {
    for (size_t i = 0; i < op->nattrs; i++) c.resolved[i] = OPR_DT_INVALID;
    if (bind(self, args, PyVectorcall_NARGS(nargsf), kwnames, c.bound) == 0 &&
        convert_attrs(self, &c) == 0 && convert_inputs(self, &c) == 0)
      result = run(&c);
  }
  for (size_t i = 0; i < c.ntensors; i++)
    opr_tensor_unref((opr_tensor *)c.tensors[i]);
  opy_arena_free(&c.arena);
  return result;
}
