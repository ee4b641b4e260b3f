/* What grad_tape.c, grad_registry.c and grad_op.c share: the frame that
 * carries a gradient function's Python exception back to tape.gradient,
 * and the count of gradients being computed. */
#ifndef OPY_GRAD_INTERNAL_H
#define OPY_GRAD_INTERNAL_H

#include "opgen_py.h"

/* One tape.gradient call on a thread: the first exception a Python
 * gradient function raised during it, to be raised again by
 * tape.gradient once the runtime reports the failure. */
typedef struct opy_grad_frame {
  PyObject *exc[3]; /* type, value, traceback (value only on 3.12+) */
  struct opy_grad_frame *prev;
} opy_grad_frame;

/* Makes `frame` the calling thread's current frame (GIL held). */
void opy_grad_frame_push(opy_grad_frame *frame);
/* Undoes the push; drops a stashed exception that was not raised. */
void opy_grad_frame_pop(opy_grad_frame *frame);
/* Raises the frame's stashed exception: 1 when there was one. */
int opy_grad_frame_raise(opy_grad_frame *frame);
/* Moves the pending exception into the thread's current frame (the
 * first one is kept); returns a status for the runtime that names `op`
 * and the exception. */
opr_status opy_grad_stash_error(const char *op);

/* Gradients being computed by tape.gradient (GIL held while counting):
 * a Python gradient function replaced meanwhile is released only once
 * none is, as the runtime may still be about to call it. */
void opy_grad_enter(void);
void opy_grad_leave(void);
/* Releases a replaced gradient function now or when the last gradient
 * in progress ends. Steals the reference. */
void opy_grad_retire(PyObject *fn);

/* A read-only array of t's elements: writing into it would change a
 * tensor the runtime still uses (or the caller's own array it wraps). */
PyObject *opy_grad_readonly_array(const opr_tensor *t);
/* The `op` object a Python gradient function receives. */
PyObject *opy_grad_op_new(const opr_grad_op *op);
int opy_grad_op_init(PyObject *module);

/* A GradientTape (grad_tape.c; tape.gradient in grad_gradient.c). */
typedef struct opy_tape_object {
  PyObject_HEAD
  opr_tape *tape;  /* NULL until entered, and once released */
  PyObject *ids;   /* dict: id(obj) -> (obj, tensor capsule) */
  struct opy_tape_object *outer; /* entered before it on its thread */
  unsigned long thread;          /* where it records */
  char persistent, recording, used, busy;
} opy_tape_object;

/* The tensor `obj` (a source or target) stands for on the tape: an op's
 * output array's own, else the one the tape kept for it; borrowed, or
 * NULL (no exception). */
opr_tensor *opy_tape_resolve(opy_tape_object *self, PyObject *obj);
/* Drops the records and identities (a non-persistent tape, once asked). */
void opy_tape_release(opy_tape_object *self);
/* RuntimeError naming `what` while the tape computes a gradient. */
int opy_tape_check_idle(opy_tape_object *self, const char *what);
/* tape.gradient(target, sources, output_gradients=None). */
PyObject *opy_tape_gradient(PyObject *self, PyObject *args, PyObject *kw);

int opy_grad_registry_init(PyObject *module);
int opy_grad_tape_init(PyObject *module);

#endif
