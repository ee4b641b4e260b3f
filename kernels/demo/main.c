/* opgen_demo: the shipped ops run on the CPU through their generated
 * wrappers, the registries summed up (listed with --list), an op library
 * loaded, and the errors bad calls get. The quick start (setup.sh) runs
 * it. */
#include "demo_ops.h"
#include "opr/parallel.h"
#include "shipped.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- printing tensors ---- */

static void print_element(const opr_tensor *t, int64_t i) {
  switch (t->dtype) {
  case OPR_DT_FLOAT: printf("%g", ((const float *)t->data)[i]); break;
  case OPR_DT_DOUBLE: printf("%g", ((const double *)t->data)[i]); break;
  case OPR_DT_INT32:
    printf("%" PRId32, ((const int32_t *)t->data)[i]);
    break;
  case OPR_DT_COMPLEX64: {
    opr_complex64 c = ((const opr_complex64 *)t->data)[i];
    printf("%g%+gi", c.re, c.im);
    break;
  }
  case OPR_DT_STRING: {
    const opr_string *s = (const opr_string *)t->data + i;
    printf("\"%.*s\"", (int)s->len, s->data);
    break;
  }
  default: printf("?"); break;
  }
}

/* Nested brackets, dimension d onwards, from flat element *next. */
static void print_dims(const opr_tensor *t, int d, int64_t *next) {
  if (d == t->rank) {
    print_element(t, (*next)++);
    return;
  }
  /* A matrix of more than two rows gets one row per line, aligned under
   * the first. */
  bool rows = t->rank == 2 && d == 0 && t->dims[0] > 2;
  printf("[");
  for (int64_t i = 0; i < t->dims[d]; i++) {
    if (i) printf(rows ? ",\n%52s" : ", ", "");
    print_dims(t, d + 1, next);
  }
  printf("]");
}

static void print_tensor(const opr_tensor *t) {
  int64_t next = 0;
  print_dims(t, 0, &next);
}

/* "what = result", or the status; frees the status, drops *out. (out is
 * a pointer: the call that fills it is an argument beside it.) */
static bool show(const char *what, opr_status s, opr_tensor **out) {
  printf("  %-46s = ", what);
  if (s) {
    printf("%s: %s\n", opr_code_name(opr_status_code(s)),
           opr_status_message(s));
    opr_status_free(s);
    return false;
  }
  print_tensor(*out);
  printf("\n");
  opr_tensor_unref(*out);
  *out = NULL;
  return true;
}

/* The status a call should fail with; true when it did fail. */
static bool show_error(const char *what, opr_status s, opr_tensor **out) {
  printf("  %s\n    -> ", what);
  if (!s) {
    printf("unexpectedly succeeded\n");
    opr_tensor_unref(*out);
    *out = NULL;
    return false;
  }
  printf("%s: %s\n", opr_code_name(opr_status_code(s)),
         opr_status_message(s));
  opr_status_free(s);
  return true;
}

static opr_tensor *tensor(opr_dtype dt, int rank, const int64_t *dims,
                          const void *data, size_t nbytes) {
  opr_tensor *t = NULL;
  opr_status s = opr_tensor_from_data(dt, rank, dims, data, nbytes, &t);
  if (s) {
    fprintf(stderr, "opgen_demo: %s\n", opr_status_message(s));
    opr_status_free(s);
    exit(1);
  }
  return t;
}

static opr_tensor *strings(int64_t n, const char *const *strs) {
  opr_tensor *t = NULL;
  opr_status s = opr_tensor_from_strings(1, &n, strs, NULL, &t);
  if (s) {
    fprintf(stderr, "opgen_demo: %s\n", opr_status_message(s));
    opr_status_free(s);
    exit(1);
  }
  return t;
}

/* ---- the ops ---- */

static bool run_zero_out(opr_context *ctx) {
  static const int32_t v[] = {1, 2, 3, 4};
  static const int64_t dims[] = {2, 2};
  opr_tensor *in = tensor(OPR_DT_INT32, 2, dims, v, sizeof v), *out = NULL;
  printf("ZeroOut of [[1, 2], [3, 4]]:\n");
  bool ok = show("ZeroOut(x)", demo_zero_out(ctx, in, NULL, &out), &out);
  demo_zero_out_attrs attrs = {.preserve_index = 3};
  ok &= show("ZeroOut(x, preserve_index=3)",
             demo_zero_out(ctx, in, &attrs, &out), &out);
  ok &= show("ZeroOutInt32(x)", demo_zero_out_int32(ctx, in, &out), &out);
  opr_tensor_unref(in);
  return ok;
}

