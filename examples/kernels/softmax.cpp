// MySoftmax on the CPU, written in C++: the generated headers are
// C++17-clean, so a kernel can be a template instantiated once per type
// of T through the generated MY_SOFTMAX_T_TYPES X-macro.
#include "kernels.h"
#include "myops_kernels.h"

#include <cmath>
#include <cstdint>

namespace {

// The tensor seen as [outer, n, inner] around the axis.
struct Layout {
  int64_t outer = 1, n = 1, inner = 1;
};

template <typename T>
void softmax(const T *x, T *y, const Layout &l) {
  for (int64_t o = 0; o < l.outer; o++) {
    for (int64_t i = 0; i < l.inner; i++) {
      const int64_t base = o * l.n * l.inner + i;
      T max = x[base];
      for (int64_t j = 1; j < l.n; j++)
        if (x[base + j * l.inner] > max) max = x[base + j * l.inner];
      T sum = 0;
      for (int64_t j = 0; j < l.n; j++) {
        const int64_t e = base + j * l.inner;
        y[e] = std::exp(x[e] - max);  // minus the max: no overflow
        sum += y[e];
      }
      for (int64_t j = 0; j < l.n; j++) y[base + j * l.inner] /= sum;
    }
  }
}

opr_status softmax_kernel(opr_kernel_ctx *k) {
  const opr_tensor *logits = my_softmax_input_logits(k);
  const int64_t rank = logits->rank;
  int64_t axis = my_softmax_attr_axis(k);
  // A rule the spec cannot state: say which op, attr and rule failed.
  if (axis < -rank || axis >= rank)
    return opr_error(OPR_INVALID_ARGUMENT,
                     "MySoftmax: attr 'axis' (%lld) must be in [%lld, %lld) "
                     "for 'logits' of rank %lld",
                     (long long)axis, (long long)-rank, (long long)rank,
                     (long long)rank);
  if (axis < 0) axis += rank;
  Layout l;
  for (int64_t d = 0; d < rank; d++) {
    if (d < axis) l.outer *= logits->dims[d];
    else if (d == axis) l.n = logits->dims[d];
    else l.inner *= logits->dims[d];
  }
  opr_tensor *out = nullptr;
  opr_status s = my_softmax_alloc_softmax(k, logits->rank, logits->dims,
                                          &out);
  if (s || logits->num_elements == 0) return s;
  switch (my_softmax_attr_T(k)) {
#define SOFTMAX_CASE(ID, CTYPE)                                     \
  case OPR_DT_##ID:                                                 \
    softmax(static_cast<const CTYPE *>(logits->data),               \
            static_cast<CTYPE *>(out->data), l);                    \
    return OPR_OK;
    MY_SOFTMAX_T_TYPES(SOFTMAX_CASE)
#undef SOFTMAX_CASE
    default:
      return opr_error(OPR_UNIMPLEMENTED, "MySoftmax: no CPU body for %s",
                       opr_dtype_name(my_softmax_attr_T(k)));
  }
}

}  // namespace

opr_status register_softmax(void) {
  my_softmax_kernel_def kernel = {};
  kernel.fn = softmax_kernel;
  kernel.device = OPR_DEVICE_CPU;
  kernel.label = "cpu (C++)";
  return my_softmax_register_kernel(&kernel);
}
