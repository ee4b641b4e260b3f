/* The inference context: its storage, what it tells a shape function
 * about the op's inputs and attrs, and the output shapes it collects. */
#include "shape_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Dims per heap chunk, unless one request needs more. */
enum { INFER_CHUNK_DIMS = 256 };

/* The length of a list argument whose attr `attr` is not set: the length
 * of an input typed by the same attr (opr_infer_shapes leaves inferred
 * list(type) attrs unset). */
static size_t length_from_inputs(const opr_infer_ctx *c, int attr) {
  for (size_t i = 0; i < c->op->ninputs; i++) {
    const opr_arg_def *in = &c->op->inputs[i];
    if (in->number_attr == attr || in->type_list_attr == attr)
      return opr_infer_num_inputs(c, i);
  }
  return 0;
}

size_t opr_infer_num_outputs(const opr_infer_ctx *c, size_t arg) {
  if (arg >= c->op->noutputs) return 0;
  const opr_arg_def *a = &c->op->outputs[arg];
  if (a->number_attr != OPR_NO_ATTR) {
    const opr_attr_value *v = &c->attrs[a->number_attr];
    if (v->kind == OPR_ATTR_INT) return v->u.i > 0 ? (size_t)v->u.i : 0;
    return length_from_inputs(c, a->number_attr);
  }
  if (a->type_list_attr != OPR_NO_ATTR) {
    const opr_attr_value *v = &c->attrs[a->type_list_attr];
    if (v->kind == OPR_ATTR_TYPE && v->is_list) return v->u.list.count;
    return length_from_inputs(c, a->type_list_attr);
  }
  return 1;
}

/* opr_infer_num_outputs with the common case (one tensor) inline. */
static inline size_t num_outputs(const opr_infer_ctx *c, size_t arg) {
  const opr_arg_def *a = &c->op->outputs[arg];
  if (a->number_attr == OPR_NO_ATTR && a->type_list_attr == OPR_NO_ATTR)
    return 1;
  return opr_infer_num_outputs(c, arg);
}

static inline size_t output_first(const opr_infer_ctx *c, size_t arg) {
  size_t first = 0;
  for (size_t o = 0; o < arg && o < c->op->noutputs; o++)
    first += num_outputs(c, o);
  return first;
}

size_t opr_infer_output_first(const opr_infer_ctx *c, size_t arg) {
  return output_first(c, arg);
}

/* The number of output tensors, or SIZE_MAX when their shapes would not
 * fit in memory (attrs may give any length: the sum must not wrap). */
static size_t total_outputs(const opr_infer_ctx *c) {
  size_t total = 0, most = SIZE_MAX / sizeof(opr_shape);
  for (size_t o = 0; o < c->op->noutputs; o++) {
    size_t n = num_outputs(c, o);
    if (n > most - total) return SIZE_MAX;
    total += n;
  }
  return total;
}

opr_status opr_infer_ctx_init(opr_infer_ctx *c, const opr_op_def *op,
                              const opr_attr_value *attrs,
                              const opr_input *tensors,
                              const opr_shape_input *shapes) {
  c->op = op;
  c->attrs = attrs;
  c->tensors = tensors;
  c->shapes = shapes;
  c->free_dims = c->dims_inline;
  c->free_count = INFER_INLINE_DIMS;
  c->chunks = NULL;
  opr_infer_ctx_clear_reads(c);
  c->noutputs = total_outputs(c);
  c->outputs = c->noutputs <= INFER_INLINE_OUTPUTS ? c->outputs_inline
               : c->noutputs == SIZE_MAX
                   ? NULL
                   : malloc(c->noutputs * sizeof *c->outputs);
  if (!c->outputs)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory inferring "
                     "shapes", op->name);
  for (size_t i = 0; i < c->noutputs; i++) c->outputs[i] = opr_shape_unknown();
  return OPR_OK;
}

void opr_infer_ctx_free(opr_infer_ctx *c) {
  if (c->outputs != c->outputs_inline) free(c->outputs);
  c->outputs = NULL;
  while (c->chunks) {
    opr_infer_chunk *next = c->chunks->next;
    free(c->chunks);
    c->chunks = next;
  }
}

int64_t *opr_infer_alloc_dims(opr_infer_ctx *c, size_t n) {
  if (n > c->free_count) {
    size_t size = n > INFER_CHUNK_DIMS ? n : INFER_CHUNK_DIMS;
    opr_infer_chunk *chunk = malloc(sizeof *chunk + size * sizeof(int64_t));
    if (!chunk) return NULL;
    chunk->next = c->chunks;
    c->chunks = chunk;
    c->free_dims = chunk->dims;
    c->free_count = size;
  }
  int64_t *dims = c->free_dims;
  c->free_dims += n;
  c->free_count -= n;
  return dims;
}

const char *opr_infer_shape_text(opr_shape s, char *buf, size_t n) {
  return opr_shape_text(s.rank, s.dims, buf, n);
}

/* ---- what the function reads ---- */

const opr_op_def *opr_infer_op(const opr_infer_ctx *c) { return c->op; }

