// A C++ program calling generated ops through their typed wrappers, with
// kernels written in C++ (kernels.cpp): the values, the generated checks'
// errors and the kernels' errors come back as C callers see them. Prints
// each check; exits 1 if any failed.
#include "cxx_ops.h"
#include "kernels.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const std::string &what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  if (!ok) failures++;
}

// Takes the status: OK, or the error's code and text.
bool expect_status(opr_status s, opr_code code, const char *message) {
  bool ok = opr_status_code(s) == code &&
            std::strcmp(opr_status_message(s), message) == 0;
  if (!ok)
    std::printf("  got %s: %s\n", opr_code_name(opr_status_code(s)),
                opr_status_message(s));
  opr_status_free(s);
  return ok;
}

template <typename T>
opr_tensor *tensor(opr_dtype dtype, const std::vector<T> &values) {
  const int64_t dims[1] = {static_cast<int64_t>(values.size())};
  opr_tensor *t = nullptr;
  opr_status s = opr_tensor_from_data(dtype, 1, dims, values.data(),
                                      values.size() * sizeof(T), &t);
  if (s) {
    std::printf("FAILED: tensor: %s\n", opr_status_message(s));
    opr_status_free(s);
    return nullptr;
  }
  return t;
}

// Takes the tensor: true when it holds exactly `want`.
template <typename T>
bool holds(opr_tensor *t, opr_dtype dtype, const std::vector<T> &want) {
  bool ok = t && t->dtype == dtype && t->rank == 1 &&
            t->num_elements == static_cast<int64_t>(want.size()) &&
            std::memcmp(t->data, want.data(), want.size() * sizeof(T)) == 0;
  opr_tensor_unref(t);
  return ok;
}

void affine_calls(opr_context *ctx) {
  opr_tensor *x = tensor<float>(OPR_DT_FLOAT, {1.0f, 2.5f, -3.0f});
  opr_tensor *y = nullptr;
  check(expect_status(cxx_affine(ctx, x, nullptr, &y), OPR_CODE_OK, "") &&
            holds<float>(y, OPR_DT_FLOAT, {3.0f, 6.0f, -5.0f}),
        "Affine, float, default attrs: x * 2 + 1");

  cxx_affine_attrs attrs = CXX_AFFINE_ATTRS_DEFAULT;
  check(attrs.factor == 2.0f && attrs.offset == 1 &&
            attrs.mode == CXX_AFFINE_MODE_AFFINE,
        "CXX_AFFINE_ATTRS_DEFAULT holds the spec's defaults");
  attrs.mode = CXX_AFFINE_MODE_SHIFT;
  attrs.offset = 10;
  opr_tensor *i = tensor<int32_t>(OPR_DT_INT32, {1, 2, -3});
  y = nullptr;
  check(expect_status(cxx_affine(ctx, i, &attrs, &y), OPR_CODE_OK, "") &&
            holds<int32_t>(y, OPR_DT_INT32, {11, 12, 7}),
        "Affine, int32, mode 'shift', offset 10: x + 10");

  attrs = CXX_AFFINE_ATTRS_DEFAULT;
  attrs.factor = 0.5f;
  opr_tensor *d = tensor<double>(OPR_DT_DOUBLE, {4.0, -1.0});
  y = nullptr;
  check(expect_status(cxx_affine(ctx, d, &attrs, &y), OPR_CODE_OK, "") &&
            holds<double>(y, OPR_DT_DOUBLE, {3.0, 0.5}),
        "Affine, double, factor 0.5: x * 0.5 + 1");

  opr_tensor *b = tensor<uint8_t>(OPR_DT_BOOL, {1});
  y = nullptr;
  check(expect_status(cxx_affine(ctx, b, nullptr, &y), OPR_INVALID_ARGUMENT,
                      "Affine: input 'x' has type bool; attr T must be one "
                      "of {float, double, int32}") &&
            y == nullptr,
        "Affine on a bool tensor: the generated check refuses it");
  opr_tensor_unref(x);
  opr_tensor_unref(i);
  opr_tensor_unref(d);
  opr_tensor_unref(b);
}

void weighted_sum_calls(opr_context *ctx) {
  opr_tensor *a = tensor<float>(OPR_DT_FLOAT, {1.0f, 2.0f});
  opr_tensor *b = tensor<float>(OPR_DT_FLOAT, {10.0f, 20.0f});
  const opr_tensor *const xs[2] = {a, b};
  const float weights[2] = {0.5f, 2.0f};
  opr_tensor *sum = nullptr;
  check(expect_status(cxx_weighted_sum(ctx, xs, 2, weights, 2, nullptr, &sum),
                      OPR_CODE_OK, "") &&
            holds<float>(sum, OPR_DT_FLOAT, {20.5f, 41.0f}),
        "WeightedSum, float: 0.5 * a + 2 * b");

  sum = nullptr;
  check(expect_status(cxx_weighted_sum(ctx, xs, 2, weights, 1, nullptr, &sum),
                      OPR_INVALID_ARGUMENT,
                      "WeightedSum: 1 weights for 2 inputs") &&
            sum == nullptr,
        "WeightedSum with too few weights: the C++ kernel's error");

  opr_tensor *c = tensor<int64_t>(OPR_DT_INT64, {1, 2, 3});
  const opr_tensor *const one[1] = {c};
  const int64_t scale[2] = {2, 3};
  cxx_weighted_sum_attrs attrs = CXX_WEIGHTED_SUM_ATTRS_DEFAULT;
  check(attrs.scale_count == 1 && attrs.scale[0] == 1,
        "CXX_WEIGHTED_SUM_ATTRS_DEFAULT holds scale [1]");
  attrs.scale = scale;
  attrs.scale_count = 2;
  sum = nullptr;
  check(expect_status(cxx_weighted_sum(ctx, one, 1, weights + 1, 1, &attrs,
                                       &sum),
                      OPR_CODE_OK, "") &&
            holds<int64_t>(sum, OPR_DT_INT64, {12, 24, 36}),
        "WeightedSum, int64, scale [2, 3]: 2 * c * 6");
  opr_tensor_unref(a);
  opr_tensor_unref(b);
  opr_tensor_unref(c);
}

void kernels_listed() {
  const opr_kernel_def *defs[4] = {};
  size_t n = opr_list_kernels(&cxx_affine_def, defs, 4);
  bool ok = n == 3;
  for (size_t i = 0; ok && i < n; i++)
    ok = std::strncmp(defs[i]->label, "C++ ", 4) == 0 &&
         defs[i]->nconstraints == 1 &&
         std::strcmp(defs[i]->constraints[0].attr, "T") == 0;
  check(ok, "Affine has the 3 C++ kernels, each constrained on T");
}

}  // namespace

int main() {
  opr_status s = cxx_register_ops();
  if (!s) s = cxx_test_register_kernels();
  opr_context *ctx = nullptr;
  if (!s) s = opr_context_new(nullptr, &ctx);
  if (s) {
    std::printf("FAILED: setup: %s\n", opr_status_message(s));
    opr_status_free(s);
    return 1;
  }
  affine_calls(ctx);
  weighted_sum_calls(ctx);
  kernels_listed();
  opr_context_free(ctx);
  return failures ? 1 : 0;
}
