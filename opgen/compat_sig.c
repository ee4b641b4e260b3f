/* Input and output signatures, computed as TensorFlow's ComputeArgSignature
 * computes them: one entry per tensor, "int32", "T" or "N * T" (outputs
 * prefixed "name:"); an attr the old op lacks is replaced by its new
 * default, so `N * T` with a new N defaulting to 1 reads as one tensor and
 * a new list(type) attr defaulting to [] adds nothing. Old args always use
 * old attrs, so the old signature has one entry per old arg. */
#include "compat_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct sig_entry {
  const char *text;
  size_t arg;
  bool is_ref;
} sig_entry;

typedef struct sig {
  sig_entry *items; /* malloc'd */
  size_t count, cap;
  /* An entry needs the default of a new attr that has none: that attr's
   * own finding (ATTR_ADDED_WITHOUT_DEFAULT) says it all. */
  bool unknown;
  bool truncated; /* stopped at the limit */
} sig;

typedef struct sig_ctx {
  const og_compat_pair *p;
  bool outputs;
  size_t limit; /* entries past the old count cannot match: stop there */
} sig_ctx;

static void push(const sig_ctx *c, sig *s, const char *text, size_t arg,
                 bool is_ref) {
  if (s->count >= c->limit) {
    s->truncated = true;
    return;
  }
  s->items = og_xgrow(s->items, &s->cap, s->count + 1, sizeof *s->items);
  s->items[s->count++] = (sig_entry){text, arg, is_ref};
}

/* The new default of attr `name` (which the old op lacks), or NULL. */
static const og_value *new_default(const sig_ctx *c, const char *name) {
  const og_attr *attr = og_op_find_attr(c->p->new_op, name);
  return attr ? attr->default_value : NULL;
}

/* TensorFlow's DataTypeString spelling ("int32", "float"). */
static const char *dtype_text(og_dtype dt) {
  const char *name = og_dtype_name(dt);
  return name ? name : "?";
}

static bool in_old(const sig_ctx *c, const char *name) {
  return og_op_find_attr(c->p->old_op, name) != NULL;
}

static void add_type_list(const sig_ctx *c, sig *s, const og_arg *arg,
                          size_t index, const char *prefix) {
  og_arena *a = &c->p->out->arena;
  if (in_old(c, arg->type_list_attr)) {
    push(c, s, og_arena_printf(a, "%s%s", prefix, arg->type_list_attr), index,
         arg->is_ref);
    return;
  }
  const og_value *def = new_default(c, arg->type_list_attr);
  if (!def || def->kind != OG_VAL_LIST) {
    s->unknown = true;
    return;
  }
  for (size_t i = 0; i < def->u.list.count && !s->truncated; i++) {
    og_dtype dt = def->u.list.items[i].u.type;
    push(c, s, og_arena_printf(a, "%s%s", prefix, dtype_text(dt)), index,
         arg->is_ref);
  }
}

static void add_arg(const sig_ctx *c, sig *s, const og_arg *arg,
                    size_t index) {
  og_arena *a = &c->p->out->arena;
  const char *prefix = c->outputs ? og_arena_printf(a, "%s:", arg->name) : "";
  if (arg->type_list_attr[0]) {
    add_type_list(c, s, arg, index, prefix);
    return;
  }
  int64_t count = 1;
  const char *times = "";
  if (arg->number_attr[0] && in_old(c, arg->number_attr)) {
    times = og_arena_printf(a, "%s * ", arg->number_attr);
  } else if (arg->number_attr[0]) {
    const og_value *def = new_default(c, arg->number_attr);
    if (!def || def->kind != OG_VAL_INT) s->unknown = true;
    count = def && def->kind == OG_VAL_INT ? def->u.i : 0;
  }
  const char *type = arg->type != OG_DT_INVALID ? dtype_text(arg->type)
                                                : arg->type_attr;
  if (arg->type == OG_DT_INVALID && !in_old(c, arg->type_attr)) {
    const og_value *def = new_default(c, arg->type_attr);
    if (!def || def->kind != OG_VAL_TYPE) s->unknown = true;
    type = def && def->kind == OG_VAL_TYPE ? dtype_text(def->u.type) : "?";
  }
  const char *text = og_arena_printf(a, "%s%s%s", prefix, times, type);
  for (int64_t i = 0; i < count && !s->truncated; i++)
    push(c, s, text, index, arg->is_ref);
}

static sig compute(const sig_ctx *c, const og_arg *args, size_t n) {
  sig s = {0};
  for (size_t i = 0; i < n && !s.truncated; i++)
    add_arg(c, &s, &args[i], i);
  return s;
}

static const char *join(og_arena *a, const sig *s) {
  og_writer w;
  og_writer_init(&w);
  for (size_t i = 0; i < s->count; i++)
    og_w_printf(&w, "%s%s", i ? ", " : "", s->items[i].text);
  if (s->truncated) og_w_puts(&w, ", ...");
  const char *text = og_arena_strndup(a, w.buf ? w.buf : "", w.len);
  og_writer_free(&w);
  return text;
}

/* ---- reporting a mismatch ---- */

typedef struct sides {
  const og_arg *old_args, *new_args;
  const char *what; /* "input" or "output" */
  bool outputs;
} sides;

/* The part of an output entry after "name:". */
static const char *after_name(const char *text) {
  const char *colon = strchr(text, ':');
  return colon ? colon + 1 : text;
}

