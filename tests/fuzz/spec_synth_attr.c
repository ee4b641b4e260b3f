/* spec_synth: an attr's type, minimum and default, always consistent
 * (the default satisfies the constraint and the minimum). */
#include "spec_synth_attr.h"

#include <stdlib.h>
#include <string.h>

#define COUNT(a) (uint32_t)(sizeof(a) / sizeof *(a))

/* Type sets with the defaults they allow (the first member). */
static const char *const type_sets[][2] = {
    {"{int32, float}", "int32"},
    {"{float, double, int32}", "DT_FLOAT"},
    {"{int32, float, numbertype}", "int32"},
    {"{numbertype, bool}", "float"},
    {"{string}", "string"},
    {"{resource, variant,}", "resource"},
    {"{half, bfloat16}", "float16"},
    {"numbertype", "float"},
    {"numerictype", "double"},
    {"realnumbertype", "int32"},
    {"realnumerictype", "uint64"},
    {"quantizedtype", "qint8"},
    {"type", NULL},
};

static const char *const shapes[] = {
    "[2, 3]", "[]", "[?, 3]", "[-1, 3]", "?", "{ dim { size: 2 } }",
    "{ unknown_rank: true }", "[9223372036854775807]", "[0]",
    "{ dim { size: 2 } dim { size: -1 } }",
};

static const char *const funcs[] = {
    "{ name: 'f' }", "{ name: 'a*/b' }", "{ name: \"int\" }",
    "{ name: '' }", "{ name: '\\\\?\?=' }",
};

static void put_string(fz_rng *r, fz_buf *b) {
  fz_puts(b, "'");
  fz_hostile_string(r, b);
  fz_puts(b, "'");
}

static void put_tensor(fz_rng *r, fz_buf *b) {
  switch (fz_pick(r, 9)) {
  case 0: fz_printf(b, "{ dtype: DT_INT32 int_val: %s }", fz_pick(r, 2) ? "5" : "-2147483648"); break;
  case 1: fz_puts(b, "{ dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: [1, 2] }"); break;
  case 2: fz_printf(b, "{ dtype: DT_INT64 int64_val: %s }", fz_int_text(r)); break;
  case 3: fz_printf(b, "{ dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: [%s, %s] }", fz_float_text(r), fz_float_text(r)); break;
  case 4: fz_puts(b, "{ dtype: DT_STRING string_val: "); put_string(r, b); fz_puts(b, " }"); break;
  case 5: fz_puts(b, "{ dtype: DT_BOOL bool_val: true }"); break;
  case 6: fz_printf(b, "{ dtype: DT_DOUBLE double_val: [%s] }", fz_float_text(r)); break;
  case 7: fz_printf(b, "{ dtype: DT_COMPLEX64 scomplex_val: [%s, 2] }", fz_float_text(r)); break;
  default: fz_puts(b, "{ dtype: DT_HALF half_val: 15360 }"); break;
  }
}

/* One value of a scalar kind (for `type`, any data type). */
static void put_scalar(fz_rng *r, int kind, fz_buf *b) {
  switch (kind) {
  case FZ_STRING: put_string(r, b); break;
  case FZ_INT: fz_puts(b, fz_int_text(r)); break;
  case FZ_FLOAT: fz_puts(b, fz_float_text(r)); break;
  case FZ_BOOL: fz_puts(b, fz_pick(r, 2) ? "true" : "false"); break;
  case FZ_TYPE: fz_puts(b, fz_dtype_name(r)); break;
  case FZ_SHAPE: fz_puts(b, shapes[fz_pick(r, COUNT(shapes))]); break;
  case FZ_TENSOR: put_tensor(r, b); break;
  default: fz_puts(b, funcs[fz_pick(r, COUNT(funcs))]); break;
  }
}

static const char *const kind_names[] = {
    "string", "int", "float", "bool", "type", "shape", "tensor", "func",
};

/* The element type of the attr: plain, an enum of strings or a set of
 * types. `one` gets a valid value for it. */
