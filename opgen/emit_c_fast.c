/* The typed wrappers' specialised fast path and their caller-owned form.
 * An op gets the fast path when its checks are decidable here: one
 * input tensor and one output of the same type (one inferred type attr,
 * or a fixed type), the shape rule `out = in`, and no other attr that
 * needs more than a minimum tested inline. The wrapper tests the input
 * and attrs, sets the type attr and calls opr_invoke_fast, which runs
 * the cached kernel or falls back to the general path. */
#include "emit_c_internal.h"

#include <string.h>

/* An attr the fast path can pass as it is (a minimum tested inline). */
static bool simple_attr(const og_attr *a) {
  if (a->type.is_list || a->allowed) return false;
  return a->type.kind == OG_ATTR_INT || a->type.kind == OG_ATTR_FLOAT ||
         a->type.kind == OG_ATTR_BOOL;
}

/* The single rule `shape out = in;`. */
static bool same_shape_rule(const og_op *op) {
  if (op->nshape_rules != 1 || op->shape_fn) return false;
  const og_shape_rule *r = &op->shape_rules[0];
  return !r->is_require && !r->per_tensor && r->output == 0 &&
         r->expr.kind == OG_SX_INPUT && r->expr.index == 0;
}

/* The input and output: single tensors of one type. */
static bool same_type_args(const og_op *op) {
  if (op->ninputs != 1 || op->noutputs != 1) return false;
  const og_arg *in = &op->inputs[0], *out = &op->outputs[0];
  if (og_c_arg_is_list(in) || og_c_arg_is_list(out) || in->is_ref ||
      out->is_ref)
    return false;
  if (in->type) return out->type == in->type && !out->type_attr[0];
  return in->type_attr[0] && !out->type && strcmp(in->type_attr,
                                                   out->type_attr) == 0;
}

bool og_c_has_fast_path(const og_op *op) {
  if (!same_type_args(op) || !same_shape_rule(op)) return false;
  const char *t = op->inputs[0].type_attr;
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    if (t[0] && strcmp(a->name, t) == 0) {
      if (a->type.is_list || !a->inferred || !a->allowed) return false;
    } else if (!simple_attr(a)) {
      return false;
    }
  }
  return true;
}

/* The fast path, with the type attr (if any) the op's only attr: the
 * runtime's generic entry can then make the wrapper's tests itself
 * (opr_op_def.has_fast_path). */
bool og_c_has_exec_fast_path(const og_op *op) {
  return og_c_has_fast_path(op) &&
         op->nattrs == (op->inputs[0].type_attr[0] ? 1u : 0u);
}

/* `input && out && (!into || *out) && <type test> && <attr minimums>`,
 * then the branch (the wrappers' body: out is the allocating form's
 * opr_tensor **, or the address of the _into form's tensor). */
static void fast_test(og_writer *w, const og_c_file *f, const og_op *op,
                      const char *in, int type_attr) {
  const og_cn_scoped *n = og_c_scoped(f, op);
  og_w_printf(w, "if (%s && %s && (!into || *%s) &&\n    ", in, n->out[0],
              n->out[0]);
  if (type_attr >= 0)
    og_w_printf(w, "opr_dtype_set_has(%s[%d].allowed_types, %s->dtype)",
                og_cn_op(f, op, OG_CN_ATTR_DEFS), type_attr, in);
  else
    og_w_printf(w, "%s->dtype == OPR_DT_%s", in,
                og_dtype_enum_id(op->inputs[0].type));
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    if ((int)i == type_attr || !a->has_minimum) continue;
    og_w_printf(w, " &&\n    %s >= ", og_c_attr_source(f, op, a));
    og_c_scalar(w, &(og_value){.kind = OG_VAL_INT, .u.i = a->minimum},
                OG_ATTR_INT);
  }
  og_w_line(w, ") {");
}

void og_c_fast_path(og_writer *w, const og_c_file *f, const og_op *op) {
  const char *in = og_c_scoped(f, op)->in[0];
  int type_attr = op->inputs[0].type_attr[0]
                      ? og_c_attr_index(op, op->inputs[0].type_attr)
                      : -1;
  og_w_line(w, "/* The checks decided when generating: the fast path. */");
  fast_test(w, f, op, in, type_attr);
  og_w_indent(w);
  if (type_attr >= 0)
    og_w_line(w, "op_attrs[%d] = (opr_attr_value){.kind = OPR_ATTR_TYPE, "
                 ".u.type = %s->dtype};", type_attr, in);
  og_w_line(w, "return into ? opr_invoke_fast_into(ctx, &op_call)\n"
               "            : opr_invoke_fast(ctx, &op_call);");
  og_w_dedent(w);
  og_w_line(w, "}");
}

void og_c_unary_body(og_writer *w, const og_c_file *f, const og_op *op,
                     bool into) {
  const og_cn_scoped *n = og_c_scoped(f, op);
  og_w_line(w, "/* One input of an allowed type, shaped like the output: "
               "the runtime");
  og_w_line(w, " * tests it, then runs the cached kernel (or the general "
               "path). */");
  og_w_line(w, "return %s(ctx, &%s, %s, %s);",
            into ? "opr_invoke_unary_into" : "opr_invoke_unary",
            og_cn_op(f, op, OG_CN_DEF), n->in[0], n->out[0]);
}

og_c_params og_c_into_params(const og_c_file *f, const og_op *op) {
  og_c_params p = og_c_wrapper_params(f, op);
  og_c_params q = p;
  q.decls = og_arena_array(f->arena, p.count + 1, sizeof *q.decls);
  memcpy(q.decls, p.decls, p.count * sizeof *q.decls);
  /* The outputs come last: a single one becomes `opr_tensor *y`, the
   * caller's tensor; a list keeps its array of the caller's tensors. */
  const og_cn_scoped *n = og_c_scoped(f, op);
  size_t k = p.count;
  for (size_t i = op->noutputs; i-- > 0;) {
    if (og_c_arg_is_list(&op->outputs[i])) {
      k -= 2;
      continue;
    }
    k--;
    q.decls[k] = og_arena_printf(f->arena, "opr_tensor *%s", n->out[i]);
  }
  return q;
}
