/* Pad: CONSTANT (zeros), REFLECT (mirror without the edge) and SYMMETRIC
 * (mirror with the edge). The output is written row by row (a row: the
 * last dimension); each row maps to one input row, or to none when it
 * lies in the padding of an outer dimension (CONSTANT). */
#include "kernels.h"
#include "pad_check.h"

#include <stdlib.h>
#include <string.h>

/* What a call pads, once validated. */
typedef struct pad_plan {
  int rank;
  demo_pad_mode mode;
  int64_t *in_dims, *out_dims, *before; /* [rank] each */
  int64_t *in_strides;                  /* elements per step of dim i */
  int64_t rows;                         /* output rows */
  const void *in;
  void *out;
  void (*row)(const struct pad_plan *p, int64_t row, const void *in_row);
} pad_plan;

/* The input index that output offset x (x < 0: before, x >= n: after)
 * mirrors, or -1 for a zero (CONSTANT). One reflection suffices: the
 * padding was checked against n. */
static inline int64_t pad_source(int64_t x, int64_t n, demo_pad_mode mode) {
  if (x >= 0 && x < n) return x;
  if (mode == DEMO_PAD_MODE_CONSTANT) return -1;
  int64_t edge = mode == DEMO_PAD_MODE_REFLECT ? 0 : 1;
  return x < 0 ? -x - edge : 2 * n - 2 + edge - x;
}

/* One output row from its input row (NULL: all zeros). */
#define PAD_ROW(ID, CT)                                                    \
  static void pad_row_##ID(const pad_plan *p, int64_t row,                 \
                           const void *in_row) {                           \
    int last = p->rank - 1;                                                \
    int64_t width = p->out_dims[last], n = p->in_dims[last];               \
    int64_t b = p->before[last];                                           \
    CT *restrict out = (CT *)p->out + row * width;                         \
    const CT *restrict in = in_row;                                        \
    if (!in) {                                                             \
      for (int64_t j = 0; j < width; j++) out[j] = (CT){0};                \
      return;                                                              \
    }                                                                      \
    for (int64_t j = 0; j < b; j++) {                                      \
      int64_t x = pad_source(j - b, n, p->mode);                           \
      out[j] = x < 0 ? (CT){0} : in[x];                                    \
    }                                                                      \
    for (int64_t x = 0; x < n; x++) out[b + x] = in[x];                    \
    for (int64_t j = b + n; j < width; j++) {                              \
      int64_t x = pad_source(j - b, n, p->mode);                           \
      out[j] = x < 0 ? (CT){0} : in[x];                                    \
    }                                                                      \
  }
DEMO_PAD_T_TYPES(PAD_ROW)
#undef PAD_ROW

/* The input row output row `row` copies, or NULL for a row of zeros. */
static const void *pad_input_row(const pad_plan *p, int64_t row,
                                 size_t size) {
  int64_t offset = 0;
  for (int d = p->rank - 2; d >= 0; d--) {
    int64_t c = row % p->out_dims[d];
    row /= p->out_dims[d];
    int64_t x = pad_source(c - p->before[d], p->in_dims[d], p->mode);
    if (x < 0) return NULL;
    offset += x * p->in_strides[d];
  }
  return (const char *)p->in + (size_t)offset * size;
}

typedef struct pad_args {
  const pad_plan *plan;
  size_t size;
} pad_args;

static void pad_block(void *arg, int64_t begin, int64_t end) {
  const pad_args *a = arg;
  for (int64_t r = begin; r < end; r++)
    a->plan->row(a->plan, r, pad_input_row(a->plan, r, a->size));
}

/* Validates paddings for dimension d and sets the plan's dims for it. */
static opr_status pad_dim(const opr_kernel_ctx *k, pad_plan *p, int d) {
  const opr_tensor *pads = demo_pad_input_paddings(k);
  int64_t lo = pad_check_amount(pads, 2 * d);
  int64_t hi = pad_check_amount(pads, 2 * d + 1), n = p->in_dims[d];
  char why[256];
  if (!pad_check_dim(p->mode, d, lo, hi, n, why, sizeof why))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: %s", k->call->op->name, why);
  p->before[d] = lo;
  p->out_dims[d] = lo + n + hi;
  return OPR_OK;
}

