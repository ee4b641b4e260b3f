#include "outputs.h"

#include "arena.h"
#include "outputs_guard.h"
#include "pages.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void og_outputs_init(og_outputs *o) { memset(o, 0, sizeof *o); }

void og_outputs_free(og_outputs *o) {
  for (size_t i = 0; i < o->count; i++) {
    free(o->items[i].path);
    og_writer_free(&o->items[i].w);
    og_writer_free(&o->items[i].more);
  }
  free(o->items);
  og_outputs_init(o);
}

og_writer *og_outputs_add(og_outputs *o, const char *path) {
  o->items = og_xgrow(o->items, &o->cap, o->count + 1, sizeof *o->items);
  og_output *out = &o->items[o->count++];
  size_t n = strlen(path) + 1;
  out->path = memcpy(og_xmalloc(n), path, n);
  out->same = OG_SAME_UNKNOWN;
  og_writer_init(&out->w);
  og_writer_init(&out->more);
  return &out->w;
}

const char *og_outputs_duplicate(const og_outputs *o) {
  for (size_t i = 0; i < o->count; i++)
    for (size_t j = 0; j < i; j++)
      if (strcmp(o->items[i].path, o->items[j].path) == 0)
        return o->items[i].path;
  return NULL;
}

/* The directories make_dirs created: the prefixes of the path `first`
 * to `last` characters long (0: none). */
typedef struct made_dirs {
  size_t first, last;
} made_dirs;

/* mkdir -p, remembering what it created, so that unmake_dirs can take
 * back exactly that (also when it fails half-way). */
static bool make_dirs(const char *path, made_dirs *made) {
  size_t len = strlen(path);
  char *p = memcpy(og_xmalloc(len + 1), path, len + 1);
  bool ok = true;
  *made = (made_dirs){0, 0};
  for (size_t i = 1; i <= len && ok; i++) {
    if (p[i] != '/' && p[i] != '\0') continue;
    if (p[i - 1] == '/') continue; /* "a//b": one component */
    char saved = p[i];
    p[i] = '\0';
    if (mkdir(p, 0777) == 0) {
      if (!made->first) made->first = i;
      made->last = i;
    } else if (errno != EEXIST) {
      ok = false;
    }
    p[i] = saved;
  }
  struct stat st;
  if (ok && stat(path, &st) != 0) ok = false;
  else if (ok && !S_ISDIR(st.st_mode)) ok = false, errno = ENOTDIR;
  int err = errno;
  free(p);
  errno = err;
  return ok;
}

/* Removes the directories make_dirs created, deepest first; only empty
 * ones go. errno is kept. */
static void unmake_dirs(const char *path, made_dirs made) {
  if (!made.first) return;
  int err = errno;
  char *p = memcpy(og_xmalloc(made.last + 1), path, made.last);
  p[made.last] = '\0';
  for (size_t i = made.last; i >= made.first; i--) {
    if (p[i] != '/' && p[i] != '\0') continue;
    if (p[i - 1] == '/') continue;
    p[i] = '\0';
    if (rmdir(p) != 0) break;
  }
  free(p);
  errno = err;
}

bool og_make_dirs(const char *path) {
  made_dirs made;
  return make_dirs(path, &made);
}

/* The content of o, in its parts. */
typedef struct parts {
  const char *data[2];
  size_t len[2], total;
} parts;

static parts parts_of(const og_output *o) {
  parts p = {{o->w.buf, o->more.buf}, {o->w.len, o->more.len}, 0};
  p.total = p.len[0] + p.len[1];
  return p;
}

/* Whether buf[0..n) is the content at `off`. */
static bool parts_equal(const parts *p, size_t off, const char *buf,
                        size_t n) {
  if (off + n > p->total) return false;
  for (int k = 0; k < 2 && n; k++) {
    if (off >= p->len[k]) {
      off -= p->len[k];
      continue;
    }
    size_t take = p->len[k] - off < n ? p->len[k] - off : n;
    if (memcmp(buf, p->data[k] + off, take) != 0) return false;
    buf += take;
    n -= take;
    off = 0;
  }
  return true;
}

/* True when `path` already holds exactly o's content. Only called for
 * regular files (check_targets or og_output_compare looked first). A
 * size that differs answers without reading; else the file is read and
 * compared a block at a time.
 * Not mapped: a file truncated by another process while mapped would
 * kill this one with SIGBUS; a read just comes back short. */
