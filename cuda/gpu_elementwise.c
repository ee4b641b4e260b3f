/* Example (x * 2 over every number type), AddOne and AddN (every number
 * type; variant has no GPU kernel) on the GPU. */
#include "gpu.h"

#include <stdlib.h>
#include <string.h>

bool gpu_kind(opr_dtype dt, opgen_cuda_kind *kind, int64_t *lanes) {
  *lanes = 1;
  switch (dt) {
  case OPR_DT_INT8: case OPR_DT_UINT8: case OPR_DT_QINT8:
  case OPR_DT_QUINT8: *kind = OPGEN_CUDA_U8; return true;
  case OPR_DT_INT16: case OPR_DT_UINT16: case OPR_DT_QINT16:
  case OPR_DT_QUINT16: *kind = OPGEN_CUDA_U16; return true;
  case OPR_DT_INT32: case OPR_DT_UINT32: case OPR_DT_QINT32:
    *kind = OPGEN_CUDA_U32; return true;
  case OPR_DT_INT64: case OPR_DT_UINT64: *kind = OPGEN_CUDA_U64; return true;
  case OPR_DT_HALF: *kind = OPGEN_CUDA_F16; return true;
  case OPR_DT_BFLOAT16: *kind = OPGEN_CUDA_BF16; return true;
  case OPR_DT_FLOAT: *kind = OPGEN_CUDA_F32; return true;
  case OPR_DT_DOUBLE: *kind = OPGEN_CUDA_F64; return true;
  case OPR_DT_COMPLEX64: *kind = OPGEN_CUDA_F32; *lanes = 2; return true;
  case OPR_DT_COMPLEX128: *kind = OPGEN_CUDA_F64; *lanes = 2; return true;
  default: return false;
  }
}

opr_status gpu_bad_type(const opr_kernel_ctx *k, opr_dtype dt) {
  return opr_error(OPR_UNIMPLEMENTED, "%s: the GPU kernel has no code for "
                   "type %s", k->call->op->name, opr_dtype_name(dt));
}

opr_status gpu_launched(const opr_kernel_ctx *k, int err) {
  if (!err) return OPR_OK;
  return opr_error(OPR_INTERNAL, "%s: the GPU kernel could not start: %s",
                   k->call->op->name, opgen_cuda_error_string(err));
}

static opr_status example_gpu(opr_kernel_ctx *k) {
  const opr_tensor *in = demo_example_input_input(k);
  opgen_cuda_kind kind;
  int64_t lanes;
  if (!gpu_kind(in->dtype, &kind, &lanes)) return gpu_bad_type(k, in->dtype);
  opr_tensor *out;
  opr_status s = demo_example_alloc_input_times_two(k, in->rank, in->dims,
                                                    &out);
  if (s) return s;
  return gpu_launched(k, opgen_cuda_times_two(kind, in->data, out->data,
                                              in->num_elements * lanes));
}

static opr_status add_one_gpu(opr_kernel_ctx *k) {
  const opr_tensor *in = demo_add_one_input_input(k);
  opr_tensor *out;
  opr_status s = demo_add_one_alloc_output(k, in->rank, in->dims, &out);
  if (s) return s;
  return gpu_launched(k, opgen_cuda_add_one_int32(in->data, out->data,
                                                  in->num_elements));
}

/* INVALID_ARGUMENT naming inputs 0 and i when their shapes differ. */
static opr_status add_n_shapes(const opr_kernel_ctx *k, size_t n) {
  const opr_tensor *a = demo_add_n_input_inputs(k, 0);
  for (size_t i = 1; i < n; i++) {
    const opr_tensor *b = demo_add_n_input_inputs(k, i);
    if (b->rank == a->rank &&
        (a->rank == 0 ||
         memcmp(a->dims, b->dims, (size_t)a->rank * sizeof *a->dims) == 0))
      continue;
    char sa[128], sb[128];
    return opr_error(OPR_INVALID_ARGUMENT, "%s: all inputs must have the "
                     "same shape; inputs[0] has shape %s and inputs[%zu] "
                     "has shape %s", k->call->op->name,
                     opr_shape_text(a->rank, a->dims, sa, sizeof sa), i,
                     opr_shape_text(b->rank, b->dims, sb, sizeof sb));
  }
  return OPR_OK;
}

static opr_status add_n_gpu(opr_kernel_ctx *k) {
  size_t n = demo_add_n_input_inputs_count(k);
  const opr_tensor *first = demo_add_n_input_inputs(k, 0);
  opgen_cuda_kind kind;
  int64_t lanes;
  if (!gpu_kind(first->dtype, &kind, &lanes))
    return gpu_bad_type(k, first->dtype);
  opr_status s = add_n_shapes(k, n);
  opr_tensor *out;
  if (!s) s = demo_add_n_alloc_sum(k, first->rank, first->dims, &out);
  if (s) return s;
  const void **ptrs = malloc(n * sizeof *ptrs);
  if (!ptrs)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory",
                     k->call->op->name);
  for (size_t i = 0; i < n; i++) ptrs[i] = demo_add_n_input_inputs(k, i)->data;
  s = gpu_launched(k, opgen_cuda_add_n(kind, ptrs, n, out->data,
                                       first->num_elements * lanes));
  free(ptrs);
  return s;
}

opr_status gpu_register_elementwise(void) {
  opr_status s = demo_example_register_kernel(&(demo_example_kernel_def){
      .fn = example_gpu, .device = OPR_DEVICE_GPU,
      .T = 0 DEMO_EXAMPLE_T_TYPES(GPU_TYPE_BIT), .label = "CUDA x * 2"});
  if (!s)
    s = demo_add_one_register_kernel(&(demo_add_one_kernel_def){
        .fn = add_one_gpu, .device = OPR_DEVICE_GPU, .label = "CUDA"});
  if (!s)
    s = demo_add_n_register_kernel(&(demo_add_n_kernel_def){
        .fn = add_n_gpu, .device = OPR_DEVICE_GPU,
        .T = (0 DEMO_ADD_N_T_TYPES(GPU_TYPE_BIT)) &
             ~OPR_DTYPE_BIT(OPR_DT_VARIANT),
        .label = "CUDA"});
  return s;
}
