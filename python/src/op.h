/* The Op type (op_type.c) and its call (op_call.c). */
#ifndef OPY_OP_H
#define OPY_OP_H

#include "opy_numpy.h"

/* One parameter of an op function: an input, or an attr that is not read
 * off the inputs. */
typedef struct opy_param {
  bool is_input;
  int index;        /* input or attr index in the op */
  bool has_default; /* attrs with a default */
  PyObject *name;   /* interned; a Python keyword gets a trailing '_' */
} opy_param;

typedef struct opy_op {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *dict;    /* __doc__, __signature__, __name__, ... */
  const opr_op_def *op;
  PyObject *op_def;  /* the dict, made at first use */
  PyObject *params_tuple;
  opy_param *params;
  Py_ssize_t nparams;
  bool has_lists;    /* a list input or output */
} opy_op;

PyObject *opy_op_vectorcall(PyObject *self, PyObject *const *args,
                            size_t nargsf, PyObject *kwnames);

#endif
