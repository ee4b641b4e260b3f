#include "outputs_guard.h"

#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int guarded[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};
#define NGUARDED (sizeof guarded / sizeof *guarded)

/* Read by the handler: the slots, then their count. */
static og_pending *volatile slots;
static volatile sig_atomic_t nslots;

static void undo(og_pending *p) {
  switch ((og_pending_state)p->state) {
  case OG_PENDING_NONE: return;
  case OG_PENDING_TEMP: unlink(p->tmp); break;
  case OG_PENDING_BACKUP:
    unlink(p->tmp);
    if (p->moved) rename(p->backup, p->target);
    else unlink(p->backup);
    break;
  case OG_PENDING_RENAMED:
    if (p->backup) rename(p->backup, p->target); /* the old one back */
    else unlink(p->target);                      /* it did not exist */
    break;
  }
  p->state = OG_PENDING_NONE;
}

void og_guard_rollback(void) {
  int err = errno;
  og_pending *s = slots;
  for (sig_atomic_t i = nslots; s && i > 0; i--) undo(&s[i - 1]);
  errno = err;
}

static void on_signal(int sig) {
  og_guard_rollback();
  signal(sig, SIG_DFL);
  raise(sig); /* delivered, with the default action, when this returns */
}

/* Leaves alone a signal ignored at the time (as a shell's `nohup` or a
 * test's SIGXFSZ ignored, which turns a file size limit into EFBIG). */
static void install(void) {
  static bool done;
  if (done) return;
  done = true;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < NGUARDED; i++) sigaddset(&sa.sa_mask, guarded[i]);
  for (size_t i = 0; i < NGUARDED; i++) {
    struct sigaction old;
    if (sigaction(guarded[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
      sigaction(guarded[i], &sa, NULL);
  }
}

og_pending *og_guard_begin(size_t n) {
  install();
  og_pending *s = calloc(n ? n : 1, sizeof *s);
  if (!s) {
    fputs("opgen: out of memory\n", stderr);
    abort();
  }
  slots = s;
  nslots = (sig_atomic_t)n;
  return s;
}

void og_guard_end(void) {
  og_pending *s = slots;
  size_t n = (size_t)nslots;
  nslots = 0;
  slots = NULL;
  for (size_t i = 0; s && i < n; i++) {
    free(s[i].tmp);
    free(s[i].backup);
  }
  free(s);
}

void og_guard_block(sigset_t *saved) {
  sigset_t set;
  sigemptyset(&set);
  for (size_t i = 0; i < NGUARDED; i++) sigaddset(&set, guarded[i]);
  sigprocmask(SIG_BLOCK, &set, saved);
}

void og_guard_unblock(const sigset_t *saved) {
  sigprocmask(SIG_SETMASK, saved, NULL);
}

#define TMP_MARK ".tmp-opgen-"
#define OLD_MARK ".old-opgen-"

char *og_guard_name(const char *path, bool backup) {
  static atomic_uint counter;
  size_t n = strlen(path) + 64;
  char *name = malloc(n);
  if (!name) {
    fputs("opgen: out of memory\n", stderr);
    abort();
  }
  snprintf(name, n, "%s%s%ld-%u", path, backup ? OLD_MARK : TMP_MARK,
           (long)getpid(), atomic_fetch_add(&counter, 1));
  return name;
}

/* The writer's PID of a name "....tmp-opgen-PID-N" (or .old-), else 0. */
static long writer_pid(const char *name) {
  const char *mark = strstr(name, TMP_MARK);
  if (!mark) mark = strstr(name, OLD_MARK);
  if (!mark) return 0;
  const char *p = mark + strlen(TMP_MARK);
  char *end;
  long pid = strtol(p, &end, 10);
  if (end == p || *end != '-' || pid <= 0) return 0;
  for (p = end + 1; *p >= '0' && *p <= '9'; p++) continue;
  return *p == '\0' && p > end + 1 ? pid : 0;
}

void og_guard_remove_stale(const char *path) {
  const char *slash = strrchr(path, '/');
  size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
  char *dir = malloc(dlen + 3);
  if (!dir) return;
  memcpy(dir, path, dlen);
  strcpy(dir + dlen, dlen ? "" : "./");
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    long pid = writer_pid(e->d_name);
    if (pid <= 0 || pid == (long)getpid()) continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* alive */
    size_t n = strlen(dir) + strlen(e->d_name) + 1;
    char *full = malloc(n);
    if (!full) break;
    snprintf(full, n, "%s%s", dir, e->d_name);
    unlink(full);
    free(full);
  }
  if (d) closedir(d);
  free(dir);
}

void og_guard_hook_stop(void) {
  const char *hook = getenv("OPGEN_TEST_HOOK");
  if (hook && strcmp(hook, "stop-before-rename") == 0) raise(SIGSTOP);
}

bool og_guard_hook_fail_rename(size_t nth) {
  const char *hook = getenv("OPGEN_TEST_HOOK");
  if (!hook || strncmp(hook, "fail-rename=", 12) != 0) return false;
  return strtoul(hook + 12, NULL, 10) == nth;
}
