/* Dispatch: check, select the kernel, run. The path allocates nothing
 * and takes no lock (ops with list(type) attrs of more than
 * OPR_CALL_INLINE_TYPES types excepted): the op def carries its state
 * record, whose kernel table is read with one atomic load. */
#include "internal.h"
#include "plan_cache.h"
#include "tensor_small.h"
#include "device_internal.h"
#include "shape_internal.h"

#include <stdio.h>
#include <string.h>

/* The first kernel of `t` in selection order whose device and type
 * constraints fit the call's resolved attrs (inline on the hot path). */
static inline const opr_kernel_rec *select_in(
    const struct opr_kernel_table *t, const opr_call *call,
    opr_device_kind device) {
  size_t n = t ? t->count : 0;
  for (size_t k = 0; k < n; k++) {
    const opr_kernel_rec *r = t->recs[k];
    if (r->def.device != device) continue;
    size_t m = 0;
    while (m < r->nmatch &&
           opr_dtype_in_set(call->attrs[r->match[m].attr].u.type,
                            r->match[m].allowed))
      m++;
    if (m == r->nmatch) return r;
  }
  return NULL;
}

const opr_kernel_rec *opr_select_kernel(const struct opr_kernel_table *t,
                                        const opr_call *call,
                                        opr_device_kind device) {
  return select_in(t, call, device);
}

OPR_COLD opr_status opr_no_kernel(const opr_call *call,
                                  opr_device_kind device) {
  const opr_op_def *op = call->op;
  char types[512] = "";
  size_t pos = 0;
  for (size_t i = 0; i < op->nattrs && pos < sizeof types; i++) {
    const opr_attr_def *d = &op->attrs[i];
    if (d->type.kind != OPR_ATTR_TYPE || d->type.is_list) continue;
    int w = snprintf(types + pos, sizeof types - pos, "%s%s=%s",
                     pos ? ", " : " with ", d->name,
                     opr_dtype_name(call->attrs[i].u.type));
    pos += w > 0 ? (size_t)w : 0;
  }
  return opr_error(OPR_UNIMPLEMENTED, "%s: no kernel for device %s%s",
                   op->name, opr_device_name(device), types);
}

/* Drops every output the failed call allocated and clears the slots. */
static void release_outputs(opr_call *call) {
  for (size_t o = 0; o < call->op->noutputs; o++) {
    opr_output *out = &call->outputs[o];
    for (size_t j = 0; out->tensors && j < out->count; j++) {
      opr_tensor_unref(out->tensors[j]);
      out->tensors[j] = NULL;
    }
  }
}

OPR_COLD opr_status opr_unset_output(const opr_call *call, size_t o,
                                     size_t j) {
  return opr_error(OPR_INTERNAL, "%s: the kernel left output '%s' element "
                   "%zu unset", call->op->name, call->op->outputs[o].name, j);
}

static opr_status check_filled(const opr_call *call) {
  const opr_op_def *op = call->op;
  const opr_output *outs = call->outputs;
  for (size_t o = 0, n_out = op->noutputs; o < n_out; o++) {
    size_t n = opr_output_count_fast(call, o);
    opr_tensor *const *slots = outs[o].tensors;
    for (size_t j = 0; j < n; j++)
      if (!slots[j]) return opr_unset_output(call, o, j);
  }
  return OPR_OK;
}

/* The op has one output, of one tensor (most ops): its slot is checked
 * and cleared without the loops over output lengths. */
static inline bool single_output(const opr_op_def *op) {
  return op->noutputs == 1 && op->outputs[0].number_attr == OPR_NO_ATTR &&
         op->outputs[0].type_list_attr == OPR_NO_ATTR;
}

/* Clears every slot of every output. */
static void clear_outputs(opr_call *call) {
  for (size_t o = 0; o < call->op->noutputs; o++) {
    opr_output *out = &call->outputs[o];
    if (!out->tensors) continue; /* an empty list output */
    if (out->count == 1) out->tensors[0] = NULL;
    else memset(out->tensors, 0, out->count * sizeof *out->tensors);
  }
}

/* opr_invoke_checked, telling `info` (when not NULL) what a plan of the
 * call needs (plan_cache.h). */