static void element_type(fz_rng *r, fz_attr *a, fz_buf *ty, fz_buf *one) {
  uint32_t form = fz_pick(r, 12);
  if (form == 8) {
    a->kind = FZ_STRING;
    a->is_enum = !a->list;
    fz_buf list = {0};
    fz_pool_enum_values(r, &list, one);
    fz_printf(ty, "{%s%s}", list.p, fz_one_in(r, 4) ? "," : "");
    free(list.p);
  } else if (form == 9 || form == 10) {
    a->kind = FZ_TYPE;
    uint32_t s = fz_pick(r, COUNT(type_sets) - 1);
    fz_puts(ty, type_sets[s][0]);
    fz_puts(one, type_sets[s][1]);
  } else {
    a->kind = (int)(form % 8);
    fz_puts(ty, kind_names[a->kind]);
    put_scalar(r, a->kind, one);
  }
}

static const char *const int_minimums[] = {
    "-5", "0", "3", "-9223372036854775808", "9223372036854775807",
};

/* A free attr: any type, maybe a minimum, maybe a default. */
void fz_attr_free(fz_rng *r, fz_attr *a, fz_buf *ty, fz_buf *def) {
  a->list = fz_one_in(r, 3);
  fz_buf elem_ty = {0}, one = {0};
  element_type(r, a, &elem_ty, &one);
  bool has_default = !fz_one_in(r, 3);
  if (!a->list) {
    fz_puts(ty, elem_ty.p);
    if (a->kind == FZ_INT && !a->is_enum && fz_one_in(r, 3)) {
      const char *min = int_minimums[fz_pick(r, COUNT(int_minimums))];
      fz_printf(ty, " >= %s", min);
      /* The minimum itself satisfies the minimum. */
      if (strtoll(one.p, NULL, 10) < strtoll(min, NULL, 10)) {
        one.len = 0;
        fz_puts(&one, min);
      }
    }
    if (has_default) fz_puts(def, one.p);
  } else {
    uint32_t min = fz_pick(r, 3), n = min + fz_pick(r, 3);
    fz_printf(ty, "list(%s)", elem_ty.p);
    if (fz_pick(r, 2)) fz_printf(ty, " >= %u", min);
    else min = 0;
    if (has_default) {
      fz_puts(def, "[");
      for (uint32_t i = 0; i < n; i++) {
        fz_puts(def, i ? ", " : "");
        /* Constrained elements repeat the valid value. */
        if (strcmp(elem_ty.p, kind_names[a->kind]) != 0) fz_puts(def, one.p);
        else put_scalar(r, a->kind, def);
      }
      fz_puts(def, "]");
    }
    a->is_enum = false;
  }
  free(elem_ty.p);
  free(one.p);
}

/* An int attr that counts a list (N in `N * T`). */
void fz_attr_number(fz_rng *r, fz_buf *ty, fz_buf *def) {
  uint32_t min = fz_pick(r, 4); /* 3: none, an implied >= 1 */
  fz_puts(ty, "int");
  if (min < 3) fz_printf(ty, " >= %u", min);
  if (fz_pick(r, 2)) {
    uint32_t lo = min < 3 ? min : 1;
    fz_printf(def, "%u", lo + fz_pick(r, 3));
  }
}

/* A type attr (T in `T` or `N * T`). */
void fz_attr_type(fz_rng *r, fz_buf *ty, fz_buf *def) {
  uint32_t s = fz_pick(r, COUNT(type_sets));
  fz_puts(ty, type_sets[s][0]);
  if (fz_pick(r, 2)) fz_puts(def, type_sets[s][1] ? type_sets[s][1] : fz_dtype_name(r));
}

/* A list(type) attr used as an IO type. */
void fz_attr_type_list(fz_rng *r, fz_buf *ty, fz_buf *def) {
  bool set = fz_pick(r, 2);
  uint32_t min = fz_pick(r, 4); /* 3: none, an implied >= 1 */
  fz_puts(ty, set ? "list({float, int32})" : "list(type)");
  if (min < 3) fz_printf(ty, " >= %u", min);
  if (fz_pick(r, 2)) {
    uint32_t n = (min < 3 ? min : 1) + fz_pick(r, 2);
    fz_puts(def, "[");
    for (uint32_t i = 0; i < n; i++)
      fz_printf(def, "%s%s", i ? ", " : "",
                set ? (i % 2 ? "int32" : "float") : fz_dtype_name(r));
    fz_puts(def, "]");
  }
}
