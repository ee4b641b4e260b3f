/* import-tf writes every name of an imported op into `.op` text: the op's
 * own, its attrs', its args' and the attr names args refer to. A name
 * outside the language's rules could end the item early and inject spec
 * text (`Foo { stateful; } op Bar`), so each is checked before anything
 * is written. */
#include "tf_import.h"

#include "name_rules.h"

#include <stdarg.h>

static bool __attribute__((format(printf, 3, 4)))
bad(og_diag *diag, og_srcpos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  og_diag_vreport(diag, OG_SEV_ERROR, pos, fmt, ap);
  va_end(ap);
  return false;
}

/* One attr reference of an arg (`field` is "type_attr", ...). */
static bool check_ref_name(og_diag *diag, const og_op *op, const og_arg *arg,
                           const char *what, const char *field,
                           const char *ref) {
  char shown[OG_NAME_SHOWN_MAX];
  if (!ref || !*ref || og_valid_attr_name(ref)) return true;
  return bad(diag, arg->pos, "op '%s': %s '%s': invalid %s '%s': %s",
             op->name, what, arg->name, field, og_name_shown(ref, shown),
             og_attr_name_rule);
}

static bool check_arg(og_diag *diag, const og_op *op, const og_arg *arg,
                      const char *what) {
  char shown[OG_NAME_SHOWN_MAX];
  if (!og_valid_arg_name(arg->name))
    return bad(diag, arg->pos, "op '%s': invalid %s name '%s': %s", op->name,
               what, og_name_shown(arg->name, shown), og_arg_name_rule);
  return check_ref_name(diag, op, arg, what, "type_attr", arg->type_attr) &&
         check_ref_name(diag, op, arg, what, "number_attr",
                        arg->number_attr) &&
         check_ref_name(diag, op, arg, what, "type_list_attr",
                        arg->type_list_attr);
}

bool og_tf_check_names(og_diag *diag, const og_op *op) {
  char shown[OG_NAME_SHOWN_MAX];
  if (!og_valid_op_name(op->name))
    return bad(diag, op->pos, "invalid op name '%s': %s",
               og_name_shown(op->name, shown), og_op_name_rule);
  bool ok = true;
  for (size_t i = 0; i < op->nattrs; i++)
    if (!og_valid_attr_name(op->attrs[i].name))
      ok = bad(diag, op->attrs[i].pos, "op '%s': invalid attr name '%s': %s",
               op->name, og_name_shown(op->attrs[i].name, shown),
               og_attr_name_rule);
  for (size_t i = 0; i < op->ninputs; i++)
    ok &= check_arg(diag, op, &op->inputs[i], "input");
  for (size_t i = 0; i < op->noutputs; i++)
    ok &= check_arg(diag, op, &op->outputs[i], "output");
  return ok;
}
