/* Loads the example op library (myops_lib.so) and runs its three ops
 * through the typed wrappers of myops_ops.h (my_bias_add, my_softmax,
 * my_concat), and MySoftmax once more by name through the generic entry,
 * opr_execute, checking every result against values computed here. Prints
 * one line per check; exits 0 when all pass.
 *
 * The host compiles ops/myops.op itself (opgen_generate in
 * ../CMakeLists.txt) for the wrappers and registers its tables with
 * my_register_ops() after loading the library (before works too): their
 * definitions are the library's, so they bind to the library's ops, and a
 * wrapper runs the library's kernels as a call by name does.
 *
 *   host [LIBRARY]   (default: the path CMake built it at) */
#include <opr/opr.h>

#include "myops_ops.h" /* the typed wrappers, attrs structs, my_register_ops */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void report(const char *what, int ok, const char *detail) {
  printf("%-44s %s%s%s\n", what, ok ? "ok" : "FAILED", detail ? ": " : "",
         detail ? detail : "");
  if (!ok) failures++;
}

/* True when the call succeeded; else reports its error. */
static int ran(const char *what, opr_status s) {
  if (!s) return 1;
  report(what, 0, opr_status_message(s));
  opr_status_free(s);
  return 0;
}

static opr_tensor *tensor(opr_dtype dt, int rank, const int64_t *dims,
                          const void *data, size_t bytes) {
  opr_tensor *t = NULL;
  opr_status s = opr_tensor_from_data(dt, rank, dims, data, bytes, &t);
  if (s) {
    fprintf(stderr, "host: %s\n", opr_status_message(s));
    exit(1);
  }
  return t;
}

/* MyBiasAdd, NCHW, on a tensor big enough for opr_shard to split. */
static void bias_add(opr_context *ctx) {
  enum { N = 4, C = 8, HW = 4096 };
  const int64_t vdims[3] = {N, C, HW}, bdims[1] = {C};
  float *x = malloc(sizeof(float) * N * C * HW), b[C];
  if (!x) exit(1);
  for (int64_t i = 0; i < N * C * HW; i++) x[i] = (float)(i % 7);
  for (int c = 0; c < C; c++) b[c] = 100.0f * (float)c;
  opr_tensor *value = tensor(OPR_DT_FLOAT, 3, vdims, x,
                             sizeof(float) * N * C * HW);
  opr_tensor *bias = tensor(OPR_DT_FLOAT, 1, bdims, b, sizeof b);
  /* The optional attrs: the spec's defaults, then the one to change. */
  my_bias_add_attrs nchw = MY_BIAS_ADD_ATTRS_DEFAULT;
  nchw.data_format = MY_BIAS_ADD_DATA_FORMAT_NCHW;
  opr_tensor *out = NULL;
  if (ran("MyBiasAdd NCHW [4, 8, 4096]",
          my_bias_add(ctx, value, bias, &nchw, &out))) {
    const float *y = out->data;
    int ok = 1;
    for (int64_t i = 0; ok && i < N * C * HW; i++)
      ok = y[i] == x[i] + b[(i / HW) % C];
    report("MyBiasAdd NCHW [4, 8, 4096]", ok, NULL);
  }
  /* The shape function refuses a bias of the wrong length (NHWC: the
   * last dim, 4096, is the channel dim). NULL attrs: all defaults. */
  opr_tensor *none = NULL;
  opr_status s = my_bias_add(ctx, value, bias, NULL, &none);
  report("MyBiasAdd NHWC, wrong bias: refused",
         opr_status_code(s) == OPR_INVALID_ARGUMENT && !none,
         opr_status_message(s));
  opr_status_free(s);
  opr_tensor_unref(none); /* NULL unless the call wrongly succeeded */
  opr_tensor_unref(out);
  opr_tensor_unref(value);
  opr_tensor_unref(bias);
  free(x);
}

/* MyBiasAdd's CUDA kernel (bias_add_gpu.cu), where the library has it
 * and this machine has a GPU. */
static void bias_add_gpu(void) {
#ifdef MYOPS_WITH_CUDA
  opr_status s = opr_device_available(OPR_DEVICE_GPU);
  if (s) {
    printf("%-44s skipped: %s\n", "MyBiasAdd on the GPU",
           opr_status_message(s));
    opr_status_free(s);
    return;
  }
  const opr_context_options options = {.device = OPR_DEVICE_GPU};
  opr_context *gpu = NULL;
  if (!ran("MyBiasAdd on the GPU", opr_context_new(&options, &gpu))) return;
  const float x[6] = {1, 2, 3, 4, 5, 6}, b[3] = {10, 20, 30};
  const float want[6] = {11, 22, 33, 14, 25, 36};
  const int64_t vdims[2] = {2, 3}, bdims[1] = {3};
  opr_tensor *value = tensor(OPR_DT_FLOAT, 2, vdims, x, sizeof x);
  opr_tensor *bias = tensor(OPR_DT_FLOAT, 1, bdims, b, sizeof b);
  opr_tensor *out = NULL;
  if (ran("MyBiasAdd on the GPU", my_bias_add(gpu, value, bias, NULL, &out)))
    report("MyBiasAdd on the GPU", memcmp(out->data, want, sizeof want) == 0,
           NULL);
  opr_tensor_unref(out);
  opr_tensor_unref(value);
  opr_tensor_unref(bias);
  opr_context_free(gpu);
#endif
}

