/* How generated C names are spelled: one function per family, each from
 * the op's C name (prefix and snake_case op name) and the spec names. */
#include "emit_c_internal.h"

#include "ascii.h"
#include "memshort.h"
#include "tf_import.h" /* og_tf_snake_case */

#include <stdlib.h>
#include <string.h>

/* A part of a name with its length: the op's C name keeps its length,
 * a literal part has a constant one. */
typedef struct name_part {
  const char *s;
  size_t n;
} name_part;

#define LIT(x) {x, sizeof x - 1}
static const name_part NONE = LIT("");

static name_part text(const char *s) { return (name_part){s, strlen(s)}; }

static name_part op_part(const og_c_file *f, const og_op *op) {
  name_part p;
  p.s = og_c_op_name_len(f, op, &p.n);
  return p;
}

/* a b c d, concatenated: names are built often enough (some 45,000 for
 * a corpus) that printf's parsing, then each part's strlen, showed. */
static const char *join4(const og_c_file *f, name_part a, name_part b,
                         name_part c, name_part d) {
  char *s = og_arena_alloc(f->arena, a.n + b.n + c.n + d.n + 1);
  og_copy(s, a.s, a.n); /* parts are short: no call each */
  og_copy(s + a.n, b.s, b.n);
  og_copy(s + a.n + b.n, c.s, c.n);
  og_copy(s + a.n + b.n + c.n, d.s, d.n); /* the arena zeroed the last byte */
  return s;
}

static const char *join(const og_c_file *f, const char *a, const char *b,
                        const char *c, const char *d) {
  return join4(f, text(a), text(b), text(c), text(d));
}

/* prefix_snake_case; under `c_prefix P strip;` a snake_case name that
 * starts with "P_" is the whole name (MyBiasAdd, P my: my_bias_add). */
const char *og_c_compute_op_name(const og_c_file *f, const og_op *op) {
  const char *snake = og_tf_snake_case(f->arena, op->name);
  size_t n = strlen(f->prefix);
  if (f->prefix_strip && strncmp(snake, f->prefix, n) == 0 &&
      snake[n] == '_' && snake[n + 1])
    return snake;
  return join(f, f->prefix, "_", snake, "");
}

const char *og_cn_op(const og_c_file *f, const og_op *op, og_cn_op_part part) {
  static const name_part suffix[OG_CN_OP_PARTS] = {
      [OG_CN_WRAPPER] = LIT(""),
      [OG_CN_ATTRS] = LIT("_attrs"),
      [OG_CN_ATTRS_DEFAULT] = LIT("_ATTRS_DEFAULT"),
      [OG_CN_DEF] = LIT("_def"),
      [OG_CN_STATE] = LIT("_state"),
      [OG_CN_CHECK] = LIT("_check"),
      [OG_CN_SHAPE] = LIT("_shape"),
      [OG_CN_SHAPE_VALUES] = LIT("_shape_values"),
      [OG_CN_INPUT_DEFS] = LIT("_input_defs"),
      [OG_CN_OUTPUT_DEFS] = LIT("_output_defs"),
      [OG_CN_ATTR_DEFS] = LIT("_attr_defs"),
      [OG_CN_KERNEL] = LIT("_kernel_def"),
      [OG_CN_REGISTER_KERNEL] = LIT("_register_kernel"),
      [OG_CN_INTO] = LIT("_into"),
      [OG_CN_CALL] = LIT("_call"),
  };
  const char *name = og_c_cached_op_part(f, op, part);
  if (name) return name;
  name_part base = op_part(f, op);
  if (part == OG_CN_WRAPPER) return base.s;
  if (part == OG_CN_ATTRS_DEFAULT) base.s = og_c_upper(f, base.s);
  return join4(f, base, suffix[part], NONE, NONE);
}

const char *og_cn_shape_let(const og_c_file *f, const og_op *op,
                            const og_shape_let *let) {
  static const name_part let_ = LIT("_let_");
  return join4(f, op_part(f, op), let_, text(let->name), NONE);
}

