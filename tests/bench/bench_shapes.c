/* Section 4: shape inference, the statements compiled by opgen against
 * the same rules written by hand in C (bench_shapes_hand.c), each through
 * opr_infer_shapes on fully known inputs: ConcatV2 of 4 tensors,
 * BatchMatMulV2, Conv2D in NHWC and NCHW, and Reshape with a -1. Each
 * figure is the best batch of many, the two functions taking turns. */
#include "bench_sections.h"
#include "bench_util.h"

#include "bench_shapes_ops.h"
#include "opr/shape.h"

#include <stdio.h>

typedef struct bench_case {
  const char *name;
  const opr_op_def *generated, *hand;
  const opr_shape_input *inputs;
  size_t ninputs;
  const opr_named_attr *attrs;
  size_t nattrs;
} bench_case;

/* ns per inference over one batch; -1 when one fails. */
static double batch(const bench_case *b, const opr_op_def *op, long calls) {
  double start = bench_now();
  for (long i = 0; i < calls; i++) {
    opr_inferred_shapes out;
    opr_status s = opr_infer_shapes(op, b->inputs, b->ninputs, b->attrs,
                                    b->nattrs, &out);
    if (s) {
      fprintf(stderr, "%s: %s\n", b->name, opr_status_message(s));
      opr_status_free(s);
      return -1;
    }
    opr_inferred_shapes_free(&out);
  }
  return (bench_now() - start) * 1e9 / (double)calls;
}

/* The two functions must infer the same shapes, or the figures compare
 * different work. */
static bool same_result(const bench_case *b) {
  opr_inferred_shapes x, y;
  opr_status s = opr_infer_shapes(b->generated, b->inputs, b->ninputs,
                                  b->attrs, b->nattrs, &x);
  opr_status t = opr_infer_shapes(b->hand, b->inputs, b->ninputs, b->attrs,
                                  b->nattrs, &y);
  bool same = !s && !t && x.count == y.count;
  for (size_t i = 0; same && i < x.count; i++)
    same = opr_shape_same(x.shapes[i], y.shapes[i]) &&
           opr_shape_fully_defined(x.shapes[i]);
  if (!s) opr_inferred_shapes_free(&x);
  if (!t) opr_inferred_shapes_free(&y);
  opr_status_free(s);
  opr_status_free(t);
  if (!same) fprintf(stderr, "%s: the two functions disagree\n", b->name);
  return same;
}

static int run(const bench_case *b, long calls, int rounds) {
  if (!same_result(b)) return 1;
  double best[2] = {1e30, 1e30};
  for (int r = 0; r < rounds; r++)
    for (int p = 0; p < 2; p++) {
      double ns = batch(b, p ? b->hand : b->generated, calls);
      if (ns < 0) return 1;
      if (ns < best[p]) best[p] = ns;
    }
  printf("| %-22s | %9.1f | %9.1f | %5.2fx |\n", b->name, best[0], best[1],
         best[0] / best[1]);
  return 0;
}

static opr_tensor *ints(int rank, const int64_t *dims, const int32_t *v,
                        size_t n) {
  opr_tensor *t = NULL;
  opr_status s =
      opr_tensor_from_data(OPR_DT_INT32, rank, dims, v, n * sizeof *v, &t);
  if (s) opr_status_free(s);
  return t;
}

