/* Op libraries: a shared object holding generated op code and kernels,
 * loaded at run time (as TensorFlow's tf.load_op_library loads a custom
 * op .so). Build one with opgen_add_op_library (cmake/OpgenLibrary.cmake),
 * which also generates its entry point; docs/libraries.md, "Op libraries", has
 * the whole scheme.
 *
 * A library does not carry a runtime of its own: its calls to opr_*
 * resolve to the host program's runtime (the host exports its symbols),
 * so its ops and kernels land in the host's registries. */
#ifndef OPR_LIBRARY_H
#define OPR_LIBRARY_H

#include "opr/op.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library ABI: the layout of every public struct (op and kernel
 * tables, calls, tensors, opr_library_info) and the signatures of the
 * public functions. Bumped whenever any of them changes; a library built
 * for another version is refused. */
#define OPR_LIBRARY_ABI_VERSION 2u

/* What a library's entry point returns. `abi_version` stays the first
 * field in every version, so that any runtime can read it. */
typedef struct opr_library_info {
  uint32_t abi_version; /* OPR_LIBRARY_ABI_VERSION of the headers it used */
  const char *name;     /* the library's name (its CMake target) */
  /* opr_op_defs_hash of the ops register_ops registers, computed when
   * the library was built. */
  uint64_t def_hash;
  /* Registers the library's ops (its generated <package>_register_ops
   * calls); run while the loader collects the ops instead of registering
   * them. */
  opr_status (*register_ops)(void);
  /* Registers its kernels, once its ops are registered; may be NULL. */
  opr_status (*register_kernels)(void);
} opr_library_info;

/* The one symbol a library exports. */
#define OPR_LIBRARY_ENTRY "opr_library_entry"
typedef const opr_library_info *(*opr_library_entry_fn)(void);

#if defined(__GNUC__) || defined(__clang__)
#define OPR_LIBRARY_EXPORT __attribute__((visibility("default")))
#else
#define OPR_LIBRARY_EXPORT
#endif

typedef struct opr_library opr_library;

/* Loads the op library at `path` (dlopen), checks it and registers its
 * ops, then its kernels. `out` (may be NULL) receives a handle owned by
 * the runtime; libraries stay loaded for the life of the process.
 *
 * What the calling thread registers from the start of the dlopen (the
 * library's constructors and static initializers run there) until the
 * library's ops are committed, its register_ops included, is staged:
 * collected, not registered. The staged ops and kernels are checked as a
 * whole and published together, or dropped with the library. Errors
 * name the path (and the op):
 *   NOT_FOUND            no file at `path`; or a kernel it registered
 *                        before its ops were committed is of an op that
 *                        is neither registered nor one of its own;
 *   INVALID_ARGUMENT     not a loadable opgen op library (dlopen's reason,
 *                        or no opr_library_entry); a path to something
 *                        other than a regular file (a FIFO, a device, a
 *                        directory), refused before it is opened; it registers two
 *                        different definitions of one op name; a staged
 *                        kernel's constraint or host-memory name is no
 *                        attr or argument of its op;
 *   FAILED_PRECONDITION  built for another library ABI version; or
 *                        called from inside a load on the same thread (a
 *                        library's constructor or registration loading a
 *                        library): "opr_load_library: 'b.so': called while
 *                        loading 'a.so' (...)", at once, without waiting;
 *   DATA_LOSS            its op tables do not hash to the hash it declares
 *                        (built against other runtime headers);
 *   ALREADY_EXISTS       this library (the same file, or a library of the
 *                        same name) is already loaded; *out receives the
 *                        loaded one;
 *   ABORTED              one of its ops is already registered with a
 *                        different definition (the message says which part
 *                        differs).
 * Each of these unloads the library and leaves the registries as they
 * were: nothing in them points into its memory. An op already
 * registered with the same definition is shared, not an error. A failure
 * of the library's register_kernels (which runs once its ops are
 * committed) comes back as its status; its ops then stay registered and
 * the library loaded. A library with no ops is valid. Registrations made
 * by other threads (one the library starts, say) are not staged.
 * Thread-safe: loads are serialized. */
opr_status opr_load_library(const char *path, opr_library **out);

const char *opr_library_name(const opr_library *lib);
/* The path it was loaded from, as given. */
const char *opr_library_path(const opr_library *lib);
uint64_t opr_library_def_hash(const opr_library *lib);
/* The library's ops sorted by name (the registered tables, which for a
 * shared op are the host's): fills up to `max`, returns the total. */
size_t opr_library_ops(const opr_library *lib, const opr_op_def **out,
                       size_t max);

/* A 64-bit hash (FNV-1a) of what defines an op: its name, its inputs
 * and outputs (name, fixed type, the names of the attrs giving type and
 * length, ref), its attrs (name, type, minimum, allowed values, default)
 * and its flags. The summary is left out: docs do not make two
 * definitions differ. Equal definitions hash equal in every process. */
uint64_t opr_op_def_hash(const opr_op_def *def);
/* The hash of a set of ops, whatever their order. */
uint64_t opr_op_defs_hash(const opr_op_def *const *defs, size_t n);
/* Runs `register_ops` (NULL: none), collecting the ops it registers
 * instead of registering them (a table registered twice, or two equal
 * tables of one name, count once), and hashes them with
 * opr_op_defs_hash. Two different definitions of one op name are
 * INVALID_ARGUMENT naming it. What opgen_add_op_library runs at build
 * time to compute def_hash. */
opr_status opr_library_hash_ops(opr_status (*register_ops)(void),
                                uint64_t *hash);

#ifdef __cplusplus
}
#endif

#endif
