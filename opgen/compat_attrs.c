/* The attr rules of OpDefCompatible (removed, type, allowed values,
 * minimum, added without default) and of OpDefAttrDefaultsUnchanged
 * (a default changed or removed; adding one is fine). */
#include "compat_internal.h"

#include "value_text.h"

#include <string.h>

static bool in_list(const og_value *list, const og_value *v) {
  for (size_t i = 0; i < list->u.list.count; i++)
    if (og_value_equal(&list->u.list.items[i], v)) return true;
  return false;
}

/* The old allowed values the new set lacks, as "bool, int8" (in `a`), or
 * NULL when none is missing. */
static const char *missing_values(og_arena *a, const og_value *old_allowed,
                                  const og_value *new_allowed) {
  og_writer w;
  og_writer_init(&w);
  for (size_t i = 0; i < old_allowed->u.list.count; i++) {
    const og_value *v = &old_allowed->u.list.items[i];
    if (in_list(new_allowed, v)) continue;
    if (w.len) og_w_puts(&w, ", ");
    og_value_write(&w, v);
  }
  const char *s = w.len ? og_arena_strndup(a, w.buf, w.len) : NULL;
  og_writer_free(&w);
  return s;
}

static const char *allowed_text(og_arena *a, const og_value *allowed) {
  og_writer w;
  og_writer_init(&w);
  og_allowed_write(&w, allowed);
  const char *s = og_arena_strndup(a, w.buf, w.len);
  og_writer_free(&w);
  return s;
}

/* TensorFlow's MoreRestrictive: a restriction where there was none, or an
 * old value no longer allowed. Dropping the restriction is fine. */
static void check_allowed(const og_compat_pair *p, const og_attr *o,
                          const og_attr *n, const char *decl) {
  if (!n->allowed) return;
  og_arena *a = &p->out->arena;
  const char *hint = og_arena_printf(
      a, "allow every value the baseline allows; to restrict attr '%s', add "
         "a new op with a new name", o->name);
  const char *now = allowed_text(a, n->allowed);
  if (!o->allowed) {
    og_compat_add(p, OG_COMPAT_ALLOWED_NARROWED, n->pos, o->pos, decl, hint,
                  "op '%s': attr '%s' is now restricted to %s; the baseline "
                  "allows any value", p->old_op->name, o->name, now);
    return;
  }
  const char *missing = missing_values(a, o->allowed, n->allowed);
  if (missing)
    og_compat_add(p, OG_COMPAT_ALLOWED_NARROWED, n->pos, o->pos, decl, hint,
                  "op '%s': attr '%s' no longer allows %s (now %s)",
                  p->old_op->name, o->name, missing, now);
}

/* TensorFlow's HigherMinimum: a minimum where there was none, or a higher
 * one. */
static void check_minimum(const og_compat_pair *p, const og_attr *o,
                          const og_attr *n, const char *decl) {
  if (!n->has_minimum || (o->has_minimum && n->minimum <= o->minimum)) return;
  og_arena *a = &p->out->arena;
  if (!o->has_minimum)
    og_compat_add(p, OG_COMPAT_MINIMUM_RAISED, n->pos, o->pos, decl,
                  og_arena_printf(a, "drop the minimum of attr '%s'; to "
                                     "require one, add a new op with a new "
                                     "name", o->name),
                  "op '%s': attr '%s' now has minimum %lld; the baseline has "
                  "none", p->old_op->name, o->name, (long long)n->minimum);
  else
    og_compat_add(p, OG_COMPAT_MINIMUM_RAISED, n->pos, o->pos, decl,
                  og_arena_printf(a, "keep the minimum of attr '%s' at %lld "
                                     "or lower", o->name,
                                  (long long)o->minimum),
                  "op '%s': attr '%s' minimum raised from %lld to %lld",
                  p->old_op->name, o->name, (long long)o->minimum,
                  (long long)n->minimum);
}

/* OpDefAttrDefaultsUnchanged: graphs that leave the attr out mean the old
 * default, so it may be added but neither changed nor removed. */
static void check_default(const og_compat_pair *p, const og_attr *o,
                          const og_attr *n, const char *decl) {
  if (!o->default_value || og_value_equal(o->default_value, n->default_value))
    return;
  og_arena *a = &p->out->arena;
  const char *was = og_compat_value_text(a, o->default_value);
  const char *hint = og_arena_printf(
      a, "restore the default %s of attr '%s': graphs that leave '%s' out "
         "mean %s", was, o->name, o->name, was);
  if (!n->default_value)
    og_compat_add(p, OG_COMPAT_DEFAULT_CHANGED, n->pos, o->pos, decl, hint,
                  "op '%s': attr '%s' no longer has a default (was %s)",
                  p->old_op->name, o->name, was);
  else
    og_compat_add(p, OG_COMPAT_DEFAULT_CHANGED, n->pos, o->pos, decl, hint,
                  "op '%s': attr '%s' default changed from %s to %s",
                  p->old_op->name, o->name, was,
                  og_compat_value_text(a, n->default_value));
}

static void check_old_attr(const og_compat_pair *p, const og_attr *o) {
  og_arena *a = &p->out->arena;
  const char *decl = og_arena_printf(a, "the baseline declares %s",
                                     og_compat_attr_decl(a, o));
  const og_attr *n = og_op_find_attr(p->new_op, o->name);
  if (!n) {
    og_compat_add(p, OG_COMPAT_ATTR_REMOVED, p->new_op->pos, o->pos, decl,
                  og_arena_printf(a, "keep attr '%s'; to drop it, add a new "
                                     "op with a new name", o->name),
                  "op '%s': attr '%s' was removed", p->old_op->name, o->name);
    return;
  }
  if (o->type.kind != n->type.kind || o->type.is_list != n->type.is_list) {
    const char *was = og_attr_type_name(o->type);
    og_compat_add(p, OG_COMPAT_ATTR_TYPE_CHANGED, n->pos, o->pos, decl,
                  og_arena_printf(a, "keep attr '%s' of type '%s'; for another "
                                     "type, add a new attr with a default or "
                                     "a new op with a new name", o->name, was),
                  "op '%s': attr '%s' changed type from '%s' to '%s'",
                  p->old_op->name, o->name, was, og_attr_type_name(n->type));
    return; /* the other checks would compare values of different types */
  }
  check_allowed(p, o, n, decl);
  check_minimum(p, o, n, decl);
  check_default(p, o, n, decl);
}

static void check_new_attr(const og_compat_pair *p, const og_attr *n) {
  if (n->default_value || og_op_find_attr(p->old_op, n->name)) return;
  og_arena *a = &p->out->arena;
  og_compat_add(p, OG_COMPAT_ATTR_ADDED_WITHOUT_DEFAULT, n->pos,
                p->old_op->pos,
                og_arena_printf(a, "the baseline op '%s' has no attr '%s'",
                                p->old_op->name, n->name),
                og_arena_printf(a, "give attr '%s' a default", n->name),
                "op '%s': new attr '%s' has no default", p->old_op->name,
                n->name);
}

void og_compat_check_attrs(const og_compat_pair *p) {
  for (size_t i = 0; i < p->old_op->nattrs; i++)
    check_old_attr(p, &p->old_op->attrs[i]);
  for (size_t i = 0; i < p->new_op->nattrs; i++)
    check_new_attr(p, &p->new_op->attrs[i]);
}
