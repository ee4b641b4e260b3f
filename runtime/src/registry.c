/* The op registry: generated const tables, kept sorted by name (for
 * listings) and in a hash index (for lookups by name, which take no
 * lock). A table is checked for internal consistency when registered,
 * so that the checks and the dispatch can trust its attr indexes. */
#include "internal.h"
#include "library_internal.h"
#include "op_diff.h"
#include "opr/library.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t registry_mutex = PTHREAD_MUTEX_INITIALIZER;
static const opr_op_def **ops; /* sorted by name */
static size_t nops, ops_cap;

/* The lookup index opr_find_op reads without the lock: an open-addressing
 * hash set of the registered ops, at most half full. Entries are only
 * ever added, each with one atomic store under the lock; a bigger table
 * is filled before it is published, and the one it replaces stays
 * allocated (a lookup may still be reading it). */
typedef struct op_index {
  struct op_index *retired_next;
  size_t mask; /* slots - 1; slots a power of two */
  _Atomic(const opr_op_def *) slots[];
} op_index;

static _Atomic(op_index *) index_now;
static op_index *index_retired;

static uint64_t name_hash(const char *s) {
  uint64_t h = 14695981039346656037u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

static void index_put(op_index *x, const opr_op_def *def) {
  size_t i = (size_t)name_hash(def->name) & x->mask;
  while (atomic_load_explicit(&x->slots[i], memory_order_relaxed))
    i = (i + 1) & x->mask;
  atomic_store_explicit(&x->slots[i], def, memory_order_release);
}

/* Makes room for `more` ops (nops + more at most half the slots). Under
 * the lock; false when out of memory. */
static bool index_reserve(size_t more) {
  op_index *x = atomic_load_explicit(&index_now, memory_order_relaxed);
  size_t slots = x ? x->mask + 1 : 0;
  if (2 * (nops + more) <= slots) return true;
  size_t n = slots ? 2 * slots : 128;
  while (n < 2 * (nops + more)) n *= 2;
  op_index *bigger = calloc(1, sizeof *bigger + n * sizeof bigger->slots[0]);
  if (!bigger) return false;
  bigger->mask = n - 1;
  for (size_t i = 0; i < nops; i++) index_put(bigger, ops[i]);
  atomic_store_explicit(&index_now, bigger, memory_order_release);
  if (x) {
    x->retired_next = index_retired;
    index_retired = x;
  }
  return true;
}

void opr_registry_lock(void) { pthread_mutex_lock(&registry_mutex); }
void opr_registry_unlock(void) { pthread_mutex_unlock(&registry_mutex); }

/* Index of `name` in ops, or where it would go (*found false). */
static size_t op_position(const char *name, bool *found) {
  size_t lo = 0, hi = nops;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(ops[mid]->name, name);
    if (c == 0) {
      *found = true;
      return mid;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  *found = false;
  return lo;
}

const opr_op_def *opr_find_op_locked(const char *name) {
  bool found;
  size_t pos = op_position(name, &found);
  return found ? ops[pos] : NULL;
}

const opr_op_def *opr_find_op(const char *name) {
  if (!name) return NULL;
  const op_index *x = atomic_load_explicit(&index_now, memory_order_acquire);
  if (!x) return NULL;
  size_t i = (size_t)name_hash(name) & x->mask;
  for (;; i = (i + 1) & x->mask) {
    const opr_op_def *def =
        atomic_load_explicit(&x->slots[i], memory_order_acquire);
    if (!def || strcmp(def->name, name) == 0) return def;
  }
}

size_t opr_list_ops(const opr_op_def **out, size_t max) {
  opr_registry_lock();
  size_t total = nops;
  for (size_t i = 0; i < total && i < max && out; i++) out[i] = ops[i];
  opr_registry_unlock();
  return total;
}

/* Attr `index` of `def` exists and has type `kind` (a list or not). */
static bool attr_is(const opr_op_def *def, int index, opr_attr_kind kind,
                    bool is_list) {
  if (index < 0 || (size_t)index >= def->nattrs) return false;
  opr_attr_type t = def->attrs[index].type;
  return t.kind == kind && t.is_list == is_list;
}

static opr_status check_arg(const opr_op_def *def, const char *what,
                            const opr_arg_def *a) {
  if (!a->name)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: an %s has no name",
                     def->name, what);
  const char *bad = NULL;
  int sources = (a->type != OPR_DT_INVALID) + (a->type_attr != OPR_NO_ATTR) +
                (a->type_list_attr != OPR_NO_ATTR);
  if (a->type != OPR_DT_INVALID && !opr_dtype_valid(a->type))
    bad = "has an invalid fixed type";
  else if (sources != 1)
    bad = "needs exactly one of a type, a type attr or a type list attr";
  else if (a->type_attr != OPR_NO_ATTR &&
           !attr_is(def, a->type_attr, OPR_ATTR_TYPE, false))
    bad = "names a type attr that is no type attr of the op";
  else if (a->number_attr != OPR_NO_ATTR &&
           !attr_is(def, a->number_attr, OPR_ATTR_INT, false))
    bad = "names a number attr that is no int attr of the op";
  else if (a->type_list_attr != OPR_NO_ATTR &&
           (a->number_attr != OPR_NO_ATTR ||
            !attr_is(def, a->type_list_attr, OPR_ATTR_TYPE, true)))
    bad = "names a type list attr that is no list(type) attr of the op";
  if (bad)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: %s '%s' %s", def->name, what,
                     a->name, bad);
  return OPR_OK;
}

/* Strings and lists whose pointer is NULL for a nonzero length. */
static bool strings_ok(const opr_str *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i].len && !s[i].ptr) return false;
  return true;
}

static bool value_ok(const opr_attr_value *v) {
  if (!v->is_list)
    return v->kind != OPR_ATTR_STRING || strings_ok(&v->u.s, 1);
  if (!v->u.list.count) return true;
  if (!v->u.list.items) return false;
  return v->kind != OPR_ATTR_STRING ||
         strings_ok(v->u.list.items, v->u.list.count);
}

static opr_status check_attr_def(const opr_op_def *def,
                                 const opr_attr_def *a) {
  if (!a->name)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: an attr has no name",
                     def->name);
  if ((a->nallowed_strings && !a->allowed_strings) ||
      (a->allowed_strings &&
       !strings_ok(a->allowed_strings, a->nallowed_strings)))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: attr '%s' has a NULL "
                     "allowed string", def->name, a->name);
  const opr_attr_value *v = a->default_value;
  if (v && !value_ok(v))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: attr '%s' has a default "
                     "with a NULL string or list", def->name, a->name);
  if (v && (v->kind != a->type.kind || v->is_list != a->type.is_list))
    return opr_error(OPR_INVALID_ARGUMENT, "%s: attr '%s' has a default of "
                     "type %s; the attr is %s", def->name, a->name,
                     opr_attr_type_name((opr_attr_type){v->kind, v->is_list}),
                     opr_attr_type_name(a->type));
  return OPR_OK;
}

/* A table the checks can trust: names, a state record, a check, and
 * attr references of the right kinds. */
/* has_fast_path (op.h) describes the op: opr_execute_op relies on it. */
static bool fast_path_fits(const opr_op_def *def) {
  if (def->ninputs != 1 || def->noutputs != 1) return false;
  const opr_arg_def *in = &def->inputs[0], *out = &def->outputs[0];
  if (in->is_ref || out->is_ref || in->number_attr != OPR_NO_ATTR ||
      in->type_list_attr != OPR_NO_ATTR || out->number_attr != OPR_NO_ATTR ||
      out->type_list_attr != OPR_NO_ATTR || out->type_attr != in->type_attr ||
      out->type != in->type)
    return false;
  if (in->type_attr == OPR_NO_ATTR)
    return def->nattrs == 0 && (unsigned)in->type < 64u;
  const opr_attr_def *t = &def->attrs[0];
  return def->nattrs == 1 && in->type_attr == 0 &&
         t->type.kind == OPR_ATTR_TYPE && !t->type.is_list &&
         t->allowed_types != 0;
}

