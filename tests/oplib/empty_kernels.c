/* empty_lib has no ops and no kernels. */
#include "opr/opr.h"

opr_status empty_lib_register_kernels(void);

opr_status empty_lib_register_kernels(void) { return OPR_OK; }
