/* The hand-written shape functions of the shape benchmark: the same rules
 * as the statements of bench_shapes.op, written the way an author writes
 * a TensorFlow shape function, with opr/shape.h's helpers. */
#include "opr/shape.h"

#include <string.h>

opr_status bench_concat_v2_shape(opr_infer_ctx *c);
opr_status bench_batch_mat_mul_v2_shape(opr_infer_ctx *c);
opr_status bench_conv2d_shape(opr_infer_ctx *c);
opr_status bench_reshape_shape(opr_infer_ctx *c);

/* Element `i` of a known int32/int64 tensor. */
static int64_t element(const opr_tensor *t, int64_t i) {
  return t->dtype == OPR_DT_INT32 ? ((const int32_t *)t->data)[i]
                                  : ((const int64_t *)t->data)[i];
}

opr_status bench_concat_v2_shape(opr_infer_ctx *c) {
  opr_status s;
  opr_shape axis_shape;
  if ((s = opr_infer_input_shape(c, 1, &axis_shape))) return s;
  if ((s = opr_infer_with_rank(c, axis_shape, 0, "'axis'", &axis_shape)))
    return s;
  const opr_tensor *axis_value = opr_infer_input_value(c, 1, 0);
  size_t n = opr_infer_num_inputs(c, 0);
  opr_shape first = opr_infer_input(c, 0, 0);
  if (!axis_value || first.rank < 0) {
    opr_shape merged;
    if ((s = opr_infer_input_shape(c, 0, &merged))) return s;
    return opr_infer_set_output_dims(c, 0, merged.rank, NULL);
  }
  int rank = first.rank;
  int64_t axis = element(axis_value, 0);
  if (axis < -rank || axis >= rank)
    return opr_infer_error(c, "axis %lld is out of range for rank %d",
                           (long long)axis, rank);
  if (axis < 0) axis += rank;
  int64_t dims[OPR_INLINE_DIMS * 4];
  if (rank > (int)(sizeof dims / sizeof *dims))
    return opr_infer_error(c, "rank %d is too large", rank);
  memcpy(dims, first.dims, (size_t)rank * sizeof *dims);
  for (size_t i = 1; i < n; i++) {
    opr_shape t;
    if ((s = opr_infer_with_rank(c, opr_infer_input(c, 0, i), rank,
                                 "the tensors of 'values'", &t)))
      return s;
    for (int d = 0; d < rank; d++) {
      if (d == axis) {
        dims[d] = dims[d] < 0 || t.dims[d] < 0 ? OPR_UNKNOWN_DIM
                                               : dims[d] + t.dims[d];
      } else if ((s = opr_infer_merge_dim(c, dims[d], t.dims[d],
                                          "the tensors of 'values'",
                                          &dims[d]))) {
        return s;
      }
    }
  }
  return opr_infer_set_output_dims(c, 0, rank, dims);
}

opr_status bench_batch_mat_mul_v2_shape(opr_infer_ctx *c) {
  opr_status s;
  opr_shape x, y, batch;
  if ((s = opr_infer_input_shape(c, 0, &x))) return s;
  if ((s = opr_infer_input_shape(c, 1, &y))) return s;
  if ((s = opr_infer_with_rank_at_least(c, x, 2, "'x'", &x))) return s;
  if ((s = opr_infer_with_rank_at_least(c, y, 2, "'y'", &y))) return s;
  bool adj_x = opr_infer_attr(c, 1)->u.b, adj_y = opr_infer_attr(c, 2)->u.b;
  if (x.rank < 0 || y.rank < 0) return OPR_OK; /* unknown */
  int64_t inner;
  if ((s = opr_infer_merge_dim(c, x.dims[x.rank - (adj_x ? 2 : 1)],
                               y.dims[y.rank - (adj_y ? 1 : 2)],
                               "the inner dims of 'x' and 'y'", &inner)))
    return s;
  opr_shape xb = {x.rank - 2, x.dims}, yb = {y.rank - 2, y.dims};
  if ((s = opr_infer_broadcast(c, xb, yb, "the batch dims of 'x' and 'y'",
                               &batch)))
    return s;
  int64_t dims[OPR_INLINE_DIMS * 4];
  if (batch.rank + 2 > (int)(sizeof dims / sizeof *dims))
    return opr_infer_error(c, "rank %d is too large", batch.rank + 2);
  memcpy(dims, batch.dims, (size_t)batch.rank * sizeof *dims);
  dims[batch.rank] = x.dims[x.rank - (adj_x ? 1 : 2)];
  dims[batch.rank + 1] = y.dims[y.rank - (adj_y ? 2 : 1)];
  return opr_infer_set_output_dims(c, 0, batch.rank + 2, dims);
}

