/* The hand-written shape function of Custom (tests/shape/forms.op):
 * x has rank 1 to 3, and output ys[i] is [dim(x, -1) * (i + 1)]. */
#include "forms_ops.h"

opr_status shape_forms_custom_shape(opr_infer_ctx *c) {
  opr_shape x;
  int64_t last;
  opr_status s;
  if ((s = opr_infer_input_shape(c, SHAPE_FORMS_CUSTOM_INPUT_X, &x)))
    return s;
  if ((s = opr_infer_with_rank_at_least(c, x, 1, "'x'", &x))) return s;
  if ((s = opr_infer_with_rank_at_most(c, x, 3, "'x'", &x))) return s;
  if ((s = opr_infer_dim(c, x, -1, "'x'", &last))) return s;
  size_t n_ys = opr_infer_num_outputs(c, SHAPE_FORMS_CUSTOM_OUTPUT_YS);
  for (size_t i = 0; i < n_ys; i++) {
    int64_t n;
    if ((s = opr_infer_mul(c, last, (int64_t)i + 1, "dim(x, -1) * (i + 1)",
                           &n)))
      return s;
    if ((s = opr_infer_set_output_at(c, SHAPE_FORMS_CUSTOM_OUTPUT_YS, i,
                                     (opr_shape){1, &n})))
      return s;
  }
  return OPR_OK;
}
