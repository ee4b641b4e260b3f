/* The CPU kernel of LibZeroOut, as the guide writes ZeroOut's Compute:
 * the output is all zeros but the first element, copied from the input.
 * Built into the example op library zero_out_lib (and the variants of it
 * that tests/oplib/ builds). */
#include "opgen_library.h" /* the specs' kernel headers; the prototype */


static opr_status lib_zero_out(opr_kernel_ctx *k) {
  const opr_tensor *in = zero_out_lib_lib_zero_out_input_to_zero(k);
  opr_tensor *out;
  opr_status s =
      zero_out_lib_lib_zero_out_alloc_zeroed(k, in->rank, in->dims, &out);
  if (s) return s;
  int32_t *o = out->data;
  for (int64_t i = 0; i < out->num_elements; i++) o[i] = 0;
  if (in->num_elements > 0) o[0] = ((const int32_t *)in->data)[0];
  return OPR_OK;
}

opr_status zero_out_lib_register_kernels(void) {
  return zero_out_lib_lib_zero_out_register_kernel(
      &(zero_out_lib_lib_zero_out_kernel_def){.fn = lib_zero_out,
                                          .device = OPR_DEVICE_CPU,
                                          .label = "zero_out_lib"});
}
