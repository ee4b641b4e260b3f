/* Cases of shape_cases.json as opr_infer_shapes calls, and the check of
 * their expected outputs (see conformance_cases.h). */
#include "conformance_cases.h"

#include "writer.h"

#include "opr/dtype.h"
#include "opr/tensor.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- small text helpers ---- */

/* Pieces of [p, end) split at `sep` outside brackets, trimmed of spaces:
 * the i-th into *s and *n; returns the number of pieces. */
static size_t split_top(const char *p, const char *end, char sep,
                        size_t want, const char **s, size_t *n) {
  size_t count = 0;
  int depth = 0;
  const char *start = p;
  for (const char *q = p;; q++) {
    if (q == end || (*q == sep && depth == 0)) {
      if (count == want) {
        const char *a = start, *b = q;
        while (a < b && isspace((unsigned char)*a)) a++;
        while (b > a && isspace((unsigned char)b[-1])) b--;
        *s = a;
        *n = (size_t)(b - a);
      }
      count++;
      if (q == end) break;
      start = q + 1;
    } else if (*q == '[') {
      depth++;
    } else if (*q == ']') {
      depth--;
    }
  }
  return count;
}

static size_t count_top(const char *p, size_t len, char sep) {
  const char *s;
  size_t n;
  return split_top(p, p + len, sep, (size_t)-1, &s, &n);
}

static void piece(const char *p, size_t len, char sep, size_t i,
                  const char **s, size_t *n) {
  split_top(p, p + len, sep, i, s, n);
}

static bool eq_text(const char *s, size_t n, const char *lit) {
  return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* A decimal integer filling [s, s+n) exactly. */
static bool parse_int(const char *s, size_t n, int64_t *out) {
  char buf[32];
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, s, n);
  buf[n] = '\0';
  char *end;
  long long v = strtoll(buf, &end, 10);
  if (*end) return false;
  *out = (int64_t)v;
  return true;
}

bool sc_parse_shape(og_arena *a, const char *text, size_t len,
                    opr_shape *out) {
  const char *s;
  size_t n;
  piece(text, len, '\0', 0, &s, &n); /* trims */
  if (eq_text(s, n, "?")) {
    *out = opr_shape_unknown();
    return true;
  }
  if (n < 2 || s[0] != '[' || s[n - 1] != ']') return false;
  const char *body = s + 1;
  size_t blen = n - 2, rank = 0;
  bool empty = true;
  for (size_t i = 0; i < blen; i++)
    if (!isspace((unsigned char)body[i])) empty = false;
  rank = empty ? 0 : count_top(body, blen, ',');
  int64_t *dims = og_arena_array(a, rank ? rank : 1, sizeof *dims);
  for (size_t i = 0; i < rank; i++) {
    const char *d;
    size_t dn;
    piece(body, blen, ',', i, &d, &dn);
    if (eq_text(d, dn, "?")) dims[i] = OPR_UNKNOWN_DIM;
    else if (!parse_int(d, dn, &dims[i]) || dims[i] < 0) return false;
  }
  *out = (opr_shape){(int)rank, dims};
  return true;
}

const char *sc_shape_text(opr_shape s, char *buf, size_t n) {
  if (s.rank < 0) {
    snprintf(buf, n, "?");
    return buf;
  }
  size_t used = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < s.rank && used < n; i++) {
    if (s.dims[i] < 0)
      used += (size_t)snprintf(buf + used, n - used, "%s?", i ? "," : "");
    else
      used += (size_t)snprintf(buf + used, n - used, "%s%" PRId64,
                               i ? "," : "", s.dims[i]);
  }
  if (used < n) snprintf(buf + used, n - used, "]");
  return buf;
}

/* ---- attrs ---- */

static opr_dtype dtype_named(const char *name) {
  if (strncmp(name, "DT_", 3) == 0) name += 3;
  for (int dt = 1; dt < OPR_DT_COUNT; dt++) {
    const char *n = opr_dtype_name((opr_dtype)dt);
    if (n && strcasecmp(n, name) == 0) return (opr_dtype)dt;
  }
  return OPR_DT_INVALID;
}

static int find_attr(const opr_op_def *op, const char *name) {
  for (size_t i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) return (int)i;
  return -1;
}

