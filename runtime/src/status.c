/* Heap status values. Out of memory must still be reportable, so that
 * case answers with a static status that opr_status_free leaves alone. */
#include "opr/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* One block: the message text follows the struct. */
struct opr_status_rep {
  opr_code code;
  const char *message;
};

static struct opr_status_rep out_of_memory = {OPR_RESOURCE_EXHAUSTED,
                                              "out of memory"};

#define OOM_STATUS (&out_of_memory)

opr_status opr_error(opr_code code, const char *fmt, ...) {
  if (code == OPR_CODE_OK) return OPR_OK; /* an OK status has no message */
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int len = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (len < 0) len = 0;
  opr_status s = malloc(sizeof *s + (size_t)len + 1);
  if (s) {
    char *text = (char *)(s + 1);
    s->code = code;
    s->message = text;
    vsnprintf(text, (size_t)len + 1, fmt, ap2);
  }
  va_end(ap2);
  return s ? s : OOM_STATUS;
}

opr_code opr_status_code(opr_status s) { return s ? s->code : OPR_CODE_OK; }

const char *opr_status_message(opr_status s) { return s ? s->message : ""; }

void opr_status_free(opr_status s) {
  if (s != OOM_STATUS) free(s);
}

const char *opr_code_name(opr_code code) {
  static const char *const names[] = {
      "OK",                "CANCELLED",        "UNKNOWN",
      "INVALID_ARGUMENT",  "DEADLINE_EXCEEDED", "NOT_FOUND",
      "ALREADY_EXISTS",    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
      "FAILED_PRECONDITION", "ABORTED",         "OUT_OF_RANGE",
      "UNIMPLEMENTED",     "INTERNAL",          "UNAVAILABLE",
      "DATA_LOSS",         "UNAUTHENTICATED",
  };
  if ((unsigned)code >= sizeof names / sizeof names[0]) return "UNKNOWN";
  return names[code];
}
