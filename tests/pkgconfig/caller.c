/* A Make user's program: the tiny.op's generated wrapper, compiled and
 * linked with `pkg-config --cflags --libs opgen` alone
 * (test_package_pkgconfig). Prints the runtime's answer for an op with
 * no kernel (UNIMPLEMENTED), which proves the call reached the
 * registry. */
#include "tiny_ops.h"

#include <stdio.h>

int main(void) {
  opr_context *ctx = NULL;
  opr_status s = tiny_register_ops();
  if (!s) s = opr_context_new(NULL, &ctx);
  opr_tensor *in = NULL, *out = NULL;
  const int64_t dims[1] = {1};
  const float x[1] = {1};
  if (!s) s = opr_tensor_from_data(OPR_DT_FLOAT, 1, dims, x, sizeof x, &in);
  if (s) {
    fprintf(stderr, "caller: %s\n", opr_status_message(s));
    return 1;
  }
  s = tiny_tiny(ctx, in, &out);
  printf("Tiny: %s\n", s ? opr_code_name(opr_status_code(s)) : "OK");
  opr_status_free(s);
  opr_tensor_unref(out);
  opr_tensor_unref(in);
  opr_context_free(ctx);
  return 0;
}
