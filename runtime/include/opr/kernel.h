/* Kernels: registration keyed by op, device and type constraints, and the
 * context a kernel runs in. */
#ifndef OPR_KERNEL_H
#define OPR_KERNEL_H

#include "opr/op.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opr_context opr_context;
typedef struct opr_kernel_def opr_kernel_def;

/* What a kernel sees: the checked call (inputs, resolved attrs, output
 * slots) and where it runs. When the op's shape function gave every
 * output a fully known shape, the output slots already hold tensors of
 * those shapes as the kernel starts (see opr_kernel_alloc_output). */
typedef struct opr_kernel_ctx {
  opr_context *ctx;
  const opr_call *call;
  const opr_kernel_def *kernel;
  opr_device_kind device;
  bool outputs_preallocated; /* private: set by the runtime */
  bool outputs_into; /* private: the slots hold caller-owned tensors */
} opr_kernel_ctx;

typedef opr_status (*opr_kernel_fn)(opr_kernel_ctx *k);

/* A type attr must take one of `allowed`. */
typedef struct opr_type_constraint {
  const char *attr;
  opr_dtype_set allowed;
} opr_type_constraint;

struct opr_kernel_def {
  const char *op;
  opr_device_kind device;
  const opr_type_constraint *constraints;
  size_t nconstraints;
  /* Names of arguments that stay in host memory on a device kernel. */
  const char *const *host_memory;
  size_t nhost_memory;
  int priority; /* the highest-priority matching kernel runs */
  opr_kernel_fn fn;
  const char *label; /* for listings; may be NULL */
};

/* Registers a kernel for a registered op. The definition is copied.
 * Fails with NOT_FOUND for an unknown op, INVALID_ARGUMENT for a
 * constraint on an attr that is not a type attr of the op or a host
 * memory name that is no argument. Thread-safe. */
opr_status opr_register_kernel(const opr_kernel_def *def);

/* Kernels of `op` (all devices), in selection order; returns the total. */
size_t opr_list_kernels(const opr_op_def *op, const opr_kernel_def **out,
                        size_t max);

/* Allocates element `index` of output `arg` with the dtype the call
 * resolved, on the kernel's device (or the host for host-memory
 * arguments). The call owns it once allocated. Where the runtime
 * allocated the outputs from their inferred shapes before the kernel
 * ran, this returns that tensor when `rank` and `dims` are the inferred
 * shape, and fails with INTERNAL when they differ. Where the caller owns
 * the outputs (opr_invoke_into), it returns the caller's tensor when
 * the shape is its shape, and fails with INVALID_ARGUMENT otherwise. The data is not
 * cleared (strings excepted): the kernel writes every element, as
 * TensorFlow's allocate_output expects, and no pass over memory is
 * wasted. */
opr_status opr_kernel_alloc_output(opr_kernel_ctx *k, size_t arg,
                                   size_t index, int rank,
                                   const int64_t *dims, opr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif
