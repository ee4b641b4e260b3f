/* Forms on inputs: dim, rank, length, value, sum, concat, known, and the
 * indexing of list inputs (x[i]) and of input values (value(x)[i]). */
#include "sema_shape_internal.h"

#include <string.h>

bool og_sx_is_list_arg(const og_arg *a) {
  return a->number_attr[0] || a->type_list_attr[0];
}

long og_sx_list_input(og_sx *x, const og_ast_expr *e) {
  if (e->kind != OG_EX_NAME || og_sx_find_bound(x, e->name) >= 0 ||
      og_sx_find_param(x, e->name) >= 0 || og_sx_find_let(x, e->name))
    return -1;
  long i = og_sema_find_input(x->s, e->name);
  return i >= 0 && og_sx_is_list_arg(&x->s->op->inputs[i]) ? i : -1;
}

/* A tensor index of a list input: x[i] with i >= 0. */
static bool tensor_index(og_sx *x, const og_ast_expr *i, og_sexpr *out) {
  return og_sx_resolve(x, i, OG_SXT_NUM, out) &&
         og_sx_check_nonneg(x, out, "a tensor index");
}

/* Whether the type attr of `in` allows neither int32 nor int64. */
static bool never_integer(og_sx *x, const og_arg *in) {
  if (!in->type_attr[0]) return false;
  const og_attr *t = og_op_find_attr(x->s->op, in->type_attr);
  og_dtype_set ints = OG_DTYPE_BIT(OG_DT_INT32) | OG_DTYPE_BIT(OG_DT_INT64);
  return t && t->allowed && t->allowed_types && !(t->allowed_types & ints);
}

/* `x` (a plain input) or `x[i]` (of a list input) as value()'s operand:
 * the input's index, the tensor index in *tensor when `x[i]`. */
static long value_operand(og_sx *x, const og_ast_expr *a, og_sexpr *tensor,
                          bool *has_tensor) {
  *has_tensor = false;
  const og_ast_expr *name = a->kind == OG_EX_INDEX ? a->lhs : a;
  long i = name->kind == OG_EX_NAME ? og_sema_find_input(x->s, name->name)
                                    : -1;
  if (i < 0 || og_sx_find_let(x, name->name) ||
      og_sx_find_bound(x, name->name) >= 0 ||
      og_sx_find_param(x, name->name) >= 0) {
    og_error_at(x->s->diag, a->loc,
                "value() reads an input (x, or x[i] of a list input), found "
                "%s", og_sx_quote(x, a->loc));
    return -1;
  }
  const og_arg *in = &x->s->op->inputs[i];
  if (og_sx_is_list_arg(in) != (a->kind == OG_EX_INDEX)) {
    og_error_at(x->s->diag, a->loc,
                og_sx_is_list_arg(in)
                    ? "input '%s' is a list: value() reads one of its "
                      "tensors, value(%s[i])"
                    : "input '%s' is not a list input: write value(%s)",
                in->name, in->name);
    return -1;
  }
  if (in->type != OG_DT_INVALID && in->type != OG_DT_INT32 &&
      in->type != OG_DT_INT64) {
    og_error_at(x->s->diag, a->loc,
                "value() reads int32 or int64 inputs; '%s' is %s", in->name,
                og_dtype_name(in->type));
    return -1;
  }
  if (never_integer(x, in)) {
    og_error_at(x->s->diag, a->loc,
                "value() reads int32 or int64 inputs; '%s' is never one "
                "(its type attr '%s' allows %s)", in->name, in->type_attr,
                og_sema_allowed_text(x->s, og_op_find_attr(x->s->op,
                                                           in->type_attr)
                                               ->allowed));
    return -1;
  }
  if (a->kind == OG_EX_INDEX) {
    *has_tensor = true;
    if (!tensor_index(x, a->rhs, tensor)) return -1;
  }
  return i;
}

