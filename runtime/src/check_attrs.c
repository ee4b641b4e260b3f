/* opr_check_attrs: defaults, required attrs, kinds, allowed values and
 * minimums, in that order for each attr. */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum { NOT_IN_LIST = -1 };

/* "attr 'a'" or "attr 'a' element 2". */
static const char *attr_text(const opr_attr_def *d, long index, char *buf,
                             size_t n) {
  if (index == NOT_IN_LIST) snprintf(buf, n, "attr '%s'", d->name);
  else snprintf(buf, n, "attr '%s' element %ld", d->name, index);
  return buf;
}

/* "{'apple', 'orange'}" */
static const char *strings_text(const opr_attr_def *d, char *buf, size_t n) {
  size_t pos = 0;
  for (size_t i = 0; i < d->nallowed_strings && pos < n; i++) {
    const opr_str *s = &d->allowed_strings[i];
    int w = snprintf(buf + pos, n - pos, "%s'%.*s'", i ? ", " : "{",
                     (int)s->len, s->ptr);
    pos += w > 0 ? (size_t)w : 0;
  }
  if (pos < n) snprintf(buf + pos, n - pos, "%s}", pos ? "" : "{");
  return buf;
}

static bool string_allowed(const opr_attr_def *d, opr_str s) {
  for (size_t i = 0; i < d->nallowed_strings; i++) {
    const opr_str *a = &d->allowed_strings[i];
    if (a->len == s.len && (s.len == 0 || memcmp(a->ptr, s.ptr, s.len) == 0))
      return true;
  }
  return false;
}

static opr_status check_type_value(const opr_op_def *op,
                                   const opr_attr_def *d, opr_dtype dt,
                                   long index) {
  char what[256], set[512];
  if (!opr_dtype_known(dt))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: %s is not a valid type "
                     "(value %d)", op->name,
                     attr_text(d, index, what, sizeof what), (int)dt);
  if (d->allowed_types && !opr_dtype_in_set(dt, d->allowed_types))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: %s is %s; must be one of %s",
                     op->name, attr_text(d, index, what, sizeof what),
                     opr_dtype_name(dt),
                     opr_dtype_set_text(d->allowed_types, set, sizeof set));
  return OPR_OK;
}

static opr_status check_string_value(const opr_op_def *op,
                                     const opr_attr_def *d, opr_str s,
                                     long index) {
  char what[256], set[512];
  if (!s.ptr && s.len > 0)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: %s is NULL", op->name,
                     attr_text(d, index, what, sizeof what));
  if (!d->allowed_strings || string_allowed(d, s)) return OPR_OK;
  return opr_error(OPR_INVALID_ARGUMENT, "%s: %s is '%.*s'; must be one of "
                   "%s", op->name, attr_text(d, index, what, sizeof what),
                   (int)s.len, s.ptr ? s.ptr : "",
                   strings_text(d, set, sizeof set));
}

/* One value: a scalar attr (index NOT_IN_LIST) or a list element. */
static opr_status check_value(const opr_op_def *op, const opr_attr_def *d,
                              const opr_attr_value *v, long index) {
  char what[256];
  bool null = false;
  switch (v->kind) {
  case OPR_ATTR_TYPE: return check_type_value(op, d, v->u.type, index);
  case OPR_ATTR_STRING: return check_string_value(op, d, v->u.s, index);
  case OPR_ATTR_INT:
    if (index == NOT_IN_LIST && d->has_minimum && v->u.i < d->minimum)
      return opr_error(OPR_INVALID_ARGUMENT, "%s: %s is %" PRId64 "; must "
                       "be >= %" PRId64, op->name,
                       attr_text(d, index, what, sizeof what), v->u.i,
                       d->minimum);
    return OPR_OK;
  case OPR_ATTR_SHAPE:
    if (v->u.shape.rank < -1 || (v->u.shape.rank > 0 && !v->u.shape.dims))
      return opr_error(OPR_INVALID_ARGUMENT, "%s: %s is not a valid shape",
                       op->name, attr_text(d, index, what, sizeof what));
    return OPR_OK;
  case OPR_ATTR_TENSOR: null = !v->u.tensor; break;
  case OPR_ATTR_FUNC: null = !v->u.func; break;
  default: break;
  }
  if (null)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: %s is NULL", op->name,
                     attr_text(d, index, what, sizeof what));
  return OPR_OK;
}

