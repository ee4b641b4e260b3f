/* A second, different definition of twice.op's op Twice (int32, not
 * float), written by hand and registered from the constructor. */
#include "opr/opr.h"
#include "opgen_library.h" /* the prototype of the registration */


static opr_status accept(opr_call *call) {
  (void)call;
  return OPR_OK;
}

static opr_op_state other_state;
static const opr_arg_def other_x = {.name = "x", .type = OPR_DT_INT32,
                                    .type_attr = OPR_NO_ATTR,
                                    .number_attr = OPR_NO_ATTR,
                                    .type_list_attr = OPR_NO_ATTR};
static const opr_arg_def other_y = {.name = "y", .type = OPR_DT_INT32,
                                    .type_attr = OPR_NO_ATTR,
                                    .number_attr = OPR_NO_ATTR,
                                    .type_list_attr = OPR_NO_ATTR};
static const opr_op_def other_twice = {
    .name = "Twice", .inputs = &other_x, .ninputs = 1,
    .outputs = &other_y, .noutputs = 1, .check = accept,
    .state = &other_state};

__attribute__((constructor)) static void register_at_load(void) {
  opr_status_free(opr_register_op(&other_twice));
}

opr_status twice_lib_register_kernels(void) { return OPR_OK; }