static opr_shape shape_of_json(og_arena *a, const og_json *v) {
  const og_json *dims = og_json_get(v, "dims");
  if (!dims || dims->kind != OG_JSON_ARRAY) return opr_shape_unknown();
  size_t n = dims->u.arr.count;
  int64_t *d = og_arena_array(a, n ? n : 1, sizeof *d);
  for (size_t i = 0; i < n; i++) {
    int64_t x = dims->u.arr.items[i].u.num.i;
    d[i] = x < 0 ? OPR_UNKNOWN_DIM : x;
  }
  return (opr_shape){(int)n, d};
}

/* One scalar value {"i": 2}, {"s": "x"}, ... into *out; false when the key
 * is none the mapping knows (a tensor: Const's cases, which do not run). */
static bool scalar_value(og_arena *a, const og_json_member *m,
                         opr_attr_value *out) {
  const char *k = m->key.ptr;
  const og_json *v = &m->value;
  *out = (opr_attr_value){OPR_ATTR_UNSET, false, {{NULL, 0}}};
  if (strcmp(k, "i") == 0) {
    out->kind = OPR_ATTR_INT;
    out->u.i = v->u.num.i;
  } else if (strcmp(k, "f") == 0) {
    out->kind = OPR_ATTR_FLOAT;
    out->u.f = (float)v->u.num.d;
  } else if (strcmp(k, "b") == 0) {
    out->kind = OPR_ATTR_BOOL;
    out->u.b = v->u.b;
  } else if (strcmp(k, "s") == 0) {
    out->kind = OPR_ATTR_STRING;
    out->u.s = (opr_str){og_arena_strdup(a, v->u.str.ptr), v->u.str.len};
  } else if (strcmp(k, "type") == 0) {
    out->kind = OPR_ATTR_TYPE;
    out->u.type = dtype_named(v->u.str.ptr);
  } else if (strcmp(k, "shape") == 0) {
    out->kind = OPR_ATTR_SHAPE;
    out->u.shape = shape_of_json(a, v);
  } else {
    return false;
  }
  return true;
}

static size_t item_size(opr_attr_kind k) {
  switch (k) {
  case OPR_ATTR_INT: return sizeof(int64_t);
  case OPR_ATTR_FLOAT: return sizeof(float);
  case OPR_ATTR_BOOL: return sizeof(bool);
  case OPR_ATTR_STRING: return sizeof(opr_str);
  case OPR_ATTR_TYPE: return sizeof(opr_dtype);
  case OPR_ATTR_SHAPE: return sizeof(opr_shape);
  default: return sizeof(void *);
  }
}

static void put_item(void *items, size_t i, const opr_attr_value *v) {
  switch (v->kind) {
  case OPR_ATTR_INT: ((int64_t *)items)[i] = v->u.i; break;
  case OPR_ATTR_FLOAT: ((float *)items)[i] = v->u.f; break;
  case OPR_ATTR_BOOL: ((bool *)items)[i] = v->u.b; break;
  case OPR_ATTR_STRING: ((opr_str *)items)[i] = v->u.s; break;
  case OPR_ATTR_TYPE: ((opr_dtype *)items)[i] = v->u.type; break;
  case OPR_ATTR_SHAPE: ((opr_shape *)items)[i] = v->u.shape; break;
  default: break;
  }
}

/* {"list": [{"i": 1}, ...]}: the element kind from the elements, or from
 * the attr's declared type when the list is empty. */
static bool list_value(og_arena *a, const opr_attr_def *d, const og_json *v,
                       opr_attr_value *out) {
  if (v->kind != OG_JSON_ARRAY) return false;
  size_t n = v->u.arr.count;
  opr_attr_kind kind = d->type.kind;
  opr_attr_value e;
  if (n) {
    const og_json *first = &v->u.arr.items[0];
    if (first->kind != OG_JSON_OBJECT || first->u.obj.count != 1 ||
        !scalar_value(a, &first->u.obj.members[0], &e))
      return false;
    kind = e.kind;
  }
  void *items = og_arena_array(a, n ? n : 1, item_size(kind));
  for (size_t i = 0; i < n; i++) {
    const og_json *it = &v->u.arr.items[i];
    if (it->kind != OG_JSON_OBJECT || it->u.obj.count != 1 ||
        !scalar_value(a, &it->u.obj.members[0], &e) || e.kind != kind)
      return false;
    put_item(items, i, &e);
  }
  *out = opr_attr_list(kind, items, n);
  return true;
}

static void add_attr(sc_case *c, const char *name, opr_attr_value v) {
  c->attrs[c->nattrs].name = name;
  c->attrs[c->nattrs].value = v;
  c->nattrs++;
}