static bool run_example(opr_context *ctx) {
  static const float f[] = {1.5f, -2.0f, 3.0f};
  static const opr_complex64 c[] = {{1, 2}, {-0.5f, 4}};
  int64_t n = 3, m = 2;
  opr_tensor *x = tensor(OPR_DT_FLOAT, 1, &n, f, sizeof f);
  opr_tensor *z = tensor(OPR_DT_COMPLEX64, 1, &m, c, sizeof c), *out = NULL;
  printf("Example (x * 2):\n");
  bool ok = show("Example([1.5, -2, 3])", demo_example(ctx, x, &out), &out);
  ok &= show("Example([1+2i, -0.5+4i])", demo_example(ctx, z, &out), &out);
  opr_tensor_unref(x);
  opr_tensor_unref(z);
  return ok;
}

static bool run_add_n(opr_context *ctx) {
  static const int32_t a[] = {1, 2, 3}, b[] = {10, 20, 30},
                       c[] = {100, 200, 300};
  int64_t n = 3;
  const opr_tensor *in[3] = {tensor(OPR_DT_INT32, 1, &n, a, sizeof a),
                             tensor(OPR_DT_INT32, 1, &n, b, sizeof b),
                             tensor(OPR_DT_INT32, 1, &n, c, sizeof c)};
  opr_tensor *out = NULL;
  printf("AddN:\n");
  bool ok = show("AddN([1, 2, 3], [10, 20, 30], [100, 200, 300])",
                 demo_add_n(ctx, in, 3, &out), &out);
  for (int i = 0; i < 3; i++) opr_tensor_unref((opr_tensor *)in[i]);
  return ok;
}

static bool run_pad(opr_context *ctx) {
  static const int32_t v[] = {1, 2, 3, 4, 5, 6};
  static const int32_t p[] = {0, 0, 2, 2};
  static const int64_t dims[] = {2, 3}, pdims[] = {2, 2};
  opr_tensor *in = tensor(OPR_DT_INT32, 2, dims, v, sizeof v);
  opr_tensor *pads = tensor(OPR_DT_INT32, 2, pdims, p, sizeof p);
  static const char *const names[] = {"CONSTANT", "REFLECT", "SYMMETRIC"};
  printf("Pad of [[1, 2, 3], [4, 5, 6]] by [[0, 0], [2, 2]]:\n");
  bool ok = true;
  for (int m = 0; m < 3; m++) {
    demo_pad_attrs attrs = {.mode = (demo_pad_mode)m};
    opr_tensor *out = NULL;
    char what[64];
    snprintf(what, sizeof what, "Pad(mode=%s)", names[m]);
    ok &= show(what, demo_pad(ctx, in, pads, &attrs, &out), &out);
  }
  opr_tensor_unref(in);
  opr_tensor_unref(pads);
  return ok;
}

static bool run_string_to_number(opr_context *ctx) {
  static const char *const f[] = {"3.25", " -1e3 ", "0x10", "inf"};
  static const char *const i[] = {"42", "-7", "+2147483647"};
  opr_tensor *fs = strings(4, f), *is = strings(3, i), *out = NULL;
  printf("StringToNumber:\n");
  bool ok = show("StringToNumber([\"3.25\", \" -1e3 \", \"0x10\", \"inf\"])",
                 demo_string_to_number(ctx, fs, NULL, &out), &out);
  demo_string_to_number_attrs attrs = {.out_type = OPR_DT_INT32};
  ok &= show("StringToNumber(..., out_type=int32)",
             demo_string_to_number(ctx, is, &attrs, &out), &out);
  opr_tensor_unref(fs);
  opr_tensor_unref(is);
  return ok;
}

/* ---- the registries ---- */

/* "CPU x17 T={float, ...}": one line per device with the union of each
 * type constraint. */
static void print_kernels(const opr_op_def *op) {
  const opr_kernel_def *k[256];
  size_t n = opr_list_kernels(op, k, 256);
  if (n > 256) n = 256;
  if (n == 0) printf(" no kernel");
  for (int dev = OPR_DEVICE_CPU; dev <= OPR_DEVICE_GPU; dev++) {
    size_t count = 0;
    opr_dtype_set sets[8] = {0};
    const char *attrs[8] = {0};
    for (size_t i = 0; i < n; i++) {
      if ((int)k[i]->device != dev) continue;
      count++;
      for (size_t c = 0; c < k[i]->nconstraints && c < 8; c++) {
        attrs[c] = k[i]->constraints[c].attr;
        sets[c] |= k[i]->constraints[c].allowed;
      }
    }
    if (!count) continue;
    printf(" %s x%zu", opr_device_name((opr_device_kind)dev), count);
    for (size_t c = 0; c < 8 && attrs[c]; c++) {
      char buf[512];
      printf(" %s=%s", attrs[c], opr_dtype_set_text(sets[c], buf, sizeof buf));
    }
  }
  printf("\n");
}

static void list_registry(void) {
  const opr_op_def *ops[128];
  size_t n = opr_list_ops(ops, 128);
  printf("Registered ops (%zu) and their kernels:\n", n);
  for (size_t i = 0; i < n && i < 128; i++) {
    printf("  %-36s", ops[i]->name);
    print_kernels(ops[i]);
  }
}

