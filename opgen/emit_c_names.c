/* How generated C names are spelled: one function per family, each from
 * the op's C name (prefix and snake_case op name) and the spec names. */
#include "emit_c_internal.h"

#include "ascii.h"
#include "tf_import.h" /* og_tf_snake_case */

#include <string.h>

const char *og_c_compute_op_name(const og_c_file *f, const og_op *op) {
  return og_arena_printf(f->arena, "%s_%s", f->prefix,
                         og_tf_snake_case(f->arena, op->name));
}

const char *og_cn_op(const og_c_file *f, const og_op *op, og_cn_op_part part) {
  static const char *const suffix[OG_CN_OP_PARTS] = {
      [OG_CN_WRAPPER] = "",
      [OG_CN_ATTRS] = "_attrs",
      [OG_CN_ATTRS_DEFAULT] = "_ATTRS_DEFAULT",
      [OG_CN_DEF] = "_def",
      [OG_CN_STATE] = "_state",
      [OG_CN_CHECK] = "_check",
      [OG_CN_SHAPE] = "_shape",
      [OG_CN_INPUT_DEFS] = "_input_defs",
      [OG_CN_OUTPUT_DEFS] = "_output_defs",
      [OG_CN_ATTR_DEFS] = "_attr_defs",
      [OG_CN_KERNEL] = "_kernel",
      [OG_CN_REGISTER_KERNEL] = "_register_kernel",
  };
  const char *name = og_c_op_name(f, op);
  if (part == OG_CN_WRAPPER) return name;
  if (part == OG_CN_ATTRS_DEFAULT) name = og_c_upper(f, name);
  return og_arena_printf(f->arena, "%s%s", name, suffix[part]);
}

const char *og_cn_attr(const og_c_file *f, const og_op *op, const og_attr *a,
                       og_cn_attr_part part) {
  const char *op_name = og_c_op_name(f, op);
  switch (part) {
  case OG_CN_ENUM: return og_arena_printf(f->arena, "%s_%s", op_name, a->name);
  case OG_CN_ALLOWED:
    return og_arena_printf(f->arena, "%s_%s_allowed", op_name, a->name);
  case OG_CN_DEFAULT:
    return og_arena_printf(f->arena, "%s_%s_default", op_name, a->name);
  case OG_CN_DEFAULT_VALUE:
    return og_arena_printf(f->arena, "%s_%s_default_value", op_name, a->name);
  case OG_CN_DEFAULT_DIMS:
    return og_arena_printf(f->arena, "%s_%s_default_dims", op_name, a->name);
  case OG_CN_DEFAULT_TENSOR:
    return og_arena_printf(f->arena, "%s_%s_default_tensor", op_name, a->name);
  case OG_CN_TYPES:
    return og_c_upper(f, og_arena_printf(f->arena, "%s_%s_TYPES", op_name,
                                         a->name));
  case OG_CN_ACCESSOR:
    return og_arena_printf(f->arena, "%s_attr_%s", op_name, a->name);
  case OG_CN_ACCESSOR_COUNT:
  case OG_CN_ATTR_PARTS:
    break;
  }
  return og_arena_printf(f->arena, "%s_attr_%s_count", op_name, a->name);
}

const char *og_cn_default_item(const og_c_file *f, const og_op *op,
                               const og_attr *a, bool tensor, size_t i) {
  return og_arena_printf(f->arena, "%s_%s_default_%s_%zu", og_c_op_name(f, op),
                         a->name, tensor ? "tensor" : "dims", i);
}

const char *og_cn_tensor_dims(const og_c_file *f, const char *tensor) {
  return og_arena_printf(f->arena, "%s_dims", tensor);
}

const char *og_cn_tensor_data(const og_c_file *f, const char *tensor) {
  return og_arena_printf(f->arena, "%s_data", tensor);
}

const char *og_cn_arg(const og_c_file *f, const og_op *op, const og_arg *arg,
                      og_cn_arg_part part) {
  static const char *const fmt[] = {
      [OG_CN_INPUT] = "%s_input_%s",
      [OG_CN_INPUT_COUNT] = "%s_input_%s_count",
      [OG_CN_OUTPUT_COUNT] = "%s_output_%s_count",
      [OG_CN_ALLOC] = "%s_alloc_%s",
  };
  /* fmt holds only the formats above, each with two %s. */
  return og_arena_printf(f->arena, fmt[part], og_c_op_name(f, op), arg->name);
}

/* Upper case, anything but letters and digits as '_'; a leading digit
 * gets "OPR_" (a guard the runtime's own headers never use). */
static const char *guard(const og_c_file *f, const char *file_name) {
  char *g = (char *)og_c_upper(f, file_name);
  for (char *p = g; *p; p++)
    if (!og_is_alnum((unsigned char)*p)) *p = '_';
  return og_is_digit((unsigned char)g[0])
             ? og_arena_printf(f->arena, "OPR_%s", g)
             : g;
}

const char *og_cn_file(const og_c_file *f, og_cn_file_part part) {
  switch (part) {
  case OG_CN_REGISTER_OPS:
    return og_arena_printf(f->arena, "%s_register_ops", f->prefix);
  case OG_CN_OPS_H: return og_arena_printf(f->arena, "%s_ops.h", f->stem);
  case OG_CN_OPS_C: return og_arena_printf(f->arena, "%s_ops.c", f->stem);
  case OG_CN_KERNELS_H:
    return og_arena_printf(f->arena, "%s_kernels.h", f->stem);
  case OG_CN_OPS_H_GUARD: return guard(f, og_cn_file(f, OG_CN_OPS_H));
  case OG_CN_KERNELS_H_GUARD:
  case OG_CN_FILE_PARTS:
    break;
  }
  return guard(f, og_cn_file(f, OG_CN_KERNELS_H));
}

/* The enumerator suffix for a string value: upper case, each run of
 * other bytes as one '_' between letters and digits ("a-b": A_B), or
 * EMPTY when there are none. */
static char *enum_suffix(og_arena *arena, const og_bytes *v) {
  char *s = og_arena_alloc(arena, v->len + 6);
  size_t n = 0;
  bool gap = false;
  for (size_t i = 0; i < v->len; i++) {
    unsigned char c = (unsigned char)v->ptr[i];
    if (!og_is_alnum(c)) {
      gap = n > 0;
      continue;
    }
    if (gap) s[n++] = '_';
    s[n++] = (char)og_to_upper(c);
    gap = false;
  }
  strcpy(s + n, n ? "" : "EMPTY");
  return s;
}

const char *og_c_enumerator(const og_c_file *f, const og_op *op,
                            const og_attr *a, size_t i) {
  const og_value *items = a->allowed->u.list.items;
  const char *base = og_c_upper(f, og_cn_attr(f, op, a, OG_CN_ENUM));
  const char *suffix = enum_suffix(f->arena, &items[i].u.s);
  /* Values that fold to one suffix ('a b', 'a-b', 'A_B') get the index. */
  for (size_t j = 0; j < a->allowed->u.list.count; j++)
    if (j != i && strcmp(enum_suffix(f->arena, &items[j].u.s), suffix) == 0)
      return og_arena_printf(f->arena, "%s_%s_%zu", base, suffix, i);
  return og_arena_printf(f->arena, "%s_%s", base, suffix);
}

const char *og_c_upper(const og_c_file *f, const char *s) {
  char *u = og_arena_strdup(f->arena, s);
  for (char *p = u; *p; p++) *p = (char)og_to_upper((unsigned char)*p);
  return u;
}