static bool same_content(const char *path, const og_output *o) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* no wait on a FIFO */
  if (fd < 0) return false;
  parts p = parts_of(o);
  struct stat st;
  bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              (uintmax_t)st.st_size == (uintmax_t)p.total;
  enum { BUF = 64 * 1024 };
  char *buf = og_pages_alloc(BUF); /* not a fresh stack a thread */
  size_t off = 0;
  while (same) {
    ssize_t n = read(fd, buf, BUF);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      same = n == 0 && off == p.total;
      break;
    }
    same = parts_equal(&p, off, buf, (size_t)n);
    off += (size_t)n;
  }
  og_pages_free(buf, BUF);
  close(fd);
  return same;
}

/* stat first: a device is never opened (opening some has effects). */
void og_output_compare(og_output *o) {
  struct stat st;
  o->same = stat(o->path, &st) == 0 && S_ISREG(st.st_mode) &&
                    same_content(o->path, o)
                ? OG_SAME_YES
                : OG_SAME_NO;
}

/* No fsync: the rename after it makes the replacement atomic for readers
 * and for a failing run (all files or none, see og_outputs_commit), which
 * is what a build needs; durability across a power cut is not asked of a
 * generator any more than of a compiler (gcc, protoc, bison do not sync
 * either), and syncing 9 MB of C for the TensorFlow corpus took 10 to 40
 * ms, as long as generating it. */
static bool write_all(int fd, const char *data, size_t len) {
  while (len) {
    ssize_t n = write(fd, data, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    len -= (size_t)n;
  }
  return true;
}

/* Writes `data` to a new temporary beside p->target (its name in p->tmp,
 * registered before it exists, so that a signal finds it). open() with
 * 0666 lets the process umask give the usual mode, without touching the
 * umask (which is process-wide). */
static bool write_temp(og_pending *p, const og_output *o) {
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
    char *name = og_guard_name(p->target, false);
    p->state = OG_PENDING_NONE;
    free(p->tmp);
    p->tmp = name;
    p->state = OG_PENDING_TEMP;
    fd = open(p->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) p->state = OG_PENDING_NONE; /* not ours to remove */
    if (fd < 0 && errno != EEXIST) break;
  }
  parts c = parts_of(o);
  bool ok = fd >= 0 && write_all(fd, c.data[0], c.len[0]) &&
            write_all(fd, c.data[1], c.len[1]);
  int err = errno;
  if (fd >= 0 && close(fd) != 0 && ok) ok = false, err = errno;
  errno = err;
  return ok;
}

/* What a target that is not a regular file is, in strerror's style. */
static const char *kind_problem(mode_t mode) {
  if (S_ISDIR(mode)) return "Is a directory";
  if (S_ISFIFO(mode)) return "Not a regular file (a FIFO)";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "Not a regular file (a device)";
  if (S_ISSOCK(mode)) return "Not a regular file (a socket)";
  return "Not a regular file";
}

const char *og_output_problem(const char *path, int err) {
  struct stat st;
  if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) return strerror(err);
  if (err == ENXIO && S_ISFIFO(st.st_mode))
    return "No reader (a FIFO that no process has open for reading)";
  return err == EINVAL || err == EISDIR ? kind_problem(st.st_mode)
                                        : strerror(err);
}

/* Every existing target must be a regular file: renaming over a FIFO, a
 * device or a directory would replace (or fail on) something that is not
 * an output, and reading one to compare could block. Checked before
 * anything is written. */
static bool check_targets(const og_output *items, size_t n,
                          const char **failed_path) {
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (stat(items[i].path, &st) != 0 || S_ISREG(st.st_mode)) continue;
    *failed_path = items[i].path;
    errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    return false;
  }
  return true;
}

/* Keeps the old target under a backup name (a hard link: the target
 * stays in place), so that a later failure can put it back. */
static bool back_up(og_pending *p) {
  struct stat st; /* again: it may have changed since check_targets */
  if (stat(p->target, &st) == 0 && !S_ISREG(st.st_mode)) {
    errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    return false;
  }
  p->backup = og_guard_name(p->target, true);
  if (link(p->target, p->backup) == 0) {
    p->state = OG_PENDING_BACKUP;
    return true;
  }
  if (errno == ENOENT) { /* a new file: nothing to keep */
    free(p->backup);
    p->backup = NULL;
    return true;
  }
  if (errno != EPERM && errno != ENOTSUP && errno != EMLINK) return false;
  if (rename(p->target, p->backup) != 0) return false; /* no hard links */
  p->moved = true;
  p->state = OG_PENDING_BACKUP;
  return true;
}

/* Renames every temporary over its target with the guarded signals
 * blocked; on any failure every earlier rename is undone (the old targets
 * come back from their backups), else the backups go. */