/* One line: how many ops, how many of them have kernels, how many. */
static void sum_registry(void) {
  const opr_op_def *ops[128];
  size_t n = opr_list_ops(ops, 128), with = 0, kernels = 0;
  for (size_t i = 0; i < n && i < 128; i++) {
    size_t k = opr_list_kernels(ops[i], NULL, 0);
    with += k > 0;
    kernels += k;
  }
  printf("Registered: %zu ops, %zu with kernels (%zu kernels); "
         "opgen_demo --list lists them\n", n, with, kernels);
}

/* ---- bad calls ---- */

static bool run_errors(opr_context *ctx) {
  static const char *const bad[] = {"1.5", "2", "abc"};
  opr_tensor *s = strings(3, bad), *out = NULL;
  printf("Bad calls and their statuses:\n");
  bool ok = show_error("ZeroOut on a string tensor",
                       demo_zero_out(ctx, s, NULL, &out), &out);
  ok &= show_error("StringToNumber of [\"1.5\", \"2\", \"abc\"]",
                   demo_string_to_number(ctx, s, NULL, &out), &out);
  int32_t v[4] = {1, 2, 3, 4};
  int64_t four = 4;
  opr_tensor *x = tensor(OPR_DT_INT32, 1, &four, v, sizeof v);
  demo_zero_out_attrs attrs = {.preserve_index = 7};
  ok &= show_error("ZeroOut of 4 elements with preserve_index=7",
                   demo_zero_out(ctx, x, &attrs, &out), &out);
  ok &= show_error("MyGeneralUnaryOp (a signature without a kernel)",
                   demo_my_general_unary_op(ctx, x, &out), &out);
  opr_tensor_unref(x);
  opr_tensor_unref(s);
  return ok;
}

/* ---- op libraries ---- */

/* The example op library, built beside the demo (zero_out_lib.so): load
 * it the way TensorFlow loads a custom op library, list what it adds, run
 * its op by name. */
static bool run_op_library(opr_context *ctx) {
  printf("\nOp library %s:\n", OPGEN_DEMO_LIBRARY);
  opr_library *lib = NULL;
  opr_status s = opr_load_library(OPGEN_DEMO_LIBRARY, &lib);
  if (s) {
    printf("  load failed: %s\n", opr_status_message(s));
    opr_status_free(s);
    return false;
  }
  const opr_op_def *ops[8];
  size_t n = opr_library_ops(lib, ops, 8);
  printf("  loaded '%s' (op hash %016llx): %zu op%s:", opr_library_name(lib),
         (unsigned long long)opr_library_def_hash(lib), n, n == 1 ? "" : "s");
  for (size_t i = 0; i < n && i < 8; i++) printf(" %s", ops[i]->name);
  printf("\n");
  static const int32_t v[] = {1, 2, 3, 4};
  static const int64_t dims[] = {2, 2};
  opr_tensor *in = tensor(OPR_DT_INT32, 2, dims, v, sizeof v), *out = NULL;
  const opr_tensor *ins[1] = {in};
  const opr_input inputs[1] = {{ins, 1}};
  size_t nout = 0;
  bool ok = show("LibZeroOut(x) by name",
                 opr_execute(ctx, "LibZeroOut", inputs, 1, NULL, 0, &out, 1,
                             &nout),
                 &out);
  s = opr_load_library(OPGEN_DEMO_LIBRARY, &lib);
  printf("  loading it again: %s\n",
         s ? opr_code_name(opr_status_code(s)) : "no error?");
  ok &= s != NULL;
  opr_status_free(s);
  opr_tensor_unref(in);
  return ok;
}

int main(int argc, char **argv) {
  bool list = argc > 1 && strcmp(argv[1], "--list") == 0;
  if (argc > 1 && !list) {
    fprintf(stderr, "usage: opgen_demo [--list]\n");
    return 2;
  }
  opr_status s = opgen_shipped_register();
  opr_context *ctx = NULL;
  if (!s) s = opr_context_new(NULL, &ctx);
  if (s) {
    fprintf(stderr, "opgen_demo: %s\n", opr_status_message(s));
    opr_status_free(s);
    return 1;
  }
  printf("opgen demo: the shipped ops on the CPU, %d threads\n\n",
         opr_context_threads(ctx));
  bool ok = run_zero_out(ctx);
  ok &= run_example(ctx);
  ok &= run_add_n(ctx);
  ok &= run_pad(ctx);
  ok &= run_string_to_number(ctx);
  printf("\n");
  if (list)
    list_registry();
  else
    sum_registry();
  ok &= run_op_library(ctx);
  ok &= run_errors(ctx);
  opr_context_free(ctx);
  return ok ? 0 : 1;
}