static const char *mismatch_hint(og_arena *a, const sides *d, const sig *o,
                                 const sig *n, size_t k) {
  if (k == o->count && k > 0 && n->items[k - 1].arg == n->items[k].arg)
    return og_arena_printf(a, "give the attrs new to %s '%s' defaults that "
                              "expand it to what the baseline has",
                           d->what, d->new_args[n->items[k].arg].name);
  if (k == o->count)
    return og_arena_printf(a, "make the new %s a list defaulting to empty "
                              "(`N * T` with `attr N: int >= 0 = 0;`, or a "
                              "`list(type) >= 0 = []` attr)", d->what);
  if (!d->outputs)
    return "keep the inputs' types and order (renaming an input is fine); to "
           "change them, add a new op with a new name";
  if (k < n->count &&
      strcmp(after_name(o->items[k].text), after_name(n->items[k].text)) == 0)
    return og_arena_printf(a, "keep the output name '%s': graphs refer to "
                              "outputs by name; to rename it, add a new op "
                              "with a new name",
                           d->old_args[o->items[k].arg].name);
  return "keep the outputs' names, types and order; to change them, add a "
         "new op with a new name";
}

/* Where the two signatures part (at entry k), in words. */
static const char *mismatch_detail(og_arena *a, const sides *d,
                                   const sig *o, const sig *n, size_t k) {
  if (k == o->count)
    return og_arena_printf(a, "%s '%s' adds '%s'", d->what,
                           d->new_args[n->items[k].arg].name, n->items[k].text);
  if (k == n->count)
    return og_arena_printf(a, "the baseline's '%s' (%s '%s') is gone",
                           o->items[k].text, d->what,
                           d->old_args[o->items[k].arg].name);
  return og_arena_printf(a, "%s '%s' gives '%s' where the baseline has '%s'",
                         d->what, d->new_args[n->items[k].arg].name,
                         n->items[k].text, o->items[k].text);
}

/* The signatures part at entry k. */
static void report_mismatch(const og_compat_pair *p, const sides *d,
                            const sig *o, const sig *n, size_t k) {
  og_arena *a = &p->out->arena;
  const char *hint = mismatch_hint(a, d, o, n, k);
  const char *detail = mismatch_detail(a, d, o, n, k);
  og_srcpos pos = k < n->count ? d->new_args[n->items[k].arg].pos
                               : p->new_op->pos;
  og_srcpos base = k < o->count ? d->old_args[o->items[k].arg].pos
                                : p->old_op->pos;
  const char *old_text = join(a, o);
  og_compat_add(p, d->outputs ? OG_COMPAT_OUTPUT_SIGNATURE_CHANGED
                              : OG_COMPAT_INPUT_SIGNATURE_CHANGED,
                pos, base,
                og_arena_printf(a, "the baseline's %s signature is '%s'",
                                d->what, old_text),
                hint, "op '%s': %s signature changed from '%s' to '%s': %s",
                p->old_op->name, d->what, old_text, join(a, n), detail);
}

/* An input may lose Ref but not gain it; an output may gain Ref but not
 * lose it. Checked on the first k entries, where the signatures agree
 * (TensorFlow checks only equal signatures; past a mismatch, entries no
 * longer line up). One finding per arg. */
static void check_refs(const og_compat_pair *p, const sides *d,
                       const sig *o, const sig *n, size_t k) {
  og_arena *a = &p->out->arena;
  size_t last = (size_t)-1;
  for (size_t i = 0; i < k; i++) {
    bool bad = d->outputs ? o->items[i].is_ref && !n->items[i].is_ref
                          : !o->items[i].is_ref && n->items[i].is_ref;
    if (!bad || n->items[i].arg == last) continue;
    last = n->items[i].arg;
    const og_arg *na = &d->new_args[last], *oa = &d->old_args[o->items[i].arg];
    const char *base = og_arena_printf(a, "the baseline declares %s",
                                       og_compat_arg_decl(a, d->what, oa));
    if (d->outputs)
      og_compat_add(p, OG_COMPAT_OUTPUT_REF_REMOVED, na->pos, oa->pos, base,
                    og_arena_printf(a, "keep output '%s' a Ref(...); to "
                                       "change it, add a new op with a new "
                                       "name", na->name),
                    "op '%s': output '%s' is no longer a reference (Ref)",
                    p->old_op->name, na->name);
    else
      og_compat_add(p, OG_COMPAT_INPUT_MADE_REF, na->pos, oa->pos, base,
                    og_arena_printf(a, "drop Ref(...) from input '%s'; for a "
                                       "reference input, add a new op with a "
                                       "new name", na->name),
                    "op '%s': input '%s' became a reference (Ref)",
                    p->old_op->name, na->name);
  }
}

static void check_side(const og_compat_pair *p, bool outputs) {
  const og_op *oo = p->old_op, *no = p->new_op;
  sides d = {outputs ? oo->outputs : oo->inputs,
             outputs ? no->outputs : no->inputs, outputs ? "output" : "input",
             outputs};
  size_t nold = outputs ? oo->noutputs : oo->ninputs;
  size_t nnew = outputs ? no->noutputs : no->ninputs;
  sig_ctx c = {p, outputs, (size_t)-1};
  sig o = compute(&c, d.old_args, nold);
  c.limit = o.count + 1;
  sig n = compute(&c, d.new_args, nnew);
  size_t k = 0;
  while (k < o.count && k < n.count &&
         strcmp(o.items[k].text, n.items[k].text) == 0)
    k++;
  if (!o.unknown && !n.unknown) {
    check_refs(p, &d, &o, &n, k);
    if (k < o.count || k < n.count) report_mismatch(p, &d, &o, &n, k);
  }
  free(o.items);
  free(n.items);
}

void og_compat_check_signatures(const og_compat_pair *p) {
  check_side(p, false);
  check_side(p, true);
}