/* True when out is softmax(x) along axis 0, x of shape [2, 3]. */
static int softmax_ok(const double *x, const opr_tensor *out) {
  const double *y = out->data;
  int ok = out->rank == 2 && out->dims[0] == 2 && out->dims[1] == 3;
  for (int j = 0; ok && j < 3; j++) {
    double e0 = exp(x[j]), e1 = exp(x[3 + j]);
    ok = fabs(y[j] - e0 / (e0 + e1)) < 1e-12 &&
         fabs(y[3 + j] - e1 / (e0 + e1)) < 1e-12;
  }
  return ok;
}

/* MySoftmax along axis 0 of a [2, 3] double tensor: through the typed
 * wrapper, then by name through opr_execute, the generic entry (inputs as
 * lists of tensors, attrs by name, outputs into an array). */
static void softmax(opr_context *ctx) {
  const double x[6] = {1, 2, 3, 1, 4, 9};
  const int64_t dims[2] = {2, 3};
  opr_tensor *logits = tensor(OPR_DT_DOUBLE, 2, dims, x, sizeof x);
  my_softmax_attrs attrs = MY_SOFTMAX_ATTRS_DEFAULT;
  attrs.axis = 0;
  opr_tensor *out = NULL;
  if (ran("MySoftmax axis=0 [2, 3]", my_softmax(ctx, logits, &attrs, &out)))
    report("MySoftmax axis=0 [2, 3]", softmax_ok(x, out), NULL);
  opr_tensor_unref(out);

  const opr_tensor *l[1] = {logits};
  const opr_input in[1] = {{l, 1}};
  opr_named_attr axis = {"axis", {OPR_ATTR_INT, false, {{NULL, 0}}}};
  axis.value.u.i = 0;
  opr_tensor *outs[1] = {NULL};
  size_t nout = 0;
  if (ran("MySoftmax axis=0 [2, 3], by name",
          opr_execute(ctx, "MySoftmax", in, 1, &axis, 1, outs, 1, &nout)))
    report("MySoftmax axis=0 [2, 3], by name",
           nout == 1 && softmax_ok(x, outs[0]), NULL);
  opr_tensor_unref(outs[0]);
  opr_tensor_unref(logits);
}

/* MyConcat of three int32 tensors along axis 1. */
static void concat(opr_context *ctx) {
  const int32_t a[2] = {1, 2}, b[4] = {3, 4, 5, 6}, c[2] = {7, 8};
  const int32_t want[8] = {1, 3, 4, 7, 2, 5, 6, 8};
  const int64_t da[2] = {2, 1}, db[2] = {2, 2};
  opr_tensor *ta = tensor(OPR_DT_INT32, 2, da, a, sizeof a);
  opr_tensor *tb = tensor(OPR_DT_INT32, 2, db, b, sizeof b);
  opr_tensor *tc = tensor(OPR_DT_INT32, 2, da, c, sizeof c);
  const opr_tensor *values[3] = {ta, tb, tc}; /* a list input: N = 3 */
  my_concat_attrs attrs = MY_CONCAT_ATTRS_DEFAULT;
  attrs.axis = 1;
  opr_tensor *out = NULL;
  if (ran("MyConcat N=3 axis=1", my_concat(ctx, values, 3, &attrs, &out)))
    report("MyConcat N=3 axis=1", out->rank == 2 && out->dims[1] == 4 &&
           memcmp(out->data, want, sizeof want) == 0, NULL);
  opr_tensor_unref(out);
  opr_tensor_unref(ta);
  opr_tensor_unref(tb);
  opr_tensor_unref(tc);
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : MYOPS_LIBRARY;
  opr_library *lib = NULL;
  opr_context *ctx = NULL;
  const opr_context_options options = {.device = OPR_DEVICE_CPU,
                                       .threads = 4};
  /* Load the library, then bind this host's tables to its ops. */
  opr_status s = opr_load_library(path, &lib);
  if (!s) s = my_register_ops();
  if (!s) s = opr_context_new(&options, &ctx);
  if (s) {
    fprintf(stderr, "host: %s\n", opr_status_message(s));
    opr_status_free(s);
    return 1;
  }
  printf("loaded op library '%s' from %s\n", opr_library_name(lib), path);
  bias_add(ctx);
  bias_add_gpu();
  softmax(ctx);
  concat(ctx);
  printf("%s\n", failures ? "some checks FAILED" : "all checks passed");
  opr_context_free(ctx);
  return failures ? 1 : 0;
}