opr_status opr_check_op_def(const opr_op_def *def, const char *who) {
  if (!def || !def->name || !def->name[0])
    return opr_error(OPR_INVALID_ARGUMENT, "%s: the op def has no name",
                     opr_text_or(who, "opr_register_op"));
  const char *missing = !def->state ? "a state record"
                        : !def->check ? "a check function"
                        : (def->ninputs && !def->inputs) ? "its inputs"
                        : (def->noutputs && !def->outputs) ? "its outputs"
                        : (def->nattrs && !def->attrs) ? "its attrs" : NULL;
  if (missing)
    return opr_error(OPR_INVALID_ARGUMENT, "%s: the op def lacks %s",
                     def->name, missing);
  opr_status s = OPR_OK;
  for (size_t i = 0; !s && i < def->nattrs; i++)
    s = check_attr_def(def, &def->attrs[i]);
  for (size_t i = 0; !s && i < def->ninputs; i++)
    s = check_arg(def, "input", &def->inputs[i]);
  for (size_t i = 0; !s && i < def->noutputs; i++)
    s = check_arg(def, "output", &def->outputs[i]);
  if (!s && def->has_fast_path && !fast_path_fits(def))
    s = opr_error(OPR_INVALID_ARGUMENT, "%s: has_fast_path, but the op is "
                  "not one input and one output of one type with at most "
                  "its type attr", def->name);
  return s;
}

/* Room for `more` ops in the sorted array and the index. */
static bool reserve(size_t more) {
  if (!index_reserve(more)) return false;
  if (nops + more <= ops_cap) return true;
  size_t cap = ops_cap ? ops_cap : 64;
  while (cap < nops + more) cap *= 2;
  const opr_op_def **grown = realloc(ops, cap * sizeof *grown);
  if (!grown) return false;
  ops = grown;
  ops_cap = cap;
  return true;
}

bool opr_registry_reserve_locked(size_t more) { return reserve(more); }

static opr_status insert_op(const opr_op_def *def, size_t pos) {
  if (!reserve(1))
    return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory", def->name);
  memmove(ops + pos + 1, ops + pos, (nops - pos) * sizeof *ops);
  ops[pos] = def;
  nops++;
  return OPR_OK;
}

/* `def` names the registered op `old` (another table): bound to it when
 * defined identically, else ALREADY_EXISTS saying what differs. */
static opr_status bind_twin(const opr_op_def *old, const opr_op_def *def) {
  if (opr_op_def_hash(old) == opr_op_def_hash(def))
    return opr_twin_bind_locked(old, def);
  char diff[OPR_OP_DIFF_MAX];
  return opr_error(OPR_ALREADY_EXISTS, "%s: another op of that name is "
                   "already registered with a different definition (%s)",
                   def->name, opr_op_def_diff(old, def, diff, sizeof diff));
}

opr_status opr_register_op_locked(const opr_op_def *def) {
  bool found;
  size_t pos = op_position(def->name, &found);
  opr_status s = OPR_OK;
  if (found && ops[pos] != def)
    return bind_twin(ops[pos], def);
  if (!found)
    s = insert_op(def, pos);
  if (!s)
    opr_state_set_registered(def->state);
  /* Found by name only once registered (insert_op made the room). */
  if (!s && !found)
    index_put(atomic_load_explicit(&index_now, memory_order_relaxed), def);
  return s;
}

opr_status opr_register_op(const opr_op_def *def) {
  opr_status s = opr_check_op_def(def, "opr_register_op");
  if (s) return s;
  /* A library being loaded: its ops are checked as a set first. */
  if (opr_library_stage_op(def, &s)) return s;
  opr_registry_lock();
  s = opr_register_op_locked(def);
  opr_registry_unlock();
  return s;
}

opr_status opr_op_handle(const char *name, const opr_op_def **out) {
  if (!out || !name)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_op_handle: %s is NULL",
                     !out ? "out" : "the op name");
  *out = opr_find_op(name);
  if (!*out)
    return opr_error(OPR_NOT_FOUND, "no op named '%s' is registered", name);
  return OPR_OK;
}
