/* Attrs in the shape language (opr/shape_expr.h). Reading an attr with
 * no value (and no default) is an error, except a type attr read off the
 * inputs that opr_infer_shapes does not know: undecided. */
#include "shape_expr_internal.h"

#include <inttypes.h>
#include <string.h>

static const char *const kind_words[] = {
    [OPR_ATTR_UNSET] = "unset",     [OPR_ATTR_STRING] = "a string",
    [OPR_ATTR_INT] = "an int",      [OPR_ATTR_FLOAT] = "a float",
    [OPR_ATTR_BOOL] = "a bool",     [OPR_ATTR_TYPE] = "a type",
    [OPR_ATTR_SHAPE] = "a shape",   [OPR_ATTR_TENSOR] = "a tensor",
    [OPR_ATTR_FUNC] = "a func"};

/* Attr `attr` when it has a value (NULL with *s OK: an inferred attr not
 * known yet). */
static const opr_attr_value *attr_value(opr_infer_ctx *c, size_t attr,
                                        const char *what, opr_status *s) {
  const opr_attr_value *v = sx_attr(c, attr);
  *s = OPR_OK;
  if (v && v->kind != OPR_ATTR_UNSET &&
      (v->kind != OPR_ATTR_TENSOR || v->is_list || v->u.tensor))
    return v;
  if (v && c->op->attrs[attr].inferred) return NULL;
  *s = opr_infer_error(c, "%s: attr '%s' has no value", sx_what(what),
                       sx_attr_name(c, attr));
  return NULL;
}

OPR_COLD static opr_status kind_error(opr_infer_ctx *c, size_t attr,
                                      const opr_attr_value *v,
                                      const char *wanted, const char *what) {
  const char *k = v->kind <= OPR_ATTR_FUNC ? kind_words[v->kind] : "?";
  return opr_infer_error(c, "%s: attr '%s' is %s%s, not %s", sx_what(what),
                         sx_attr_name(c, attr), k, v->is_list ? " list" : "",
                         wanted);
}

/* The attr when it holds a value of kind `kind` (a list when `list`):
 * the usual case, decided without a call; NULL sends the caller to
 * attr_of / attr_value for the rest (and the errors). Not for tensors. */
static inline const opr_attr_value *attr_fast(const opr_infer_ctx *c,
                                              size_t attr, opr_attr_kind kind,
                                              bool list) {
  const opr_attr_value *v = sx_attr(c, attr);
  return v && v->kind == kind && v->is_list == list ? v : NULL;
}

/* The attr, of kind `kind` (and a list when `list`). */
static const opr_attr_value *attr_of(opr_infer_ctx *c, size_t attr,
                                     opr_attr_kind kind, bool list,
                                     const char *wanted, const char *what,
                                     opr_status *s) {
  const opr_attr_value *v = attr_fast(c, attr, kind, list);
  if (v) {
    *s = OPR_OK;
    return v;
  }
  v = attr_value(c, attr, what, s);
  if (!v && !*s)
    *s = opr_infer_error(c, "%s: attr '%s' is not known", sx_what(what),
                         sx_attr_name(c, attr));
  if (!v || (v->kind == kind && v->is_list == list)) return v;
  *s = kind_error(c, attr, v, wanted, what);
  return NULL;
}

OPR_NOINLINE static opr_status attr_num_rest(opr_infer_ctx *c, size_t attr,
                                            const char *what, opr_num *out) {
  opr_status s;
  const opr_attr_value *v = attr_of(c, attr, OPR_ATTR_INT, false, "an int",
                                    what, &s);
  *out = v ? opr_sx_int(v->u.i) : opr_sx_unknown_num();
  return s;
}

OPR_NOINLINE static opr_status attr_cond_rest(opr_infer_ctx *c, size_t attr,
                                             const char *what,
                                             opr_cond *out) {
  opr_status s;
  const opr_attr_value *v = attr_of(c, attr, OPR_ATTR_BOOL, false, "a bool",
                                    what, &s);
  *out = !v ? OPR_COND_UNDECIDED : v->u.b ? OPR_COND_TRUE : OPR_COND_FALSE;
  return s;
}

