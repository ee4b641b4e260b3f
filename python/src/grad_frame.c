/* Carrying a Python gradient function's exception through the runtime
 * (which knows only statuses) back to tape.gradient, and releasing
 * replaced gradient functions only when no gradient is being computed. */
#include "grad_internal.h"

/* The innermost tape.gradient call of this thread (GIL held to use). */
static _Thread_local opy_grad_frame *tls_frame;

void opy_grad_frame_push(opy_grad_frame *frame) {
  frame->exc[0] = frame->exc[1] = frame->exc[2] = NULL;
  frame->prev = tls_frame;
  tls_frame = frame;
}

void opy_grad_frame_pop(opy_grad_frame *frame) {
  tls_frame = frame->prev;
  for (int i = 0; i < 3; i++) Py_CLEAR(frame->exc[i]);
}

int opy_grad_frame_raise(opy_grad_frame *frame) {
  if (!frame->exc[0] && !frame->exc[1]) return 0;
#if PY_VERSION_HEX >= 0x030C0000
  PyErr_SetRaisedException(frame->exc[1]);
#else
  PyErr_Restore(frame->exc[0], frame->exc[1], frame->exc[2]);
#endif
  frame->exc[0] = frame->exc[1] = frame->exc[2] = NULL;
  return 1;
}

/* "ValueError: message" for the status, so that a C caller of
 * opr_tape_gradient (no frame to carry the exception) still sees it. */
static opr_status status_of_pending(const char *op) {
#if PY_VERSION_HEX >= 0x030C0000
  PyObject *value = PyErr_GetRaisedException();
  PyObject *type = value ? (PyObject *)Py_TYPE(value) : NULL;
#else
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
#endif
  PyObject *text = value ? PyObject_Str(value) : NULL;
  const char *msg = text ? PyUnicode_AsUTF8(text) : NULL;
  if (!msg) PyErr_Clear();
  opr_status s = opr_error(OPR_UNKNOWN, "%s: the gradient function raised "
                           "%s: %s", op,
                           type ? ((PyTypeObject *)type)->tp_name : "?",
                           msg ? msg : "?");
  Py_XDECREF(text);
#if PY_VERSION_HEX >= 0x030C0000
  PyErr_SetRaisedException(value);
#else
  PyErr_Restore(type, value, tb);
#endif
  return s;
}

opr_status opy_grad_stash_error(const char *op) {
  opr_status s = status_of_pending(op);
  opy_grad_frame *f = tls_frame;
  if (!f || f->exc[0] || f->exc[1]) {
    PyErr_Clear();
    return s;
  }
#if PY_VERSION_HEX >= 0x030C0000
  f->exc[1] = PyErr_GetRaisedException();
#else
  PyErr_Fetch(&f->exc[0], &f->exc[1], &f->exc[2]);
  PyErr_NormalizeException(&f->exc[0], &f->exc[1], &f->exc[2]);
  if (f->exc[2] && f->exc[1])
    PyException_SetTraceback(f->exc[1], f->exc[2]);
#endif
  return s;
}

/* Gradients in progress (all threads; counted with the GIL held) and the
 * gradient functions replaced while any was. */
static Py_ssize_t in_progress;
static PyObject *retired;

void opy_grad_enter(void) { in_progress++; }

void opy_grad_leave(void) {
  if (--in_progress == 0 && retired) Py_CLEAR(retired);
}

void opy_grad_retire(PyObject *fn) {
  if (in_progress == 0) {
    Py_DECREF(fn);
    return;
  }
  if (!retired && !(retired = PyList_New(0))) {
    PyErr_Clear();
    return; /* kept alive for good rather than freed under a caller */
  }
  if (PyList_Append(retired, fn) < 0) PyErr_Clear();
  else Py_DECREF(fn);
}
