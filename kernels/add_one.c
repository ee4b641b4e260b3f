/* AddOne: x + 1 on int32 (wrapping at INT32_MAX, as TensorFlow's). */
#include "kernels.h"

typedef struct add_one_args {
  const int32_t *in;
  int32_t *out;
} add_one_args;

static void add_one_block(void *arg, int64_t begin, int64_t end) {
  const add_one_args *a = arg;
  const int32_t *restrict in = a->in;
  int32_t *restrict out = a->out;
  for (int64_t i = begin; i < end; i++)
    out[i] = (int32_t)((uint32_t)in[i] + 1u);
}

static opr_status add_one(opr_kernel_ctx *k) {
  const opr_tensor *in = demo_add_one_input_input(k);
  opr_tensor *out;
  opr_status s = demo_add_one_alloc_output(k, in->rank, in->dims, &out);
  if (s) return s;
  add_one_args a = {in->data, out->data};
  kern_for(k, in->num_elements, 2 * sizeof(int32_t), add_one_block, &a);
  return OPR_OK;
}

opr_status kern_register_add_one(void) {
  return demo_add_one_register_kernel(&(demo_add_one_kernel_def){
      .fn = add_one, .device = OPR_DEVICE_CPU, .label = "CPU x + 1"});
}