static bool given(const sc_case *c, const char *name) {
  for (size_t i = 0; i < c->nattrs; i++)
    if (strcmp(c->attrs[i].name, name) == 0) return true;
  return false;
}

/* The case's own attrs: those the op has (TensorFlow's tests set a few
 * the op does not declare, e.g. `incompatible_shape_error`). */
static bool case_attrs(og_arena *a, const opr_op_def *op, const og_json *j,
                       sc_case *c, const char **why) {
  const og_json *attrs = og_json_get(j, "attrs");
  for (size_t i = 0; attrs && i < attrs->u.obj.count; i++) {
    const og_json_member *m = &attrs->u.obj.members[i];
    int at = find_attr(op, m->key.ptr);
    if (at < 0) continue;
    if (m->value.kind != OG_JSON_OBJECT || m->value.u.obj.count != 1) {
      *why = "an attr value the mapping does not read";
      return false;
    }
    const og_json_member *vm = &m->value.u.obj.members[0];
    opr_attr_value v;
    bool ok = strcmp(vm->key.ptr, "list") == 0
                  ? list_value(a, &op->attrs[at], &vm->value, &v)
                  : scalar_value(a, vm, &v);
    if (!ok) {
      *why = "an attr value the mapping does not read (a tensor?)";
      return false;
    }
    add_attr(c, op->attrs[at].name, v);
  }
  return true;
}

/* Type attrs read off the inputs' dtypes (input_args), as a graph builder
 * that knows its inputs' types passes them. */
static void inferred_types(og_arena *a, const opr_op_def *op,
                           const og_json *args, sc_case *c) {
  for (size_t i = 0; args && i < args->u.arr.count && i < op->ninputs; i++) {
    const og_json *dts = og_json_get(&args->u.arr.items[i], "dtypes");
    size_t n = dts && dts->kind == OG_JSON_ARRAY ? dts->u.arr.count : 0;
    const opr_arg_def *arg = &op->inputs[i];
    if (!n) continue;
    if (arg->type_attr != OPR_NO_ATTR &&
        !given(c, op->attrs[arg->type_attr].name)) {
      opr_attr_value v = {OPR_ATTR_TYPE, false, {{NULL, 0}}};
      v.u.type = dtype_named(dts->u.arr.items[0].u.str.ptr);
      add_attr(c, op->attrs[arg->type_attr].name, v);
    }
    if (arg->type_list_attr != OPR_NO_ATTR &&
        !given(c, op->attrs[arg->type_list_attr].name)) {
      opr_dtype *types = og_arena_array(a, n, sizeof *types);
      for (size_t k = 0; k < n; k++)
        types[k] = dtype_named(dts->u.arr.items[k].u.str.ptr);
      add_attr(c, op->attrs[arg->type_list_attr].name,
               opr_attr_list(OPR_ATTR_TYPE, types, n));
    }
  }
}

/* ---- inputs ---- */

static bool flat_inputs(og_arena *a, const og_json *j, sc_case *c) {
  const og_json *in = og_json_get(j, "inputs");
  if (!in || in->kind != OG_JSON_STRING) return false;
  const char *t = in->u.str.ptr;
  size_t len = in->u.str.len;
  c->nflat = len ? count_top(t, len, ';') : 0;
  c->flat = og_arena_array(a, c->nflat ? c->nflat : 1, sizeof *c->flat);
  for (size_t i = 0; i < c->nflat; i++) {
    const char *s;
    size_t n;
    piece(t, len, ';', i, &s, &n);
    if (!sc_parse_shape(a, s, n, &c->flat[i])) return false;
  }
  return true;
}

