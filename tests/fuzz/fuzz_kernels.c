/* CPU kernels of the fuzz-only ops (fuzz_ops.op), registered by
 * fuzz_kernels_register. FuzzLists fills every output with zeros, shaped
 * as its shape function says (a: the input's shape, b and c: scalars);
 * FuzzEcho copies each input. */
#include "fuzz_kernels.h"

#include "fuzz_ops_ops.h"

#include <string.h>

/* Allocates output `arg` element `j` as [rank, dims], zero-filled (a new
 * string tensor is already empty). */
static opr_status zeros(opr_kernel_ctx *k, size_t arg, size_t j, int rank,
                        const int64_t *dims) {
  opr_tensor *t;
  opr_status s = opr_kernel_alloc_output(k, arg, j, rank, dims, &t);
  if (s) return s;
  if (t->dtype != OPR_DT_STRING && t->nbytes) memset(t->data, 0, t->nbytes);
  return OPR_OK;
}

static opr_status fuzz_lists(opr_kernel_ctx *k) {
  const opr_call *call = k->call;
  const opr_tensor *x = call->inputs[0].tensors[0];
  opr_status s = OPR_OK;
  for (size_t j = 0; !s && j < opr_output_count(call, 0); j++)
    s = zeros(k, 0, j, x->rank, x->dims);
  for (size_t o = 1; o < 3; o++)
    for (size_t j = 0; !s && j < opr_output_count(call, o); j++)
      s = zeros(k, o, j, 0, NULL);
  return s;
}

static opr_status fuzz_echo(opr_kernel_ctx *k) {
  const opr_input *in = &k->call->inputs[0];
  opr_status s = OPR_OK;
  for (size_t j = 0; !s && j < opr_output_count(k->call, 0); j++) {
    const opr_tensor *x = in->tensors[j];
    opr_tensor *t;
    s = opr_kernel_alloc_output(k, 0, j, x->rank, x->dims, &t);
    if (s) break;
    if (x->dtype != OPR_DT_STRING) {
      if (x->nbytes) memcpy(t->data, x->data, x->nbytes);
      continue;
    }
    const opr_string *src = x->data;
    for (int64_t i = 0; !s && i < x->num_elements; i++)
      s = opr_tensor_set_string(t, i, src[i].data, src[i].len);
  }
  return s;
}

opr_status fuzz_kernels_register(void) {
  opr_status s = fuzz_ops_register_ops();
  if (!s)
    s = opr_register_kernel(&(opr_kernel_def){
        .op = "FuzzLists", .device = OPR_DEVICE_CPU, .fn = fuzz_lists});
  if (!s)
    s = opr_register_kernel(&(opr_kernel_def){
        .op = "FuzzEcho", .device = OPR_DEVICE_CPU, .fn = fuzz_echo});
  return s;
}
