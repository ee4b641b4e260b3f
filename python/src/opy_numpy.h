/* The numpy C API for the extension's files, and what they share beyond
 * opgen_py.h. One file (module.c) defines OPY_IMPORT_ARRAY and imports
 * the API; every other file includes this header as is. */
#ifndef OPY_NUMPY_H
#define OPY_NUMPY_H

#include "opgen_py.h"

#include <string.h>

#define PY_ARRAY_UNIQUE_SYMBOL opgen_py_ARRAY_API
#ifndef OPY_IMPORT_ARRAY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

/* s's UTF-8 text, or `otherwise` when s is NULL or cannot be encoded
 * (for messages; clears the encoding error). */
static inline const char *opy_utf8_or(PyObject *s, const char *otherwise) {
  const char *u = s ? PyUnicode_AsUTF8(s) : NULL;
  if (!u && s) PyErr_Clear();
  return u ? u : otherwise;
}

/* The short name of o's type, as Python's messages give it ("ndarray",
 * not "numpy.ndarray"). */
static inline const char *opy_type_name(PyObject *o) {
  const char *n = Py_TYPE(o)->tp_name;
  const char *dot = strrchr(n, '.');
  return dot ? dot + 1 : n;
}

/* ---- dtypes.c ---- */
/* The runtime dtype of a numpy dtype; OPR_DT_INVALID for one without
 * (no exception). Object, bytes and str arrays are OPR_DT_STRING. */
opr_dtype opy_dtype_of_descr(PyArray_Descr *d);
/* The numpy dtype of a runtime dtype, or NULL without an exception when
 * it needs ml_dtypes and that is not installed (new reference). */
PyArray_Descr *opy_descr_of_dtype(opr_dtype dt);
int opy_dtypes_init(PyObject *module);

/* ---- errors ---- */
/* Sets InvalidArgumentError with the formatted message; returns NULL. */
PyObject *opy_invalid(const char *fmt, ...);

/* ---- tensor_out.c ---- */
int opy_tensor_out_init(PyObject *module);
/* A numpy array holding a copy of t's elements (for tensors the caller
 * does not own, such as attr values in static tables). */
PyObject *opy_array_copy(const opr_tensor *t);

/* ---- attrs.c ---- */
/* Storage for converted attr values, released after the call. */
typedef struct opy_arena {
  void *blocks[8];     /* heap blocks */
  size_t nblocks;
  void **more;         /* blocks beyond 8 */
  size_t nmore, capmore;
  opr_tensor *tensors[4]; /* tensor attr values */
  size_t ntensors;
  opr_tensor **tmore;     /* beyond 4 */
  size_t ntmore, captmore;
} opy_arena;
void opy_arena_free(opy_arena *a);
/* n bytes that live until opy_arena_free (MemoryError: NULL). */
void *opy_arena_alloc(opy_arena *a, size_t n);
/* Takes the reference `t` (dropped by opy_arena_free; on failure at
 * once). */
int opy_arena_keep(opy_arena *a, opr_tensor *t);
/* Converts `obj` to a value of attr `def` of op `op`, storing lists and
 * strings in `arena`. InvalidArgumentError naming op, attr and rule. */
int opy_attr_from_python(const opr_op_def *op, const opr_attr_def *def,
                         PyObject *obj, opy_arena *arena,
                         opr_attr_value *out);

/* ---- op_info.c ---- */
/* The op_def dict of `op` (new reference). */
PyObject *opy_op_def_dict(const opr_op_def *op);
/* The registered op `name`; NotFoundError when there is none. */
const opr_op_def *opy_find_op(const char *name);
/* The names of defs[0..n), as a list. */
PyObject *opy_op_names(const opr_op_def *const *defs, size_t n);
int opy_op_info_init(PyObject *module);
/* Records the ops registered so far as the shipped ones. */
int opy_op_info_snapshot_shipped(void);

/* ---- op_call.c, library.c, infer.c ---- */
int opy_op_init(PyObject *module);
int opy_library_init(PyObject *module);
int opy_infer_init(PyObject *module);

#endif