bool og_sx_form_value(og_sx *x, const og_ast_expr *e,
                      const og_ast_expr *const *argv, int want,
                      og_sexpr *out) {
  (void)e;
  og_sexpr tensor = {0};
  bool has;
  long i = value_operand(x, argv[0], &tensor, &has);
  if (i < 0) return false;
  out->kind = OG_SX_VALUE, out->index = (size_t)i;
  out->type = want == OG_SXT_NUM ? OG_SXT_NUM : OG_SXT_SHAPE;
  og_sx_args(x, out, has);
  if (has) out->args[0] = tensor;
  return true;
}

bool og_sx_form_known(og_sx *x, const og_ast_expr *e,
                      const og_ast_expr *const *argv, int want,
                      og_sexpr *out) {
  (void)e, (void)want;
  const og_ast_expr *a = argv[0];
  out->type = OG_SXT_COND;
  if (a->kind == OG_EX_CALL && strcmp(a->name, "value") == 0 && a->args &&
      !a->args->next) {
    og_sexpr tensor = {0};
    bool has;
    long i = value_operand(x, a->args, &tensor, &has);
    if (i < 0) return false;
    out->kind = OG_SX_VALUE_KNOWN, out->index = (size_t)i;
    og_sx_args(x, out, has);
    if (has) out->args[0] = tensor;
    return true;
  }
  out->kind = OG_SX_KNOWN;
  og_sx_args(x, out, 1);
  if (!og_sx_resolve(x, a, SX_ANY, out->args)) return false;
  if (out->args[0].type != OG_SXT_COND) return true;
  og_error_at(x->s->diag, a->loc,
              "known() takes a shape or a number; %s is a condition",
              og_sx_quote(x, a->loc));
  return false;
}

/* The input a bare name stands for (not shadowed), or -1. */
static long plain_input(og_sx *x, const og_ast_expr *a) {
  if (a->kind != OG_EX_NAME || og_sx_find_bound(x, a->name) >= 0 ||
      og_sx_find_param(x, a->name) >= 0 || og_sx_find_let(x, a->name))
    return -1;
  return og_sema_find_input(x->s, a->name);
}

bool og_sx_form_dim(og_sx *x, const og_ast_expr *e,
                    const og_ast_expr *const *argv, int want, og_sexpr *out) {
  (void)e, (void)want;
  long i = plain_input(x, argv[0]);
  out->type = OG_SXT_NUM;
  og_sx_args(x, out, 2);
  if (i < 0) { /* dim(S, i) of another shape: S[i] */
    out->kind = OG_SX_INDEX;
    bool ok = og_sx_resolve(x, argv[0], OG_SXT_SHAPE, &out->args[0]);
    ok = og_sx_resolve(x, argv[1], OG_SXT_NUM, &out->args[1]) && ok;
    return ok && og_sx_check_axis(x, &out->args[0], &out->args[1], false);
  }
  out->kind = OG_SX_DIM, out->index = (size_t)i, out->nargs = 1;
  return og_sx_resolve(x, argv[1], OG_SXT_NUM, &out->args[0]);
}

bool og_sx_form_rank(og_sx *x, const og_ast_expr *e,
                     const og_ast_expr *const *argv, int want, og_sexpr *out) {
  (void)e, (void)want;
  long i = plain_input(x, argv[0]);
  out->type = OG_SXT_NUM;
  if (i >= 0) {
    out->kind = OG_SX_RANK, out->index = (size_t)i;
    return true;
  }
  out->kind = OG_SX_RANK_OF;
  og_sx_args(x, out, 1);
  return og_sx_resolve(x, argv[0], OG_SXT_SHAPE, out->args);
}

/* The list input of length(), sum() and concat(); -1 after reporting. */
static long list_operand(og_sx *x, const og_ast_expr *e, const og_ast_expr *a) {
  long i = og_sx_list_input(x, a);
  if (i >= 0) return i;
  long plain = plain_input(x, a);
  if (plain >= 0)
    og_error_at(x->s->diag, a->loc,
                "%s() takes a list input; '%s' is a single tensor", e->name,
                a->name);
  else
    og_error_at(x->s->diag, a->loc, "%s() takes a list input, found %s",
                e->name, og_sx_quote(x, a->loc));
  return -1;
}