/* input_tensors[i]: {"dtype": "DT_INT32", "shape": [2], "values": [..]}. */
static bool values(og_arena *a, const og_json *j, sc_case *c) {
  const og_json *ts = og_json_get(j, "input_tensors");
  c->values = calloc(c->nflat ? c->nflat : 1, sizeof *c->values);
  if (!c->values) return false;
  for (size_t i = 0; ts && i < ts->u.arr.count && i < c->nflat; i++) {
    const og_json *t = &ts->u.arr.items[i];
    if (t->kind != OG_JSON_OBJECT) continue;
    const og_json *shape = og_json_get(t, "shape");
    const og_json *vals = og_json_get(t, "values");
    /* The extraction writes some shapes nested: [[2, 2]] for a 2 x 2. */
    if (shape && shape->kind == OG_JSON_ARRAY && shape->u.arr.count == 1 &&
        shape->u.arr.items[0].kind == OG_JSON_ARRAY)
      shape = &shape->u.arr.items[0];
    const og_json *dt = og_json_get(t, "dtype");
    opr_dtype dtype = dt && dt->kind == OG_JSON_STRING
                          ? dtype_named(dt->u.str.ptr) : OPR_DT_INVALID;
    if ((dtype != OPR_DT_INT32 && dtype != OPR_DT_INT64) || !shape ||
        shape->kind != OG_JSON_ARRAY || shape->u.arr.count > OPR_MAX_RANK ||
        !vals || vals->kind != OG_JSON_ARRAY)
      return false;
    int64_t dims[OPR_MAX_RANK];
    int rank = (int)shape->u.arr.count;
    for (int d = 0; d < rank; d++) {
      if (shape->u.arr.items[d].kind != OG_JSON_NUMBER) return false;
      dims[d] = shape->u.arr.items[d].u.num.i;
    }
    size_t n = vals->u.arr.count;
    int64_t *v64 = og_arena_array(a, n ? n : 1, sizeof *v64);
    int32_t *v32 = og_arena_array(a, n ? n : 1, sizeof *v32);
    for (size_t k = 0; k < n; k++) {
      v64[k] = vals->u.arr.items[k].u.num.i;
      v32[k] = (int32_t)v64[k];
    }
    bool wide = dtype == OPR_DT_INT64;
    opr_status s = opr_tensor_from_data(
        dtype, rank, dims, wide ? (void *)v64 : v32, n * (wide ? 8 : 4),
        &c->values[i]);
    if (s) {
      opr_status_free(s);
      return false;
    }
  }
  return true;
}

bool sc_case_build(og_arena *a, const opr_op_def *op, const og_json *j,
                   sc_case *c, const char **why) {
  memset(c, 0, sizeof *c);
  *why = "the case's inputs are not shapes";
  if (!flat_inputs(a, j, c)) return false;
  *why = "an input value the mapping does not read";
  if (!values(a, j, c)) return false;
  const og_json *args = og_json_get(j, "input_args");
  if (args && args->u.arr.count && args->u.arr.count != op->ninputs) {
    *why = "input_args do not match the op's inputs";
    return false;
  }
  c->inputs = og_arena_array(a, op->ninputs ? op->ninputs : 1,
                             sizeof *c->inputs);
  size_t pos = 0;
  for (size_t i = 0; i < op->ninputs; i++) {
    size_t n = 1;
    if (args && args->u.arr.count) {
      const og_json *arg = &args->u.arr.items[i];
      const og_json *list = og_json_get(arg, "list");
      const og_json *count = og_json_get(arg, "count");
      if (list && list->u.b) n = count ? (size_t)count->u.num.i : 0;
    }
    if (n > c->nflat - pos) {
      *why = "fewer input shapes than the op's inputs take";
      return false;
    }
    c->inputs[i] = (opr_shape_input){c->flat + pos,
                                     (const opr_tensor *const *)c->values +
                                         pos,
                                     n};
    pos += n;
  }
  if (pos != c->nflat) {
    *why = "more input shapes than the op's inputs take";
    return false;
  }
  const og_json *attrs = og_json_get(j, "attrs");
  size_t cap = op->nattrs + (attrs ? attrs->u.obj.count : 0) + 1;
  c->attrs = og_arena_array(a, cap, sizeof *c->attrs);
  if (!case_attrs(a, op, j, c, why)) return false;
  inferred_types(a, op, args, c);
  return true;
}

void sc_case_free(sc_case *c) {
  for (size_t i = 0; c->values && i < c->nflat; i++)
    opr_tensor_unref(c->values[i]);
  free(c->values);
  c->values = NULL;
}

/* ---- expected outputs ---- */

static bool same_shape(opr_shape a, opr_shape b) {
  if (a.rank != b.rank) return false;
  for (int i = 0; i < a.rank; i++)
    if (a.dims[i] != b.dims[i]) return false;
  return true;
}

/* One dim alternative: `?`, `dN_M` or an integer. */
static bool dim_ok(const char *s, size_t n, int64_t got, const opr_shape *flat,
                   size_t nflat) {
  if (eq_text(s, n, "?")) return got == OPR_UNKNOWN_DIM;
  if (n > 1 && s[0] == 'd') {
    char buf[32];
    unsigned long in, d;
    char tail;
    if (n >= sizeof buf) return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (sscanf(buf, "d%lu_%lu%c", &in, &d, &tail) != 2 || in >= nflat)
      return false;
    opr_shape x = flat[in];
    int64_t want = x.rank > (int)d ? x.dims[d] : OPR_UNKNOWN_DIM;
    return got == want;
  }
  int64_t v;
  return parse_int(s, n, &v) && got == v;
}

