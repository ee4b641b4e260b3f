/* The names inside each op's scopes: its wrapper's parameters and its
 * structs' members, mangled where a spec name is taken (a large file's
 * later ops on a second thread). */
#include "emit_c_names_check.h"

#include "pages.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Room for cap names (from og_pages: sized once, see chosen_size). */
static void chosen_reserve(chosen *c, size_t cap) {
  c->items = og_cn_table_move(c->items, c->count, c->cap, cap,
                             sizeof *c->items);
  c->cap = cap;
}

static void chosen_add(chosen *c, const char *name, uint64_t h) {
  if (c->count == c->cap) chosen_reserve(c, c->cap ? 2 * c->cap : 64);
  c->items[c->count++] = (struct chosen_name){name, h};
}

/* At least as many scoped names as ops [from, to) of f take. */
static size_t chosen_size(const og_c_file *f, size_t from, size_t to) {
  size_t n = 1;
  for (size_t i = from; i < to; i++) {
    const og_op *op = f->ops[i];
    n += 3 * (op->ninputs + op->noutputs + op->nattrs);
  }
  return n;
}

/* One scope (a function's parameters and locals, a struct's members):
 * each spec name keeps its spelling unless that is a keyword, macro or
 * typedef, in the runtime's namespace, a global name of the run or taken
 * in the scope; then it gets '_', else "_2", "_3", ... */
typedef struct scope {
  const og_c_file *f;
  const global_set *global; /* NULL: not known yet; chosen names go */
  chosen *chosen;           /* here */
  name_set names;
  og_diag *diag; /* NULL: a problem only sets `ok` (og_cn_scope_names) */
  bool params;   /* also each op's wrapper parameters */
  bool ok;
} scope;

/* No runtime name ends in '_': a mangled name is outside its namespace.
 * h: name's hash, for both sets (and the caller's og_cn_set_add). */
static bool taken(const scope *s, const char *name, uint64_t h,
                  bool mangled) {
  return og_c_reserved(name) == OG_C_BREAKING ||
         (!mangled && og_c_in_runtime_namespace(name)) ||
         (s->global && og_cn_global_has(s->global, name, h)) ||
         og_cn_set_has(&s->names, name, h);
}

/* *reserved: the name taken is spelled as C++ reserves (og_cn_name_scan). */
static const char *scope_take(scope *s, const char *name, bool *reserved) {
  size_t len = strlen(name);
  const char *sep = len && name[len - 1] == '_' ? "" : "_";
  const char *cand = name;
  uint64_t h = og_cn_name_scan(cand, reserved);
  for (size_t k = 1; taken(s, cand, h, cand != name); k++) {
    cand = k == 1 && sep[0] ? og_arena_printf(s->f->arena, "%s_", name)
           : og_arena_printf(s->f->arena, "%s%s%zu", name, sep, k < 2 ? 2 : k);
    h = og_cn_name_scan(cand, reserved);
  }
  og_cn_set_add_hashed(&s->names, cand, h);
  if (!s->global) chosen_add(s->chosen, cand, h);
  return cand;
}

/* A spec name in the scope, reported at `pos` if no mangling can make
 * it a name C++ allows ("__"). */
static const char *scope_name(scope *s, const char *name, const char *what,
                              const og_op *op, og_srcpos pos) {
  bool reserved;
  const char *id = scope_take(s, name, &reserved);
  if (reserved) {
    if (s->diag)
      og_diag_report(s->diag, OG_SEV_ERROR, pos,
                     "'%s' (%s of op '%s') contains '__', which C++ "
                     "reserves; rename it",
                     id, what, op->name);
    s->ok = false;
  }
  return id;
}

static const char *scope_count(scope *s, const char *name, const char *what,
                               const og_op *op, og_srcpos pos) {
  return scope_name(s, og_arena_printf(s->f->arena, "%s_count", name), what,
                    op, pos);
}

static void scope_reset(scope *s, const char *const *fixed, size_t n) {
  if (s->names.cap > 256) og_cn_set_free(&s->names); /* else cleared in place */
  else og_cn_set_clear(&s->names);
  for (size_t i = 0; i < n; i++) og_cn_set_add(&s->names, fixed[i]);
}

static const char **names_for(const og_c_file *f, size_t n) {
  return og_arena_array(f->arena, n ? n : 1, sizeof(const char *));
}

/* The wrapper: its fixed parameters and locals first. */
static void wrapper_scope(scope *s, const og_op *op, og_cn_scoped *n) {
  static const char *const fixed[] = {"ctx", "attrs", "op_defaults",
                                      "op_inputs", "op_attrs", "op_outputs",
                                      "op_call", "into"};
  scope_reset(s, fixed, sizeof fixed / sizeof *fixed);
  for (size_t i = 0; i < op->ninputs; i++) {
    const og_arg *a = &op->inputs[i];
    n->in[i] = scope_name(s, a->name, "a parameter", op, a->pos);
    if (og_c_arg_is_list(a))
      n->in_count[i] = scope_count(s, a->name, "a parameter", op, a->pos);
  }
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    if (!og_c_attr_required(a)) continue;
    n->param[i] = scope_name(s, a->name, "a parameter", op, a->pos);
    if (a->type.is_list)
      n->param_count[i] = scope_count(s, a->name, "a parameter", op, a->pos);
  }
  for (size_t i = 0; i < op->noutputs; i++) {
    const og_arg *a = &op->outputs[i];
    n->out[i] = scope_name(s, a->name, "a parameter", op, a->pos);
    if (og_c_arg_is_list(a))
      n->out_count[i] = scope_count(s, a->name, "a parameter", op, a->pos);
  }
}

