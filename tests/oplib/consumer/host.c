/* Loads the zero_out_lib op library and runs its LibZeroOut on
 * [[1, 2], [3, 4]], then shape_fn_lib (whose op has a hand-written shape
 * function) and runs its LibRepeat on [5, 6]; exits 0 when the results
 * are [[1, 0], [0, 0]] and [5, 6, 5, 6]. */
#include <opr/opr.h>

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

int main(void) {
  opr_library *lib = NULL;
  opr_context *ctx = NULL;
  opr_status s = opr_load_library(LIBRARY, &lib);
  if (!s) s = opr_context_new(NULL, &ctx);
  if (s) return failed(s);
  const int32_t values[4] = {1, 2, 3, 4}, want[4] = {1, 0, 0, 0};
  const int64_t dims[2] = {2, 2};
  opr_tensor *in = NULL, *out = NULL;
  s = opr_tensor_from_data(OPR_DT_INT32, 2, dims, values, sizeof values, &in);
  const opr_tensor *list[1] = {in};
  opr_input inputs[1] = {{list, 1}};
  size_t n = 0;
  if (!s) s = opr_execute(ctx, "LibZeroOut", inputs, 1, NULL, 0, &out, 1, &n);
  if (s) return failed(s);
  int ok = memcmp(out->data, want, sizeof want) == 0;
  printf("%s: LibZeroOut([[1, 2], [3, 4]]) = [[%d, %d], [%d, %d]]\n",
         opr_library_name(lib), ((int32_t *)out->data)[0],
         ((int32_t *)out->data)[1], ((int32_t *)out->data)[2],
         ((int32_t *)out->data)[3]);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
  ok = repeat_runs(ctx) && ok;
  opr_context_free(ctx);
  return ok ? 0 : 1;
}
