/* Pad on the GPU, every T and Tpaddings: the paddings stay in host
 * memory (registered host_memory), so the plan (output dims, where each
 * dimension starts) is made and checked here and passed to the kernel by
 * value. Ranks up to OPGEN_CUDA_PAD_MAX_RANK. */
#include "gpu.h"

#include <inttypes.h>
#include <string.h>

static const char *const mode_names[] = {"CONSTANT", "REFLECT", "SYMMETRIC"};

static int64_t padding(const opr_tensor *paddings, int64_t i) {
  if (paddings->dtype == OPR_DT_INT64)
    return ((const int64_t *)paddings->data)[i];
  return ((const int32_t *)paddings->data)[i];
}

/* Checks dimension d's paddings against the mode; sets the plan's dims. */
static opr_status plan_dim(const opr_kernel_ctx *k, opgen_cuda_pad_plan *p,
                           int d) {
  const char *op = k->call->op->name;
  const opr_tensor *pads = demo_pad_input_paddings(k);
  int64_t lo = padding(pads, 2 * d), hi = padding(pads, 2 * d + 1);
  int64_t n = p->in_dims[d];
  if (lo < 0 || hi < 0)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: paddings of dimension %d "
                     "are (%" PRId64 ", %" PRId64 "); they must be >= 0", op,
                     d, lo, hi);
  int64_t limit = p->mode == OPGEN_CUDA_PAD_REFLECT ? n - 1 : n;
  if (p->mode != OPGEN_CUDA_PAD_CONSTANT && (lo > limit || hi > limit))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: %s paddings of dimension %d "
                     "are (%" PRId64 ", %" PRId64 "); each must be %s the "
                     "dimension's size %" PRId64, op, mode_names[p->mode], d,
                     lo, hi, p->mode == OPGEN_CUDA_PAD_REFLECT ? "less than"
                                                               : "at most",
                     n);
  if (lo > INT64_MAX - n || hi > INT64_MAX - n - lo)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: paddings of dimension %d "
                     "(%" PRId64 ", %" PRId64 ") overflow its size", op, d,
                     lo, hi);
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
  return demo_pad_register_kernel(&(demo_pad_kernel){
      .fn = pad_gpu, .device = OPR_DEVICE_GPU,
      .T = 0 DEMO_PAD_T_TYPES(GPU_TYPE_BIT),
      .host_memory = {.paddings = true}, .label = "CUDA"});
}
