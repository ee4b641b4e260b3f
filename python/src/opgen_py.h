/* The _opgen extension's internal interface: what its source files share.
 * Every function that fails sets a Python exception and returns NULL or
 * -1. */
#ifndef OPGEN_PY_H
#define OPGEN_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "opr/gradient.h"
#include "opr/opr.h"

/* ---- Python versions (3.9 and later) ---- */
#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *opy_new_ref(PyObject *o) {
  Py_INCREF(o);
  return o;
}
#define Py_NewRef(o) opy_new_ref((PyObject *)(o))
static inline int opy_add_object_ref(PyObject *m, const char *name,
                                     PyObject *v) {
  Py_INCREF(v);
  if (PyModule_AddObject(m, name, v) == 0) return 0;
  Py_DECREF(v);
  return -1;
}
#define PyModule_AddObjectRef opy_add_object_ref
#endif
#if PY_VERSION_HEX >= 0x030D0000
#define opy_is_finalizing() Py_IsFinalizing()
#else
#define opy_is_finalizing() _Py_IsFinalizing()
#endif

/* ---- errors.c ---- */
/* Adds OpError and one subclass per status code to the module. */
int opy_errors_init(PyObject *module);
/* Raises the exception of s's code with s's message; frees s; returns
 * NULL. */
PyObject *opy_raise_status(opr_status s);
/* The exception class of a code (borrowed). */
PyObject *opy_error_class(opr_code code);

/* ---- context.c ---- */
/* The context calls on this thread run on: the innermost `with
 * opgen.Context(...)` of the thread, else the process's default one. */
opr_context *opy_current_context(void);
int opy_context_init(PyObject *module);

/* ---- dtypes.c ---- */
/* The numpy dtype of a runtime dtype (new reference). */
PyObject *opy_dtype_to_numpy(opr_dtype dt);
/* A runtime dtype from a numpy dtype, a scalar type (numpy.float32,
 * float), or a name ("float32", "float", "DT_FLOAT"). */
int opy_dtype_from_python(PyObject *obj, opr_dtype *out);

/* ---- tensor_out.c ---- */
/* A numpy array of t's elements that shares t's memory and keeps t alive
 * (takes its own reference; strings and bfloat16 without ml_dtypes are
 * copied). */
PyObject *opy_array_from_tensor(opr_tensor *t);
/* The runtime tensor `obj` is exactly the array of (an output array, not a
 * view of part of one), borrowed; NULL (no exception) otherwise. */
opr_tensor *opy_tensor_of_array(PyObject *obj);

/* ---- tensor_in.c ---- */
/* A new reference to a tensor holding obj's elements: numpy arrays and
 * buffers without a copy when dtype and layout allow, __dlpack__ objects,
 * Python scalars and nested lists (with `hint` guiding the dtype;
 * OPR_DT_INVALID: none). `op` and `arg` name the argument in messages.
 * While a tape records on this thread, the same object gives the same
 * tensor (opy_tape_find / opy_tape_keep). */
opr_tensor *opy_tensor_from_object(PyObject *obj, opr_dtype hint,
                                   const char *op, const char *arg);

/* ---- attrs.c ---- */
/* The Python value of an attr value: int, float, bool, bytes->str for
 * strings, numpy dtype for types, list/tuple of ints or None for shapes,
 * numpy array for tensors, lists for lists. New reference. */
PyObject *opy_attr_to_python(const opr_attr_value *v);

/* ---- grad_*.c: tapes and gradients ---- */
/* Adds GradientTape and the gradient registry functions to the module. */
int opy_grad_init(PyObject *module);
/* While a GradientTape records on this thread: the tensor `obj` was
 * converted to earlier (borrowed), else NULL (no exception). */
opr_tensor *opy_tape_find(PyObject *obj);
/* Remembers that `obj` converted to `t` while a tape records on this
 * thread (no-op otherwise); the tape holds references to both. */
int opy_tape_keep(PyObject *obj, opr_tensor *t);

#endif