const char *og_cn_shape_local(const og_c_file *f, og_cn_local kind,
                              size_t n) {
  static const char *const stem[OG_CN_LOCALS] = {
      [OG_CN_L_CTX] = "c",     [OG_CN_L_STATUS] = "s",
      [OG_CN_L_OUT] = "out",   [OG_CN_L_VALS] = "l",
      [OG_CN_L_NUM] = "n",
      [OG_CN_L_COND] = "b",    [OG_CN_L_SHAPE] = "sh",
      [OG_CN_L_FOLD] = "f",    [OG_CN_L_BOUND] = "k",
      [OG_CN_L_COUNT] = "m",   [OG_CN_L_KNOWN] = "kn",
      [OG_CN_L_NUMS] = "a",
      [OG_CN_L_SHAPES] = "v",  [OG_CN_L_WHATS] = "w",
      [OG_CN_L_TEXT] = "t",    [OG_CN_L_INTS] = "q",
      [OG_CN_L_ERR] = "e",     [OG_CN_L_PARAM] = "p",
      [OG_CN_L_LABEL] = "done", [OG_CN_L_INPUT] = "in",
      [OG_CN_L_LET] = "let",   [OG_CN_L_INPUT_SET] = "inset",
      [OG_CN_L_LET_SET] = "letset", [OG_CN_L_ATTR] = "av",
      [OG_CN_L_ATTR_SET] = "avset",
  };
  if (kind <= OG_CN_L_VALS) return stem[kind];
  return og_arena_printf(f->arena, "%s%zu", stem[kind], n);
}

