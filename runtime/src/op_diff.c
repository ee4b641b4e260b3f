/* Two definitions of one op compared part by part; the first difference
 * is described with both sides, the registered one first. */
#include "op_diff.h"

#include "library_internal.h"
#include "opr/attr.h"
#include "opr/dtype.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct text {
  char *buf;
  size_t n;
} text;

static bool say(text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static bool say(text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->buf, t->n, fmt, ap);
  va_end(ap);
  return true;
}

static const char *str(const char *s) { return s ? s : "(null)"; }

static const char *attr_name(const opr_op_def *d, int i) {
  return i >= 0 && (size_t)i < d->nattrs ? str(d->attrs[i].name) : "?";
}

/* An argument's type as a spec writes it: "float", "N * T", "Ref(T)". */
static const char *arg_type(const opr_op_def *d, const opr_arg_def *a,
                            char *buf, size_t n) {
  char base[96];
  if (a->type_list_attr != OPR_NO_ATTR)
    snprintf(base, sizeof base, "%s", attr_name(d, a->type_list_attr));
  else if (a->type_attr != OPR_NO_ATTR)
    snprintf(base, sizeof base, "%s", attr_name(d, a->type_attr));
  else
    snprintf(base, sizeof base, "%s", opr_dtype_name(a->type));
  char full[200];
  if (a->number_attr != OPR_NO_ATTR)
    snprintf(full, sizeof full, "%s * %s", attr_name(d, a->number_attr), base);
  else
    snprintf(full, sizeof full, "%s", base);
  snprintf(buf, n, a->is_ref ? "Ref(%s)" : "%s", full);
  return buf;
}

static bool args_differ(text *t, const char *kind, const opr_op_def *a,
                        const opr_arg_def *x, size_t nx, const opr_op_def *b,
                        const opr_arg_def *y, size_t ny) {
  for (size_t i = 0; i < nx || i < ny; i++) {
    if (i >= ny) return say(t, "%s %zu '%s' is missing", kind, i, str(x[i].name));
    if (i >= nx) return say(t, "%s %zu '%s' is added", kind, i, str(y[i].name));
    if (strcmp(str(x[i].name), str(y[i].name)) != 0)
      return say(t, "%s %zu: names differ ('%s' vs '%s')", kind, i,
                 str(x[i].name), str(y[i].name));
    char tx[128], ty[128];
    arg_type(a, &x[i], tx, sizeof tx);
    arg_type(b, &y[i], ty, sizeof ty);
    if (strcmp(tx, ty) != 0)
      return say(t, "%s %zu '%s': types differ (%s vs %s)", kind, i,
                 str(x[i].name), tx, ty);
  }
  return false;
}

static const char *minimum_text(const opr_attr_def *a, char *buf, size_t n) {
  if (!a->has_minimum) return "none";
  snprintf(buf, n, ">= %" PRId64, a->minimum);
  return buf;
}

static const char *types_text(opr_dtype_set set, char *buf, size_t n) {
  return set ? opr_dtype_set_text(set, buf, n) : "any type";
}

static const char *strings_text(const opr_attr_def *a, char *buf, size_t n) {
  if (!a->allowed_strings) return "any string";
  size_t used = (size_t)snprintf(buf, n, "{");
  for (size_t i = 0; i < a->nallowed_strings && used < n; i++)
    used += (size_t)snprintf(buf + used, n - used, "%s'%.*s'", i ? ", " : "",
                             (int)a->allowed_strings[i].len,
                             a->allowed_strings[i].ptr ? a->allowed_strings[i].ptr
                                                       : "");
  if (used < n) snprintf(buf + used, n - used, "}");
  return buf;
}

static bool same_strings(const opr_attr_def *x, const opr_attr_def *y) {
  if (!x->allowed_strings || !y->allowed_strings)
    return !x->allowed_strings && !y->allowed_strings;
  if (x->nallowed_strings != y->nallowed_strings) return false;
  for (size_t i = 0; i < x->nallowed_strings; i++) {
    const opr_str *p = &x->allowed_strings[i], *q = &y->allowed_strings[i];
    if (p->len != q->len || (p->len && memcmp(p->ptr, q->ptr, p->len) != 0))
      return false;
  }
  return true;
}

static const char *default_text(const opr_attr_value *v, char *buf, size_t n) {
  if (!v) return "none";
  if (v->is_list) return "a list";
  switch (v->kind) {
  case OPR_ATTR_INT: snprintf(buf, n, "%" PRId64, v->u.i); return buf;
  case OPR_ATTR_BOOL: return v->u.b ? "true" : "false";
  case OPR_ATTR_TYPE: return opr_dtype_name(v->u.type);
  case OPR_ATTR_FLOAT: snprintf(buf, n, "%.9g", (double)v->u.f); return buf;
  case OPR_ATTR_STRING:
    snprintf(buf, n, "'%.*s'", (int)(v->u.s.len > 40 ? 40 : v->u.s.len),
             v->u.s.ptr ? v->u.s.ptr : "");
    return buf;
  default: return "a value";
  }
}

