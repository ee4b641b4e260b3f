/* The runtime stage of gen_compile.c: compiled (under ASan and UBSan)
 * with the code opgen generated for a synthesized spec set, after every
 * op is registered, it calls opr_infer_shapes on each op that has a
 * shape function, FZ_INFER_TRIALS times, with random partial inputs:
 * list lengths, unknown ranks and dims, ranks beyond OPR_INLINE_DIMS,
 * int32 values of assorted shapes, and random values of the int, bool,
 * list(int), string, type and shape attrs (the rest default). Any status
 * is fine; a crash, a leak, undefined behaviour or a hang (the caller's
 * timeout) is a bug, and so is a successful answer whose shapes are not
 * partial shapes. Deterministic for a seed. */
#include "opr/opr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int fz_infer_all(uint64_t seed);

enum { TRIALS = 24, ARGS = 8, TENSORS = 4, DIMS = 10, ATTRS = 16, INTS = 4 };

static uint64_t state;

static uint32_t rnd(uint32_t n) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return n ? (uint32_t)(state >> 32) % n : 0;
}

typedef struct inputs {
  int64_t dims[ARGS][TENSORS][DIMS];
  opr_shape shapes[ARGS][TENSORS];
  const opr_tensor *values[ARGS][TENSORS];
  opr_tensor *owned[ARGS * TENSORS];
  size_t nowned;
  opr_shape_input args[ARGS];
} inputs;

static bool is_list(const opr_arg_def *a) {
  return a->number_attr >= 0 || a->type_list_attr >= 0;
}

/* -1 (unknown rank) to 4, now and then beyond the inline dims. */
static void random_shape(int64_t *dims, opr_shape *s) {
  s->rank = rnd(10) == 0 ? 7 + (int)rnd(DIMS - 7) : (int)rnd(6) - 1;
  for (int i = 0; i < s->rank; i++)
    dims[i] = rnd(5) == 0 ? OPR_UNKNOWN_DIM : (int64_t)rnd(5);
  s->dims = dims;
}

/* int32 values: a scalar, a vector or a [n, 2] matrix of small numbers. */
static opr_tensor *random_values(void) {
  int32_t v[8];
  int64_t n = rnd(5), dims[2] = {n, 2};
  int rank = (int)rnd(3);
  int64_t count = rank == 0 ? 1 : rank == 1 ? n : 2 * n;
  for (int64_t i = 0; i < count; i++) v[i] = (int32_t)rnd(9) - 2;
  opr_tensor *t = NULL;
  opr_status st = opr_tensor_from_data(OPR_DT_INT32, rank, dims, v,
                                       (size_t)count * sizeof *v, &t);
  opr_status_free(st);
  return t;
}

static void random_inputs(const opr_op_def *op, inputs *in) {
  in->nowned = 0;
  for (size_t a = 0; a < op->ninputs && a < ARGS; a++) {
    size_t count = is_list(&op->inputs[a]) ? rnd(TENSORS + 1) : 1;
    bool values = rnd(3) == 0;
    for (size_t t = 0; t < count; t++) {
      random_shape(in->dims[a][t], &in->shapes[a][t]);
      in->values[a][t] = NULL;
      if (values && rnd(4) != 0) {
        opr_tensor *v = random_values();
        in->values[a][t] = v;
        if (v) in->owned[in->nowned++] = v;
      }
    }
    in->args[a].shapes = in->shapes[a];
    in->args[a].values = values ? in->values[a] : NULL;
    in->args[a].count = count;
  }
}

typedef struct attrs {
  opr_named_attr items[ATTRS];
  int64_t ints[ATTRS][DIMS];
  size_t n;
} attrs;

static int64_t random_int(void) {
  switch (rnd(12)) {
  case 0: return INT64_MAX;
  case 1: return INT64_MIN;
  default: return (int64_t)rnd(8) - 2;
  }
}

/* A random value for attr `d`, or false to leave it unset. */
static bool random_attr(const opr_attr_def *d, attrs *at) {
  static const char *const strings[] = {"VALID", "SAME", "NCHW", "a", ""};
  opr_attr_value *v = &at->items[at->n].value;
  int64_t *ints = at->ints[at->n];
  if (rnd(2)) return false;
  if (d->type.is_list) {
    if (d->type.kind != OPR_ATTR_INT) return false;
    size_t n = rnd(INTS + 1);
    for (size_t i = 0; i < n; i++) ints[i] = (int64_t)rnd(7) - 2;
    *v = opr_attr_list(OPR_ATTR_INT, ints, n);
    return true;
  }
  v->kind = d->type.kind;
  v->is_list = false;
  switch (d->type.kind) {
  case OPR_ATTR_INT: v->u.i = random_int(); return true;
  case OPR_ATTR_BOOL: v->u.b = rnd(2) != 0; return true;
  case OPR_ATTR_STRING:
    *v = opr_attr_cstring(OPR_ATTR_STRING, strings[rnd(5)]);
    return true;
  case OPR_ATTR_TYPE: v->u.type = rnd(2) ? OPR_DT_INT32 : OPR_DT_FLOAT; return true;
  case OPR_ATTR_SHAPE:
    random_shape(ints, &v->u.shape);
    if (v->u.shape.rank > INTS) v->u.shape.rank = INTS;
    return true;
  default: return false;
  }
}

static void random_attrs(const opr_op_def *op, attrs *at) {
  at->n = 0;
  for (size_t i = 0; i < op->nattrs && at->n < ATTRS; i++)
    if (random_attr(&op->attrs[i], at))
      at->items[at->n++].name = op->attrs[i].name;
}

/* A successful answer holds partial shapes. */
static int check_answer(const opr_op_def *op, const opr_inferred_shapes *out) {
  for (size_t i = 0; i < out->count; i++) {
    const opr_shape *s = &out->shapes[i];
    bool ok = s->rank >= OPR_UNKNOWN_RANK && s->rank <= OPR_MAX_RANK;
    for (int d = 0; ok && d < s->rank; d++)
      ok = s->dims[d] >= OPR_UNKNOWN_DIM;
    if (!ok) {
      fprintf(stderr, "infer_driver: %s: output %zu is no partial shape\n",
              op->name, i);
      return 1;
    }
  }
  return 0;
}

static int one_trial(const opr_op_def *op) {
  static inputs in;
  static attrs at;
  if (op->ninputs > ARGS) return 0;
  random_inputs(op, &in);
  random_attrs(op, &at);
  opr_inferred_shapes out = {NULL, 0};
  opr_status st = opr_infer_shapes(op, in.args, op->ninputs, at.items, at.n,
                                   &out);
  int bad = st == OPR_OK ? check_answer(op, &out) : 0;
  opr_status_free(st);
  opr_inferred_shapes_free(&out);
  for (size_t i = 0; i < in.nowned; i++) opr_tensor_unref(in.owned[i]);
  return bad;
}

int fz_infer_all(uint64_t seed) {
  state = seed | 1;
  const opr_op_def *ops[256];
  size_t n = opr_list_ops(ops, 256);
  int bad = 0;
  for (size_t i = 0; i < n && i < 256; i++)
    for (int t = 0; t < TRIALS && ops[i]->shape_fn; t++)
      bad |= one_trial(ops[i]);
  return bad;
}