static bool shape_ok(const char *s, size_t n, opr_shape got,
                     const opr_shape *flat, size_t nflat) {
  if (n > 2 && s[0] == 'i' && s[1] == 'n') {
    int64_t idx;
    if (!parse_int(s + 2, n - 2, &idx) || idx < 0 || (size_t)idx >= nflat)
      return false;
    return same_shape(got, flat[idx]);
  }
  if (eq_text(s, n, "?")) return got.rank < 0;
  if (n < 2 || s[0] != '[' || s[n - 1] != ']' || got.rank < 0) return false;
  const char *body = s + 1;
  size_t blen = n - 2;
  size_t rank = 0;
  for (size_t i = 0; i < blen; i++)
    if (!isspace((unsigned char)body[i])) rank = 1;
  if (rank) rank = count_top(body, blen, ',');
  if ((int)rank != got.rank) return false;
  for (size_t i = 0; i < rank; i++) {
    const char *d;
    size_t dn;
    piece(body, blen, ',', i, &d, &dn);
    size_t nalt = count_top(d, dn, '|');
    bool any = false;
    for (size_t k = 0; k < nalt && !any; k++) {
      const char *x;
      size_t xn;
      piece(d, dn, '|', k, &x, &xn);
      any = dim_ok(x, xn, got.dims[i], flat, nflat);
    }
    if (!any) return false;
  }
  return true;
}

bool sc_outputs_agree(const char *expected, const opr_shape *got,
                      size_t ngot, const opr_shape *flat, size_t nflat) {
  size_t len = strlen(expected);
  if (count_top(expected, len, ';') != ngot) return false;
  for (size_t i = 0; i < ngot; i++) {
    const char *s;
    size_t n;
    piece(expected, len, ';', i, &s, &n);
    size_t nalt = count_top(s, n, '|');
    bool any = false;
    for (size_t k = 0; k < nalt && !any; k++) {
      const char *x;
      size_t xn;
      piece(s, n, '|', k, &x, &xn);
      any = shape_ok(x, xn, got[i], flat, nflat);
    }
    if (!any) return false;
  }
  return true;
}

/* ---- messages ---- */

static void value_text(og_writer *w, const og_json *v);

static void put_json(og_writer *w, const og_json *v) {
  switch (v->kind) {
  case OG_JSON_NULL: og_w_puts(w, "null"); break;
  case OG_JSON_BOOL: og_w_puts(w, v->u.b ? "true" : "false"); break;
  case OG_JSON_NUMBER: og_w_puts(w, v->u.num.text); break;
  case OG_JSON_STRING: og_w_printf(w, "'%s'", v->u.str.ptr); break;
  case OG_JSON_ARRAY:
    og_w_puts(w, "[");
    for (size_t i = 0; i < v->u.arr.count; i++) {
      if (i) og_w_puts(w, ",");
      value_text(w, &v->u.arr.items[i]);
    }
    og_w_puts(w, "]");
    break;
  case OG_JSON_OBJECT:
    og_w_puts(w, "{");
    for (size_t i = 0; i < v->u.obj.count; i++) {
      og_w_printf(w, "%s%s:", i ? "," : "", v->u.obj.members[i].key.ptr);
      put_json(w, &v->u.obj.members[i].value);
    }
    og_w_puts(w, "}");
    break;
  }
}

/* An attr value {"i": 2} as just `2`. */
static void value_text(og_writer *w, const og_json *v) {
  if (v->kind == OG_JSON_OBJECT && v->u.obj.count == 1)
    put_json(w, &v->u.obj.members[0].value);
  else
    put_json(w, v);
}

const char *sc_attrs_text(og_arena *a, const og_json *attrs) {
  og_writer w;
  og_writer_init(&w);
  for (size_t i = 0; attrs && i < attrs->u.obj.count; i++) {
    og_w_printf(&w, "%s%s=", i ? " " : "", attrs->u.obj.members[i].key.ptr);
    value_text(&w, &attrs->u.obj.members[i].value);
  }
  const char *s = og_arena_strndup(a, w.buf ? w.buf : "", w.len);
  og_writer_free(&w);
  return s;
}
