#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {
    [OG_ATTR_STRING] = "string", [OG_ATTR_INT] = "int",
    [OG_ATTR_FLOAT] = "float",   [OG_ATTR_BOOL] = "bool",
    [OG_ATTR_TYPE] = "type",     [OG_ATTR_SHAPE] = "shape",
    [OG_ATTR_TENSOR] = "tensor", [OG_ATTR_FUNC] = "func",
};

static const char *const list_names[] = {
    [OG_ATTR_STRING] = "list(string)", [OG_ATTR_INT] = "list(int)",
    [OG_ATTR_FLOAT] = "list(float)",   [OG_ATTR_BOOL] = "list(bool)",
    [OG_ATTR_TYPE] = "list(type)",     [OG_ATTR_SHAPE] = "list(shape)",
    [OG_ATTR_TENSOR] = "list(tensor)", [OG_ATTR_FUNC] = "list(func)",
};

enum { OG_ATTR_KIND_COUNT = OG_ATTR_FUNC + 1 };

const char *og_attr_kind_name(og_attr_kind k) { return kind_names[k]; }

const char *og_attr_type_name(og_attr_type t) {
  return t.is_list ? list_names[t.kind] : kind_names[t.kind];
}

bool og_attr_type_parse(const char *s, og_attr_type *out) {
  for (int k = 0; k < OG_ATTR_KIND_COUNT; k++) {
    if (strcmp(s, kind_names[k]) == 0 || strcmp(s, list_names[k]) == 0) {
      out->kind = (og_attr_kind)k;
      out->is_list = strcmp(s, list_names[k]) == 0;
      return true;
    }
  }
  return false;
}

og_model *og_model_new(void) {
  og_model *m = og_xmalloc(sizeof *m);
  memset(m, 0, sizeof *m);
  og_arena_init(&m->arena);
  return m;
}

void og_model_free(og_model *m) {
  if (!m) return;
  og_arena_free(&m->arena);
  free(m->ops);
  free(m);
}

static int compare_ops(const void *a, const void *b) {
  const og_op *x = *(const og_op *const *)a, *y = *(const og_op *const *)b;
  return strcmp(x->name, y->name);
}

void og_model_sort(og_model *m) {
  if (m->nops > 1) qsort(m->ops, m->nops, sizeof *m->ops, compare_ops);
}

const og_op *og_model_find(const og_model *m, const char *name) {
  size_t lo = 0, hi = m->nops;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(m->ops[mid]->name, name);
    if (c == 0) return m->ops[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

void og_op_index_attrs(og_arena *arena, og_op *op) {
  og_strmap_init(&op->attr_index, arena, op->nattrs);
  for (size_t i = 0; i < op->nattrs; i++)
    og_strmap_put(&op->attr_index, op->attrs[i].name, i);
}

const og_attr *og_op_find_attr(const og_op *op, const char *name) {
  size_t i;
  if (op->attr_index.keys) { /* a hit is checked; a miss is trusted */
    if (!og_strmap_get(&op->attr_index, name, &i)) return NULL;
    if (i < op->nattrs && strcmp(op->attrs[i].name, name) == 0)
      return &op->attrs[i];
  }
  for (size_t i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) return &op->attrs[i];
  return NULL;
}

static bool str_eq(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "") == 0;
}

static bool shape_equal(const og_shape *a, const og_shape *b) {
  if (a->unknown_rank != b->unknown_rank || a->rank != b->rank) return false;
  return a->rank == 0 || memcmp(a->dims, b->dims, a->rank * sizeof *a->dims) == 0;
}

static bool values_equal(size_t n, const og_value *a, const og_value *b) {
  for (size_t i = 0; i < n; i++)
    if (!og_value_equal(&a[i], &b[i])) return false;
  return true;
}

bool og_value_equal(const og_value *a, const og_value *b) {
  if (!a || !b) return a == b;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case OG_VAL_STRING:
    return a->u.s.len == b->u.s.len &&
           memcmp(a->u.s.ptr, b->u.s.ptr, a->u.s.len) == 0;
  case OG_VAL_INT: return a->u.i == b->u.i;
  case OG_VAL_FLOAT:
    /* Exact: -0.0 differs from 0.0, and every nan equals every nan. */
    if (isnan(a->u.f) || isnan(b->u.f)) return isnan(a->u.f) && isnan(b->u.f);
    return a->u.f == b->u.f && signbit(a->u.f) == signbit(b->u.f);
  case OG_VAL_BOOL: return a->u.b == b->u.b;
  case OG_VAL_TYPE: return a->u.type == b->u.type;
  case OG_VAL_SHAPE: return shape_equal(&a->u.shape, &b->u.shape);
  case OG_VAL_TENSOR:
    return a->u.tensor.dtype == b->u.tensor.dtype &&
           shape_equal(&a->u.tensor.shape, &b->u.tensor.shape) &&
           a->u.tensor.nvalues == b->u.tensor.nvalues &&
           values_equal(a->u.tensor.nvalues, a->u.tensor.values,
                        b->u.tensor.values);
  case OG_VAL_FUNC: return str_eq(a->u.func, b->u.func);
  case OG_VAL_LIST:
    return a->u.list.count == b->u.list.count &&
           values_equal(a->u.list.count, a->u.list.items, b->u.list.items);
  }
  return false;
}

static bool arg_equal(const og_arg *a, const og_arg *b) {
  return str_eq(a->name, b->name) && str_eq(a->description, b->description) &&
         a->type == b->type && str_eq(a->type_attr, b->type_attr) &&
         str_eq(a->number_attr, b->number_attr) &&
         str_eq(a->type_list_attr, b->type_list_attr) && a->is_ref == b->is_ref;
}

static bool attr_equal(const og_attr *a, const og_attr *b) {
  return str_eq(a->name, b->name) && a->type.kind == b->type.kind &&
         a->type.is_list == b->type.is_list &&
         a->has_minimum == b->has_minimum && a->minimum == b->minimum &&
         og_value_equal(a->allowed, b->allowed) &&
         og_value_equal(a->default_value, b->default_value) &&
         str_eq(a->description, b->description);
}

bool og_op_equal(const og_op *a, const og_op *b) {
  if (!str_eq(a->name, b->name) || !str_eq(a->summary, b->summary) ||
      !str_eq(a->description, b->description) ||
      a->ninputs != b->ninputs || a->noutputs != b->noutputs ||
      a->nattrs != b->nattrs || a->is_stateful != b->is_stateful ||
      a->is_commutative != b->is_commutative ||
      a->is_aggregate != b->is_aggregate ||
      a->allows_uninitialized_input != b->allows_uninitialized_input ||
      a->is_distributed_communication != b->is_distributed_communication ||
      a->deprecated != b->deprecated)
    return false;
  if (a->deprecated && (a->deprecation_version != b->deprecation_version ||
                        !str_eq(a->deprecation_explanation,
                                b->deprecation_explanation)))
    return false;
  for (size_t i = 0; i < a->ninputs; i++)
    if (!arg_equal(&a->inputs[i], &b->inputs[i])) return false;
  for (size_t i = 0; i < a->noutputs; i++)
    if (!arg_equal(&a->outputs[i], &b->outputs[i])) return false;
  for (size_t i = 0; i < a->nattrs; i++)
    if (!attr_equal(&a->attrs[i], &b->attrs[i])) return false;
  return true;
}
