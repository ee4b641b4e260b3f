/* Registration from a constructor: the library's ops (its generated
 * registration), a kernel of its own op and a low-priority kernel of the
 * host's AddOne, all while dlopen runs inside opr_load_library. The
 * loader stages them; a refused variant (another ABI version or hash, a
 * conflicting op, a kernel of an unknown op) must leave none of them
 * behind. */
#include "opr/opr.h"
#include "opgen_library.h" /* the prototype of the registration */

opr_status ctor_lib_register_ops(void); /* generated */

static opr_status scale(opr_kernel_ctx *k, int32_t by) {
  const opr_tensor *in = k->call->inputs[0].tensors[0];
  opr_tensor *out;
  opr_status s = opr_kernel_alloc_output(k, 0, 0, in->rank, in->dims, &out);
  if (s) return s;
  const int32_t *x = in->data;
  int32_t *y = out->data;
  for (int64_t i = 0; i < in->num_elements; i++) y[i] = x[i] * by;
  return OPR_OK;
}

static opr_status doubles(opr_kernel_ctx *k) { return scale(k, 2); }
static opr_status thousandfold(opr_kernel_ctx *k) { return scale(k, 1000); }

__attribute__((constructor)) static void register_at_load(void) {
  opr_status_free(ctor_lib_register_ops());
  opr_status_free(opr_register_kernel(&(opr_kernel_def){
      .op = "CtorOnly", .device = OPR_DEVICE_CPU, .fn = doubles,
      .label = "ctor_lib CtorOnly"}));
  /* Lower than the shipped kernel: listed, never selected. */
  opr_status_free(opr_register_kernel(&(opr_kernel_def){
      .op = "AddOne", .device = OPR_DEVICE_CPU, .fn = thousandfold,
      .priority = -5, .label = "ctor_lib AddOne"}));
#ifdef CTOR_STRAY_KERNEL
  /* A kernel of an op nobody defines: refused when the load commits. */
  opr_status_free(opr_register_kernel(&(opr_kernel_def){
      .op = "NoSuchOp", .device = OPR_DEVICE_CPU, .fn = doubles,
      .label = "ctor_lib NoSuchOp"}));
#endif
}

opr_status ctor_lib_register_kernels(void) { return OPR_OK; }