static inline opr_status invoke_checked(opr_context *ctx, opr_call *call,
                                        opr_plan_info *info) {
  /* The slots are checked (whatever the op's check did) and cleared, so
   * that a failure releases exactly what the kernel allocated. */
  const opr_op_def *op = call->op;
  opr_output *single = single_output(op) ? call->outputs : NULL;
  if (single && single->tensors && single->count == 1) {
    single->tensors[0] = NULL;
  } else {
    if (opr_first_bad_output(call) != op->noutputs)
      return opr_check_outputs(call);
    clear_outputs(call);
  }
  const struct opr_kernel_table *t =
      opr_state_kernels(op->state, __ATOMIC_ACQUIRE);
  const opr_kernel_rec *r = select_in(t, call, ctx->device);
  if (!r) return opr_no_kernel(call, ctx->device);
  opr_kernel_ctx k = {ctx, call, &r->def, ctx->device, false, false};
  /* Shape inference: validates the input shapes, pre-allocates outputs. */
  bool values_read = true;
  opr_status s = opr_infer_for_call_reads(&k, &values_read);
  if (info) *info = (opr_plan_info){t, r, k.outputs_preallocated,
                                    values_read};
  /* Device kernels, and device tensors, go through the device layer. */
  if (!s)
    s = k.device == OPR_DEVICE_CPU && opr_inputs_on_host(call)
            ? r->def.fn(&k)
            : opr_device_run(&k);
  if (!s)
    s = !single ? check_filled(call)
        : single->tensors[0] ? OPR_OK : opr_unset_output(call, 0, 0);
  if (s) release_outputs(call);
  else if (OPR_UNLIKELY(opr_tape_top != NULL)) opr_tape_record_call(call);
  return s;
}

opr_status opr_invoke_checked(opr_context *ctx, opr_call *call) {
  return invoke_checked(ctx, call, NULL);
}

opr_status opr_invoke_checked_plan(opr_context *ctx, opr_call *call,
                                   opr_plan_info *info) {
  return invoke_checked(ctx, call, info);
}

OPR_COLD static opr_status bad_invoke(const opr_context *ctx,
                                      const opr_call *call) {
  if (!ctx || !call || !call->op)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_invoke: %s is NULL",
                     !ctx ? "the context" : !call ? "the call"
                                                  : "the call's op");
  const opr_op_def *op = call->op;
  if (!op->state || !opr_state_registered(op->state))
    return opr_error(OPR_FAILED_PRECONDITION, "%s: op is not registered "
                     "(call its register function first)",
                     opr_text_or(op->name, "(unnamed op)"));
  return opr_error(OPR_INVALID_ARGUMENT, "%s: the call has no %s array",
                   op->name, !call->inputs ? "input" : "attr");
}

opr_status opr_invoke(opr_context *ctx, opr_call *call) {
  const opr_op_def *op = call ? call->op : NULL;
  if (!ctx || !op || !op->state ||
      !opr_state_registered(op->state) ||
      (op->ninputs && !call->inputs) || (op->nattrs && !call->attrs))
    return bad_invoke(ctx, call);
  opr_status s = op->check(call);
  if (!s) s = opr_invoke_checked(ctx, call);
  /* Typed wrappers keep the call on their stack and return at once. */
  if (call->heap_types) opr_call_cleanup(call);
  return s;
}

/* Output `arg` stays in host memory for this kernel. */
static bool host_memory_output(const opr_kernel_ctx *k, size_t arg) {
  const char *name = k->call->op->outputs[arg].name;
  for (size_t i = 0; k->kernel && i < k->kernel->nhost_memory; i++)
    if (strcmp(k->kernel->host_memory[i], name) == 0) return true;
  return false;
}

/* Restates a tensor creation error for an output. */
OPR_COLD opr_status opr_output_alloc_error(const opr_op_def *op, size_t arg,
                                           opr_status s) {
  static const char prefix[] = "opr_tensor_new: ";
  const char *msg = opr_status_message(s);
  if (strncmp(msg, prefix, sizeof prefix - 1) == 0) msg += sizeof prefix - 1;
  opr_status r = opr_error(opr_status_code(s), "%s: output '%s': %s",
                           op->name, op->outputs[arg].name, msg);
  opr_status_free(s);
  return r;
}

/* opr_kernel_alloc_output but for a preallocated output of the shape
 * asked for (below). */
