/* The building blocks of the generated checks. Names in messages come
 * from the op def, so generated code passes only indexes. Message text is
 * built only on the error path. */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool arg_is_list(const opr_arg_def *a) {
  return a->number_attr != OPR_NO_ATTR || a->type_list_attr != OPR_NO_ATTR;
}

static const char *plural(size_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

/* "input 'x'" for a single input, "input 'x' element 2" in a list. */
static const char *input_text(const opr_arg_def *a, size_t i, char *buf,
                              size_t n) {
  if (arg_is_list(a)) snprintf(buf, n, "input '%s' element %zu", a->name, i);
  else snprintf(buf, n, "input '%s'", a->name);
  return buf;
}

OPR_COLD static opr_status null_input(const opr_call *call, size_t arg,
                                      size_t i) {
  char what[256];
  return opr_error(OPR_INVALID_ARGUMENT, "%s: %s is NULL", call->op->name,
                   input_text(&call->op->inputs[arg], i, what, sizeof what));
}

/* Tensor i of input `arg`, or an error naming it when NULL. */
static inline opr_status input_tensor(const opr_call *call, size_t arg,
                                      size_t i, const opr_tensor **out) {
  const opr_input *in = &call->inputs[arg];
  *out = in->tensors ? in->tensors[i] : NULL;
  return *out ? OPR_OK : null_input(call, arg, i);
}

static bool kind_matches(const opr_attr_def *d, const opr_attr_value *v) {
  return v->kind == d->type.kind && v->is_list == d->type.is_list;
}

OPR_COLD static opr_status not_single(const opr_call *call, size_t arg) {
  return opr_error(OPR_INVALID_ARGUMENT, "%s: input '%s' takes one tensor, "
                   "got %zu", call->op->name, call->op->inputs[arg].name,
                   call->inputs[arg].count);
}

opr_status opr_check_single_input(opr_call *call, size_t arg) {
  const opr_input *in = &call->inputs[arg];
  if (in->count != 1) return not_single(call, arg);
  const opr_tensor *t;
  return input_tensor(call, arg, 0, &t);
}

opr_status opr_check_list_input(opr_call *call, size_t arg) {
  const opr_op_def *op = call->op;
  const opr_arg_def *a = &op->inputs[arg];
  const opr_input *in = &call->inputs[arg];
  if (in->count > 0 && !in->tensors)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: input '%s' is NULL",
                     op->name, a->name);
  const opr_tensor *t;
  for (size_t i = 0; i < in->count; i++) {
    opr_status s = input_tensor(call, arg, i, &t);
    if (s) return s;
  }
  bool numbered = a->number_attr != OPR_NO_ATTR;
  int len_attr = numbered ? a->number_attr : a->type_list_attr;
  if (len_attr == OPR_NO_ATTR) return OPR_OK;
  const opr_attr_def *d = &op->attrs[len_attr];
  if (!d->has_minimum || (int64_t)in->count >= d->minimum) return OPR_OK;
  return opr_error(OPR_INVALID_ARGUMENT, "%s: input '%s' has %zu %s; attr "
                   "%s must %s %" PRId64, op->name, a->name, in->count,
                   plural(in->count, "tensor", "tensors"), d->name,
                   numbered ? "be >=" : "have >=", d->minimum);
}

opr_status opr_check_input_type(opr_call *call, size_t arg, opr_dtype type) {
  const opr_input *in = &call->inputs[arg];
  for (size_t i = 0; i < in->count; i++) {
    const opr_tensor *t;
    opr_status s = input_tensor(call, arg, i, &t);
    if (s) return s;
    if (t->dtype != type) {
      char what[256];
      return opr_error(OPR_INVALID_ARGUMENT, "%s: %s has type %s; expected "
                       "%s", call->op->name,
                       input_text(&call->op->inputs[arg], i, what,
                                  sizeof what),
                       opr_dtype_name(t->dtype), opr_dtype_name(type));
    }
  }
  return OPR_OK;
}

/* Input tensor i has type dt, which attr d (whose value is `want`, or
 * OPR_DT_INVALID when still unset) must accept. */
static inline bool inferred_type_ok(const opr_attr_def *d, opr_dtype dt,
                                    opr_dtype want) {
  return (want == OPR_DT_INVALID || dt == want) &&
         (!d->allowed_types || opr_dtype_in_set(dt, d->allowed_types));
}

/* The message for !inferred_type_ok. */
OPR_COLD static opr_status inferred_type_error(const opr_call *call,
                                               size_t arg, size_t i,
                                               const opr_attr_def *d,
                                               opr_dtype dt, opr_dtype want) {
  char what[256], set[512];
  const opr_op_def *op = call->op;
  if (want != OPR_DT_INVALID && dt != want)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: %s has type %s, but attr "
                     "%s is %s", op->name,
                     input_text(&op->inputs[arg], i, what, sizeof what),
                     opr_dtype_name(dt), d->name, opr_dtype_name(want));
  if (d->allowed_types && !opr_dtype_in_set(dt, d->allowed_types))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: %s has type %s; attr %s "
                     "must be one of %s", op->name,
                     input_text(&op->inputs[arg], i, what, sizeof what),
                     opr_dtype_name(dt), d->name,
                     opr_dtype_set_text(d->allowed_types, set, sizeof set));
  return OPR_OK;
}

