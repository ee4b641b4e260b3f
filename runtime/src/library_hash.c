/* The hash of op definitions that an op library declares and the loader
 * checks. FNV-1a over a canonical byte stream: every field goes in with
 * a tag and, for variable-length data, its length, integers as 8 bytes
 * little-endian, so that the stream (and the hash) does not depend on the
 * host's byte order, struct layout or pointer values. Attrs that
 * arguments refer to go in by name, not index. It detects changes, not
 * tampering. */
#include "internal.h"
#include "library_internal.h"
#include "opr/library.h"

#include <string.h>

typedef struct hasher {
  uint64_t h;
} hasher;

static void put_bytes(hasher *x, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    x->h = (x->h ^ b[i]) * UINT64_C(1099511628211);
}

static void put_u64(hasher *x, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
  put_bytes(x, b, sizeof b);
}

/* A NULL string and "" hash differently. */
static void put_str(hasher *x, const char *s) {
  size_t n = s ? strlen(s) : 0;
  put_u64(x, s ? (uint64_t)n : UINT64_MAX);
  put_bytes(x, s, n);
}

static void put_attr_name(hasher *x, const opr_op_def *op, int attr) {
  put_str(x, attr >= 0 && (size_t)attr < op->nattrs ? op->attrs[attr].name
                                                    : NULL);
}

static void put_arg(hasher *x, const opr_op_def *op, const opr_arg_def *a) {
  put_str(x, a->name);
  put_u64(x, (uint64_t)a->type);
  put_attr_name(x, op, a->type_attr);
  put_attr_name(x, op, a->number_attr);
  put_attr_name(x, op, a->type_list_attr);
  put_u64(x, a->is_ref);
}

static void put_shape(hasher *x, opr_shape s) {
  put_u64(x, (uint64_t)(int64_t)s.rank);
  for (int i = 0; s.dims && i < s.rank; i++) put_u64(x, (uint64_t)s.dims[i]);
}

/* A tensor value: dtype, shape and elements (a string's bytes). */
static void put_tensor(hasher *x, const opr_tensor *t) {
  if (!t) {
    put_u64(x, UINT64_MAX);
    return;
  }
  put_u64(x, (uint64_t)t->dtype);
  put_shape(x, (opr_shape){t->rank, t->dims});
  if (t->dtype == OPR_DT_STRING) {
    const opr_string *e = t->data;
    for (int64_t i = 0; e && i < t->num_elements; i++) {
      put_u64(x, e[i].len);
      put_bytes(x, e[i].data, e[i].len);
    }
  } else if (t->data && t->device == OPR_DEVICE_CPU) {
    put_u64(x, t->nbytes);
    put_bytes(x, t->data, t->nbytes);
  }
}

/* One scalar of kind `kind` at `p` (an element of a list, or a value). */
static void put_scalar(hasher *x, opr_attr_kind kind, const void *p) {
  switch (kind) {
  case OPR_ATTR_STRING: {
    const opr_str *s = p;
    put_u64(x, s->len);
    put_bytes(x, s->ptr, s->len);
    break;
  }
  case OPR_ATTR_INT: put_u64(x, (uint64_t) * (const int64_t *)p); break;
  case OPR_ATTR_FLOAT: {
    uint32_t bits;
    memcpy(&bits, p, sizeof bits);
    put_u64(x, bits);
    break;
  }
  case OPR_ATTR_BOOL: put_u64(x, *(const bool *)p); break;
  case OPR_ATTR_TYPE: put_u64(x, (uint64_t) * (const opr_dtype *)p); break;
  case OPR_ATTR_SHAPE: put_shape(x, *(const opr_shape *)p); break;
  case OPR_ATTR_TENSOR: put_tensor(x, *(const opr_tensor *const *)p); break;
  case OPR_ATTR_FUNC: put_str(x, *(const char *const *)p); break;
  case OPR_ATTR_UNSET: break;
  }
}