/* The paddings tensor must be [rank(input), 2]. */
static opr_status pad_check_shape(const opr_kernel_ctx *k) {
  const opr_tensor *in = demo_pad_input_input(k);
  const opr_tensor *pads = demo_pad_input_paddings(k);
  if (pads->rank == 2 && pads->dims[0] == in->rank && pads->dims[1] == 2)
    return OPR_OK;
  char got[128];
  return opr_error(OPR_INVALID_ARGUMENT, "%s: paddings must have shape "
                   "[%d, 2] for an input of rank %d; got %s",
                   k->call->op->name, in->rank, in->rank,
                   opr_shape_text(pads->rank, pads->dims, got, sizeof got));
}

/* Validates the call and fills the plan's dims, strides and rows. */
static opr_status pad_plan_init(const opr_kernel_ctx *k, pad_plan *p) {
  const opr_tensor *in = demo_pad_input_input(k);
  opr_status s = pad_check_shape(k);
  if (s) return s;
  p->rank = in->rank;
  p->mode = demo_pad_attr_mode(k);
  p->rows = 1;
  for (int d = 0; d < p->rank && !s; d++) {
    p->in_dims[d] = in->dims[d];
    s = pad_dim(k, p, d);
  }
  int64_t stride = 1;
  for (int d = p->rank - 1; d >= 0; d--) {
    p->in_strides[d] = stride;
    stride *= in->dims[d];
  }
  return s;
}

/* Allocates, validates, then fills the output with `row`. */
static opr_status pad_run(opr_kernel_ctx *k, size_t size,
                          void (*row)(const pad_plan *, int64_t,
                                      const void *)) {
  const opr_tensor *in = demo_pad_input_input(k);
  int64_t *dims = malloc(4 * (size_t)(in->rank + 1) * sizeof *dims);
  if (!dims)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "Pad: out of memory");
  size_t r = (size_t)in->rank + 1;
  pad_plan p = {.in_dims = dims, .out_dims = dims + r, .before = dims + 2 * r,
                .in_strides = dims + 3 * r, .in = in->data, .row = row};
  opr_tensor *out = NULL;
  opr_status s = pad_plan_init(k, &p);
  if (!s) s = demo_pad_alloc_output(k, p.rank, p.out_dims, &out);
  if (!s && p.rank == 0) {
    memcpy(out->data, in->data, size); /* a scalar pads to itself */
  } else if (!s && out->num_elements > 0) {
    p.out = out->data;
    p.rows = out->num_elements / p.out_dims[p.rank - 1];
    pad_args a = {&p, size};
    int64_t row_bytes = p.out_dims[p.rank - 1] * (int64_t)size;
    kern_for(k, p.rows, row_bytes > 0 ? row_bytes : 1, pad_block, &a);
  }
  free(dims);
  return s;
}

#define PAD_KERNEL(ID, CT)                             \
  static opr_status pad_##ID(opr_kernel_ctx *k) {      \
    return pad_run(k, sizeof(CT), pad_row_##ID);       \
  }
DEMO_PAD_T_TYPES(PAD_KERNEL)
#undef PAD_KERNEL

/* One kernel per T; each reads either type of paddings. */
opr_status kern_register_pad(void) {
  opr_status s = OPR_OK;
#define PAD_REGISTER(ID, CT)                                          \
  if (!s)                                                             \
    s = demo_pad_register_kernel(&(demo_pad_kernel_def){                  \
        .fn = pad_##ID, .device = OPR_DEVICE_CPU,                     \
        .T = OPR_DTYPE_BIT(OPR_DT_##ID), .label = "CPU, " #ID});
  DEMO_PAD_T_TYPES(PAD_REGISTER)
#undef PAD_REGISTER
  return s;
}
