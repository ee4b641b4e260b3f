/* Tapes: a per-thread stack of the tapes recording there, linked through
 * each tape's `outer`; the dispatch appends every successful call to each
 * (opr_tape_record_call). A tape records on one thread at a time: its
 * `recording` flag is claimed atomically by opr_tape_start. */
#include "tape_internal.h"

#include <stdlib.h>

_Thread_local opr_tape *opr_tape_top OPR_TLS_FAST;

opr_status opr_tape_new(opr_tape **out) {
  if (!out)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_tape_new: out is NULL");
  *out = calloc(1, sizeof **out);
  if (!*out)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "opr_tape_new: out of memory");
  return OPR_OK;
}

/* Whether `tape` is on this thread's stack. */
static bool on_this_thread(const opr_tape *tape) {
  for (const opr_tape *t = opr_tape_top; t; t = t->outer)
    if (t == tape) return true;
  return false;
}

/* Takes `tape` off this thread's stack, wherever it is. */
static void unlink_tape(opr_tape *tape) {
  for (opr_tape **p = &opr_tape_top; *p; p = &(*p)->outer)
    if (*p == tape) {
      *p = tape->outer;
      break;
    }
  tape->outer = NULL;
  __atomic_store_n(&tape->recording, false, __ATOMIC_RELEASE);
}

void opr_tape_free(opr_tape *tape) {
  if (!tape) return;
  if (on_this_thread(tape)) unlink_tape(tape);
  for (size_t i = 0; i < tape->count; i++)
    opr_tape_record_unref(tape->records[i]);
  free(tape->records);
  free(tape);
}

opr_status opr_tape_start(opr_tape *tape) {
  if (!tape)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_tape_start: the tape is "
                     "NULL");
  bool idle = false;
  if (!__atomic_compare_exchange_n(&tape->recording, &idle, true, false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return opr_error(OPR_FAILED_PRECONDITION, "opr_tape_start: the tape is "
                     "already recording");
  tape->outer = opr_tape_top;
  opr_tape_top = tape;
  return OPR_OK;
}

opr_status opr_tape_stop(opr_tape *tape) {
  if (!tape)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_tape_stop: the tape is "
                     "NULL");
  if (!on_this_thread(tape))
    return opr_error(OPR_FAILED_PRECONDITION, "opr_tape_stop: the tape is "
                     "not recording on this thread");
  if (opr_tape_top != tape)
    return opr_error(OPR_FAILED_PRECONDITION, "opr_tape_stop: a tape "
                     "started after this one still records on this thread "
                     "(tapes stop in the reverse order of their starts)");
  unlink_tape(tape);
  return OPR_OK;
}

bool opr_tape_recording(void) { return opr_tape_top != NULL; }

size_t opr_tape_size(const opr_tape *tape) { return tape ? tape->count : 0; }

opr_tape *opr_tape_pause(void) {
  opr_tape *top = opr_tape_top;
  opr_tape_top = NULL;
  return top;
}

void opr_tape_resume(opr_tape *top) { opr_tape_top = top; }

/* Appends `r` (one more reference) to `tape`; false when out of memory. */
static bool append(opr_tape *tape, tape_record *r) {
  if (tape->count == tape->cap) {
    size_t cap = tape->cap ? 2 * tape->cap : 16;
    tape_record **grown = realloc(tape->records, cap * sizeof *grown);
    if (!grown) return false;
    tape->records = grown;
    tape->cap = cap;
  }
  __atomic_fetch_add(&r->refs, 1, __ATOMIC_RELAXED);
  tape->records[tape->count++] = r;
  return true;
}

static void mark_lost(opr_tape *tape, const opr_op_def *op) {
  if (tape->lost) return;
  tape->lost = true;
  tape->lost_op = op->name;
}

/* Not inlined into the dispatch: only the test of opr_tape_top is. */
OPR_NOINLINE void opr_tape_record_call(const opr_call *call) {
  tape_record *r = opr_tape_record_new(call);
  for (opr_tape *t = opr_tape_top; t; t = t->outer)
    if (!r || !append(t, r)) mark_lost(t, call->op);
  if (r) opr_tape_record_unref(r); /* the tapes hold it now */
}