bool og_sx_form_length(og_sx *x, const og_ast_expr *e,
                       const og_ast_expr *const *argv, int want,
                       og_sexpr *out) {
  (void)want;
  const og_ast_expr *a = argv[0];
  out->type = OG_SXT_NUM;
  if (a->kind == OG_EX_CALL && strcmp(a->name, "attr") == 0) {
    long i = og_sx_attr_arg(x, a);
    if (i < 0) return false;
    const og_attr *attr = &x->s->op->attrs[i];
    if (!attr->type.is_list) {
      og_error_at(x->s->diag, a->loc,
                  "length() takes a list attr; attr '%s' has type %s",
                  attr->name, og_attr_type_name(attr->type));
      return false;
    }
    out->kind = OG_SX_ATTR_LENGTH, out->index = (size_t)i;
    return true;
  }
  long i = list_operand(x, e, a);
  if (i < 0) return false;
  out->kind = OG_SX_LENGTH, out->index = (size_t)i;
  return true;
}

bool og_sx_form_sum(og_sx *x, const og_ast_expr *e,
                    const og_ast_expr *const *argv, int want, og_sexpr *out) {
  (void)want;
  long i = list_operand(x, e, argv[0]);
  if (i < 0) return false;
  out->kind = OG_SX_SUM_DIMS, out->type = OG_SXT_NUM, out->index = (size_t)i;
  og_sx_args(x, out, 1);
  return og_sx_resolve(x, argv[1], OG_SXT_NUM, out->args);
}

bool og_sx_form_concat(og_sx *x, const og_ast_expr *e,
                       const og_ast_expr *const *argv, int want,
                       og_sexpr *out) {
  (void)want;
  long i = list_operand(x, e, argv[0]);
  if (i < 0) return false;
  out->kind = OG_SX_CONCAT, out->type = OG_SXT_SHAPE, out->index = (size_t)i;
  og_sx_args(x, out, 1);
  bool handled = false;
  bool ok = og_sx_integers(x, argv[1], false, out->args, &handled);
  return handled ? ok : og_sx_resolve(x, argv[1], OG_SXT_NUM, out->args);
}

/* x[i] of a list input, attr(a)[i], value(x)[i]: the forms that index
 * something other than a shape. *handled false: an ordinary S[i]. */
bool og_sx_index_form(og_sx *x, const og_ast_expr *e, int want,
                      og_sexpr *out, bool *handled) {
  (void)want;
  const og_ast_expr *s = e->lhs;
  *handled = true;
  long i = og_sx_list_input(x, s);
  if (i >= 0) {
    out->kind = OG_SX_INPUT_AT, out->type = OG_SXT_SHAPE;
    out->index = (size_t)i;
    og_sx_args(x, out, 1);
    return tensor_index(x, e->rhs, out->args);
  }
  if (s->kind == OG_EX_CALL && strcmp(s->name, "attr") == 0)
    return og_sx_attr_index(x, e, out);
  if (s->kind != OG_EX_CALL || strcmp(s->name, "value") != 0 || !s->args ||
      s->args->next) {
    *handled = false;
    return false;
  }
  og_sexpr tensor = {0};
  bool has;
  if ((i = value_operand(x, s->args, &tensor, &has)) < 0) return false;
  out->kind = OG_SX_VALUE_AT, out->type = OG_SXT_NUM, out->index = (size_t)i;
  og_sx_args(x, out, has ? 2 : 1);
  if (has) out->args[1] = tensor;
  return og_sx_resolve(x, e->rhs, OG_SXT_NUM, out->args) &&
         og_sx_check_nonneg(x, out->args, "an index of input values");
}
