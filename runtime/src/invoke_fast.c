/* The generated fast paths' dispatch: the wrapper has decided the op's
 * checks (one input tensor of an allowed type, valid attrs, output shape
 * `out = in`), so what is left is the context, the tape, and the kernel,
 * cached per input dtype in the op's kernel table. Anything else goes
 * through the general entry, which gives the same results and errors. */
#include "internal.h"

#include <string.h>

/* Selects the CPU kernel for the call, whose type attrs all follow from
 * `dt` (one type attr or none: the fast paths' ops), into the table's
 * cache; NULL when there is none, and the general path says why. */
OPR_NOINLINE static const opr_kernel_rec *fill_cache(
    struct opr_kernel_table *t, const opr_call *call, opr_dtype dt) {
  const opr_kernel_rec *r = opr_select_kernel(t, call, OPR_DEVICE_CPU);
  if (r) __atomic_store_n(&t->cpu_by_dtype[dt], r, __ATOMIC_RELAXED);
  return r;
}

/* The kernel cached for the call when it can skip the general path,
 * else NULL (also on a cache miss: see fast_kernel). No call, so that
 * the fast paths save no registers. The wrapper has tested the input's
 * dtype against the op's allowed set (a dtype value, below
 * OPR_KERNEL_CACHE_DTYPES), and a generated op table always has its
 * state record. */
static inline const opr_kernel_rec *cached_kernel(const opr_context *ctx,
                                                  const opr_call *call,
                                                  const opr_tensor *in) {
  if (OPR_UNLIKELY(!ctx || ctx->device != OPR_DEVICE_CPU ||
                   in->device != OPR_DEVICE_CPU || opr_tape_top != NULL))
    return NULL;
  struct opr_kernel_table *t =
      opr_state_kernels(call->op->state, __ATOMIC_ACQUIRE);
  if (!t) return NULL;
  /* The records are published with the table (acquired above), so a
   * relaxed load of one of its pointers sees a complete record. */
  return __atomic_load_n(&t->cpu_by_dtype[in->dtype], __ATOMIC_RELAXED);
}

/* cached_kernel, filling the cache on a miss. */
static inline const opr_kernel_rec *fast_kernel(const opr_context *ctx,
                                                const opr_call *call,
                                                const opr_tensor *in) {
  const opr_kernel_rec *r = cached_kernel(ctx, call, in);
  if (r || !ctx || ctx->device != OPR_DEVICE_CPU ||
      in->device != OPR_DEVICE_CPU || opr_tape_top != NULL)
    return r;
  struct opr_kernel_table *t =
      opr_state_kernels(call->op->state, __ATOMIC_ACQUIRE);
  return t ? fill_cache(t, call, in->dtype) : NULL;
}

static opr_status run(opr_context *ctx, opr_call *call,
                      const opr_kernel_rec *r, bool into) {
  opr_kernel_ctx k = {ctx, call, &r->def, OPR_DEVICE_CPU, true, into};
  return r->def.fn(&k);
}

/* The fast path with kernel `r`: false when it cannot run the call (the
 * output's allocation failed), and the general path must. */
static inline bool run_new(opr_context *ctx, opr_call *call,
                           const opr_kernel_rec *r, opr_status *out) {
  const opr_tensor *in = call->inputs[0].tensors[0];
  opr_tensor **slot = call->outputs[0].tensors;
  /* The output is shaped like the input (`out = in`): no inference. */
  opr_status s = opr_tensor_new_like(in->dtype, in, slot);
  if (OPR_UNLIKELY(s != OPR_OK)) {
    opr_status_free(s); /* the general path allocates, and says why */
    *slot = NULL;
    return false;
  }
  s = run(ctx, call, r, false);
  if (!s && OPR_UNLIKELY(!*slot)) s = opr_unset_output(call, 0, 0);
  if (s) {
    if (*slot) opr_tensor_unref(*slot);
    *slot = NULL;
  }
  *out = s;
  return true;
}

opr_status opr_invoke_fast(opr_context *ctx, opr_call *call) {
  const opr_kernel_rec *r = fast_kernel(ctx, call, call->inputs[0].tensors[0]);
  opr_status s;
  if (r && run_new(ctx, call, r, &s)) return s;
  return opr_invoke(ctx, call);
}

/* The caller's output is a host tensor of the input's dtype and shape
 * (dims compared inline: a memcmp call would make the caller save
 * registers). */
static inline bool fits_input(const opr_tensor *out, const opr_tensor *in) {
  if (out->dtype != in->dtype || out->device != OPR_DEVICE_CPU ||
      out->rank != in->rank)
    return false;
  int i = 0;
  while (i < in->rank && out->dims[i] == in->dims[i]) i++;
  return i == in->rank;
}

