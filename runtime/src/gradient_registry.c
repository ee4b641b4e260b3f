/* The gradient registry: op name -> (function, user pointer), an array
 * under a mutex. Lookups happen once per differentiated call, never on
 * the dispatch path, so a lock and a linear search are cheap enough. */
#include "internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct grad_entry {
  char *op;
  opr_gradient_fn fn;
  void *user;
} grad_entry;

static pthread_mutex_t grad_mutex = PTHREAD_MUTEX_INITIALIZER;
static grad_entry *entries;
static size_t nentries, entries_cap;

/* The entry of `op`, or NULL; under the lock. */
static grad_entry *find_locked(const char *op) {
  for (size_t i = 0; i < nentries; i++)
    if (strcmp(entries[i].op, op) == 0) return &entries[i];
  return NULL;
}

static opr_status add_locked(const char *op, opr_gradient_fn fn,
                             void *user) {
  if (nentries == entries_cap) {
    size_t cap = entries_cap ? 2 * entries_cap : 16;
    grad_entry *grown = realloc(entries, cap * sizeof *grown);
    if (!grown)
      return opr_error(OPR_RESOURCE_EXHAUSTED, "opr_register_gradient: "
                       "out of memory");
    entries = grown;
    entries_cap = cap;
  }
  char *name = malloc(strlen(op) + 1);
  if (!name)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "opr_register_gradient: out "
                     "of memory");
  strcpy(name, op);
  entries[nentries++] = (grad_entry){name, fn, user};
  return OPR_OK;
}

opr_status opr_register_gradient(const char *op, opr_gradient_fn fn,
                                 void *user) {
  if (!op || !*op || !fn)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_register_gradient: %s",
                     !op ? "the op name is NULL"
                     : !*op ? "the op name is empty"
                            : "the gradient function is NULL");
  pthread_mutex_lock(&grad_mutex);
  grad_entry *e = find_locked(op);
  opr_status s = OPR_OK;
  if (e && (e->fn != fn || e->user != user))
    s = opr_error(OPR_ALREADY_EXISTS, "a gradient is already registered "
                  "for op '%s'", op);
  else if (!e)
    s = add_locked(op, fn, user);
  pthread_mutex_unlock(&grad_mutex);
  return s;
}

opr_status opr_unregister_gradient(const char *op, void **user) {
  if (user) *user = NULL;
  if (!op)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_unregister_gradient: the "
                     "op name is NULL");
  pthread_mutex_lock(&grad_mutex);
  grad_entry *e = find_locked(op);
  if (e) {
    if (user) *user = e->user;
    free(e->op);
    *e = entries[--nentries];
  }
  pthread_mutex_unlock(&grad_mutex);
  if (!e)
    return opr_error(OPR_NOT_FOUND, "no gradient is registered for op '%s'",
                     op);
  return OPR_OK;
}

bool opr_find_gradient(const char *op, opr_gradient_fn *fn, void **user) {
  if (!op) return false;
  pthread_mutex_lock(&grad_mutex);
  grad_entry *e = find_locked(op);
  if (e && fn) *fn = e->fn;
  if (e && user) *user = e->user;
  pthread_mutex_unlock(&grad_mutex);
  return e != NULL;
}
