/* MyBiasAdd on the CPU: output[i] = value[i] + bias[channel of i]. One
 * body, expanded once per type of T by the generated
 * MY_BIAS_ADD_T_TYPES X-macro, and multithreaded with opr_shard.
 * The shape function (bias_add_shape.c) has checked the shapes. */
#include "kernels.h"
#include "myops_kernels.h"

/* What each shard needs: the flat element range is cut into blocks, and
 * element i's channel is (i / inner) % channels. */
typedef struct bias_add_job {
  const void *value;
  const void *bias;
  void *output;
  int64_t channels;
  int64_t inner; /* elements per channel step: 1 for NHWC */
} bias_add_job;

/* bias_add_FLOAT, bias_add_DOUBLE: the body for [begin, end). */
#define BIAS_ADD_BODY(ID, CTYPE)                                          \
  static void bias_add_##ID(void *arg, int64_t begin, int64_t end) {      \
    const bias_add_job *j = arg;                                          \
    const CTYPE *x = j->value;                                            \
    const CTYPE *b = j->bias;                                             \
    CTYPE *y = j->output;                                                 \
    for (int64_t i = begin; i < end; i++)                                 \
      y[i] = x[i] + b[(i / j->inner) % j->channels];                      \
  }
MY_BIAS_ADD_T_TYPES(BIAS_ADD_BODY)
#undef BIAS_ADD_BODY

static opr_status bias_add(opr_kernel_ctx *k) {
  const opr_tensor *value = my_bias_add_input_value(k);
  const opr_tensor *bias = my_bias_add_input_bias(k);
  opr_tensor *output;
  opr_status s = my_bias_add_alloc_output(k, value->rank, value->dims,
                                          &output);
  if (s) return s;
  bias_add_job job = {value->data, bias->data, output->data,
                      bias->dims[0], 1};
  if (my_bias_add_attr_data_format(k) == MY_BIAS_ADD_DATA_FORMAT_NCHW)
    for (int d = 2; d < value->rank; d++) job.inner *= value->dims[d];
  if (job.channels == 0) return OPR_OK; /* no elements */

  void (*body)(void *, int64_t, int64_t) = NULL;
  switch (my_bias_add_attr_T(k)) {
#define BIAS_ADD_CASE(ID, CTYPE) \
  case OPR_DT_##ID: body = bias_add_##ID; break;
    MY_BIAS_ADD_T_TYPES(BIAS_ADD_CASE)
#undef BIAS_ADD_CASE
  default:
    break;
  }
  if (!body) /* registered for a type the switch lacks: a bug of ours */
    return opr_error(OPR_UNIMPLEMENTED, "MyBiasAdd: no CPU body for %s",
                     opr_dtype_name(my_bias_add_attr_T(k)));
  /* Cost per element: two reads and a write. */
  opr_shard(k->ctx, output->num_elements,
            3 * (int64_t)opr_dtype_size(value->dtype), body, &job);
  return OPR_OK;
}

opr_status register_bias_add(void) {
  return my_bias_add_register_kernel(&(my_bias_add_kernel_def){
      .fn = bias_add, .device = OPR_DEVICE_CPU, .label = "cpu"});
}