OPR_NOINLINE static opr_status alloc_output(opr_kernel_ctx *k, size_t arg,
                                            size_t index, int rank,
                                            const int64_t *dims,
                                            opr_tensor **out) {
  const opr_call *call = k->call;
  const opr_op_def *op = call->op;
  if (arg >= op->noutputs || index >= opr_output_count_fast(call, arg))
    return opr_error(OPR_INTERNAL, "%s: the kernel allocates output %zu "
                     "element %zu, which the op does not have", op->name,
                     arg, index);
  opr_tensor **slot = &call->outputs[arg].tensors[index];
  if (*slot && k->outputs_preallocated) { /* from the inferred shape */
    const opr_tensor *t = *slot;
    if (t->rank == rank &&
        (rank == 0 ||
         (dims && memcmp(t->dims, dims, (size_t)rank * sizeof *dims) == 0))) {
      if (out) *out = *slot;
      return OPR_OK;
    }
    if (k->outputs_into) /* the caller's tensor */
      return opr_into_wrong_shape(k, arg, index, rank, dims,
                                  "the kernel computes");
    return opr_infer_take_output(k, arg, index, rank, dims, out); /* says why */
  }
  if (*slot)
    return opr_error(OPR_INTERNAL, "%s: the kernel allocates output '%s' "
                     "element %zu twice", op->name, op->outputs[arg].name,
                     index);
  opr_dtype dtype = opr_output_dtype_fast(call, arg, index);
  opr_status s = k->device != OPR_DEVICE_CPU && !host_memory_output(k, arg)
                     ? opr_device_tensor_create("opr_tensor_new", k->device,
                                                dtype, rank, dims, slot)
                     : opr_tensor_create_output("opr_tensor_new", dtype, rank,
                                                dims, slot);
  if (s) return opr_output_alloc_error(op, arg, s);
  if (out) *out = *slot;
  return OPR_OK;
}

/* A small host output that a CPU kernel allocates, from this thread's
 * cache; anything else, and every error, is alloc_output's, by a tail
 * call. Out of line, so that the preallocated case saves no register. */
OPR_NOINLINE static opr_status alloc_new(opr_kernel_ctx *k, size_t arg,
                                         size_t index, int rank,
                                         const int64_t *dims,
                                         opr_tensor **out) {
  const opr_call *call = k->call;
  if (k->device == OPR_DEVICE_CPU && arg < call->op->noutputs &&
      index < opr_output_count_fast(call, arg)) {
    opr_tensor **slot = &call->outputs[arg].tensors[index];
    opr_tensor *t;
    if (!*slot && (t = opr_tensor_small_host(
                       opr_output_dtype_fast(call, arg, index), rank, dims))) {
      *slot = t;
      if (out) *out = t;
      return OPR_OK;
    }
  }
  return alloc_output(k, arg, index, rank, dims, out);
}

/* The slot of element `index` of output `arg`, NULL when the op has no
 * such output (single outputs, most of them, without the count). */
static inline opr_tensor **output_slot(const opr_call *call, size_t arg,
                                       size_t index) {
  const opr_op_def *op = call->op;
  if (arg >= op->noutputs) return NULL;
  const opr_arg_def *a = &op->outputs[arg];
  bool single = a->number_attr == OPR_NO_ATTR &&
                a->type_list_attr == OPR_NO_ATTR;
  if (single ? index != 0 : index >= opr_output_count_fast(call, arg))
    return NULL;
  return &call->outputs[arg].tensors[index];
}

/* The common cases take no call: a preallocated output of the shape the
 * kernel asks for (the fast paths, shape inference, caller-owned
 * outputs) is a leaf; a new output is alloc_new's, by a tail call. */
opr_status opr_kernel_alloc_output(opr_kernel_ctx *k, size_t arg,
                                   size_t index, int rank,
                                   const int64_t *dims, opr_tensor **out) {
  if (!k->outputs_preallocated)
    return alloc_new(k, arg, index, rank, dims, out);
  opr_tensor **slot = output_slot(k->call, arg, index);
  opr_tensor *t = slot ? *slot : NULL;
  if (!t || t->rank != rank || (rank > 0 && !dims)) goto general;
  /* The dims compared by a difference folded in (a loop that needs few
   * registers). */
  int64_t diff = 0;
  for (int i = 0; i < rank; i++) diff |= t->dims[i] ^ dims[i];
  if (diff) goto general;
  if (out) *out = t;
  return OPR_OK;
general:
  return alloc_output(k, arg, index, rank, dims, out);
}