/* Element i of a list value as a scalar value. */
static opr_attr_value list_item(const opr_attr_value *v, size_t i) {
  opr_attr_value e = {.kind = v->kind, .is_list = false};
  const void *p = v->u.list.items;
  switch (v->kind) {
  case OPR_ATTR_STRING: e.u.s = ((const opr_str *)p)[i]; break;
  case OPR_ATTR_INT: e.u.i = ((const int64_t *)p)[i]; break;
  case OPR_ATTR_FLOAT: e.u.f = ((const float *)p)[i]; break;
  case OPR_ATTR_BOOL: e.u.b = ((const bool *)p)[i]; break;
  case OPR_ATTR_TYPE: e.u.type = ((const opr_dtype *)p)[i]; break;
  case OPR_ATTR_SHAPE: e.u.shape = ((const opr_shape *)p)[i]; break;
  case OPR_ATTR_TENSOR:
    e.u.tensor = ((const opr_tensor *const *)p)[i];
    break;
  case OPR_ATTR_FUNC: e.u.func = ((const char *const *)p)[i]; break;
  default: break;
  }
  return e;
}

static opr_status check_list(const opr_op_def *op, const opr_attr_def *d,
                             const opr_attr_value *v) {
  size_t n = v->u.list.count;
  if (n > 0 && !v->u.list.items)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: attr '%s' has %zu elements "
                     "but no items", op->name, d->name, n);
  for (size_t i = 0; i < n; i++) {
    opr_attr_value e = list_item(v, i);
    opr_status s = check_value(op, d, &e, (long)i);
    if (s) return s;
  }
  if (d->has_minimum && (int64_t)n < d->minimum)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: attr '%s' has %zu %s; must "
                     "have >= %" PRId64, op->name, d->name, n,
                     n == 1 ? "element" : "elements", d->minimum);
  return OPR_OK;
}

opr_status opr_attr_kind_error(const opr_op_def *op, const opr_attr_def *d,
                               const opr_attr_value *v) {
  opr_attr_type got = {v->kind, v->is_list};
  return opr_error(OPR_INVALID_ARGUMENT, "%s: attr '%s' must be %s, got %s",
                   op->name, d->name, opr_attr_type_name(d->type),
                   opr_attr_type_name(got));
}

/* The full check of one set attr, messages included. */
OPR_COLD static opr_status check_attr(const opr_op_def *op,
                                      const opr_attr_def *d,
                                      const opr_attr_value *v) {
  if (v->kind == OPR_ATTR_UNSET)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: attr '%s' is required",
                     op->name, d->name);
  if (v->kind != d->type.kind || v->is_list != d->type.is_list)
    return opr_attr_kind_error(op, d, v);
  return v->is_list ? check_list(op, d, v)
                    : check_value(op, d, v, NOT_IN_LIST);
}

/* The common scalar cases that pass, decided without building anything;
 * false sends the attr to check_attr. */
static inline bool attr_plainly_ok(const opr_attr_def *d,
                                   const opr_attr_value *v) {
  if (v->kind != d->type.kind || v->is_list || d->type.is_list) return false;
  switch (v->kind) {
  case OPR_ATTR_TYPE:
    return opr_dtype_known(v->u.type) &&
           (!d->allowed_types || opr_dtype_in_set(v->u.type, d->allowed_types));
  case OPR_ATTR_INT: return !d->has_minimum || v->u.i >= d->minimum;
  case OPR_ATTR_FLOAT:
  case OPR_ATTR_BOOL: return true;
  default: return false;
  }
}

/* Applies defaults from attr `i` on; returns the index of the first attr
 * that needs check_attr, or nattrs. No calls: a leaf. */
static inline size_t first_unusual_attr(opr_call *call, size_t i) {
  const opr_op_def *op = call->op;
  for (; i < op->nattrs; i++) {
    const opr_attr_def *d = &op->attrs[i];
    opr_attr_value *v = &call->attrs[i];
    if (v->kind == OPR_ATTR_UNSET && d->default_value) *v = *d->default_value;
    if (!attr_plainly_ok(d, v)) break;
  }
  return i;
}

OPR_COLD static opr_status check_attrs_from(opr_call *call, size_t i) {
  const opr_op_def *op = call->op;
  for (; i < op->nattrs; i = first_unusual_attr(call, i + 1)) {
    opr_status s = check_attr(op, &op->attrs[i], &call->attrs[i]);
    if (s) return s;
  }
  return OPR_OK;
}

opr_status opr_check_attrs(opr_call *call) {
  size_t i = first_unusual_attr(call, 0);
  return i == call->op->nattrs ? OPR_OK : check_attrs_from(call, i);
}