/* A shape held by an attr, checked (it is borrowed, not copied). */
static opr_status valid_shape(opr_infer_ctx *c, size_t attr, opr_shape s,
                              const char *what, opr_shape *out) {
  *out = opr_shape_unknown();
  if (s.rank < OPR_UNKNOWN_RANK || s.rank > OPR_MAX_RANK)
    return opr_infer_error(c, "%s: attr '%s' has rank %d, outside [-1, %d]",
                           sx_what(what), sx_attr_name(c, attr), s.rank,
                           OPR_MAX_RANK);
  for (int i = 0; i < s.rank; i++)
    if (s.dims[i] < OPR_UNKNOWN_DIM)
      return opr_infer_error(c, "%s: element %d of attr '%s' is %" PRId64
                             ", a negative dim", sx_what(what), i,
                             sx_attr_name(c, attr), s.dims[i]);
  *out = s;
  return OPR_OK;
}

opr_status opr_sx_attr_shape(opr_infer_ctx *c, size_t attr, const char *what,
                             opr_shape *out) {
  opr_status s;
  const opr_attr_value *v = attr_value(c, attr, what, &s);
  *out = opr_shape_unknown();
  if (!v) return s;
  if (v->kind == OPR_ATTR_SHAPE && !v->is_list)
    return valid_shape(c, attr, v->u.shape, what, out);
  if (v->kind == OPR_ATTR_INT && v->is_list) {
    size_t n = v->u.list.count;
    if (n > OPR_MAX_RANK)
      return opr_infer_error(c, "%s: attr '%s' has %zu elements, more than "
                             "the highest rank %d", sx_what(what),
                             sx_attr_name(c, attr), n, OPR_MAX_RANK);
    opr_shape sh = {(int)n, n ? (const int64_t *)v->u.list.items : NULL};
    return valid_shape(c, attr, sh, what, out);
  }
  if (v->kind == OPR_ATTR_TENSOR && !v->is_list) {
    *out = (opr_shape){v->u.tensor->rank, v->u.tensor->dims};
    return OPR_OK;
  }
  return kind_error(c, attr, v, "a shape, an int list or a tensor", what);
}

OPR_NOINLINE static opr_status attr_at_rest(opr_infer_ctx *c, size_t attr,
                                           opr_num i, const char *what,
                                           opr_num *out) {
  opr_status s;
  const opr_attr_value *v = attr_value(c, attr, what, &s);
  *out = opr_sx_unknown_num();
  if (!v) return s;
  if (v->kind == OPR_ATTR_SHAPE && !v->is_list) {
    opr_shape sh;
    if ((s = valid_shape(c, attr, v->u.shape, what, &sh))) return s;
    return opr_sx_dim(c, sh, i, what, out);
  }
  if (v->kind != OPR_ATTR_INT || !v->is_list)
    return kind_error(c, attr, v, "an int list or a shape", what);
  if (!i.known) return OPR_OK;
  if (i.v < 0 || (uint64_t)i.v >= v->u.list.count)
    return opr_infer_error(c, "%s: index %" PRId64 " is out of range for "
                           "the %zu elements of attr '%s'", sx_what(what),
                           i.v, v->u.list.count, sx_attr_name(c, attr));
  *out = opr_sx_int(((const int64_t *)v->u.list.items)[i.v]);
  return OPR_OK;
}

opr_status opr_sx_attr_shape_at(opr_infer_ctx *c, size_t attr, opr_num i,
                                const char *what, opr_shape *out) {
  opr_status s;
  const opr_attr_value *v = attr_of(c, attr, OPR_ATTR_SHAPE, true,
                                    "a shape list", what, &s);
  *out = opr_shape_unknown();
  if (!v || !i.known) return s;
  if (i.v < 0 || (uint64_t)i.v >= v->u.list.count)
    return opr_infer_error(c, "%s: index %" PRId64 " is out of range for "
                           "the %zu elements of attr '%s'", sx_what(what),
                           i.v, v->u.list.count, sx_attr_name(c, attr));
  return valid_shape(c, attr, ((const opr_shape *)v->u.list.items)[i.v],
                     what, out);
}

/* The length of an inferred list(type) attr: its input's tensor count. */
static bool length_from_inputs(const opr_infer_ctx *c, size_t attr,
                               size_t *n) {
  for (size_t i = 0; i < c->op->ninputs; i++)
    if (c->op->inputs[i].type_list_attr == (int)attr) {
      *n = opr_infer_num_inputs(c, i);
      return true;
    }
  return false;
}

