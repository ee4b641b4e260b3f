/* What a commit of output files has on disk while it runs (temporaries,
 * backups of replaced targets), kept where a signal handler can undo it:
 * SIGINT, SIGTERM, SIGHUP and SIGXFSZ remove every temporary and restore
 * every replaced target before the signal takes its default action.
 * Temporaries and backups carry the writer's PID in their names
 * (NAME.tmp-opgen-PID-N, NAME.old-opgen-PID-N), so that a run into the
 * same directory removes those a killed run (SIGKILL) left behind. The
 * command line commits from one thread only. */
#ifndef OPGEN_OUTPUTS_GUARD_H
#define OPGEN_OUTPUTS_GUARD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum og_pending_state {
  OG_PENDING_NONE,    /* nothing on disk */
  OG_PENDING_TEMP,    /* tmp (may) exist; target untouched */
  OG_PENDING_BACKUP,  /* tmp exists; backup holds the old target */
  OG_PENDING_RENAMED, /* target is new; backup (if any) holds the old */
} og_pending_state;

typedef struct og_pending {
  const char *target;
  char *tmp, *backup; /* malloc'd names; NULL when none */
  bool moved;         /* backup made by rename (no hard links): target gone */
  volatile sig_atomic_t state;
} og_pending;

/* n zeroed slots, registered with the signal handler (installed on first
 * use for the signals not ignored at that time). */
og_pending *og_guard_begin(size_t n);
/* Undoes every slot, last first (async-signal-safe; errno kept). */
void og_guard_rollback(void);
/* Unregisters and frees the slots. */
void og_guard_end(void);

/* Blocks (and later restores) the guarded signals, so that the handler
 * never sees a slot half-way between two states. */
void og_guard_block(sigset_t *saved);
void og_guard_unblock(const sigset_t *saved);

/* "PATH.tmp-opgen-PID-N" or "PATH.old-opgen-PID-N", malloc'd. */
char *og_guard_name(const char *path, bool backup);
/* Removes the temporaries and backups of dead writers in the directory
 * of `path`. */
void og_guard_remove_stale(const char *path);

/* Test hooks from the environment (OPGEN_TEST_HOOK), for tests only:
 * "stop-before-rename" stops the process (SIGSTOP) once the temporaries
 * are written; "fail-rename=N" makes the Nth rename of the commit (from
 * 1) fail with EIO. */
void og_guard_hook_stop(void);
bool og_guard_hook_fail_rename(size_t nth);

#endif