/* The two below, inline for the functions of this file. */
static inline size_t num_inputs(const opr_infer_ctx *c, size_t arg) {
  if (arg >= c->op->ninputs) return 0;
  return c->tensors ? c->tensors[arg].count : c->shapes[arg].count;
}

static inline opr_shape input_at(const opr_infer_ctx *c, size_t arg,
                                 size_t index) {
  if (index >= num_inputs(c, arg)) return opr_shape_unknown();
  if (c->shapes) return c->shapes[arg].shapes[index];
  const opr_tensor *t = c->tensors[arg].tensors[index];
  return (opr_shape){t->rank, t->dims};
}

size_t opr_infer_num_inputs(const opr_infer_ctx *c, size_t arg) {
  return num_inputs(c, arg);
}

opr_shape opr_infer_input(const opr_infer_ctx *c, size_t arg, size_t index) {
  return input_at(c, arg, index);
}

const opr_tensor *opr_infer_input_value(const opr_infer_ctx *c, size_t arg,
                                        size_t index) {
  opr_infer_note_values(c);
  if (index >= opr_infer_num_inputs(c, arg)) return NULL;
  if (c->shapes)
    return c->shapes[arg].values ? c->shapes[arg].values[index] : NULL;
  const opr_tensor *t = c->tensors[arg].tensors[index];
  return t->device == OPR_DEVICE_CPU ? t : NULL;
}

const opr_attr_value *opr_infer_attr(const opr_infer_ctx *c, size_t attr) {
  return attr < c->op->nattrs ? &c->attrs[attr] : NULL;
}

opr_status opr_infer_error(const opr_infer_ctx *c, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, opr_text_or(fmt, "(no message)"), ap);
  va_end(ap);
  return opr_error(OPR_INVALID_ARGUMENT, "%s: %s", c->op->name, msg);
}

/* ---- inputs and attrs by index ---- */

/* The first tensor of list input `arg` that `merged` (of tensors
 * 0..j-1) cannot take tensor j because of: names both. */
static opr_status list_mismatch(opr_infer_ctx *c, size_t arg, size_t j) {
  opr_shape b = opr_infer_input(c, arg, j);
  size_t i = 0;
  while (i + 1 < j && opr_shape_compatible(opr_infer_input(c, arg, i), b))
    i++;
  char ta[256], tb[256];
  return opr_infer_error(
      c, "the tensors of '%s' must have compatible shapes, but element %zu "
      "is %s and element %zu is %s", c->op->inputs[arg].name, i,
      opr_infer_shape_text(opr_infer_input(c, arg, i), ta, sizeof ta), j,
      opr_infer_shape_text(b, tb, sizeof tb));
}

/* A list input: its tensors' shapes merged. */
OPR_NOINLINE static opr_status merged_input_shape(opr_infer_ctx *c,
                                                  size_t arg,
                                                  opr_shape *out) {
  size_t n = num_inputs(c, arg);
  *out = input_at(c, arg, 0);
  for (size_t j = 1; j < n; j++) {
    opr_shape next = input_at(c, arg, j);
    if (!opr_shape_compatible(*out, next)) return list_mismatch(c, arg, j);
    opr_status s = opr_infer_merge(c, *out, next, "", out);
    if (s) return s; /* out of memory */
  }
  return OPR_OK;
}

opr_status opr_infer_input_shape(opr_infer_ctx *c, size_t arg,
                                 opr_shape *out) {
  /* One tensor of a call (the usual case): its shape, without a loop. */
  if (c->tensors && arg < c->op->ninputs && c->tensors[arg].count == 1) {
    const opr_tensor *t = c->tensors[arg].tensors[0];
    *out = (opr_shape){t->rank, t->dims};
    return OPR_OK;
  }
  return merged_input_shape(c, arg, out);
}

opr_status opr_infer_input_rank(opr_infer_ctx *c, size_t arg, int64_t *out) {
  opr_shape s;
  opr_status st = opr_infer_input_shape(c, arg, &s);
  *out = st ? OPR_UNKNOWN_DIM : opr_shape_rank_dim(s);
  return st;
}

opr_status opr_infer_input_dim(opr_infer_ctx *c, size_t arg, int64_t index,
                               int64_t *out) {
  opr_shape s;
  opr_status st = opr_infer_input_shape(c, arg, &s);
  if (st) {
    *out = OPR_UNKNOWN_DIM;
    return st;
  }
  char what[128];
  snprintf(what, sizeof what, "'%s'",
           arg < c->op->ninputs ? c->op->inputs[arg].name : "?");
  return opr_infer_dim(c, s, index, what, out);
}

/* The attr's value, or NULL when unset; `kind` checked. */
static const opr_attr_value *attr_of_kind(opr_infer_ctx *c, size_t attr,
                                          opr_attr_kind kind,
                                          opr_status *s) {
  const opr_attr_value *v = opr_infer_attr(c, attr);
  *s = OPR_OK;
  if (!v || v->kind == OPR_ATTR_UNSET) return NULL;
  if (v->kind == kind && !v->is_list) return v;
  *s = opr_infer_error(c, "attr '%s' is not %s", c->op->attrs[attr].name,
                       kind == OPR_ATTR_SHAPE ? "a shape" : "an int");
  return NULL;
}

