/* A tape record: one allocation for the record, its tensor arrays, its
 * argument starts, its attrs and the bytes the attrs point to (strings,
 * shapes' dims, list items), sized by a first pass over the attrs. The
 * attrs are copied because the call's are borrowed: a typed wrapper's
 * live on its stack, and list(type) values the check inferred are freed
 * by opr_call_cleanup once the call returns. */
#include "tape_internal.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

/* `n` bytes at *pos, aligned for any item; NULL in the sizing pass
 * (buf NULL). */
static void *take(char *buf, size_t *pos, size_t n) {
  size_t a = alignof(max_align_t);
  size_t at = (*pos + a - 1) / a * a;
  *pos = at + n;
  return buf ? buf + at : NULL;
}

static opr_str copy_str(opr_str s, char *buf, size_t *pos) {
  char *p = take(buf, pos, s.len + 1);
  if (p) {
    if (s.len) memcpy(p, s.ptr, s.len);
    p[s.len] = '\0';
  }
  return (opr_str){p, s.len};
}

static opr_shape copy_shape(opr_shape s, char *buf, size_t *pos) {
  if (s.rank <= 0 || !s.dims) return (opr_shape){s.rank, NULL};
  int64_t *d = take(buf, pos, (size_t)s.rank * sizeof *d);
  if (d) memcpy(d, s.dims, (size_t)s.rank * sizeof *d);
  return (opr_shape){s.rank, d};
}

static const char *copy_func(const char *f, char *buf, size_t *pos) {
  if (!f) return NULL;
  size_t n = strlen(f) + 1;
  char *p = take(buf, pos, n);
  if (p) memcpy(p, f, n);
  return p;
}

/* The strings and dims of list item i (its other kinds are plain). */
static void copy_item(opr_attr_kind kind, const void *src, void *dst,
                      char *buf, size_t *pos) {
  if (kind == OPR_ATTR_STRING) {
    opr_str s = copy_str(*(const opr_str *)src, buf, pos);
    if (dst) *(opr_str *)dst = s;
  } else if (kind == OPR_ATTR_SHAPE) {
    opr_shape s = copy_shape(*(const opr_shape *)src, buf, pos);
    if (dst) *(opr_shape *)dst = s;
  } else if (kind == OPR_ATTR_FUNC) {
    const char *f = copy_func(*(const char *const *)src, buf, pos);
    if (dst) *(const char **)dst = f;
  }
}

static void copy_list(const opr_attr_value *src, opr_attr_value *dst,
                      char *buf, size_t *pos) {
  size_t size = opr_attr_item_size(src->kind), n = src->u.list.count;
  const char *from = src->u.list.items;
  char *items = n && from ? take(buf, pos, n * size) : NULL;
  if (items) memcpy(items, from, n * size);
  if (items && src->kind == OPR_ATTR_TENSOR) memset(items, 0, n * size);
  for (size_t i = 0; from && i < n; i++)
    copy_item(src->kind, from + i * size, items ? items + i * size : NULL,
              buf, pos);
  if (dst) dst->u.list.items = items;
}

/* Copies one attr's bytes into buf at *pos (or only counts them, buf
 * NULL). Tensors are left NULL, for hold_attr_tensors. */
static void copy_attr(const opr_attr_value *src, opr_attr_value *dst,
                      char *buf, size_t *pos) {
  if (dst) *dst = *src;
  if (src->is_list) {
    copy_list(src, dst, buf, pos);
    return;
  }
  if (src->kind == OPR_ATTR_STRING) {
    opr_str s = copy_str(src->u.s, buf, pos);
    if (dst) dst->u.s = s;
  } else if (src->kind == OPR_ATTR_SHAPE) {
    opr_shape s = copy_shape(src->u.shape, buf, pos);
    if (dst) dst->u.shape = s;
  } else if (src->kind == OPR_ATTR_FUNC) {
    const char *f = copy_func(src->u.func, buf, pos);
    if (dst) dst->u.func = f;
  } else if (src->kind == OPR_ATTR_TENSOR && dst) {
    dst->u.tensor = NULL;
  }
}

/* A host copy of a tensor the runtime did not allocate (refcount 0: on
 * the caller's stack, say), which the record cannot keep a reference
 * to; NULL when out of memory or on a device. */
static opr_tensor *copy_foreign(const opr_tensor *t) {
  opr_tensor *c = NULL;
  if (t->device != OPR_DEVICE_CPU || (t->nbytes && !t->data)) return NULL;
  opr_status s = opr_tensor_create("opr_tape", t->dtype, t->rank, t->dims,
                                   &c);
  if (s) {
    opr_status_free(s);
    return NULL;
  }
  if (t->dtype != OPR_DT_STRING) {
    if (c->nbytes) memcpy(c->data, t->data, c->nbytes);
    return c;
  }
  const opr_string *from = t->data;
  for (int64_t i = 0; !s && i < c->num_elements; i++)
    s = opr_tensor_set_string(c, i, from[i].data, from[i].len);
  if (s) {
    opr_status_free(s);
    opr_tensor_unref(c);
    return NULL;
  }
  return c;
}

