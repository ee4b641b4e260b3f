/* Loads the zero_out_lib op library and runs its LibZeroOut on
 * [[1, 2], [3, 4]]; exits 0 when the result is [[1, 0], [0, 0]]. */
#include <opr/opr.h>

#include <stdio.h>
#include <string.h>

static int failed(opr_status s) {
  fprintf(stderr, "host: %s\n", opr_status_message(s));
  opr_status_free(s);
  return 1;
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
  opr_context_free(ctx);
  return ok ? 0 : 1;
}
