/* Loads the zero_out_lib op library and runs its LibZeroOut on
 * [[1, 2], [3, 4]] through the typed wrapper this host generated from the
 * same spec, and by name, then shape_fn_lib's LibRepeat (whose op has a
 * hand-written shape function) on [5, 6]. argv[1] says when the host
 * registers the spec's ops: "before" or "after" loading the library
 * (either works: identical definitions bind to one op). Exits 0 when the
 * results are [[1, 0], [0, 0]] and [5, 6, 5, 6]. */
#include <opr/opr.h>

#include "zero_out_ops.h"

#include <stdio.h>
#include <string.h>

static int failed(opr_status s) {
  fprintf(stderr, "host: %s\n", opr_status_message(s));
  opr_status_free(s);
  return 1;
}

/* LibRepeat([5, 6]) through shape_fn_lib; 1 when it gives [5, 6, 5, 6]. */
static int repeat_runs(opr_context *ctx) {
  opr_library *lib = NULL;
  opr_status s = opr_load_library(SHAPE_FN_LIBRARY, &lib);
  const int32_t values[2] = {5, 6}, want[4] = {5, 6, 5, 6};
  const int64_t dims[1] = {2};
  opr_tensor *in = NULL, *out = NULL;
  if (!s)
    s = opr_tensor_from_data(OPR_DT_INT32, 1, dims, values, sizeof values,
                             &in);
  const opr_tensor *list[1] = {in};
  opr_input inputs[1] = {{list, 1}};
  size_t n = 0;
  if (!s) s = opr_execute(ctx, "LibRepeat", inputs, 1, NULL, 0, &out, 1, &n);
  opr_tensor_unref(in);
  if (s) return !failed(s);
  int ok = out->rank == 1 && out->dims[0] == 4 &&
           memcmp(out->data, want, sizeof want) == 0;
  printf("%s: LibRepeat([5, 6]) has %lld elements\n", opr_library_name(lib),
         (long long)out->num_elements);
  opr_tensor_unref(out);
  return ok;
}

/* Registers the host's tables and loads the library, in `order`. */
static opr_status set_up(const char *order, opr_library **lib) {
  bool before = strcmp(order, "before") == 0;
  opr_status s = before ? zero_out_lib_register_ops() : OPR_OK;
  if (!s) s = opr_load_library(LIBRARY, lib);
  if (!s && !before) s = zero_out_lib_register_ops();
  return s;
}

static int check(const char *how, const opr_tensor *out) {
  const int32_t want[4] = {1, 0, 0, 0};
  const int32_t *y = out->data;
  printf("%s: LibZeroOut([[1, 2], [3, 4]]) = [[%d, %d], [%d, %d]]\n", how,
         y[0], y[1], y[2], y[3]);
  return memcmp(y, want, sizeof want) == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  const char *order = argc > 1 ? argv[1] : "before";
  opr_library *lib = NULL;
  opr_context *ctx = NULL;
  opr_status s = set_up(order, &lib);
  if (!s) s = opr_context_new(NULL, &ctx);
  if (s) return failed(s);
  printf("%s loaded, ops registered %s\n", opr_library_name(lib), order);
  const int32_t values[4] = {1, 2, 3, 4};
  const int64_t dims[2] = {2, 2};
  opr_tensor *in = NULL, *typed = NULL, *named = NULL;
  s = opr_tensor_from_data(OPR_DT_INT32, 2, dims, values, sizeof values, &in);
  if (!s) s = zero_out_lib_lib_zero_out(ctx, in, &typed);
  const opr_tensor *list[1] = {in};
  opr_input inputs[1] = {{list, 1}};
  size_t n = 0;
  if (!s)
    s = opr_execute(ctx, "LibZeroOut", inputs, 1, NULL, 0, &named, 1, &n);
  if (s) return failed(s);
  int rc = check("typed wrapper", typed) | check("by name", named);
  opr_tensor_unref(typed);
  opr_tensor_unref(named);
  opr_tensor_unref(in);
  if (!repeat_runs(ctx)) rc = 1;
  opr_context_free(ctx);
  return rc;
}
