/* MyBiasAdd's shape function (`shape_fn my_bias_add_shape;` in
 * ops/myops.op): which dim holds the channels depends on the data_format
 * attr, which shape statements cannot express. The runtime runs it
 * before every call, so the kernel can trust what it checks: value has
 * rank >= 2 and bias is a vector as long as the channel dim. It reads the
 * arguments by the indexes the generated header names. */
#include "myops_ops.h" /* MY_BIAS_ADD_INPUT_VALUE, ...: the indexes */

#include <string.h>

opr_status my_bias_add_shape(opr_infer_ctx *c) {
  opr_shape value, bias;
  opr_status s;
  if ((s = opr_infer_input_shape(c, MY_BIAS_ADD_INPUT_VALUE, &value)))
    return s;
  if ((s = opr_infer_input_shape(c, MY_BIAS_ADD_INPUT_BIAS, &bias)))
    return s;
  if ((s = opr_infer_with_rank_at_least(c, value, 2, "'value'", &value)))
    return s;
  if ((s = opr_infer_with_rank(c, bias, 1, "'bias'", &bias))) return s;
  /* Only the two allowed values get this far. */
  opr_str format = opr_infer_attr(c, MY_BIAS_ADD_ATTR_DATA_FORMAT)->u.s;
  int nchw = format.len == 4 && memcmp(format.ptr, "NCHW", 4) == 0;
  int64_t channels = OPR_UNKNOWN_DIM;
  if (value.rank >= 0 &&
      (s = opr_infer_dim(c, value, nchw ? 1 : -1, "'value'", &channels)))
    return s;
  /* Unknown on either side passes; two known, different dims fail. */
  if ((s = opr_infer_merge_dim(c, channels, bias.dims[0],
                               "the channel dim of 'value' and 'bias'",
                               &channels)))
    return s;
  return opr_infer_set_output(c, MY_BIAS_ADD_OUTPUT_OUTPUT, value);
}
