/* MyConcat on the CPU: N tensors joined along an axis. The spec gives
 * the output no shape statement, so this kernel checks the shapes itself
 * and computes the output's. It moves bytes, so one body serves every
 * type of T. */
#include "kernels.h"
#include "myops_kernels.h"

#include <string.h>

/* Errors name the op, the argument and the rule that failed. */
static opr_status check_shapes(opr_kernel_ctx *k, int64_t axis) {
  const opr_tensor *first = my_concat_input_values(k, 0);
  for (size_t t = 1; t < my_concat_input_values_count(k); t++) {
    const opr_tensor *x = my_concat_input_values(k, t);
    if (x->rank != first->rank)
      return opr_error(OPR_INVALID_ARGUMENT, "MyConcat: the tensors of "
                       "'values' must have one rank, but values[%zu] has "
                       "rank %d and values[0] rank %d", t, x->rank,
                       first->rank);
    for (int d = 0; d < x->rank; d++)
      if (d != axis && x->dims[d] != first->dims[d])
        return opr_error(OPR_INVALID_ARGUMENT, "MyConcat: dim %d of "
                         "values[%zu] (%lld) must equal that of values[0] "
                         "(%lld): only dim %lld (axis) may differ", d, t,
                         (long long)x->dims[d], (long long)first->dims[d],
                         (long long)axis);
  }
  return OPR_OK;
}

static opr_status concat(opr_kernel_ctx *k) {
  const opr_tensor *first = my_concat_input_values(k, 0);
  const size_t n = my_concat_input_values_count(k);
  int64_t axis = my_concat_attr_axis(k);
  if (axis < -first->rank || axis >= first->rank)
    return opr_error(OPR_INVALID_ARGUMENT, "MyConcat: attr 'axis' (%lld) "
                     "must be in [%d, %d) for 'values' of rank %d",
                     (long long)axis, -first->rank, first->rank,
                     first->rank);
  if (axis < 0) axis += first->rank;
  opr_status s = check_shapes(k, axis);
  if (s) return s;

  int64_t dims[OPR_MAX_RANK], outer = 1, inner = 1;
  memcpy(dims, first->dims, sizeof(int64_t) * (size_t)first->rank);
  dims[axis] = 0;
  for (size_t t = 0; t < n; t++)
    dims[axis] += my_concat_input_values(k, t)->dims[axis];
  for (int64_t d = 0; d < axis; d++) outer *= dims[d];
  for (int64_t d = axis + 1; d < first->rank; d++) inner *= dims[d];
  opr_tensor *out;
  if ((s = my_concat_alloc_output(k, first->rank, dims, &out)))
    return s;
  if (out->num_elements == 0) return OPR_OK;

  /* Each outer row of the output is the inputs' rows one after another. */
  const size_t elem = opr_dtype_size(first->dtype);
  char *dst = out->data;
  for (int64_t o = 0; o < outer; o++)
    for (size_t t = 0; t < n; t++) {
      const opr_tensor *x = my_concat_input_values(k, t);
      size_t row = (size_t)(x->dims[axis] * inner) * elem;
      memcpy(dst, (const char *)x->data + (size_t)o * row, row);
      dst += row;
    }
  return OPR_OK;
}

opr_status register_concat(void) {
  return my_concat_register_kernel(&(my_concat_kernel_def){
      .fn = concat, .device = OPR_DEVICE_CPU, .label = "cpu"});
}
