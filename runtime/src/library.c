/* Loading op libraries. A load is a transaction: the library's ops are
 * collected (not registered) while its register_ops runs, checked as a
 * set (declared hash, conflicts with registered ops), and only then
 * registered, all under the registry lock; its kernels register last.
 * Every check that fails before that point unloads the library and
 * leaves the registries untouched. */
#include "internal.h"
#include "library_internal.h"
#include "opr/library.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct opr_library {
  struct opr_library *next;
  void *handle;
  char *path;
  const char *name; /* in the library's memory, mapped for good */
  uint64_t def_hash;
  const opr_op_def **ops; /* registered tables, sorted by name */
  size_t nops;
};

/* The ops a register_ops call registers, collected instead. */
typedef struct op_stage {
  const opr_op_def **defs;
  size_t count, cap;
} op_stage;

/* Per thread: a register_ops running on another thread (a program
 * registering its own ops) is not part of this load. */
static _Thread_local op_stage *current_stage;

static pthread_mutex_t load_mutex = PTHREAD_MUTEX_INITIALIZER;
static opr_library *loaded; /* newest first; never freed */

bool opr_library_stage_op(const opr_op_def *def, opr_status *s) {
  op_stage *st = current_stage;
  if (!st) return false;
  *s = OPR_OK;
  for (size_t i = 0; i < st->count; i++)
    if (st->defs[i] == def) return true; /* registered twice: once */
  if (st->count == st->cap) {
    size_t cap = st->cap ? 2 * st->cap : 16;
    const opr_op_def **grown = realloc(st->defs, cap * sizeof *grown);
    if (!grown) {
      *s = opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory", def->name);
      return true;
    }
    st->defs = grown;
    st->cap = cap;
  }
  st->defs[st->count++] = def;
  return true;
}

/* Runs register_ops with this thread's registrations collected in st. */
static opr_status stage_ops(opr_status (*register_ops)(void), op_stage *st) {
  *st = (op_stage){0};
  if (!register_ops) return OPR_OK;
  op_stage *outer = current_stage;
  current_stage = st;
  opr_status s = register_ops();
  current_stage = outer;
  return s;
}

opr_status opr_library_hash_ops(opr_status (*register_ops)(void),
                                uint64_t *hash) {
  if (!hash)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_library_hash_ops: hash is "
                     "NULL");
  op_stage st;
  opr_status s = stage_ops(register_ops, &st);
  if (!s) *hash = opr_op_defs_hash(st.defs, st.count);
  free(st.defs);
  return s;
}

/* dlopen, telling a missing file apart from a file that is no library. */
static opr_status open_library(const char *path, void **handle) {
  *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (*handle) return OPR_OK;
  const char *why = dlerror();
  why = why ? why : "unknown error";
  bool missing = strchr(path, '/') ? access(path, F_OK) != 0
                                   : strstr(why, "No such file") != NULL;
  if (missing)
    return opr_error(OPR_NOT_FOUND, "opr_load_library: '%s': no such file",
                     path);
  const char *hint = strstr(why, "undefined symbol: opr_")
                         ? " (the program must export the runtime: see "
                           "opgen_enable_op_libraries)"
                         : "";
  return opr_error(OPR_INVALID_ARGUMENT, "opr_load_library: '%s' cannot be "
                   "loaded: %s%s", path, why, hint);
}

/* The library's info, or INVALID_ARGUMENT / FAILED_PRECONDITION. Only
 * abi_version is read before the version is known to match. */
static opr_status library_info(const char *path, void *handle,
                               const opr_library_info **out) {
  void *sym = dlsym(handle, OPR_LIBRARY_ENTRY);
  opr_library_entry_fn entry = NULL;
  if (sym) memcpy(&entry, &sym, sizeof entry); /* ISO C: no direct cast */
  const opr_library_info *info = entry ? entry() : NULL;
  if (!info)
    return opr_error(OPR_INVALID_ARGUMENT, "opr_load_library: '%s' is no "
                     "opgen op library (it has no %s)", path,
                     OPR_LIBRARY_ENTRY);
  if (info->abi_version != OPR_LIBRARY_ABI_VERSION)
    return opr_error(OPR_FAILED_PRECONDITION, "opr_load_library: '%s' was "
                     "built for op library ABI version %" PRIu32 "; this "
                     "runtime loads version %u (rebuild the library "
                     "against this runtime)", path, info->abi_version,
                     OPR_LIBRARY_ABI_VERSION);
  if (!info->name || !info->name[0])
    return opr_error(OPR_INVALID_ARGUMENT, "opr_load_library: '%s' has no "
                     "name", path);
  *out = info;
  return OPR_OK;
}

/* ALREADY_EXISTS when the file (dlopen gave a known handle) or a library
 * of the same name is loaded; *out receives that one. */
