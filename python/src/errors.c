/* OpError and one subclass per status code, named as TensorFlow names
 * them (tf.errors.InvalidArgumentError, ...). str(e) is the runtime's
 * message; e.code and e.code_name are class attributes, e.message reads
 * the message back. */
#include "opy_numpy.h"

#include <stdarg.h>
#include <string.h>

enum { NCODES = OPR_UNAUTHENTICATED + 1 };

static const char *const class_names[NCODES] = {
    [OPR_CANCELLED] = "CancelledError",
    [OPR_UNKNOWN] = "UnknownError",
    [OPR_INVALID_ARGUMENT] = "InvalidArgumentError",
    [OPR_DEADLINE_EXCEEDED] = "DeadlineExceededError",
    [OPR_NOT_FOUND] = "NotFoundError",
    [OPR_ALREADY_EXISTS] = "AlreadyExistsError",
    [OPR_PERMISSION_DENIED] = "PermissionDeniedError",
    [OPR_RESOURCE_EXHAUSTED] = "ResourceExhaustedError",
    [OPR_FAILED_PRECONDITION] = "FailedPreconditionError",
    [OPR_ABORTED] = "AbortedError",
    [OPR_OUT_OF_RANGE] = "OutOfRangeError",
    [OPR_UNIMPLEMENTED] = "UnimplementedError",
    [OPR_INTERNAL] = "InternalError",
    [OPR_UNAVAILABLE] = "UnavailableError",
    [OPR_DATA_LOSS] = "DataLossError",
    [OPR_UNAUTHENTICATED] = "UnauthenticatedError",
};

static PyObject *op_error;           /* OpError */
static PyObject *classes[NCODES];    /* [code]; [0] unused */

/* e.message: the first argument, as str(e) shows it. */
static PyObject *error_message(PyObject *self, void *closure) {
  (void)closure;
  PyObject *args = PyObject_GetAttrString(self, "args");
  if (!args) return NULL;
  PyObject *r;
  if (PyTuple_Check(args) && PyTuple_GET_SIZE(args) >= 1)
    r = PyObject_Str(PyTuple_GET_ITEM(args, 0));
  else
    r = PyUnicode_FromString("");
  Py_DECREF(args);
  return r;
}

static PyGetSetDef error_getset[] = {
    {"message", error_message, NULL, "The runtime's message.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot error_slots[] = {
    {Py_tp_doc, "An op failed: the runtime's status. code is the status "
                "code (int), code_name its name (\"INVALID_ARGUMENT\"), "
                "message (and str(e)) the runtime's message. One subclass "
                "per code."},
    {Py_tp_getset, error_getset},
    {0, NULL},
};

static PyType_Spec error_spec = {
    .name = "opgen.OpError",
    .basicsize = 0, /* the base's */
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .slots = error_slots,
};

static int set_code(PyObject *cls, opr_code code) {
  PyObject *c = PyLong_FromLong((long)code);
  if (!c) return -1;
  int r = PyObject_SetAttrString(cls, "code", c);
  Py_DECREF(c);
  if (r < 0) return -1;
  PyObject *n = PyUnicode_FromString(opr_code_name(code));
  if (!n) return -1;
  r = PyObject_SetAttrString(cls, "code_name", n);
  Py_DECREF(n);
  return r;
}

/* The class of `code`, made once: a second init of the module (the
 * extension imported again) adds the same classes. */
static PyObject *code_class(opr_code code) {
  if (classes[code]) return classes[code];
  char qual[64];
  PyOS_snprintf(qual, sizeof qual, "opgen.%s", class_names[code]);
  PyObject *cls = PyErr_NewException(qual, op_error, NULL);
  if (!cls || set_code(cls, code) < 0) {
    Py_XDECREF(cls);
    return NULL;
  }
  return classes[code] = cls;
}

int opy_errors_init(PyObject *module) {
  if (!op_error) {
    op_error = PyType_FromSpecWithBases(&error_spec, PyExc_Exception);
    if (!op_error || set_code(op_error, OPR_UNKNOWN) < 0) return -1;
  }
  if (PyModule_AddObjectRef(module, "OpError", op_error) < 0) return -1;
  for (int c = OPR_CANCELLED; c < NCODES; c++) {
    PyObject *cls = code_class((opr_code)c);
    if (!cls || PyModule_AddObjectRef(module, class_names[c], cls) < 0)
      return -1;
  }
  return 0;
}

PyObject *opy_error_class(opr_code code) {
  if ((int)code > 0 && (int)code < NCODES && classes[code])
    return classes[code];
  return classes[OPR_UNKNOWN];
}

PyObject *opy_raise_status(opr_status s) {
  PyObject *cls = opy_error_class(opr_status_code(s));
  PyObject *msg = PyUnicode_DecodeUTF8(opr_status_message(s),
                                       (Py_ssize_t)strlen(
                                           opr_status_message(s)),
                                       "replace");
  opr_status_free(s);
  if (!msg) return NULL;
  PyErr_SetObject(cls, msg);
  Py_DECREF(msg);
  return NULL;
}

PyObject *opy_invalid(const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  PyOS_vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  PyObject *m = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg),
                                     "replace");
  if (m) {
    PyErr_SetObject(opy_error_class(OPR_INVALID_ARGUMENT), m);
    Py_DECREF(m);
  }
  return NULL;
}
