/* The inference context behind opr/shape.h, shared by the standalone
 * entry (infer.c) and the execution path (infer_call.c). */
#ifndef OPR_SHAPE_INTERNAL_H
#define OPR_SHAPE_INTERNAL_H

#include "internal.h"

/* Room held inside the context, so that inferring the shapes of a
 * typical call allocates nothing. Version-2 shape functions make their
 * intermediate shapes here too: TensorFlow's conformance cases use up to
 * 64 dims (ExtractImagePatches), hence 256 (2 KiB on the stack). */
enum { INFER_INLINE_DIMS = 256, INFER_INLINE_OUTPUTS = 8 };

/* Inputs whose version-2 reads (opr_sx_input, opr_sx_value_shape) are
 * kept once made: a generated function reads an input again in every
 * statement and `let` that names it. Inputs past this are recomputed. */
enum { INFER_CACHED_INPUTS = 16 };

/* Dims that did not fit inline: a list of heap blocks. */
typedef struct opr_infer_chunk {
  struct opr_infer_chunk *next;
  int64_t dims[];
} opr_infer_chunk;

struct opr_infer_ctx {
  const opr_op_def *op;
  const opr_attr_value *attrs; /* [op->nattrs] */
  /* The inputs: a call's tensors, or opr_infer_shapes's shapes. */
  const opr_input *tensors;
  const opr_shape_input *shapes;
  /* Output shapes, one per output tensor, output arguments in order. */
  opr_shape *outputs;
  size_t noutputs;
  /* Dims storage: the rest of dims_inline, then heap chunks. */
  int64_t *free_dims;
  size_t free_count;
  opr_infer_chunk *chunks;
  /* Bit `arg` set: sx_inputs[arg] holds opr_sx_input's shape of input
   * `arg`; sx_values[arg] opr_sx_value_shape's of its tensor 0. Results
   * only (an error is made again), in the context's storage or the
   * caller's, so valid until inference ends. */
  uint32_t sx_inputs_set, sx_values_set;
  /* An input's values were read (opr_infer_input_value, the shape
   * language's value(x)): set through const contexts too, as a note. */
  bool values_read;
  opr_shape sx_inputs[INFER_CACHED_INPUTS];
  opr_shape sx_values[INFER_CACHED_INPUTS];
  /* Bit `arg` of sx_ints_set: sx_ints[arg] holds the int32/int64 values
   * of input `arg`'s tensor 0 as int64_t (NULL: not known), sx_nints[arg]
   * their count; set when they fit the dims storage without a heap
   * block, for value(x)[i]. */
  uint32_t sx_ints_set;
  const int64_t *sx_ints[INFER_CACHED_INPUTS];
  size_t sx_nints[INFER_CACHED_INPUTS];
  opr_shape outputs_inline[INFER_INLINE_OUTPUTS];
  int64_t dims_inline[INFER_INLINE_DIMS];
};

/* Sets up `c` for `op` with its attrs (resolved) and inputs (exactly one
 * of tensors and shapes); every output unknown. On failure nothing needs
 * freeing. */
opr_status opr_infer_ctx_init(opr_infer_ctx *c, const opr_op_def *op,
                              const opr_attr_value *attrs,
                              const opr_input *tensors,
                              const opr_shape_input *shapes);
void opr_infer_ctx_free(opr_infer_ctx *c);

/* Nothing read yet (both ways of setting up a context call this). */
static inline void opr_infer_ctx_clear_reads(opr_infer_ctx *c) {
  c->sx_inputs_set = c->sx_values_set = c->sx_ints_set = 0;
  c->values_read = false;
}

/* Notes that the function read an input's values. Contexts are never
 * const objects (their functions take const pointers to read). */
static inline void opr_infer_note_values(const opr_infer_ctx *c) {
  ((opr_infer_ctx *)(uintptr_t)c)->values_read = true;
}

/* Room for n dims that lives as long as the context; NULL when out of
 * memory. */
int64_t *opr_infer_alloc_dims(opr_infer_ctx *c, size_t n);

/* The flat index of output `arg`'s first tensor in c->outputs. */
size_t opr_infer_output_first(const opr_infer_ctx *c, size_t arg);

/* A shape's text for messages, "[2, ?]" or "?", in buf. */
const char *opr_infer_shape_text(opr_shape s, char *buf, size_t n);

/* Inference for a call whose kernel is chosen: runs the op's shape
 * function on the input tensors' shapes (an error stops the call) and,
 * when every output shape is fully known, allocates the outputs. */
opr_status opr_infer_for_call(opr_kernel_ctx *k);
/* The same, and *values_read: whether the shape function read an input's
 * values (then its shapes hold for these values only). */
opr_status opr_infer_for_call_reads(opr_kernel_ctx *k, bool *values_read);

/* Output `index` of the call was allocated from its inferred shape; the
 * kernel asks for it with rank and dims (see opr_kernel_alloc_output). */
/* INVALID_ARGUMENT: the caller-owned output `index` of output `arg`
 * has another shape than rank/dims ("<whose> [2, 3]": "its inferred
 * shape is", "the kernel computes"). */
opr_status opr_into_wrong_shape(const opr_kernel_ctx *k, size_t arg,
                                size_t index, int rank, const int64_t *dims,
                                const char *whose);

opr_status opr_infer_take_output(opr_kernel_ctx *k, size_t arg,
                                 size_t index, int rank,
                                 const int64_t *dims, opr_tensor **out);

#endif
