/* conflict_lib registers no kernel: it never gets that far. */
#include "opgen_library.h" /* the specs' kernel headers; the prototype */


opr_status conflict_lib_register_kernels(void) { return OPR_OK; }
