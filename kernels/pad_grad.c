/* The gradient of Pad: the adjoint of the copy the kernel makes. Each
 * output element copies one input element (or is a zero, CONSTANT), so
 * the input's gradient sums the output gradient over every element that
 * copied it: the inner slice for CONSTANT, and for REFLECT and SYMMETRIC
 * the mirrored border regions folded back onto the edge they mirror, as
 * TensorFlow's MirrorPadGrad does. paddings has no gradient. bool has no
 * gradient either (NULL). */
#include "grad.h"
#include "pad_check.h"

#include <stdlib.h>
#include <string.h>

/* What the output rows map back to (a row: the last dimension). */
typedef struct pad_grad_plan {
  int rank;
  demo_pad_mode mode;
  const int64_t *in_dims, *out_dims;
  int64_t *before, *in_strides; /* [rank] each */
} pad_grad_plan;

/* The input index that output offset x mirrors, or -1 for a zero
 * (CONSTANT): the kernel's mapping (pad.c). */
static int64_t pad_grad_source(int64_t x, int64_t n, demo_pad_mode mode) {
  if (x >= 0 && x < n) return x;
  if (mode == DEMO_PAD_MODE_CONSTANT) return -1;
  int64_t edge = mode == DEMO_PAD_MODE_REFLECT ? 0 : 1;
  return x < 0 ? -x - edge : 2 * n - 2 + edge - x;
}

/* The offset of the input row that output row `row` copies, or -1. */
static int64_t pad_grad_row(const pad_grad_plan *p, int64_t row) {
  int64_t offset = 0;
  for (int d = p->rank - 2; d >= 0; d--) {
    int64_t c = row % p->out_dims[d];
    row /= p->out_dims[d];
    int64_t x = pad_grad_source(c - p->before[d], p->in_dims[d], p->mode);
    if (x < 0) return -1;
    offset += x * p->in_strides[d];
  }
  return offset;
}

/* d[source(j)] += g[j] over every output element, row by row. */
#define PAD_GRAD_FOLD(ID, CT)                                               \
  static void pad_grad_fold_##ID(const pad_grad_plan *p, const void *grad,  \
                                 void *din) {                               \
    int last = p->rank - 1;                                                 \
    int64_t width = p->out_dims[last], n = p->in_dims[last];                \
    int64_t rows = 1;                                                       \
    for (int d = 0; d < last; d++) rows *= p->out_dims[d];                  \
    const CT *g = grad;                                                     \
    CT *out = din;                                                          \
    for (int64_t r = 0; r < rows; r++) {                                    \
      int64_t at = pad_grad_row(p, r);                                      \
      if (at < 0) continue;                                                 \
      for (int64_t j = 0; j < width; j++) {                                 \
        int64_t x = pad_grad_source(j - p->before[last], n, p->mode);       \
        if (x >= 0)                                                         \
          out[at + x] = kern_add(out[at + x], g[r * width + j]);            \
      }                                                                     \
    }                                                                       \
  }
/* Pad's types but bool. */
#define PAD_GRAD_TYPES(X)                                                    \
  X(FLOAT, float) X(DOUBLE, double) X(INT32, int32_t) X(UINT8, uint8_t)      \
  X(INT16, int16_t) X(INT8, int8_t) X(INT64, int64_t)                        \
  X(BFLOAT16, opr_bfloat16) X(UINT16, uint16_t) X(HALF, opr_half)            \
  X(UINT32, uint32_t) X(UINT64, uint64_t)
PAD_GRAD_TYPES(PAD_GRAD_FOLD)
#undef PAD_GRAD_FOLD

typedef void (*pad_grad_fold_fn)(const pad_grad_plan *, const void *, void *);

static pad_grad_fold_fn fold_for(opr_dtype dt) {
  switch (dt) {
#define PAD_GRAD_CASE(ID, CT) \
  case OPR_DT_##ID: return pad_grad_fold_##ID;
    PAD_GRAD_TYPES(PAD_GRAD_CASE)
#undef PAD_GRAD_CASE
  default: return NULL;
  }
}

static demo_pad_mode mode_of(const opr_grad_op *op) {
  const opr_attr_value *v = grad_attr(op, "mode");
  if (v && v->u.s.len == 7 && memcmp(v->u.s.ptr, "REFLECT", 7) == 0)
    return DEMO_PAD_MODE_REFLECT;
  if (v && v->u.s.len == 9 && memcmp(v->u.s.ptr, "SYMMETRIC", 9) == 0)
    return DEMO_PAD_MODE_SYMMETRIC;
  return DEMO_PAD_MODE_CONSTANT;
}

/* Folds `grad` into the zeros of `d` (the recorded call was valid: its
 * paddings fit). */
static opr_status fold(const opr_grad_op *op, const opr_tensor *grad,
                       pad_grad_fold_fn fn, opr_tensor *d) {
  const opr_tensor *in = op->inputs[0], *pads = op->inputs[1];
  int rank = in->rank;
  int64_t *buf = malloc(2 * (size_t)(rank + 1) * sizeof *buf);
  if (!buf) return opr_error(OPR_RESOURCE_EXHAUSTED, "Pad: out of memory");
  pad_grad_plan p = {rank, mode_of(op), in->dims, op->outputs[0]->dims,
                     buf, buf + rank + 1};
  int64_t stride = 1;
  for (int k = rank - 1; k >= 0; k--) {
    p.before[k] = pad_check_amount(pads, 2 * k);
    p.in_strides[k] = stride;
    stride *= in->dims[k];
  }
  fn(&p, grad->data, d->data);
  free(buf);
  return OPR_OK;
}

opr_status grad_pad(const opr_grad_op *op, const opr_tensor *const *out_grads,
                    opr_tensor **in_grads, void *user) {
  (void)user;
  const opr_tensor *in = op->inputs[0], *grad = out_grads[0];
  pad_grad_fold_fn fn = fold_for(in->dtype);
  if (!fn) return OPR_OK; /* bool: not differentiable */
  opr_status s = grad_on_host(op, grad);
  if (!s) s = grad_on_host(op, op->inputs[1]);
  if (s) return s;
  opr_tensor *d = NULL;
  s = opr_tensor_new(in->dtype, in->rank, in->dims, &d); /* zeros */
  if (!s && in->rank == 0) memcpy(d->data, grad->data, d->nbytes);
  else if (!s && grad->num_elements > 0) s = fold(op, grad, fn, d);
  if (s) {
    opr_tensor_unref(d);
    return s;
  }
  in_grads[0] = d;
  return OPR_OK;
}