OPR_NOINLINE static opr_status attr_length_rest(opr_infer_ctx *c,
                                               size_t attr, const char *what,
                                               opr_num *out) {
  opr_status s;
  const opr_attr_value *v = attr_value(c, attr, what, &s);
  size_t n = 0;
  *out = opr_sx_unknown_num();
  if (!v && !s && length_from_inputs(c, attr, &n)) {
    *out = opr_sx_dim_num((int64_t)n);
    return OPR_OK;
  }
  if (!v) return s;
  if (!v->is_list) return kind_error(c, attr, v, "a list", what);
  *out = opr_sx_dim_num((int64_t)v->u.list.count);
  return OPR_OK;
}

/* str == text (NUL-terminated); the strings are short: a loop beats
 * strlen and memcmp. */
static bool str_is(opr_str str, const char *text) {
  size_t i = 0;
  for (; i < str.len; i++)
    if (!text[i] || text[i] != str.ptr[i]) return false;
  return text[i] == '\0';
}

OPR_NOINLINE static opr_status attr_is_string_rest(opr_infer_ctx *c,
                                                  size_t attr,
                                                  const char *text,
                                                  const char *what,
                                                  opr_cond *out) {
  opr_status s;
  const opr_attr_value *v = attr_of(c, attr, OPR_ATTR_STRING, false,
                                    "a string", what, &s);
  *out = OPR_COND_UNDECIDED;
  if (!v) return s;
  *out = str_is(v->u.s, text) ? OPR_COND_TRUE : OPR_COND_FALSE;
  return OPR_OK;
}

/* A type attr's dtype; *known false for an inferred one not known. */
static opr_status type_of(opr_infer_ctx *c, size_t attr, const char *what,
                          opr_dtype *dt, bool *known) {
  opr_status s;
  const opr_attr_value *v = attr_value(c, attr, what, &s);
  *known = false;
  if (!v) return s;
  if (v->kind != OPR_ATTR_TYPE || v->is_list)
    return kind_error(c, attr, v, "a type", what);
  *dt = v->u.type;
  *known = true;
  return OPR_OK;
}

opr_status opr_sx_attr_is_type(opr_infer_ctx *c, size_t attr,
                               opr_dtype type, const char *what,
                               opr_cond *out) {
  opr_dtype dt = OPR_DT_INVALID;
  bool known;
  opr_status s = type_of(c, attr, what, &dt, &known);
  *out = !known ? OPR_COND_UNDECIDED
         : dt == type ? OPR_COND_TRUE
                      : OPR_COND_FALSE;
  return s;
}

opr_status opr_sx_size_of(opr_infer_ctx *c, size_t attr, const char *what,
                          opr_num *out) {
  opr_dtype dt = OPR_DT_INVALID;
  bool known;
  opr_status s = type_of(c, attr, what, &dt, &known);
  *out = opr_sx_unknown_num();
  if (!known) return s;
  /* TensorFlow's DataTypeSize: 0 for what has no fixed element size, and
   * for the 4-bit types (stored a byte per element here). */
  bool opaque = dt == OPR_DT_STRING || dt == OPR_DT_RESOURCE ||
                dt == OPR_DT_VARIANT || dt == OPR_DT_INT4 ||
                dt == OPR_DT_UINT4;
  *out = opr_sx_dim_num(opaque ? 0 : (int64_t)opr_dtype_size(dt));
  return OPR_OK;
}

OPR_NOINLINE static opr_status attr_string_rest(opr_infer_ctx *c,
                                               size_t attr, const char *what,
                                               const char **out) {
  static const char *const known[] = {opr_sx_valid, opr_sx_same_padding,
                                      "EXPLICIT"};
  opr_status s;
  const opr_attr_value *v = attr_of(c, attr, OPR_ATTR_STRING, false,
                                    "a string", what, &s);
  *out = NULL;
  if (!v) return s;
  opr_str str = v->u.s;
  for (size_t k = 0; k < sizeof known / sizeof *known; k++)
    if (str_is(str, known[k])) {
      *out = known[k];
      return OPR_OK;
    }
  /* Another string: a NUL-terminated copy in the context. */
  int64_t *room;
  if ((s = opr_sx_alloc(c, str.len / sizeof(int64_t) + 1, &room))) return s;
  char *copy = (char *)room;
  if (str.len) memcpy(copy, str.ptr, str.len);
  copy[str.len] = '\0';
  *out = copy;
  return OPR_OK;
}