/* A type attr given explicitly that is no type. */
OPR_COLD static opr_status bad_given_type(const opr_op_def *op,
                                          const opr_attr_def *d,
                                          const opr_attr_value *v) {
  if (!kind_matches(d, v)) return opr_attr_kind_error(op, d, v);
  return opr_error(OPR_INVALID_ARGUMENT, "%s: attr '%s' is not a valid type "
                   "(value %d)", op->name, d->name, (int)v->u.type);
}

/* opr_infer_type_attr with its messages: the fast path's fallback. */
OPR_COLD static opr_status infer_type_attr(opr_call *call, size_t arg,
                                           size_t attr) {
  const opr_attr_def *d = &call->op->attrs[attr];
  opr_attr_value *v = &call->attrs[attr];
  const opr_input *in = &call->inputs[arg];
  if (v->kind != OPR_ATTR_UNSET &&
      (!kind_matches(d, v) || !opr_dtype_known(v->u.type)))
    return bad_given_type(call->op, d, v);
  for (size_t i = 0; i < in->count; i++) {
    const opr_tensor *t;
    opr_status s = input_tensor(call, arg, i, &t);
    if (s) return s;
    opr_dtype want = v->kind == OPR_ATTR_TYPE ? v->u.type : OPR_DT_INVALID;
    if (!inferred_type_ok(d, t->dtype, want))
      return inferred_type_error(call, arg, i, d, t->dtype, want);
    if (v->kind == OPR_ATTR_UNSET) {
      v->kind = OPR_ATTR_TYPE;
      v->is_list = false;
      v->u.type = t->dtype;
    }
  }
  return OPR_OK;
}

OPR_NOINLINE static opr_status infer_type_attr_general(opr_call *call,
                                                       size_t arg,
                                                       size_t attr);

opr_status opr_infer_type_attr(opr_call *call, size_t arg, size_t attr) {
  const opr_attr_def *d = &call->op->attrs[attr];
  opr_attr_value *v = &call->attrs[attr];
  const opr_input *in = &call->inputs[arg];
  /* Fastest path: an unset attr inferred from one tensor. */
  if (v->kind == OPR_ATTR_UNSET && in->count == 1 && in->tensors &&
      in->tensors[0]) {
    opr_dtype dt = in->tensors[0]->dtype;
    if (!d->allowed_types || opr_dtype_in_set(dt, d->allowed_types)) {
      *v = (opr_attr_value){.kind = OPR_ATTR_TYPE, .u.type = dt};
      return OPR_OK;
    }
  }
  return infer_type_attr_general(call, arg, attr);
}

/* Several tensors, or a value given: agreement, then the messages. */
OPR_NOINLINE static opr_status infer_type_attr_general(opr_call *call,
                                                       size_t arg,
                                                       size_t attr) {
  const opr_attr_def *d = &call->op->attrs[attr];
  opr_attr_value *v = &call->attrs[attr];
  const opr_input *in = &call->inputs[arg];
  /* Fast path: no calls, nothing written until every tensor passed. */
  bool unset = v->kind == OPR_ATTR_UNSET;
  if (unset || (kind_matches(d, v) && opr_dtype_known(v->u.type))) {
    opr_dtype want = unset ? OPR_DT_INVALID : v->u.type;
    size_t i = 0;
    for (; i < in->count; i++) {
      const opr_tensor *t = in->tensors ? in->tensors[i] : NULL;
      if (!t || !inferred_type_ok(d, t->dtype, want)) break;
      want = t->dtype;
    }
    if (i == in->count) {
      if (unset && i > 0)
        *v = (opr_attr_value){.kind = OPR_ATTR_TYPE, .u.type = want};
      return OPR_OK;
    }
  }
  return infer_type_attr(call, arg, attr);
}

opr_status opr_infer_number_attr(opr_call *call, size_t arg, size_t attr) {
  const opr_op_def *op = call->op;
  const opr_attr_def *d = &op->attrs[attr];
  opr_attr_value *v = &call->attrs[attr];
  size_t n = call->inputs[arg].count;
  if (v->kind == OPR_ATTR_UNSET) {
    v->kind = OPR_ATTR_INT;
    v->is_list = false;
    v->u.i = (int64_t)n;
    return OPR_OK;
  }
  if (!kind_matches(d, v)) return opr_attr_kind_error(op, d, v);
  if (v->u.i == (int64_t)n) return OPR_OK;
  return opr_error(OPR_INVALID_ARGUMENT, "%s: input '%s' has %zu %s, but "
                   "attr %s is %" PRId64, op->name, op->inputs[arg].name, n,
                   plural(n, "tensor", "tensors"), d->name, v->u.i);
}

