/* Loading op libraries. A load is a transaction: from before dlopen
 * (which runs the library's constructors) until its ops are committed,
 * what the loading thread registers is staged (library_stage.c), not
 * registered; the staged ops are checked as a set (declared hash, two
 * definitions of a name, conflicts with registered ops) and the staged
 * kernels against their ops, and only then is it all published, under
 * the registry lock; the library's register_kernels runs last. A check
 * that fails before that point unloads the library, which has then left
 * nothing behind. */
#include "internal.h"
#include "library_internal.h"
#include "op_diff.h"
#include "opr/library.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static pthread_mutex_t load_mutex = PTHREAD_MUTEX_INITIALIZER;
static opr_library *loaded; /* newest first; never freed */

/* dlopen, telling a missing file apart from a file that is no library.
 * A FIFO would block dlopen and a device feed it without end: a path to
 * anything but a regular file is refused before it is opened. */
static opr_status open_library(const char *path, void **handle) {
  struct stat st;
  *handle = NULL;
  if (strchr(path, '/') && stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return opr_error(OPR_INVALID_ARGUMENT, "opr_load_library: '%s' cannot "
                     "be loaded: not a regular file", path);
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
                             const opr_library *lib) {
  uint64_t h = opr_op_defs_hash(lib->ops, lib->nops);
  if (h == info->def_hash) return OPR_OK;
  return opr_error(OPR_DATA_LOSS, "opr_load_library: '%s': its %zu op "
                   "definitions hash to 0x%016" PRIx64 " here but the "
                   "library declares 0x%016" PRIx64 " (built against other "
                   "runtime headers, or its tables were changed)", path,
                   lib->nops, h, info->def_hash);
}

static void free_record(opr_library *lib) {
  if (!lib) return;
  free(lib->path);
  free(lib->ops);
  free(lib);
}

/* The record of the library, not yet linked: its ops are the staged ones
 * (sorted by name) until check_conflicts replaces them. */
static opr_status new_record(const char *path, void *handle,
                             const opr_library_info *info,
                             const opr_stage *st, opr_library **out) {
  opr_library *lib = calloc(1, sizeof *lib);
  char *copy = malloc(strlen(path) + 1);
  const opr_op_def **ops =
      st->nops ? malloc(st->nops * sizeof *ops) : NULL;
  if (!lib || !copy || (st->nops && !ops)) {
    free(lib);
    free(copy);
    free(ops);
    return opr_error(OPR_RESOURCE_EXHAUSTED, "opr_load_library: '%s': out "
                     "of memory", path);
  }
  for (size_t i = 0; i < st->nops; i++) ops[i] = st->ops[i].def;
  *lib = (opr_library){NULL, handle, strcpy(copy, path), info->name,
                       info->def_hash, ops, st->nops};
  *out = lib;
  return OPR_OK;
}

/* ABORTED on an op registered with another definition; otherwise
 * replaces each op of lib by the table it will have once committed (the
 * host's, for a shared op). Registry lock held. */
static opr_status check_conflicts(const char *path, opr_library *lib) {
  for (size_t i = 0; i < lib->nops; i++) {
    const opr_op_def *def = lib->ops[i];
    const opr_op_def *old = opr_find_op_locked(def->name);
    char diff[OPR_OP_DIFF_MAX];
    if (old && old != def && opr_op_def_hash(old) != opr_op_def_hash(def))
      return opr_error(OPR_ABORTED, "opr_load_library: '%s': op '%s' is "
                       "already registered with a different definition "
                       "(%s)", path, def->name,
                       opr_op_def_diff(old, def, diff, sizeof diff));
    if (old) lib->ops[i] = old;
  }
  return OPR_OK;
}

/* The op named `name` once lib commits: one of its own (sorted by name)
 * or a registered one. Registry lock held. */
static const opr_op_def *committed_op(const opr_library *lib,
                                      const char *name) {
  size_t lo = 0, hi = lib->nops;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(lib->ops[mid]->name, name);
    if (c == 0) return lib->ops[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return opr_find_op_locked(name);
}

/* Resolves each staged kernel against its op. Registry lock held. */
static opr_status resolve_kernels(const char *path, const opr_library *lib,
                                  opr_stage *st) {
  for (size_t i = 0; i < st->nkernels; i++) {
    opr_kernel_rec *r = st->kernels[i];
    const opr_op_def *op = committed_op(lib, r->def.op);
    if (!op)
      return opr_error(OPR_NOT_FOUND, "opr_load_library: '%s': it "
                       "registers a kernel of op '%s', which is neither "
                       "registered nor one of its ops", path, r->def.op);
    opr_status s = opr_kernel_rec_resolve(r, op);
    if (s) {
      opr_status e = opr_error(opr_status_code(s), "opr_load_library: "
                               "'%s': %s", path, opr_status_message(s));
      opr_status_free(s);
      return e;
    }
  }
  return OPR_OK;
}

/* Checks the staged ops and kernels; then publishes them (*published),
 * after which only running out of memory can fail a kernel. Registry
 * lock held. */
static opr_status commit(const char *path, opr_library *lib, opr_stage *st,
                         bool *published) {
  *published = false;
  opr_status s = check_conflicts(path, lib);
  if (!s) s = resolve_kernels(path, lib, st);
  if (!s && (!opr_registry_reserve_locked(lib->nops) ||
             !opr_twins_reserve_locked(lib->nops)))
    s = opr_error(OPR_RESOURCE_EXHAUSTED, "opr_load_library: '%s': out of "
                  "memory", path);
  if (s) return s;
  *published = true;
  /* Reserved: registering cannot fail. A shared op is registered already
   * (registering it again is a no-op); the library's own table of it
   * becomes its twin, so that the library's wrappers work too. */
  for (size_t i = 0; i < lib->nops; i++) {
    opr_status_free(opr_register_op_locked(lib->ops[i]));
    if (st->ops[i].def != lib->ops[i])
      opr_status_free(opr_twin_bind_locked(lib->ops[i], st->ops[i].def));
  }
  for (size_t i = 0; i < st->nkernels; i++) {
    opr_kernel_rec *r = st->kernels[i];
    st->kernels[i] = NULL; /* handed on */
    opr_status k = opr_kernel_publish_locked(committed_op(lib, r->def.op), r);
    if (!s) s = k;
    else opr_status_free(k);
  }
  return s;
}

/* Runs register_ops (staged), checks and commits; *out receives the
 * library once anything of it is published (then it is never unloaded). */
static opr_status add_library(const char *path, void *handle,
                              const opr_library_info *info, opr_stage *st,
                              opr_library **out) {
  opr_status s = info->register_ops ? info->register_ops() : OPR_OK;
  if (!s) s = opr_stage_settle(st);
  opr_library *lib = NULL;
  if (!s) s = new_record(path, handle, info, st, &lib);
  if (!s) s = check_hash(path, info, lib);
  bool published = false;
  if (!s) {
    opr_registry_lock();
    s = commit(path, lib, st, &published);
    opr_registry_unlock();
  }
  if (!published) {
    free_record(lib);
    return s;
  }
  lib->next = loaded;
  loaded = lib;
  *out = lib;
  return s;
}

/* The load, this thread's registrations staged in st. */
static opr_status load(const char *path, opr_stage *st, opr_library **lib,
                       opr_library **out) {
  void *handle = NULL;
  const opr_library_info *info = NULL;
  opr_status s = open_library(path, &handle);
  if (!s) s = library_info(path, handle, &info);
  if (!s) s = check_not_loaded(path, handle, info, out);
  if (!s) s = add_library(path, handle, info, st, lib);
  /* Refused: nothing of it is referenced but what is staged, dropped
   * after the unload (a destructor may register too). For a loaded file
   * dlopen only counted a reference. */
  if (s && !*lib && handle) dlclose(handle);
  opr_stage_close(st);
  if (!s && info->register_kernels) s = info->register_kernels();
  return s;
}

opr_status opr_load_library(const char *path, opr_library **out) {
  if (out) *out = NULL;
  if (!path || !path[0])
    return opr_error(OPR_INVALID_ARGUMENT, "opr_load_library: the path is "
                     "%s", path ? "empty" : "NULL");
  /* The load lock is held: waiting for it would never end. */
  const opr_stage *outer = opr_stage_loading();
  if (outer)
    return opr_error(OPR_FAILED_PRECONDITION, "opr_load_library: '%s': "
                     "called while loading '%s' (an op library cannot load "
                     "op libraries while it registers)", path, outer->path);
  pthread_mutex_lock(&load_mutex);
  opr_stage st;
  opr_stage_begin(&st, path); /* before dlopen runs its constructors */
  opr_library *lib = NULL;
  opr_status s = load(path, &st, &lib, out);
  opr_stage_end(&st);
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