opr_status opr_sx_attr_ints(opr_infer_ctx *c, size_t attr, const char *what,
                            opr_sx_ints *out) {
  opr_status s;
  const opr_attr_value *v = attr_of(c, attr, OPR_ATTR_INT, true,
                                    "an int list", what, &s);
  *out = (opr_sx_ints){NULL, 0, false};
  if (!v) return s;
  size_t n = v->u.list.count;
  *out = (opr_sx_ints){n ? (const int64_t *)v->u.list.items : NULL, n, true};
  return OPR_OK;
}

opr_status opr_sx_num_ints(opr_infer_ctx *c, opr_num n, opr_sx_ints *out) {
  *out = (opr_sx_ints){NULL, 1, false};
  if (!n.known) return OPR_OK;
  int64_t *one;
  opr_status s = opr_sx_alloc(c, 1, &one);
  if (s) return s;
  *one = n.v;
  *out = (opr_sx_ints){one, 1, true};
  return OPR_OK;
}

/* ---- the usual cases first: an attr of the kind read, no call; the
 * rest (unset, inferred, another kind, errors) in the functions above ---- */

opr_status opr_sx_attr_num(opr_infer_ctx *c, size_t attr, const char *what,
                           opr_num *out) {
  const opr_attr_value *v = attr_fast(c, attr, OPR_ATTR_INT, false);
  if (!v) return attr_num_rest(c, attr, what, out);
  *out = opr_sx_int(v->u.i);
  return OPR_OK;
}

opr_status opr_sx_attr_cond(opr_infer_ctx *c, size_t attr, const char *what,
                            opr_cond *out) {
  const opr_attr_value *v = attr_fast(c, attr, OPR_ATTR_BOOL, false);
  if (!v) return attr_cond_rest(c, attr, what, out);
  *out = v->u.b ? OPR_COND_TRUE : OPR_COND_FALSE;
  return OPR_OK;
}

opr_status opr_sx_attr_at(opr_infer_ctx *c, size_t attr, opr_num i,
                          const char *what, opr_num *out) {
  const opr_attr_value *v = attr_fast(c, attr, OPR_ATTR_INT, true);
  if (!v || !i.known || i.v < 0 || (uint64_t)i.v >= v->u.list.count)
    return attr_at_rest(c, attr, i, what, out);
  *out = opr_sx_int(((const int64_t *)v->u.list.items)[i.v]);
  return OPR_OK;
}

opr_status opr_sx_attr_length(opr_infer_ctx *c, size_t attr,
                              const char *what, opr_num *out) {
  const opr_attr_value *v = sx_attr(c, attr);
  if (!v || !v->is_list || v->kind == OPR_ATTR_UNSET ||
      v->kind == OPR_ATTR_TENSOR)
    return attr_length_rest(c, attr, what, out);
  *out = opr_sx_dim_num((int64_t)v->u.list.count);
  return OPR_OK;
}

opr_status opr_sx_attr_is_string(opr_infer_ctx *c, size_t attr,
                                 const char *text, const char *what,
                                 opr_cond *out) {
  const opr_attr_value *v = attr_fast(c, attr, OPR_ATTR_STRING, false);
  if (!v) return attr_is_string_rest(c, attr, text, what, out);
  *out = str_is(v->u.s, text) ? OPR_COND_TRUE : OPR_COND_FALSE;
  return OPR_OK;
}

opr_status opr_sx_attr_string(opr_infer_ctx *c, size_t attr,
                              const char *what, const char **out) {
  const opr_attr_value *v = attr_fast(c, attr, OPR_ATTR_STRING, false);
  if (v && v->u.s.len == 4 && memcmp(v->u.s.ptr, "SAME", 4) == 0)
    *out = opr_sx_same_padding;
  else if (v && v->u.s.len == 5 && memcmp(v->u.s.ptr, "VALID", 5) == 0)
    *out = opr_sx_valid;
  else return attr_string_rest(c, attr, what, out);
  return OPR_OK;
}