const char *og_cn_attr(const og_c_file *f, const og_op *op, const og_attr *a,
                       og_cn_attr_part part) {
  static const name_part suffix[OG_CN_ATTR_PARTS] = {
      [OG_CN_ENUM] = LIT(""),
      [OG_CN_ALLOWED] = LIT("_allowed"),
      [OG_CN_DEFAULT] = LIT("_default"),
      [OG_CN_DEFAULT_VALUE] = LIT("_default_value"),
      [OG_CN_DEFAULT_DIMS] = LIT("_default_dims"),
      [OG_CN_DEFAULT_TENSOR] = LIT("_default_tensor"),
      [OG_CN_DEFAULT_TEXT] = LIT("_default_text"),
      [OG_CN_TYPES] = LIT("_TYPES"),
      [OG_CN_ACCESSOR] = LIT(""),
      [OG_CN_ACCESSOR_COUNT] = LIT("_count"),
  };
  static const name_part middle[2] = {LIT("_"), LIT("_attr_")};
  bool accessor = part == OG_CN_ACCESSOR || part == OG_CN_ACCESSOR_COUNT;
  const char *name = join4(f, op_part(f, op), middle[accessor],
                           text(a->name), suffix[part]);
  return part == OG_CN_TYPES ? og_c_upper(f, name) : name;
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
  static const name_part middle[] = {
      [OG_CN_INPUT] = LIT("_input_"),
      [OG_CN_INPUT_COUNT] = LIT("_input_"),
      [OG_CN_OUTPUT_COUNT] = LIT("_output_"),
      [OG_CN_ALLOC] = LIT("_alloc_"),
  };
  static const name_part count = LIT("_count");
  bool counted = part == OG_CN_INPUT_COUNT || part == OG_CN_OUTPUT_COUNT;
  return join4(f, op_part(f, op), middle[part], text(arg->name),
               counted ? count : NONE);
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

typedef struct suffix_at {
  const char *suffix;
  size_t index;
} suffix_at;

static int by_suffix(const void *a, const void *b) {
  const suffix_at *x = a, *y = b;
  int c = strcmp(x->suffix, y->suffix);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

static const char **suffix_all(const og_c_file *f, const char *base,
                               const char **names, const bool *shared,
                               size_t n) {
  for (size_t i = 0; i < n; i++)
    names[i] = shared[i]
                   ? og_arena_printf(f->arena, "%s_%s_%zu", base, names[i], i)
                   : join(f, base, "_", names[i], "");
  return names;
}

/* base_SUFFIX for each suffix of names[0..n) (replaced in place); equal
 * suffixes get their index: base_SUFFIX_<i>. Long lists are sorted, not
 * compared pairwise: ops may have thousands of attrs. */
static const char **suffixed(const og_c_file *f, const char *base,
                             const char **names, size_t n) {
  bool *shared = og_arena_array(f->arena, n + 1, sizeof *shared);
  if (n <= 8) { /* most lists: pairs cost less than a sort */
    for (size_t i = 0; i < n; i++)
      for (size_t k = i + 1; k < n; k++)
        if (strcmp(names[i], names[k]) == 0) shared[i] = shared[k] = true;
    return suffix_all(f, base, names, shared, n);
  }
  suffix_at *order = og_arena_array(f->arena, n + 1, sizeof *order);
  for (size_t i = 0; i < n; i++) order[i] = (suffix_at){names[i], i};
  qsort(order, n, sizeof *order, by_suffix);
  for (size_t k = 1; k < n; k++)
    if (strcmp(order[k].suffix, order[k - 1].suffix) == 0)
      shared[order[k].index] = shared[order[k - 1].index] = true;
  return suffix_all(f, base, names, shared, n);
}

const char **og_c_enumerators(const og_c_file *f, const og_op *op,
                              const og_attr *a) {
  size_t n = a->allowed->u.list.count;
  const char **names = og_arena_array(f->arena, n + 1, sizeof *names);
  for (size_t i = 0; i < n; i++)
    names[i] = enum_suffix(f->arena, &a->allowed->u.list.items[i].u.s);
  /* Values that fold to one suffix ('a b', 'a-b', 'A_B') get the index. */
  return suffixed(f, og_c_upper(f, og_cn_attr(f, op, a, OG_CN_ENUM)), names,
                  n);
}

static const char *item_name(const og_op *op, og_cn_index_kind kind,
                             size_t i) {
  return kind == OG_CN_ATTR_INDEXES    ? op->attrs[i].name
         : kind == OG_CN_INPUT_INDEXES ? op->inputs[i].name
                                       : op->outputs[i].name;
}

/* Whether a and b are one name upper-cased. */
static bool upper_eq(const char *a, const char *b) {
  for (; *a && og_to_upper((unsigned char)*a) == og_to_upper((unsigned char)*b);
       a++, b++) {
  }
  return og_to_upper((unsigned char)*a) == og_to_upper((unsigned char)*b);
}

/* og_cn_indexes for a short list (most ops), as suffixed() spells them,
 * without an upper-cased copy of each name: base_NAME built in one. */
static const char **few_indexes(const og_c_file *f, const og_op *op,
                                og_cn_index_kind kind, const char *base,
                                const char **names, size_t n) {
  bool shared[8] = {false};
  for (size_t i = 0; i < n; i++)
    for (size_t k = i + 1; k < n; k++)
      if (upper_eq(item_name(op, kind, i), item_name(op, kind, k)))
        shared[i] = shared[k] = true;
  size_t lb = strlen(base);
  for (size_t i = 0; i < n; i++) {
    const char *spec = item_name(op, kind, i);
    if (shared[i]) {
      names[i] = og_arena_printf(f->arena, "%s_%s_%zu", base,
                                 og_c_upper(f, spec), i);
      continue;
    }
    size_t ls = strlen(spec);
    char *s = og_arena_alloc(f->arena, lb + ls + 2); /* zeroed */
    og_copy(s, base, lb);
    s[lb] = '_';
    for (size_t j = 0; j < ls; j++)
      s[lb + 1 + j] = (char)og_to_upper((unsigned char)spec[j]);
    names[i] = s;
  }
  return names;
}

const char **og_cn_indexes(const og_c_file *f, const og_op *op,
                           og_cn_index_kind kind) {
  static const char *const middle[] = {"_ATTR", "_INPUT", "_OUTPUT"};
  const char **cached = og_c_cached_indexes(f, op, kind);
  if (cached) return cached;
  size_t n = kind == OG_CN_ATTR_INDEXES    ? op->nattrs
             : kind == OG_CN_INPUT_INDEXES ? op->ninputs
                                           : op->noutputs;
  const char **names = og_arena_array(f->arena, n + 1, sizeof *names);
  const char *base = join(f, og_c_upper(f, og_c_op_name(f, op)), middle[kind],
                          "", "");
  if (n <= 8) return few_indexes(f, op, kind, base, names, n);
  for (size_t i = 0; i < n; i++)
    names[i] = og_c_upper(f, item_name(op, kind, i));
  return suffixed(f, base, names, n);
}

const char *og_c_upper(const og_c_file *f, const char *s) {
  size_t n = strlen(s);
  char *u = og_arena_alloc(f->arena, n + 1); /* zeroed: terminated */
  for (size_t i = 0; i < n; i++) u[i] = (char)og_to_upper((unsigned char)s[i]);
  return u;
}
