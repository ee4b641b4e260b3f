/* The opgen runtime (libopgenrt): everything generated code includes. */
#ifndef OPR_OPR_H
#define OPR_OPR_H

#include "opr/attr.h"
#include "opr/context.h"
#include "opr/dtype.h"
#include "opr/kernel.h"
#include "opr/op.h"
#include "opr/status.h"
#include "opr/tensor.h"

#endif
