// The C++ kernels of cxx.op (kernels.cpp).
#ifndef OPGEN_TESTS_CXX_KERNELS_HPP
#define OPGEN_TESTS_CXX_KERNELS_HPP

#include "cxx_ops.h"

// Registers a CPU kernel of Affine and of WeightedSum for each type they
// take; the ops must be registered.
opr_status cxx_test_register_kernels();

#endif
