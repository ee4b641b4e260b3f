/* What the tape's files share (tape.c, tape_record.c, tape_map.c,
 * tape_gradient.c). */
#ifndef OPR_TAPE_INTERNAL_H
#define OPR_TAPE_INTERNAL_H

#include "internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One recorded call: the op, a deep copy of its resolved attrs, and a
 * reference to each input and output tensor, flattened. One allocation
 * holds the record and its arrays; the tapes recording it at once (nested
 * tapes) share it through `refs`. */
typedef struct tape_record {
  int refs; /* atomic */
  const opr_op_def *op;
  opr_attr_value *attrs;  /* [op->nattrs] */
  opr_tensor **inputs;    /* [ninputs] */
  opr_tensor **outputs;   /* [noutputs] */
  size_t ninputs, noutputs;
  size_t *input_starts;   /* [op->ninputs + 1] */
  size_t *output_starts;  /* [op->noutputs + 1] */
} tape_record;

struct opr_tape {
  tape_record **records;
  size_t count, cap;
  bool recording;      /* atomic: claimed by opr_tape_start */
  struct opr_tape *outer; /* the tape started before it on its thread */
  /* A call the tape could not record (out of memory): the gradient
   * refuses to answer rather than answer wrongly. */
  bool lost;
  const char *lost_op;
};

/* A record of a successful call; NULL when out of memory. */
tape_record *opr_tape_record_new(const opr_call *call);
void opr_tape_record_unref(tape_record *r);
/* A reference to keep: `t` itself, or a copy of a tensor the runtime did
 * not allocate (reference count 0: on the caller's stack, say), which
 * must not be referenced. NULL when out of memory, for such a tensor on
 * a device, or for `t` NULL. */
opr_tensor *opr_tape_hold(const opr_tensor *t);

/* Recording pauses on this thread while gradient functions run. */
opr_tape *opr_tape_pause(void);
void opr_tape_resume(opr_tape *top);

/* ---- a map from tensor (by address) to its state in a gradient ---- */

enum { TM_FORWARD = 1, TM_BACKWARD = 2, TM_SOURCE = 4 };

typedef struct tape_slot {
  const opr_tensor *key; /* NULL: empty */
  opr_tensor *grad;      /* the sum so far, owned; NULL: none yet */
  unsigned flags;
} tape_slot;

typedef struct tape_map {
  tape_slot *slots;
  size_t mask, used;
} tape_map;

/* The slot of `key`, NULL when absent. */
tape_slot *tape_map_find(const tape_map *m, const opr_tensor *key);
/* The slot of `key`, added (flags 0, no grad) when absent; NULL when out
 * of memory. */
tape_slot *tape_map_add(tape_map *m, const opr_tensor *key);
/* Releases every gradient and the slots. */
void tape_map_free(tape_map *m);

#endif
