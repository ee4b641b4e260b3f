/* The kernels of call_lib.op (tests/python/test_call.py). */
#include "opgen_library.h"

#include <stdio.h>
#include <string.h>

static const opr_attr_value *attr(opr_kernel_ctx *k, const char *name) {
  const opr_op_def *op = k->call->op;
  for (size_t i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) return &k->call->attrs[i];
  return NULL;
}

static const opr_tensor *input(opr_kernel_ctx *k, size_t arg) {
  return k->call->inputs[arg].tensors[0];
}

static opr_status nothing(opr_kernel_ctx *k) {
  (void)k;
  return OPR_OK;
}

static opr_status two(opr_kernel_ctx *k) {
  const opr_tensor *x = input(k, 0);
  opr_tensor *a, *b;
  opr_status s = opr_kernel_alloc_output(k, 0, 0, x->rank, x->dims, &a);
  if (!s) s = opr_kernel_alloc_output(k, 1, 0, x->rank, x->dims, &b);
  if (s) return s;
  memcpy(a->data, x->data, x->nbytes);
  for (int64_t i = 0; i < x->num_elements; i++) {
    if (x->dtype == OPR_DT_FLOAT)
      ((float *)b->data)[i] = ((const float *)x->data)[i] + 1;
    else
      ((int32_t *)b->data)[i] = ((const int32_t *)x->data)[i] + 1;
  }
  return OPR_OK;
}

static opr_status repeat(opr_kernel_ctx *k) {
  const opr_tensor *x = input(k, 0);
  int64_t n = attr(k, "N")->u.i;
  for (int64_t j = 0; j < n; j++) {
    opr_tensor *o;
    opr_status s = opr_kernel_alloc_output(k, 0, (size_t)j, x->rank, x->dims,
                                           &o);
    if (s) return s;
    memcpy(o->data, x->data, x->nbytes);
  }
  return OPR_OK;
}

static opr_status strings(opr_kernel_ctx *k) {
  opr_str v = attr(k, "s")->u.s;
  int64_t n = attr(k, "n")->u.i;
  opr_tensor *o;
  opr_status s = opr_kernel_alloc_output(k, 0, 0, 1, &n, &o);
  for (int64_t i = 0; !s && i < n; i++)
    s = opr_tensor_set_string(o, i, v.ptr, v.len);
  return s;
}

static opr_status scalar(opr_kernel_ctx *k, size_t arg, opr_tensor **o) {
  return opr_kernel_alloc_output(k, arg, 0, 0, NULL, o);
}

static opr_status echo(opr_kernel_ctx *k) {
  opr_tensor *f, *b, *l, *sh, *t;
  const opr_attr_value *lv = attr(k, "l");
  const opr_shape shape = attr(k, "sh")->u.shape;
  int64_t nl = (int64_t)lv->u.list.count;
  int64_t nsh = 1 + (shape.rank > 0 ? shape.rank : 0);
  opr_status s = scalar(k, 0, &f);
  if (!s) s = scalar(k, 1, &b);
  if (!s) s = opr_kernel_alloc_output(k, 2, 0, 1, &nl, &l);
  if (!s) s = opr_kernel_alloc_output(k, 3, 0, 1, &nsh, &sh);
  if (!s) s = scalar(k, 4, &t);
  if (s) return s;
  *(float *)f->data = attr(k, "f")->u.f;
  *(bool *)b->data = attr(k, "b")->u.b;
  if (nl > 0) memcpy(l->data, lv->u.list.items, (size_t)nl * sizeof(int64_t));
  int64_t *d = sh->data;
  d[0] = shape.rank;
  for (int i = 0; i < shape.rank; i++) d[1 + i] = shape.dims[i];
  *(int32_t *)t->data = (int32_t)attr(k, "t")->u.type;
  return OPR_OK;
}

static opr_status reg(const char *op, opr_kernel_fn fn) {
  opr_kernel_def def = {.op = op, .device = OPR_DEVICE_CPU, .fn = fn,
                        .label = "call_lib"};
  return opr_register_kernel(&def);
}

opr_status call_lib_register_kernels(void) {
  opr_status s = reg("CallNothing", nothing);
  if (!s) s = reg("CallTwo", two);
  if (!s) s = reg("CallRepeat", repeat);
  if (!s) s = reg("CallStrings", strings);
  if (!s) s = reg("CallEcho", echo);
  return s;
}