static void member_scopes(scope *s, const og_op *op, og_cn_scoped *n) {
  scope_reset(s, NULL, 0);
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    if (!og_c_attr_optional(a)) continue;
    n->field[i] = scope_name(s, a->name, "an attrs-struct member", op, a->pos);
    if (a->type.is_list)
      n->field_count[i] =
          scope_count(s, a->name, "an attrs-struct member", op, a->pos);
  }
  static const char *const kernel[] = {"fn", "device", "priority", "label",
                                       "host_memory"};
  scope_reset(s, kernel, sizeof kernel / sizeof *kernel);
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    if (a->type.kind == OG_ATTR_TYPE && !a->type.is_list)
      n->kernel_type[i] =
          scope_name(s, a->name, "a kernel-struct member", op, a->pos);
  }
  scope_reset(s, NULL, 0);
  for (size_t i = 0; i < op->ninputs; i++)
    n->host_in[i] = scope_name(s, op->inputs[i].name, "a host_memory member",
                               op, op->inputs[i].pos);
  for (size_t i = 0; i < op->noutputs; i++)
    n->host_out[i] = scope_name(s, op->outputs[i].name,
                                "a host_memory member", op,
                                op->outputs[i].pos);
}

/* The names the renders ask an op's cache slot for, but its scoped
 * names: computed once, here, before the renders and the check start
 * (both then only read them). */
static void cache_op_names(const og_c_file *f, const og_op *op) {
  for (int p = 0; p < OG_CN_OP_PARTS; p++)
    if (og_cn_op_has_part(f, op, p))
      og_c_cache_set_op_part(f, op, (og_cn_op_part)p,
                             og_cn_op(f, op, (og_cn_op_part)p));
  for (int k = 0; k < 3; k++)
    og_c_cache_set_indexes(f, op, (og_cn_index_kind)k,
                           og_cn_indexes(f, op, (og_cn_index_kind)k));
}

/* The scoped names of ops [from, to) of f (without the global names:
 * also the op's other names for the cache). */
static void scope_ops(scope *s, size_t from, size_t to) {
  const og_c_file *f = s->f;
  for (size_t i = from; i < to; i++) {
    const og_op *op = f->ops[i];
    if (!s->global) cache_op_names(f, op);
    og_cn_scoped n;
    n.in = names_for(f, op->ninputs), n.in_count = names_for(f, op->ninputs);
    n.out = names_for(f, op->noutputs);
    n.out_count = names_for(f, op->noutputs);
    n.param = names_for(f, op->nattrs);
    n.param_count = names_for(f, op->nattrs);
    n.field = names_for(f, op->nattrs);
    n.field_count = names_for(f, op->nattrs);
    n.kernel_type = names_for(f, op->nattrs);
    n.host_in = names_for(f, op->ninputs);
    n.host_out = names_for(f, op->noutputs);
    wrapper_scope(s, op, &n);
    member_scopes(s, op, &n);
    og_c_cache_set_scoped(f, op, &n);
    if (s->params) og_c_wrapper_params(f, op);
  }
  og_cn_set_free(&s->names);
}

/* The later half of a file's ops, on a thread of its own, with a copy of
 * the file that has its own arena; without reports (on a problem the
 * caller names them again, reporting, after its own half). */
typedef struct scope_half {
  scope s;
  og_c_file f;
  og_arena names;
  size_t from, to;
} scope_half;

static void *scope_half_run(void *arg) {
  scope_half *h = arg;
  scope_ops(&h->s, h->from, h->to);
  return NULL;
}

/* Scopes f's ops; `global` NULL: before the global names are known,
 * the names chosen into chosen[0] and [1] (one a half). */
bool og_cn_scope_names(og_c_file *f, const global_set *global,
                       bool params, og_diag *diag, chosen *chosen) {
  scope s = {.f = f, .global = global, .chosen = chosen, .diag = diag,
             .params = params, .ok = true};
  size_t n = f->nops, k = n < og_cn_split_ops || n < 2 ? n : n / 2;
  if (chosen) {
    chosen_reserve(&chosen[0], chosen_size(f, 0, k));
    chosen_reserve(&chosen[1], chosen_size(f, k, n));
  }
  scope_half h = {.f = *f, .from = k, .to = n};
  og_arena_init(&h.names);
  h.f.arena = &h.names;
  h.s = (scope){.f = &h.f, .global = global,
                .chosen = chosen ? chosen + 1 : NULL,
                .params = params, .ok = true};
  pthread_t thread;
  bool started = k < n && pthread_create(&thread, NULL, scope_half_run, &h) == 0;
  scope_ops(&s, 0, k);
  if (started) pthread_join(thread, NULL);
  else scope_half_run(&h);
  og_arena_adopt(f->arena, &h.names); /* kept either way: cache slots */
  if (!h.s.ok && diag) scope_ops(&s, k, n); /* point into it */
  return s.ok && h.s.ok;
}