/* opr_invoke_fast_into past a cache miss. */
OPR_NOINLINE static opr_status fast_into_miss(opr_context *ctx,
                                              opr_call *call) {
  const opr_tensor *in = call->inputs[0].tensors[0];
  const opr_kernel_rec *r = fast_kernel(ctx, call, in);
  if (!r || !fits_input(call->outputs[0].tensors[0], in))
    return opr_invoke_into(ctx, call);
  return run(ctx, call, r, true);
}

opr_status opr_invoke_fast_into(opr_context *ctx, opr_call *call) {
  const opr_tensor *in = call->inputs[0].tensors[0];
  const opr_tensor *out = call->outputs[0].tensors[0];
  const opr_kernel_rec *r = cached_kernel(ctx, call, in);
  if (OPR_UNLIKELY(!r)) return fast_into_miss(ctx, call);
  if (!fits_input(out, in)) return opr_invoke_into(ctx, call);
  return run(ctx, call, r, true);
}

bool opr_execute_fast(opr_context *ctx, opr_call *call, bool into,
                      opr_status *out) {
  const opr_tensor *in = call->inputs[0].tensors[0];
  const opr_kernel_rec *r = fast_kernel(ctx, call, in);
  if (!r) return false;
  if (!into) return run_new(ctx, call, r, out);
  if (!fits_input(call->outputs[0].tensors[0], in)) return false;
  *out = run(ctx, call, r, true);
  return true;
}

/* opr_invoke_unary(_into) past the wrapper's tests, or (`fast` false)
 * the general path with the wrapper's call: the type attr unset. */
static inline void unary_call(opr_call *call, const opr_op_def *op,
                              const opr_input *in, opr_attr_value *attrs,
                              opr_output *out, bool fast) {
  attrs[0] = fast ? (opr_attr_value){.kind = OPR_ATTR_TYPE,
                                     .u.type = in->tensors[0]->dtype}
                  : (opr_attr_value){.kind = OPR_ATTR_UNSET};
  call->op = op;
  call->inputs = in;
  call->attrs = op->nattrs ? attrs : NULL;
  call->outputs = out;
  call->inline_types_used = 0; /* the inline types are not read */
  call->heap_types = NULL;
}

/* The typed wrapper's tests (opr_op_def.has_fast_path: the type attr, if
 * any, is attr 0 and the only one). */
static inline bool unary_fits(const opr_op_def *op, const opr_tensor *in,
                              const void *out) {
  return in && out &&
         (op->nattrs ? opr_dtype_set_has(op->attrs[0].allowed_types,
                                         in->dtype)
                     : in->dtype == op->inputs[0].type);
}

/* The wrapper's general path: its checks' errors. */
OPR_NOINLINE static opr_status unary_general(opr_context *ctx,
                                             const opr_op_def *op,
                                             const opr_tensor *in,
                                             opr_tensor **slot, bool into) {
  const opr_input ins[1] = {{&in, 1}};
  opr_attr_value attrs[1];
  opr_output outs[1] = {{slot, 1}};
  opr_call call;
  unary_call(&call, op, ins, attrs, outs, false);
  return into ? opr_invoke_into(ctx, &call) : opr_invoke(ctx, &call);
}

opr_status opr_invoke_unary(opr_context *ctx, const opr_op_def *op,
                            const opr_tensor *in, opr_tensor **out) {
  if (!unary_fits(op, in, out)) return unary_general(ctx, op, in, out, false);
  const opr_input ins[1] = {{&in, 1}};
  opr_attr_value attrs[1];
  opr_output outs[1] = {{out, 1}};
  opr_call call;
  unary_call(&call, op, ins, attrs, outs, true);
  const opr_kernel_rec *r = fast_kernel(ctx, &call, in);
  opr_status s;
  if (r && run_new(ctx, &call, r, &s)) return s;
  return opr_invoke(ctx, &call);
}

opr_status opr_invoke_unary_into(opr_context *ctx, const opr_op_def *op,
                                 const opr_tensor *in, opr_tensor *out) {
  if (!unary_fits(op, in, out))
    return unary_general(ctx, op, in, &out, true);
  const opr_input ins[1] = {{&in, 1}};
  opr_attr_value attrs[1];
  opr_output outs[1] = {{&out, 1}};
  opr_call call;
  unary_call(&call, op, ins, attrs, outs, true);
  const opr_kernel_rec *r = cached_kernel(ctx, &call, in);
  if (OPR_UNLIKELY(!r)) return fast_into_miss(ctx, &call);
  if (!fits_input(out, in)) return opr_invoke_into(ctx, &call);
  return run(ctx, &call, r, true);
}