int bench_shapes(bool quick) {
  printf("4. shape inference: generated from statements vs written in C "
         "(ns per opr_infer_shapes, best batch)\n\n");
  printf("| %-22s | %9s | %9s | %6s |\n", "op", "generated", "hand", "ratio");
  printf("| --- | --- | --- | --- |\n");
  static const int32_t axis_v[] = {1}, shape_v[] = {-1, 64};
  static const int64_t scalar_dims[1] = {0}, two[] = {2};
  opr_tensor *axis = ints(0, scalar_dims, axis_v, 1);
  opr_tensor *shape = ints(1, two, shape_v, 2);
  if (!axis || !shape) return 1;

  static const int64_t c0[] = {8, 3, 5}, c1[] = {8, 4, 5}, c2[] = {8, 1, 5},
                       c3[] = {8, 7, 5};
  const opr_shape concat_shapes[4] = {{3, c0}, {3, c1}, {3, c2}, {3, c3}};
  const opr_shape axis_shape = {0, NULL};
  const opr_tensor *axis_values[1] = {axis};
  const opr_shape_input concat_in[2] = {{concat_shapes, NULL, 4},
                                        {&axis_shape, axis_values, 1}};
  const opr_named_attr concat_attrs[2] = {
      {"N", {OPR_ATTR_INT, false, {.i = 4}}},
      {"T", {OPR_ATTR_TYPE, false, {.type = OPR_DT_FLOAT}}}};

  static const int64_t bx[] = {4, 1, 16, 32}, by[] = {1, 6, 32, 8};
  const opr_shape bmm_x = {4, bx}, bmm_y = {4, by};
  const opr_shape_input bmm_in[2] = {{&bmm_x, NULL, 1}, {&bmm_y, NULL, 1}};
  const opr_named_attr bmm_attrs[1] = {
      {"T", {OPR_ATTR_TYPE, false, {.type = OPR_DT_FLOAT}}}};

  static const int64_t nhwc[] = {8, 32, 32, 16}, nchw[] = {8, 16, 32, 32},
                       filt[] = {3, 3, 16, 64};
  static const int64_t strides[] = {1, 2, 2, 1}, strides_nchw[] = {1, 1, 2, 2};
  const opr_shape in_nhwc = {4, nhwc}, in_nchw = {4, nchw}, filter = {4, filt};
  const opr_shape_input conv_nhwc[2] = {{&in_nhwc, NULL, 1},
                                        {&filter, NULL, 1}};
  const opr_shape_input conv_nchw[2] = {{&in_nchw, NULL, 1},
                                        {&filter, NULL, 1}};
  const opr_named_attr conv_attrs_nhwc[3] = {
      {"T", {OPR_ATTR_TYPE, false, {.type = OPR_DT_FLOAT}}},
      {"strides", opr_attr_list(OPR_ATTR_INT, strides, 4)},
      {"padding", opr_attr_cstring(OPR_ATTR_STRING, "SAME")}};
  const opr_named_attr conv_attrs_nchw[4] = {
      {"T", {OPR_ATTR_TYPE, false, {.type = OPR_DT_FLOAT}}},
      {"strides", opr_attr_list(OPR_ATTR_INT, strides_nchw, 4)},
      {"padding", opr_attr_cstring(OPR_ATTR_STRING, "VALID")},
      {"data_format", opr_attr_cstring(OPR_ATTR_STRING, "NCHW")}};

  static const int64_t rt[] = {4, 8, 16};
  const opr_shape reshape_x = {3, rt}, reshape_s = {1, two};
  const opr_tensor *shape_values[1] = {shape};
  const opr_shape_input reshape_in[2] = {{&reshape_x, NULL, 1},
                                         {&reshape_s, shape_values, 1}};
  const opr_named_attr reshape_attrs[1] = {
      {"T", {OPR_ATTR_TYPE, false, {.type = OPR_DT_FLOAT}}}};

  const bench_case cases[] = {
      {"ConcatV2, 4 inputs", &bench_shapes_concat_v2_def,
       &bench_shapes_concat_v2_hand_def, concat_in, 2, concat_attrs, 2},
      {"BatchMatMulV2", &bench_shapes_batch_mat_mul_v2_def,
       &bench_shapes_batch_mat_mul_v2_hand_def, bmm_in, 2, bmm_attrs, 1},
      {"Conv2D NHWC", &bench_shapes_conv2d_def, &bench_shapes_conv2d_hand_def,
       conv_nhwc, 2, conv_attrs_nhwc, 3},
      {"Conv2D NCHW", &bench_shapes_conv2d_def, &bench_shapes_conv2d_hand_def,
       conv_nchw, 2, conv_attrs_nchw, 4},
      {"Reshape, a -1", &bench_shapes_reshape_def,
       &bench_shapes_reshape_hand_def, reshape_in, 2, reshape_attrs, 1},
  };
  int failures = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    failures += run(&cases[i], quick ? 2000 : 200000, quick ? 3 : 15);
  printf("\n");
  opr_tensor_unref(axis);
  opr_tensor_unref(shape);
  return failures;
}