/* Storage for inferred type lists: the call's inline array first, then
 * heap blocks chained through `next` (opr_call_cleanup frees them). */
typedef struct type_block {
  struct type_block *next;
  opr_dtype types[];
} type_block;

static type_block *block_of(opr_dtype *types) {
  return types ? (type_block *)((char *)types - offsetof(type_block, types))
               : NULL;
}

static opr_dtype *alloc_types(opr_call *call, size_t n) {
  if (n <= OPR_CALL_INLINE_TYPES - call->inline_types_used) {
    opr_dtype *p = call->inline_types + call->inline_types_used;
    call->inline_types_used += n;
    return p;
  }
  if (n > (SIZE_MAX - sizeof(type_block)) / sizeof(opr_dtype)) return NULL;
  type_block *b = malloc(sizeof *b + n * sizeof b->types[0]);
  if (!b) return NULL;
  b->next = block_of(call->heap_types);
  call->heap_types = b->types;
  return b->types;
}

/* Checks input `arg` against a list(type) attr given explicitly. */
static opr_status check_given_type_list(const opr_call *call, size_t arg,
                                        const opr_attr_def *d,
                                        const opr_attr_value *v) {
  const opr_op_def *op = call->op;
  const opr_input *in = &call->inputs[arg];
  size_t n = v->u.list.count;
  if (n != in->count)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: input '%s' has %zu %s, but "
                     "attr %s has %zu %s", op->name, op->inputs[arg].name,
                     in->count, plural(in->count, "tensor", "tensors"),
                     d->name, n, plural(n, "type", "types"));
  const opr_dtype *types = v->u.list.items;
  for (size_t i = 0; i < n; i++) {
    const opr_tensor *t;
    opr_status s = input_tensor(call, arg, i, &t);
    if (s) return s;
    if (!types || t->dtype != types[i])
      return opr_error(OPR_INVALID_ARGUMENT, "%s: input '%s' element %zu "
                       "has type %s, but attr %s element %zu is %s",
                       op->name, op->inputs[arg].name, i,
                       opr_dtype_name(t->dtype), d->name, i,
                       opr_dtype_name(types ? types[i] : OPR_DT_INVALID));
  }
  return OPR_OK;
}

opr_status opr_infer_type_list_attr(opr_call *call, size_t arg,
                                    size_t attr) {
  const opr_op_def *op = call->op;
  const opr_attr_def *d = &op->attrs[attr];
  opr_attr_value *v = &call->attrs[attr];
  const opr_input *in = &call->inputs[arg];
  if (v->kind != OPR_ATTR_UNSET)
    return kind_matches(d, v) ? check_given_type_list(call, arg, d, v)
                              : opr_attr_kind_error(op, d, v);
  opr_dtype *types = alloc_types(call, in->count);
  if (!types)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory", op->name);
  for (size_t i = 0; i < in->count; i++) {
    const opr_tensor *t;
    opr_status s = input_tensor(call, arg, i, &t);
    if (s) return s;
    if (!inferred_type_ok(d, t->dtype, OPR_DT_INVALID))
      return inferred_type_error(call, arg, i, d, t->dtype, OPR_DT_INVALID);
    types[i] = t->dtype;
  }
  v->kind = OPR_ATTR_TYPE;
  v->is_list = true;
  v->u.list.count = in->count;
  v->u.list.items = types;
  return OPR_OK;
}

void opr_call_cleanup(opr_call *call) {
  if (!call) return;
  type_block *b = block_of(call->heap_types);
  while (b) {
    type_block *next = b->next;
    free(b);
    b = next;
  }
  call->heap_types = NULL;
  call->inline_types_used = 0;
}

size_t opr_output_count(const opr_call *call, size_t arg) {
  return opr_output_count_fast(call, arg);
}

opr_dtype opr_output_dtype(const opr_call *call, size_t arg, size_t index) {
  return opr_output_dtype_fast(call, arg, index);
}

OPR_COLD static opr_status output_error(const opr_call *call, size_t o,
                                        size_t n) {
  const opr_op_def *op = call->op;
  const opr_output *out = call->outputs ? &call->outputs[o] : NULL;
  if (!out || !out->tensors)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: output '%s' is NULL",
                     op->name, op->outputs[o].name);
  return opr_error(OPR_INVALID_ARGUMENT, "%s: output '%s' has room for %zu "
                   "%s; the op produces %zu", op->name, op->outputs[o].name,
                   out->count, plural(out->count, "tensor", "tensors"), n);
}

opr_status opr_check_outputs(opr_call *call) {
  size_t o = opr_first_bad_output(call);
  if (o == call->op->noutputs) return OPR_OK;
  return output_error(call, o, opr_output_count_fast(call, o));
}
