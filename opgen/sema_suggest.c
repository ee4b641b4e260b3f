/* Candidate names for "did you mean": the language's types and the op's
 * own names, bounded so that a huge op stays linear. */
#include "sema_internal.h"

#include "suggest.h"

static const char *const typesets[] = {
    "numbertype", "numerictype", "realnumbertype", "realnumerictype",
    "quantizedtype",
};

static bool attr_fits(const og_attr *attr, unsigned sets) {
  if (sets & OG_SG_ATTRS) return true;
  if (attr->type.kind == OG_ATTR_TYPE) return sets & OG_SG_TYPE_ATTRS;
  return (sets & OG_SG_INT_ATTRS) && attr->type.kind == OG_ATTR_INT &&
         !attr->type.is_list;
}

static void add_items(og_suggest *g, const og_ast_item **items, size_t n) {
  if (n > OG_SUGGEST_MAX_NAMES) return;
  for (size_t i = 0; i < n; i++) og_suggest_add(g, items[i]->name);
}

void og_sema_suggest(const og_sema_op *s, og_suggest *g, unsigned sets) {
  if (sets & OG_SG_DTYPES)
    for (int dt = 1; dt < OG_DT_COUNT; dt++)
      if (og_dtype_name((og_dtype)dt))
        og_suggest_add(g, og_dtype_name((og_dtype)dt));
  if (sets & OG_SG_TYPESETS)
    for (size_t i = 0; i < sizeof typesets / sizeof *typesets; i++)
      og_suggest_add(g, typesets[i]);
  const og_op *op = s->op;
  if ((sets & (OG_SG_TYPE_ATTRS | OG_SG_INT_ATTRS | OG_SG_ATTRS)) &&
      op->nattrs <= OG_SUGGEST_MAX_NAMES)
    for (size_t i = 0; i < op->nattrs; i++)
      if (!s->attr_bad[i] && attr_fits(&op->attrs[i], sets))
        og_suggest_add(g, s->attr_items[i]->name);
  if (sets & OG_SG_INPUTS) add_items(g, s->input_items, op->ninputs);
  if (sets & OG_SG_OUTPUTS) add_items(g, s->output_items, op->noutputs);
}

const char *og_sema_hint(const og_sema_op *s, og_suggest *g, const char *name,
                         unsigned sets) {
  og_suggest_init(g, name);
  og_sema_suggest(s, g, sets);
  return og_suggest_hint(g);
}