static opr_status check_not_loaded(const char *path, void *handle,
                                   const opr_library_info *info,
                                   opr_library **out) {
  for (opr_library *l = loaded; l; l = l->next) {
    if (l->handle != handle && strcmp(l->name, info->name) != 0) continue;
    if (out) *out = l;
    return opr_error(OPR_ALREADY_EXISTS, "opr_load_library: '%s': op "
                     "library '%s' is already loaded (from '%s')", path,
                     l->name, l->path);
  }
  return OPR_OK;
}

static opr_status check_hash(const char *path, const opr_library_info *info,
                             const op_stage *st) {
  uint64_t h = opr_op_defs_hash(st->defs, st->count);
  if (h == info->def_hash) return OPR_OK;
  return opr_error(OPR_DATA_LOSS, "opr_load_library: '%s': its %zu op "
                   "definitions hash to 0x%016" PRIx64 " here but the "
                   "library declares 0x%016" PRIx64 " (built against other "
                   "runtime headers, or its tables were changed)", path,
                   st->count, h, info->def_hash);
}

/* With the registry lock: ABORTED on an op registered with another
 * definition; otherwise registers the new ops and replaces each staged
 * def by the registered table (the host's, for a shared op). */
static opr_status commit_ops(const char *path, op_stage *st) {
  for (size_t i = 0; i < st->count; i++) {
    const opr_op_def *old = opr_find_op_locked(st->defs[i]->name);
    if (old && old != st->defs[i] &&
        opr_op_def_hash(old) != opr_op_def_hash(st->defs[i]))
      return opr_error(OPR_ABORTED, "opr_load_library: '%s': op '%s' is "
                       "already registered with a different definition",
                       path, st->defs[i]->name);
  }
  for (size_t i = 0; i < st->count; i++) {
    const opr_op_def *old = opr_find_op_locked(st->defs[i]->name);
    if (old) {
      st->defs[i] = old;
      continue;
    }
    opr_status s = opr_register_op_locked(st->defs[i]);
    if (s) return s; /* out of memory; earlier ops stay registered */
  }
  return OPR_OK;
}

static int by_name(const void *a, const void *b) {
  return strcmp((*(const opr_op_def *const *)a)->name,
                (*(const opr_op_def *const *)b)->name);
}

/* The record of a committed library; takes st's array. */
static opr_library *record(const char *path, void *handle,
                           const opr_library_info *info, op_stage *st) {
  opr_library *lib = calloc(1, sizeof *lib);
  char *copy = malloc(strlen(path) + 1);
  if (!lib || !copy) {
    free(lib);
    free(copy);
    return NULL;
  }
  qsort(st->defs, st->count, sizeof *st->defs, by_name);
  *lib = (opr_library){loaded, handle, strcpy(copy, path), info->name,
                       info->def_hash, st->defs, st->count};
  st->defs = NULL;
  loaded = lib;
  return lib;
}

/* Collects, checks and registers the ops; then the record. */
static opr_status add_library(const char *path, void *handle,
                              const opr_library_info *info,
                              opr_library **out) {
  op_stage st;
  opr_status s = stage_ops(info->register_ops, &st);
  if (!s) s = check_hash(path, info, &st);
  bool committed = false;
  if (!s) {
    opr_registry_lock();
    s = commit_ops(path, &st);
    committed = !s;
    opr_registry_unlock();
  }
  opr_library *lib = committed ? record(path, handle, info, &st) : NULL;
  if (committed && !lib)
    s = opr_error(OPR_RESOURCE_EXHAUSTED, "opr_load_library: '%s': out of "
                  "memory", path);
  free(st.defs);
  if (!committed) dlclose(handle); /* nothing of it is referenced */
  if (lib && out) *out = lib;
  return s;
}

opr_status opr_load_library(const char *path, opr_library **out) {
  if (out) *out = NULL;
  if (!path || !path[0])
    return opr_error(OPR_INVALID_ARGUMENT, "opr_load_library: the path is "
                     "%s", path ? "empty" : "NULL");
  pthread_mutex_lock(&load_mutex);
  void *handle;
  const opr_library_info *info = NULL;
  opr_status s = open_library(path, &handle);
  if (!s) s = library_info(path, handle, &info);
  if (!s) s = check_not_loaded(path, handle, info, out);
  /* A second dlopen of a loaded file only counted a reference. */
  if (s && handle) dlclose(handle);
  opr_library *lib = NULL;
  if (!s) s = add_library(path, handle, info, &lib);
  if (!s && info->register_kernels) s = info->register_kernels();
  pthread_mutex_unlock(&load_mutex);
  if (lib && out) *out = lib;
  return s;
}

const char *opr_library_name(const opr_library *lib) {
  return lib ? lib->name : NULL;
}

const char *opr_library_path(const opr_library *lib) {
  return lib ? lib->path : NULL;
}

uint64_t opr_library_def_hash(const opr_library *lib) {
  return lib ? lib->def_hash : 0;
}

size_t opr_library_ops(const opr_library *lib, const opr_op_def **out,
                       size_t max) {
  if (!lib) return 0;
  for (size_t i = 0; i < lib->nops && i < max && out; i++)
    out[i] = lib->ops[i];
  return lib->nops;
}