static bool rename_all(og_pending *slots, size_t n, const og_output *items,
                       const char **failed_path) {
  sigset_t saved;
  og_guard_block(&saved);
  bool ok = true;
  size_t renames = 0;
  for (size_t i = 0; i < n && ok; i++) {
    og_pending *p = &slots[i];
    if (p->state != OG_PENDING_TEMP) continue;
    ok = back_up(p);
    if (ok && og_guard_hook_fail_rename(++renames)) ok = false, errno = EIO;
    else if (ok) ok = rename(p->tmp, p->target) == 0;
    if (ok) p->state = OG_PENDING_RENAMED;
    else *failed_path = items[i].path;
  }
  int err = errno;
  if (!ok) og_guard_rollback();
  for (size_t i = 0; ok && i < n; i++) {
    if (slots[i].backup) unlink(slots[i].backup);
    slots[i].state = OG_PENDING_NONE;
  }
  og_guard_unblock(&saved);
  errno = err;
  return ok;
}

/* Temporaries, then renames; on failure nothing of it stays. */
static bool commit_items(const og_output *items, size_t n,
                         const char **failed_path) {
  og_pending *slots = og_guard_begin(n);
  const char *last = NULL;
  size_t last_len = 0;
  for (size_t i = 0; i < n; i++) { /* once per directory (they come in runs) */
    slots[i].target = items[i].path;
    const char *slash = strrchr(items[i].path, '/');
    size_t len = slash ? (size_t)(slash - items[i].path) : 0;
    if (!last || len != last_len || strncmp(last, items[i].path, len) != 0)
      og_guard_remove_stale(items[i].path);
    last = items[i].path;
    last_len = len;
  }
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    if (items[i].same == OG_SAME_YES ||
        (items[i].same == OG_SAME_UNKNOWN &&
         same_content(items[i].path, &items[i])))
      continue;
    ok = write_temp(&slots[i], &items[i]);
    if (!ok) *failed_path = items[i].path;
  }
  if (ok) og_guard_hook_stop();
  ok = ok && rename_all(slots, n, items, failed_path);
  int err = errno;
  og_guard_rollback(); /* temporaries left by a failure */
  og_guard_end();
  errno = err;
  return ok;
}

bool og_write_file_atomic(const char *path, const char *data, size_t len) {
  og_output item = {(char *)path, {.buf = (char *)data, .len = len},
                    {.len = 0}, OG_SAME_UNKNOWN};
  const char *failed;
  return check_targets(&item, 1, &failed) && commit_items(&item, 1, &failed);
}

/* A FIFO or a character device (/dev/null, /dev/stdout) is written as it
 * is: there is nothing to replace. Opening does not wait for a reader. */
static bool write_device(const char *path, const char *data, size_t len) {
  int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  int flags = fcntl(fd, F_GETFL);
  bool ok = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 &&
            write_all(fd, data, len);
  int err = errno;
  if (close(fd) != 0 && ok) ok = false, err = errno;
  errno = err;
  return ok;
}

/* The descriptor that /dev/stdout, /dev/stderr, /dev/fd/N and
 * /proc/self/fd/N name, or -1. Written as it is: replacing such a path
 * would replace /dev's symlink itself (as root), and reopening a file
 * that the shell opened for appending would write over its start. */
static int named_fd(const char *path) {
  if (strcmp(path, "/dev/stdout") == 0) return 1;
  if (strcmp(path, "/dev/stderr") == 0) return 2;
  const char *n = strncmp(path, "/dev/fd/", 8) == 0 ? path + 8
                  : strncmp(path, "/proc/self/fd/", 14) == 0 ? path + 14
                                                             : NULL;
  if (!n || *n < '0' || *n > '9') return -1;
  long fd = 0;
  for (; *n >= '0' && *n <= '9' && fd < 1000000; n++) fd = fd * 10 + *n - '0';
  return *n ? -1 : (int)fd;
}

bool og_write_output_file(const char *path, const char *data, size_t len) {
  int fd = named_fd(path);
  if (fd >= 0) return write_all(fd, data, len);
  struct stat st;
  if (stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
    return write_device(path, data, len);
  return og_write_file_atomic(path, data, len);
}

bool og_outputs_commit(const og_outputs *o, const char *dir,
                       const char **failed_path) {
  *failed_path = dir;
  if (!check_targets(o->items, o->count, failed_path)) return false;
  made_dirs made = {0, 0};
  if (dir && !make_dirs(dir, &made)) {
    unmake_dirs(dir, made);
    return false;
  }
  bool ok = commit_items(o->items, o->count, failed_path);
  if (!ok && dir) unmake_dirs(dir, made); /* only if left empty */
  return ok;
}
