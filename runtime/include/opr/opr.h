/* The opgen runtime (libopgenrt): everything generated code includes and
 * everything a kernel author needs (kernels, shard, shapes, devices). */
#ifndef OPR_OPR_H
#define OPR_OPR_H

#include "opr/attr.h"
#include "opr/context.h"
#include "opr/device.h"
#include "opr/dtype.h"
#include "opr/gradient.h"
#include "opr/kernel.h"
#include "opr/library.h"
#include "opr/op.h"
#include "opr/parallel.h"
#include "opr/shape.h"
#include "opr/status.h"
#include "opr/tensor.h"

#endif
