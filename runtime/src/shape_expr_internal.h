/* What the shape_expr_*.c files (opr/shape_expr.h) share. */
#ifndef OPR_SHAPE_EXPR_INTERNAL_H
#define OPR_SHAPE_EXPR_INTERNAL_H

#include "opr/shape_expr.h"
#include "shape_internal.h"

/* Room for a number's text: "?" or an int64_t. */
typedef char sx_num_text[24];

/* `n` as text: its value, or "?" when unknown. */
const char *opr_sx_num_text(opr_num n, sx_num_text buf);

/* `what` for a message: the expression's text, or a stand-in. */
static inline const char *sx_what(const char *what) {
  return opr_text_or(what, "the expression");
}

opr_status opr_sx_out_of_memory(const opr_infer_ctx *c);

/* n dims in the context (uninitialized); n may be 0. Inline while they
 * fit the room left. */
static inline opr_status opr_sx_alloc(opr_infer_ctx *c, size_t n,
                                      int64_t **dims) {
  if (n <= c->free_count) {
    *dims = c->free_dims;
    c->free_dims += n;
    c->free_count -= n;
    return OPR_OK;
  }
  *dims = opr_infer_alloc_dims(c, n);
  return *dims ? OPR_OK : opr_sx_out_of_memory(c);
}

/* Gives back `dims`, the last n dims opr_sx_alloc returned (they were
 * not needed after all). */
static inline void opr_sx_give_back(opr_infer_ctx *c, int64_t *dims,
                                    size_t n) {
  c->free_dims = dims;
  c->free_count += n;
}

/* The paddings opr_sx_attr_string returns as themselves, so that
 * window() knows them by address. */
extern const char opr_sx_valid[], opr_sx_same_padding[];

/* A shape of `rank` (<= OPR_MAX_RANK checked), every dim unknown. */
opr_status opr_sx_unknown_of_rank(opr_infer_ctx *c, int64_t rank,
                                  const char *what, opr_shape *out);

/* Axis `axis` of a shape of known `rank`, counted from the end when
 * negative: in [0, rank) (`extra` 0), or [0, rank] for insert (`extra`
 * 1, range [-rank-1, rank]); out of range is an error. */
opr_status opr_sx_axis(opr_infer_ctx *c, int64_t axis, int rank, int extra,
                       const char *what, int *out);

/* The join of two shapes: equal known ranks keep the dims equal in
 * both, others unknown; else `?`. */
opr_status opr_sx_join_shapes(opr_infer_ctx *c, opr_shape a, opr_shape b,
                              opr_shape *out);

/* Tensor `index` of input `arg`, merged with its value's shape when the
 * value is known. */
opr_status opr_sx_input_tensor(opr_infer_ctx *c, size_t arg, size_t index,
                               opr_shape *out);

/* opr_infer_input_value and opr_infer_attr without the call: every read
 * of a generated function goes through them. */
static inline const opr_tensor *sx_input_value(const opr_infer_ctx *c,
                                               size_t arg, size_t index) {
  opr_infer_note_values(c);
  if (arg >= c->op->ninputs) return NULL;
  if (c->shapes) {
    const opr_shape_input *in = &c->shapes[arg];
    return in->values && index < in->count ? in->values[index] : NULL;
  }
  if (index >= c->tensors[arg].count) return NULL;
  const opr_tensor *t = c->tensors[arg].tensors[index];
  return t->device == OPR_DEVICE_CPU ? t : NULL;
}
static inline const opr_attr_value *sx_attr(const opr_infer_ctx *c,
                                            size_t attr) {
  return attr < c->op->nattrs ? &c->attrs[attr] : NULL;
}

/* The op's name for input `arg` / attr `attr`, for messages. */
static inline const char *sx_input_name(const opr_infer_ctx *c, size_t arg) {
  return arg < c->op->ninputs ? c->op->inputs[arg].name : "?";
}
static inline const char *sx_attr_name(const opr_infer_ctx *c, size_t attr) {
  return attr < c->op->nattrs ? c->op->attrs[attr].name : "?";
}

#endif
