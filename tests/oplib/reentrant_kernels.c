/* An op library whose registration calls opr_load_library: from its
 * constructor (for zero_out_lib) and from its kernel registration (for
 * itself). Both calls must fail at once (not wait for the load lock the
 * outer load holds); the library keeps their answers for the test, which
 * reads them through reentrant_lib_messages. Paths: OPLIB_ZERO_OUT and
 * OPLIB_REENTRANT, from the build. */
#include "opr/library.h"
#include "opgen_library.h" /* the prototype of the registration */

#include <stdio.h>

OPR_LIBRARY_EXPORT void reentrant_lib_messages(const char **from_constructor,
                                               const char **from_register);

static char constructor_message[4096], register_message[4096];

static void keep(char *buf, size_t size, opr_status s) {
  snprintf(buf, size, "%s: %s", opr_code_name(opr_status_code(s)),
           opr_status_message(s));
  opr_status_free(s);
}

__attribute__((constructor)) static void load_at_load(void) {
  keep(constructor_message, sizeof constructor_message,
       opr_load_library(OPLIB_ZERO_OUT, NULL));
}

opr_status reentrant_lib_register_kernels(void) {
  keep(register_message, sizeof register_message,
       opr_load_library(OPLIB_REENTRANT, NULL));
  return OPR_OK;
}

void reentrant_lib_messages(const char **from_constructor,
                            const char **from_register) {
  *from_constructor = constructor_message;
  *from_register = register_message;
}
