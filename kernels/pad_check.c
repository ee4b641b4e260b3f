#include "pad_check.h"

#include <inttypes.h>
#include <stdio.h>

static const char *const mode_names[] = {"CONSTANT", "REFLECT", "SYMMETRIC"};

int64_t pad_check_amount(const opr_tensor *paddings, int64_t i) {
  if (paddings->dtype == OPR_DT_INT64)
    return ((const int64_t *)paddings->data)[i];
  return ((const int32_t *)paddings->data)[i];
}

bool pad_check_dim(demo_pad_mode mode, int d, int64_t lo, int64_t hi,
                   int64_t n, char *why, size_t len) {
  if (lo < 0 || hi < 0) {
    snprintf(why, len, "paddings of dimension %d are (%" PRId64 ", %" PRId64
             "); they must be >= 0", d, lo, hi);
    return false;
  }
  int64_t limit = mode == DEMO_PAD_MODE_REFLECT ? n - 1 : n;
  if (n >= 0 && mode != DEMO_PAD_MODE_CONSTANT && (lo > limit || hi > limit)) {
    snprintf(why, len, "%s paddings of dimension %d are (%" PRId64 ", %"
             PRId64 "); each must be %s the dimension's size %" PRId64,
             mode_names[mode], d, lo, hi,
             mode == DEMO_PAD_MODE_REFLECT ? "less than" : "at most", n);
    return false;
  }
  int64_t size = n < 0 ? 0 : n;
  if (lo > INT64_MAX - size || hi > INT64_MAX - size - lo) {
    snprintf(why, len, "paddings of dimension %d (%" PRId64 ", %" PRId64
             ") overflow its size", d, lo, hi);
    return false;
  }
  return true;
}
