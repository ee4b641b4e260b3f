#include "outputs.h"

#include "arena.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void og_outputs_init(og_outputs *o) { memset(o, 0, sizeof *o); }

void og_outputs_free(og_outputs *o) {
  for (size_t i = 0; i < o->count; i++) {
    free(o->items[i].path);
    og_writer_free(&o->items[i].w);
  }
  free(o->items);
  og_outputs_init(o);
}

og_writer *og_outputs_add(og_outputs *o, const char *path) {
  o->items = og_xgrow(o->items, &o->cap, o->count + 1, sizeof *o->items);
  og_output *out = &o->items[o->count++];
  size_t n = strlen(path) + 1;
  out->path = memcpy(og_xmalloc(n), path, n);
  og_writer_init(&out->w);
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

/* True when `path` already holds exactly `data`. */
static bool same_content(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  bool same = true;
  char buf[65536];
  size_t off = 0, n;
  while (same && (n = fread(buf, 1, sizeof buf, f)) > 0) {
    same = off + n <= len && memcmp(buf, data + off, n) == 0;
    off += n;
  }
  same = same && !ferror(f) && off == len;
  fclose(f);
  return same;
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

/* Writes `data` to a new temporary beside `path`; its name in *tmp.
 * open() with 0666 lets the process umask give the usual mode, without
 * touching the umask (which is process-wide and not thread-safe). */
static bool write_temp(const char *path, const char *data, size_t len,
                       char **tmp) {
  static atomic_uint counter;
  size_t n = strlen(path) + 48;
  *tmp = og_xmalloc(n);
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
    snprintf(*tmp, n, "%s.tmp%ld-%u", path, (long)getpid(),
             atomic_fetch_add(&counter, 1));
    fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  bool ok = fd >= 0 && write_all(fd, data, len);
  int err = errno;
  if (fd >= 0 && close(fd) != 0 && ok) ok = false, err = errno;
  if (!ok) {
    if (fd >= 0) unlink(*tmp);
    free(*tmp);
    *tmp = NULL;
    errno = err;
  }
  return ok;
}

bool og_write_file_atomic(const char *path, const char *data, size_t len) {
  char *tmp;
  if (!write_temp(path, data, len, &tmp)) return false;
  bool ok = rename(tmp, path) == 0;
  int err = errno;
  if (!ok) unlink(tmp);
  free(tmp);
  errno = err;
  return ok;
}

bool og_outputs_commit(const og_outputs *o, const char *dir,
                       const char **failed_path) {
  *failed_path = dir;
  made_dirs made = {0, 0};
  if (dir && !make_dirs(dir, &made)) {
    unmake_dirs(dir, made);
    return false;
  }
  char **tmps = og_xmalloc((o->count ? o->count : 1) * sizeof *tmps);
  size_t written = 0;
  bool ok = true;
  for (; written < o->count && ok; written++) {
    const og_output *out = &o->items[written];
    tmps[written] = NULL;
    if (same_content(out->path, out->w.buf ? out->w.buf : "", out->w.len))
      continue;
    ok = write_temp(out->path, out->w.buf ? out->w.buf : "", out->w.len,
                    &tmps[written]);
    if (!ok) *failed_path = out->path;
  }
  int err = errno;
  for (size_t i = 0; i < written; i++) {
    if (!tmps[i]) continue;
    if (ok && rename(tmps[i], o->items[i].path) != 0) {
      ok = false, err = errno;
      *failed_path = o->items[i].path;
    }
    if (!ok) unlink(tmps[i]); /* no-op for those already renamed */
    free(tmps[i]);
  }
  free(tmps);
  if (!ok && dir) unmake_dirs(dir, made); /* only if left empty */
  errno = err;
  return ok;
}