/* The output size along one dim: TensorFlow's GetWindowedOutputSize. */
static opr_status window(opr_infer_ctx *c, int64_t in, int64_t size,
                         int64_t stride, int64_t dilation, bool same,
                         int64_t *out) {
  if (stride < 1 || dilation < 1)
    return opr_infer_error(c, "strides and dilations must be at least 1");
  if (in < 0 || size < 0) return *out = OPR_UNKNOWN_DIM, OPR_OK;
  if (same) return *out = (in + stride - 1) / stride, OPR_OK;
  int64_t effective = (size - 1) * dilation + 1;
  if (in < effective)
    return opr_infer_error(c, "the window (%lld) is larger than the input "
                              "(%lld)", (long long)effective, (long long)in);
  return *out = (in - effective) / stride + 1, OPR_OK;
}

opr_status bench_conv2d_shape(opr_infer_ctx *c) {
  opr_status s;
  opr_shape in, filter;
  if ((s = opr_infer_input_shape(c, 0, &in))) return s;
  if ((s = opr_infer_input_shape(c, 1, &filter))) return s;
  if ((s = opr_infer_with_rank(c, in, 4, "'input'", &in))) return s;
  if ((s = opr_infer_with_rank(c, filter, 4, "'filter'", &filter))) return s;
  const opr_attr_value *strides = opr_infer_attr(c, 1);
  const opr_attr_value *padding = opr_infer_attr(c, 3);
  const opr_attr_value *format = opr_infer_attr(c, 4);
  const opr_attr_value *dilations = opr_infer_attr(c, 5);
  if (strides->u.list.count != 4 || dilations->u.list.count != 4)
    return opr_infer_error(c, "strides and dilations must have 4 elements");
  const int64_t *st = strides->u.list.items, *dl = dilations->u.list.items;
  bool nchw = format->u.s.len == 4 && memcmp(format->u.s.ptr, "NCHW", 4) == 0;
  bool same = padding->u.s.len == 4 && memcmp(padding->u.s.ptr, "SAME", 4) == 0;
  int h = nchw ? 2 : 1, w = nchw ? 3 : 2, ch = nchw ? 1 : 3;
  int64_t depth = in.dims[ch], in_depth = filter.dims[2];
  if (depth >= 0 && in_depth > 0 && depth % in_depth != 0)
    return opr_infer_error(c, "depth %lld is not a multiple of the filter's "
                              "%lld", (long long)depth, (long long)in_depth);
  if (in_depth == 0 && depth >= 0)
    return opr_infer_error(c, "the filter's depth is 0");
  int64_t rows = -1, cols = -1; /* set by window() unless it fails */
  if ((s = window(c, in.dims[h], filter.dims[0], st[h], dl[h], same, &rows)))
    return s;
  if ((s = window(c, in.dims[w], filter.dims[1], st[w], dl[w], same, &cols)))
    return s;
  int64_t dims[4] = {in.dims[0], rows, cols, filter.dims[3]};
  if (nchw) dims[1] = filter.dims[3], dims[2] = rows, dims[3] = cols;
  return opr_infer_set_output_dims(c, 0, 4, dims);
}

opr_status bench_reshape_shape(opr_infer_ctx *c) {
  opr_status s;
  opr_shape in, shape;
  if ((s = opr_infer_input_shape(c, 0, &in))) return s;
  if ((s = opr_infer_input_shape(c, 1, &shape))) return s;
  if ((s = opr_infer_with_rank(c, shape, 1, "'shape'", &shape))) return s;
  const opr_tensor *v = opr_infer_input_value(c, 1, 0);
  if (!v) return opr_infer_set_output_dims(c, 0, (int)shape.dims[0], NULL);
  int n = (int)v->num_elements;
  int64_t dims[OPR_INLINE_DIMS * 4];
  if (n > (int)(sizeof dims / sizeof *dims))
    return opr_infer_error(c, "rank %d is too large", n);
  int64_t out_known = 1, unknown_at = -1;
  for (int k = 0; k < n; k++) {
    dims[k] = element(v, k);
    if (dims[k] < -1)
      return opr_infer_error(c, "shape[%d] is %lld", k, (long long)dims[k]);
    if (dims[k] >= 0) {
      out_known *= dims[k];
    } else if (unknown_at >= 0) {
      return opr_infer_set_output_dims(c, 0, n, dims); /* several unknown */
    } else {
      unknown_at = k;
    }
  }
  if (in.rank < 0) return opr_infer_set_output_dims(c, 0, n, dims);
  int64_t in_elems = 1;
  for (int k = 0; k < in.rank; k++) {
    if (in.dims[k] < 0) return opr_infer_set_output_dims(c, 0, n, dims);
    in_elems *= in.dims[k];
  }
  if (unknown_at < 0) {
    if (in_elems != out_known)
      return opr_infer_error(c, "cannot reshape %lld elements into %lld",
                             (long long)in_elems, (long long)out_known);
  } else {
    if (out_known == 0 || in_elems % out_known != 0)
      return opr_infer_error(c, "cannot reshape %lld elements into a "
                                "multiple of %lld",
                             (long long)in_elems, (long long)out_known);
    dims[unknown_at] = in_elems / out_known;
  }
  return opr_infer_set_output_dims(c, 0, n, dims);
}
