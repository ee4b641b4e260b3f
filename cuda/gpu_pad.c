/* Pad on the GPU, every T and Tpaddings: the paddings stay in host
 * memory (registered host_memory), so the plan (output dims, where each
 * dimension starts) is made and checked here and passed to the kernel by
 * value. Ranks up to OPGEN_CUDA_PAD_MAX_RANK. */
#include "gpu.h"
#include "pad_check.h"

#include <string.h>

_Static_assert((int)OPGEN_CUDA_PAD_REFLECT == (int)DEMO_PAD_MODE_REFLECT &&
                   (int)OPGEN_CUDA_PAD_SYMMETRIC == (int)DEMO_PAD_MODE_SYMMETRIC,
               "the GPU plan numbers Pad's modes as the op does");

/* Checks dimension d's paddings against the mode; sets the plan's dims. */
static opr_status plan_dim(const opr_kernel_ctx *k, opgen_cuda_pad_plan *p,
                           int d) {
  const opr_tensor *pads = demo_pad_input_paddings(k);
  int64_t lo = pad_check_amount(pads, 2 * d);
  int64_t hi = pad_check_amount(pads, 2 * d + 1), n = p->in_dims[d];
  char why[256];
  if (!pad_check_dim((demo_pad_mode)p->mode, d, lo, hi, n, why, sizeof why))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: %s", k->call->op->name, why);
  p->before[d] = lo;
  p->out_dims[d] = lo + n + hi;
  return OPR_OK;
}

static opr_status plan_init(const opr_kernel_ctx *k, opgen_cuda_pad_plan *p) {
  const opr_tensor *in = demo_pad_input_input(k);
  const opr_tensor *pads = demo_pad_input_paddings(k);
  const char *op = k->call->op->name;
  if (pads->rank != 2 || pads->dims[0] != in->rank || pads->dims[1] != 2) {
    char got[128];
    return opr_error(OPR_INVALID_ARGUMENT, "%s: paddings must have shape "
                     "[%d, 2] for an input of rank %d; got %s", op, in->rank,
                     in->rank, opr_shape_text(pads->rank, pads->dims, got,
                                              sizeof got));
  }
  if (in->rank > OPGEN_CUDA_PAD_MAX_RANK)
    return opr_error(OPR_UNIMPLEMENTED, "%s: the GPU kernel pads tensors of "
                     "rank up to %d; this one has rank %d", op,
                     (int)OPGEN_CUDA_PAD_MAX_RANK, in->rank);
  static const opgen_cuda_pad_mode modes[] = {
      [DEMO_PAD_MODE_CONSTANT] = OPGEN_CUDA_PAD_CONSTANT,
      [DEMO_PAD_MODE_REFLECT] = OPGEN_CUDA_PAD_REFLECT,
      [DEMO_PAD_MODE_SYMMETRIC] = OPGEN_CUDA_PAD_SYMMETRIC,
  };
  memset(p, 0, sizeof *p);
  p->rank = in->rank;
  p->mode = modes[demo_pad_attr_mode(k)];
  opr_status s = OPR_OK;
  for (int d = 0; d < p->rank && !s; d++) {
    p->in_dims[d] = in->dims[d];
    s = plan_dim(k, p, d);
  }
  return s;
}

static opr_status pad_gpu(opr_kernel_ctx *k) {
  const opr_tensor *in = demo_pad_input_input(k);
  opgen_cuda_pad_plan plan;
  opr_status s = plan_init(k, &plan);
  opr_tensor *out;
  if (!s) s = demo_pad_alloc_output(k, plan.rank, plan.out_dims, &out);
  if (s) return s;
  return gpu_launched(k, opgen_cuda_pad(opr_dtype_size(in->dtype), in->data,
                                        out->data, out->num_elements,
                                        &plan));
}

opr_status gpu_register_pad(void) {
  return demo_pad_register_kernel(&(demo_pad_kernel_def){
      .fn = pad_gpu, .device = OPR_DEVICE_GPU,
      .T = 0 DEMO_PAD_T_TYPES(GPU_TYPE_BIT),
      .host_memory = {.paddings = true}, .label = "CUDA"});
}
