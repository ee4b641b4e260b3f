/* Pad's shape function (`shape_fn demo_pad_shape;` in specs/demo.op).
 * Dim i of the output is paddings[i, 0] + dim(input, i) + paddings[i, 1]:
 * it depends on the values of paddings, which shape statements cannot
 * read. Without those values the output's rank is still known (from the
 * input, or from paddings' first dim), its dims are not. The messages for
 * a bad paddings tensor are the kernel's (kernels/pad.c), so that a call
 * answers the same whichever of the two finds the problem. */
#include "demo_ops.h"
#include "pad_check.h"

#include <inttypes.h>

/* paddings must be [rank(input), 2]. Returns the output's rank (unknown
 * when neither says). */
static opr_status check_paddings(opr_infer_ctx *c, opr_shape input,
                                 opr_shape paddings, int64_t *rank) {
  opr_status s;
  int64_t rows, cols;
  *rank = opr_shape_rank_dim(input);
  if (input.rank >= 0 && paddings.rank >= 0) {
    const int64_t want[2] = {input.rank, 2};
    if (!opr_shape_compatible(paddings, (opr_shape){2, want})) {
      char got[256];
      return opr_infer_error(c, "paddings must have shape [%d, 2] for an "
                             "input of rank %d; got %s", input.rank,
                             input.rank,
                             opr_shape_text(paddings.rank, paddings.dims,
                                            got, sizeof got));
    }
    return OPR_OK;
  }
  if ((s = opr_infer_with_rank(c, paddings, 2, "'paddings'", &paddings)))
    return s;
  if ((s = opr_infer_dim(c, paddings, 1, "'paddings'", &cols))) return s;
  if ((s = opr_infer_require(c, cols, OPR_DIM_EQ, 2, "dim 1 of 'paddings'",
                             NULL)))
    return s;
  if ((s = opr_infer_dim(c, paddings, 0, "'paddings'", &rows))) return s;
  if (*rank < 0) *rank = rows;
  return OPR_OK;
}

/* Output dim d: before + input dim + after. The mode's own limits are
 * the kernel's to check (the shape does not depend on the mode). */
static opr_status padded_dim(opr_infer_ctx *c, opr_shape input,
                             const opr_tensor *paddings, int d,
                             int64_t *out) {
  int64_t lo = pad_check_amount(paddings, 2 * (int64_t)d);
  int64_t hi = pad_check_amount(paddings, 2 * (int64_t)d + 1);
  int64_t n = input.rank > d ? input.dims[d] : OPR_UNKNOWN_DIM;
  char why[256];
  *out = OPR_UNKNOWN_DIM;
  if (!pad_check_dim(DEMO_PAD_MODE_CONSTANT, d, lo, hi, n, why, sizeof why))
    return opr_infer_error(c, "%s", why);
  if (n >= 0) *out = lo + n + hi;
  return OPR_OK;
}

opr_status demo_pad_shape(opr_infer_ctx *c) {
  opr_shape input, paddings;
  int64_t rank, dims[OPR_MAX_RANK];
  opr_status s;
  if ((s = opr_infer_input_shape(c, DEMO_PAD_INPUT_INPUT, &input))) return s;
  if ((s = opr_infer_input_shape(c, DEMO_PAD_INPUT_PADDINGS, &paddings)))
    return s;
  /* Known values: their shape is the one to check. */
  const opr_tensor *values =
      opr_infer_input_value(c, DEMO_PAD_INPUT_PADDINGS, 0);
  if (values && values->dtype != OPR_DT_INT32 &&
      values->dtype != OPR_DT_INT64)
    return opr_infer_error(c, "paddings must be int32 or int64, got %s",
                           opr_dtype_name(values->dtype));
  if (values) paddings = (opr_shape){values->rank, values->dims};
  if ((s = check_paddings(c, input, paddings, &rank))) return s;
  if (rank < 0)
    return opr_infer_set_output(c, DEMO_PAD_OUTPUT_OUTPUT, opr_shape_unknown());
  if (rank > OPR_MAX_RANK)
    return opr_infer_error(c, "paddings has %" PRId64 " rows; a rank is at "
                           "most %d", rank, OPR_MAX_RANK);
  /* Known values give the dims; else they stay unknown. */
  for (int d = 0; d < rank; d++) {
    dims[d] = OPR_UNKNOWN_DIM;
    if (values && (s = padded_dim(c, input, values, d, &dims[d]))) return s;
  }
  return opr_infer_set_output_dims(c, DEMO_PAD_OUTPUT_OUTPUT, (int)rank,
                                   dims);
}
