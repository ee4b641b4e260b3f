/* tensor_in.c's entry with the argument named for messages. */
#ifndef OPY_TENSOR_IN_H
#define OPY_TENSOR_IN_H

#include "opgen_py.h"

/* Names an argument in conversion errors: "<op>: <kind> '<arg>': ..." (op
 * may be NULL). */
typedef struct opy_arg_name {
  const char *op, *kind, *arg;
  /* The hint is only preferred (an attr's default, as TensorFlow's
   * preferred_dtype): a value that does not fit it takes its own type. */
  bool preferred;
} opy_arg_name;

opr_tensor *opy_tensor_convert(PyObject *obj, opr_dtype hint,
                               const opy_arg_name *who);

#endif
