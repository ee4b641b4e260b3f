// Kernels written in C++ against the generated kernel header: templates
// instantiated once per type through the <OP>_T_TYPES X-macros, typed
// attr and input accessors, registration through the generated
// <op>_register_kernel functions.
#include "kernels.hpp"

#include "cxx_kernels.h"

namespace {

template <typename T>
opr_status affine(opr_kernel_ctx *k) {
  const opr_tensor *x = cxx_affine_input_x(k);
  opr_tensor *y = nullptr;
  opr_status s = cxx_affine_alloc_y(k, x->rank, x->dims, &y);
  if (s) return s;
  const double factor = cxx_affine_attr_factor(k);
  const double offset = static_cast<double>(cxx_affine_attr_offset(k));
  const bool shift = cxx_affine_attr_mode(k) == CXX_AFFINE_MODE_SHIFT;
  const T *in = static_cast<const T *>(x->data);
  T *out = static_cast<T *>(y->data);
  for (int64_t i = 0; i < x->num_elements; i++) {
    const double v = static_cast<double>(in[i]);
    out[i] = static_cast<T>((shift ? v : v * factor) + offset);
  }
  return OPR_OK;
}

template <typename T>
opr_status weighted_sum(opr_kernel_ctx *k) {
  const size_t n = cxx_weighted_sum_input_xs_count(k);
  if (cxx_weighted_sum_attr_weights_count(k) != n)
    return opr_error(OPR_INVALID_ARGUMENT,
                     "WeightedSum: %zu weights for %zu inputs",
                     cxx_weighted_sum_attr_weights_count(k), n);
  const float *w = cxx_weighted_sum_attr_weights(k);
  double scale = 1;
  for (size_t i = 0; i < cxx_weighted_sum_attr_scale_count(k); i++)
    scale *= static_cast<double>(cxx_weighted_sum_attr_scale(k)[i]);
  const opr_tensor *first = cxx_weighted_sum_input_xs(k, 0);
  opr_tensor *sum = nullptr;
  opr_status s = cxx_weighted_sum_alloc_sum(k, first->rank, first->dims, &sum);
  if (s) return s;
  T *out = static_cast<T *>(sum->data);
  for (int64_t e = 0; e < first->num_elements; e++) {
    double acc = 0;
    for (size_t i = 0; i < n; i++)
      acc += static_cast<double>(w[i]) *
             static_cast<double>(
                 static_cast<const T *>(cxx_weighted_sum_input_xs(k, i)->data)[e]);
    out[e] = static_cast<T>(acc * scale);
  }
  return OPR_OK;
}

}  // namespace

opr_status cxx_test_register_kernels() {
  opr_status s = OPR_OK;
#define CXX_TEST_AFFINE(ID, CT)                       \
  if (!s) {                                           \
    cxx_affine_kernel_def kernel = {};                    \
    kernel.fn = affine<CT>;                           \
    kernel.device = OPR_DEVICE_CPU;                   \
    kernel.T = OPR_DTYPE_BIT(OPR_DT_##ID);            \
    kernel.label = "C++ " #ID;                        \
    s = cxx_affine_register_kernel(&kernel);          \
  }
  CXX_AFFINE_T_TYPES(CXX_TEST_AFFINE)
#undef CXX_TEST_AFFINE
#define CXX_TEST_WEIGHTED_SUM(ID, CT)                 \
  if (!s) {                                           \
    cxx_weighted_sum_kernel_def kernel = {};              \
    kernel.fn = weighted_sum<CT>;                     \
    kernel.device = OPR_DEVICE_CPU;                   \
    kernel.T = OPR_DTYPE_BIT(OPR_DT_##ID);            \
    kernel.label = "C++ " #ID;                        \
    s = cxx_weighted_sum_register_kernel(&kernel);    \
  }
  CXX_WEIGHTED_SUM_T_TYPES(CXX_TEST_WEIGHTED_SUM)
#undef CXX_TEST_WEIGHTED_SUM
  return s;
}