static bool attr_differs(text *t, const opr_attr_def *x,
                         const opr_attr_def *y) {
  const char *name = str(x->name);
  char p[128], q[128];
  if (x->type.kind != y->type.kind || x->type.is_list != y->type.is_list)
    return say(t, "attr '%s': types differ (%s vs %s)", name,
               opr_attr_type_name(x->type), opr_attr_type_name(y->type));
  if (x->has_minimum != y->has_minimum ||
      (x->has_minimum && x->minimum != y->minimum))
    return say(t, "attr '%s': minimums differ (%s vs %s)", name,
               minimum_text(x, p, sizeof p), minimum_text(y, q, sizeof q));
  if (x->allowed_types != y->allowed_types)
    return say(t, "attr '%s': allowed types differ (%s vs %s)", name,
               types_text(x->allowed_types, p, sizeof p),
               types_text(y->allowed_types, q, sizeof q));
  if (!same_strings(x, y))
    return say(t, "attr '%s': allowed values differ (%s vs %s)", name,
               strings_text(x, p, sizeof p), strings_text(y, q, sizeof q));
  if (opr_attr_value_hash(x->default_value) !=
      opr_attr_value_hash(y->default_value))
    return say(t, "attr '%s': defaults differ (%s vs %s)", name,
               default_text(x->default_value, p, sizeof p),
               default_text(y->default_value, q, sizeof q));
  if (x->inferred != y->inferred)
    return say(t, "attr '%s': %s", name,
               x->inferred ? "inferred from the inputs vs not"
                           : "not inferred vs inferred from the inputs");
  return false;
}

static bool attrs_differ(text *t, const opr_op_def *a, const opr_op_def *b) {
  size_t na = a->attrs ? a->nattrs : 0, nb = b->attrs ? b->nattrs : 0;
  for (size_t i = 0; i < na || i < nb; i++) {
    if (i >= nb)
      return say(t, "attr '%s' is missing", str(a->attrs[i].name));
    if (i >= na)
      return say(t, "attr '%s' is added", str(b->attrs[i].name));
    if (strcmp(str(a->attrs[i].name), str(b->attrs[i].name)) != 0)
      return say(t, "attr %zu: names differ ('%s' vs '%s')", i,
                 str(a->attrs[i].name), str(b->attrs[i].name));
    if (attr_differs(t, &a->attrs[i], &b->attrs[i])) return true;
  }
  return false;
}

static const char *flags_text(const opr_op_def *d, char *buf, size_t n) {
  snprintf(buf, n, "%s%s%s%s", d->is_stateful ? " stateful" : "",
           d->is_commutative ? " commutative" : "",
           d->is_aggregate ? " aggregate" : "",
           d->allows_uninitialized_input ? " allows_uninitialized_input" : "");
  return buf[0] ? buf + 1 : "none";
}

const char *opr_op_def_diff(const opr_op_def *a, const opr_op_def *b,
                            char *buf, size_t n) {
  text t = {buf, n};
  if (n == 0) return buf;
  if (!a || !b) {
    say(&t, "they differ");
    return buf;
  }
  char p[96], q[96];
  if (strcmp(str(a->name), str(b->name)) != 0)
    say(&t, "names differ ('%s' vs '%s')", str(a->name), str(b->name));
  else if (args_differ(&t, "input", a, a->inputs, a->inputs ? a->ninputs : 0,
                       b, b->inputs, b->inputs ? b->ninputs : 0) ||
           args_differ(&t, "output", a, a->outputs,
                       a->outputs ? a->noutputs : 0, b, b->outputs,
                       b->outputs ? b->noutputs : 0) ||
           attrs_differ(&t, a, b))
    ;
  else if (strcmp(flags_text(a, p, sizeof p), flags_text(b, q, sizeof q)) != 0)
    say(&t, "flags differ (%s vs %s)", flags_text(a, p, sizeof p),
        flags_text(b, q, sizeof q));
  else if (opr_op_def_hash(a) == opr_op_def_hash(b))
    say(&t, "the definitions are identical");
  else /* what the hash covers and these checks do not */
    say(&t, "%s", opr_op_def_difference(a, b));
  return buf;
}

const char *opr_op_def_diff_note(const opr_op_def *a, const opr_op_def *b,
                                 char *buf, size_t n) {
  if (n == 0) return buf;
  buf[0] = '\0';
  if (opr_op_def_hash(a) == opr_op_def_hash(b)) return buf;
  char diff[OPR_OP_DIFF_MAX];
  snprintf(buf, n, " (%s)", opr_op_def_diff(a, b, diff, sizeof diff));
  return buf;
}