opr_status opr_infer_attr_shape(opr_infer_ctx *c, size_t attr,
                                opr_shape *out) {
  opr_status s;
  const opr_attr_value *v = attr_of_kind(c, attr, OPR_ATTR_SHAPE, &s);
  *out = opr_shape_unknown();
  if (!v) return s;
  s = opr_infer_make_shape(c, v->u.shape.rank, v->u.shape.dims, out);
  if (s && opr_status_code(s) == OPR_INVALID_ARGUMENT) {
    opr_status_free(s);
    char text[256];
    return opr_infer_error(c, "attr '%s' is not a valid shape: %s",
                           c->op->attrs[attr].name,
                           opr_infer_shape_text(v->u.shape, text,
                                                sizeof text));
  }
  return s;
}

opr_status opr_infer_attr_dim(opr_infer_ctx *c, size_t attr, int64_t *out) {
  opr_status s;
  const opr_attr_value *v = attr_of_kind(c, attr, OPR_ATTR_INT, &s);
  *out = OPR_UNKNOWN_DIM;
  if (!v) return s;
  if (v->u.i < -1)
    return opr_infer_error(c, "attr '%s' is %" PRId64 "; a dim must be "
                           ">= 0 (or -1: unknown)", c->op->attrs[attr].name,
                           v->u.i);
  *out = v->u.i;
  return OPR_OK;
}

/* ---- outputs ---- */

static opr_status no_output(const opr_infer_ctx *c, size_t arg,
                            size_t index) {
  return opr_error(OPR_INVALID_ARGUMENT, "%s: the shape function sets output "
                   "%zu element %zu, which the op does not have",
                   c->op->name, arg, index);
}

/* opr_infer_make_shape for a valid shape that fits the inline storage,
 * without a call; anything else (and every error) goes the long way. */
static inline opr_status copy_shape(opr_infer_ctx *c, opr_shape s,
                                    opr_shape *out) {
  if (s.rank == 0 || s.rank == OPR_UNKNOWN_RANK) {
    *out = (opr_shape){s.rank, NULL};
    return OPR_OK;
  }
  if (s.rank > 0 && s.rank <= OPR_MAX_RANK && s.dims &&
      (size_t)s.rank <= c->free_count) {
    int64_t *copy = c->free_dims;
    int i = 0;
    for (; i < s.rank && s.dims[i] >= OPR_UNKNOWN_DIM; i++) copy[i] = s.dims[i];
    if (i == s.rank) {
      c->free_dims += s.rank;
      c->free_count -= (size_t)s.rank;
      *out = (opr_shape){s.rank, copy};
      return OPR_OK;
    }
  }
  return opr_infer_make_shape(c, s.rank, s.dims, out);
}

/* Output tensors [first, first + n) get a copy of `s`. */
OPR_NOINLINE static opr_status set_outputs(opr_infer_ctx *c, size_t first,
                                           size_t n, opr_shape s) {
  opr_shape copy;
  opr_status st = copy_shape(c, s, &copy);
  if (st) return st;
  for (size_t i = 0; i < n; i++) c->outputs[first + i] = copy;
  return OPR_OK;
}

OPR_NOINLINE static opr_status set_output_general(opr_infer_ctx *c,
                                                  size_t arg, opr_shape s) {
  if (arg >= c->op->noutputs) return no_output(c, arg, 0);
  return set_outputs(c, output_first(c, arg), num_outputs(c, arg), s);
}

opr_status opr_infer_set_output(opr_infer_ctx *c, size_t arg, opr_shape s) {
  /* The first output, one tensor (the usual case): nothing to count. */
  const opr_op_def *op = c->op;
  if (arg == 0 && op->noutputs > 0 &&
      op->outputs[0].number_attr == OPR_NO_ATTR &&
      op->outputs[0].type_list_attr == OPR_NO_ATTR) {
    opr_shape copy; /* the output keeps its shape when this fails */
    opr_status st = copy_shape(c, s, &copy);
    if (!st) c->outputs[0] = copy;
    return st;
  }
  return set_output_general(c, arg, s);
}

opr_status opr_infer_set_output_dims(opr_infer_ctx *c, size_t arg, int rank,
                                     const int64_t *dims) {
  return opr_infer_set_output(c, arg, (opr_shape){rank, dims});
}

opr_status opr_infer_set_output_at(opr_infer_ctx *c, size_t arg,
                                   size_t index, opr_shape s) {
  if (arg >= c->op->noutputs || index >= num_outputs(c, arg))
    return no_output(c, arg, index);
  return set_outputs(c, output_first(c, arg) + index, 1, s);
}

opr_shape opr_infer_output(const opr_infer_ctx *c, size_t arg,
                           size_t index) {
  if (arg >= c->op->noutputs || index >= opr_infer_num_outputs(c, arg))
    return opr_shape_unknown();
  return c->outputs[opr_infer_output_first(c, arg) + index];
}