opr_tensor *opr_tape_hold(const opr_tensor *t) {
  if (!t) return NULL;
  opr_tensor *m = (opr_tensor *)t;
  if (__atomic_load_n(&m->refcount, __ATOMIC_RELAXED) == 0)
    return copy_foreign(t);
  return opr_tensor_ref(m);
}

/* Takes references to the attrs' tensors; false when one fails. */
static bool hold_attr_tensors(const opr_call *call, tape_record *r) {
  for (size_t a = 0; a < r->op->nattrs; a++) {
    const opr_attr_value *src = &call->attrs[a];
    opr_attr_value *dst = &r->attrs[a];
    if (src->kind != OPR_ATTR_TENSOR) continue;
    if (!src->is_list) {
      if (src->u.tensor && !(dst->u.tensor = opr_tape_hold(src->u.tensor)))
        return false;
      continue;
    }
    const opr_tensor *const *from = src->u.list.items;
    const opr_tensor **to = (const opr_tensor **)dst->u.list.items;
    for (size_t i = 0; to && i < src->u.list.count; i++)
      if (from[i] && !(to[i] = opr_tape_hold(from[i]))) return false;
  }
  return true;
}

/* The flattened inputs and outputs, and each argument's start. */
static bool hold_args(const opr_call *call, tape_record *r) {
  const opr_op_def *op = call->op;
  size_t n = 0;
  for (size_t a = 0; a < op->ninputs; a++) {
    r->input_starts[a] = n;
    for (size_t j = 0; j < call->inputs[a].count; j++, n++)
      if (!(r->inputs[n] = opr_tape_hold(call->inputs[a].tensors[j])))
        return false;
  }
  r->input_starts[op->ninputs] = n;
  n = 0;
  for (size_t o = 0; o < op->noutputs; o++) {
    r->output_starts[o] = n;
    for (size_t j = 0; j < opr_output_count_fast(call, o); j++, n++)
      r->outputs[n] = opr_tensor_ref(call->outputs[o].tensors[j]);
  }
  r->output_starts[op->noutputs] = n;
  return true;
}

static void count_args(const opr_call *call, size_t *nin, size_t *nout) {
  *nin = *nout = 0;
  for (size_t a = 0; a < call->op->ninputs; a++) *nin += call->inputs[a].count;
  for (size_t o = 0; o < call->op->noutputs; o++)
    *nout += opr_output_count_fast(call, o);
}

tape_record *opr_tape_record_new(const opr_call *call) {
  const opr_op_def *op = call->op;
  size_t nin, nout, pos = 0;
  count_args(call, &nin, &nout);
  take(NULL, &pos, sizeof(tape_record));
  size_t at_in = pos; take(NULL, &pos, nin * sizeof(opr_tensor *));
  size_t at_out = pos; take(NULL, &pos, nout * sizeof(opr_tensor *));
  size_t at_is = pos; take(NULL, &pos, (op->ninputs + 1) * sizeof(size_t));
  size_t at_os = pos; take(NULL, &pos, (op->noutputs + 1) * sizeof(size_t));
  size_t at_attrs = pos;
  take(NULL, &pos, op->nattrs * sizeof(opr_attr_value));
  for (size_t a = 0; a < op->nattrs; a++)
    copy_attr(&call->attrs[a], NULL, NULL, &pos);
  /* Not calloc, which bypasses glibc's per-thread cache (tensor.c). */
  char *buf = malloc(pos);
  if (!buf) return NULL;
  memset(buf, 0, pos);
  tape_record *r = (tape_record *)buf;
  *r = (tape_record){.refs = 1, .op = op, .ninputs = nin, .noutputs = nout,
                     .inputs = (opr_tensor **)(buf + at_in),
                     .outputs = (opr_tensor **)(buf + at_out),
                     .input_starts = (size_t *)(buf + at_is),
                     .output_starts = (size_t *)(buf + at_os),
                     .attrs = (opr_attr_value *)(buf + at_attrs)};
  pos = at_attrs + op->nattrs * sizeof(opr_attr_value);
  for (size_t a = 0; a < op->nattrs; a++)
    copy_attr(&call->attrs[a], &r->attrs[a], buf, &pos);
  if (!hold_args(call, r) || !hold_attr_tensors(call, r)) {
    opr_tape_record_unref(r);
    return NULL;
  }
  return r;
}

static void release_attr_tensors(tape_record *r) {
  for (size_t a = 0; a < r->op->nattrs; a++) {
    opr_attr_value *v = &r->attrs[a];
    if (v->kind != OPR_ATTR_TENSOR) continue;
    if (!v->is_list) {
      opr_tensor_unref((opr_tensor *)v->u.tensor);
      continue;
    }
    const opr_tensor *const *items = v->u.list.items;
    for (size_t i = 0; items && i < v->u.list.count; i++)
      opr_tensor_unref((opr_tensor *)items[i]);
  }
}

void opr_tape_record_unref(tape_record *r) {
  if (!r || __atomic_fetch_sub(&r->refs, 1, __ATOMIC_ACQ_REL) != 1) return;
  for (size_t i = 0; i < r->ninputs; i++) opr_tensor_unref(r->inputs[i]);
  for (size_t i = 0; i < r->noutputs; i++) opr_tensor_unref(r->outputs[i]);
  release_attr_tensors(r);
  free(r);
}
