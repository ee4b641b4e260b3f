/* empty_lib has no ops and no kernels. */
#include "opr/opr.h"
#include "opgen_library.h" /* the prototype of the registration */


opr_status empty_lib_register_kernels(void) { return OPR_OK; }