static void put_value(hasher *x, const opr_attr_value *v) {
  if (!v) {
    put_u64(x, UINT64_MAX); /* no default */
    return;
  }
  put_u64(x, (uint64_t)v->kind);
  put_u64(x, v->is_list);
  if (!v->is_list) {
    put_scalar(x, v->kind, &v->u);
    return;
  }
  const char *items = v->u.list.items;
  size_t size = opr_attr_item_size(v->kind);
  put_u64(x, v->u.list.count);
  for (size_t i = 0; items && i < v->u.list.count; i++)
    put_scalar(x, v->kind, items + i * size);
}

static void put_attr(hasher *x, const opr_attr_def *a) {
  put_str(x, a->name);
  put_u64(x, (uint64_t)a->type.kind);
  put_u64(x, a->type.is_list);
  put_u64(x, a->has_minimum);
  put_u64(x, a->has_minimum ? (uint64_t)a->minimum : 0);
  put_u64(x, a->allowed_types);
  put_u64(x, a->allowed_strings ? (uint64_t)a->nallowed_strings : UINT64_MAX);
  for (size_t i = 0; a->allowed_strings && i < a->nallowed_strings; i++)
    put_scalar(x, OPR_ATTR_STRING, &a->allowed_strings[i]);
  put_value(x, a->default_value);
  put_u64(x, a->inferred);
}

/* The parts of a definition, hashed one by one so that two definitions
 * can be told apart by part. */
typedef enum def_part {
  PART_NAME, PART_INPUTS, PART_OUTPUTS, PART_ATTRS, PART_FLAGS, PART_COUNT
} def_part;

static void put_part(hasher *x, const opr_op_def *def, def_part part) {
  switch (part) {
  case PART_NAME: put_str(x, def->name); break;
  case PART_INPUTS:
    put_u64(x, def->ninputs);
    for (size_t i = 0; def->inputs && i < def->ninputs; i++)
      put_arg(x, def, &def->inputs[i]);
    break;
  case PART_OUTPUTS:
    put_u64(x, def->noutputs);
    for (size_t i = 0; def->outputs && i < def->noutputs; i++)
      put_arg(x, def, &def->outputs[i]);
    break;
  case PART_ATTRS:
    put_u64(x, def->nattrs);
    for (size_t i = 0; def->attrs && i < def->nattrs; i++)
      put_attr(x, &def->attrs[i]);
    break;
  case PART_FLAGS:
    put_u64(x, (uint64_t)def->is_stateful |
                   (uint64_t)def->is_commutative << 1 |
                   (uint64_t)def->is_aggregate << 2 |
                   (uint64_t)def->allows_uninitialized_input << 3);
    break;
  case PART_COUNT: break;
  }
}

uint64_t opr_attr_value_hash(const opr_attr_value *v) {
  hasher x = {UINT64_C(14695981039346656037)};
  put_value(&x, v);
  return x.h;
}

uint64_t opr_op_def_hash(const opr_op_def *def) {
  hasher x = {UINT64_C(14695981039346656037)};
  if (!def) return x.h;
  for (int p = 0; p < PART_COUNT; p++) put_part(&x, def, (def_part)p);
  return x.h;
}

const char *opr_op_def_difference(const opr_op_def *a, const opr_op_def *b) {
  static const char *const what[PART_COUNT] = {
      "their names differ", "their inputs differ", "their outputs differ",
      "their attrs differ", "their flags differ"};
  for (int p = 0; a && b && p < PART_COUNT; p++) {
    hasher x = {UINT64_C(14695981039346656037)}, y = x;
    put_part(&x, a, (def_part)p);
    put_part(&y, b, (def_part)p);
    if (x.h != y.h) return what[p];
  }
  return "they differ";
}

/* Scrambles an op's hash before the sum, so that sums of related hashes
 * do not cancel (splitmix64's finalizer). */
static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* A sum, so the order of the set does not matter and nothing is
 * allocated. */
uint64_t opr_op_defs_hash(const opr_op_def *const *defs, size_t n) {
  hasher x = {UINT64_C(14695981039346656037)};
  uint64_t sum = 0;
  for (size_t i = 0; defs && i < n; i++) sum += mix(opr_op_def_hash(defs[i]));
  put_u64(&x, n);
  put_u64(&x, sum);
  return x.h;
}
