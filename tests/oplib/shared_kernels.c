/* A second CPU kernel for the shipped AddOne, preferred by its priority:
 * adds 100 instead of 1, so that a test sees which kernel ran. */
#include "opgen_library.h" /* the specs' kernel headers; the prototype */


static opr_status add_hundred(opr_kernel_ctx *k) {
  const opr_tensor *in = shared_lib_add_one_input_input(k);
  opr_tensor *out;
  opr_status s = shared_lib_add_one_alloc_output(k, in->rank, in->dims, &out);
  if (s) return s;
  const int32_t *x = in->data;
  int32_t *y = out->data;
  for (int64_t i = 0; i < in->num_elements; i++) y[i] = x[i] + 100;
  return OPR_OK;
}

opr_status shared_lib_register_kernels(void) {
  return shared_lib_add_one_register_kernel(&(shared_lib_add_one_kernel_def){
      .fn = add_hundred, .device = OPR_DEVICE_CPU, .priority = 5,
      .label = "shared_lib"});
}
