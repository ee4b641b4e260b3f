#include "source.h"

#include "arena.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void og_sources_init(og_sources *s) { memset(s, 0, sizeof *s); }

void og_sources_free(og_sources *s) {
  for (size_t i = 0; i < s->count; i++) {
    free(s->items[i]->path);
    free(s->items[i]->text);
    free(s->items[i]->line_starts);
    free(s->items[i]);
  }
  free(s->items);
  og_sources_init(s);
}

static void index_lines(og_source *src) {
  size_t cap = 0;
  src->line_starts = og_xgrow(NULL, &cap, 1, sizeof *src->line_starts);
  src->line_starts[src->nlines++] = 0;
  const char *p = src->text, *end = src->text + src->len;
  while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
    p++;
    src->line_starts = og_xgrow(src->line_starts, &cap, src->nlines + 1,
                                sizeof *src->line_starts);
    src->line_starts[src->nlines++] = (uint32_t)(p - src->text);
  }
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(og_xmalloc(n), s, n);
}

/* Adds a source that owns `text` (len bytes and room for a NUL). */
static uint32_t add_owned(og_sources *s, const char *path, char *text,
                          size_t len) {
  og_source *src = og_xmalloc(sizeof *src);
  memset(src, 0, sizeof *src);
  src->path = xstrdup(path);
  src->text = text;
  src->text[len] = '\0';
  src->len = len;
  index_lines(src);
  s->items = og_xgrow(s->items, &s->cap, s->count + 1, sizeof *s->items);
  s->items[s->count] = src;
  return (uint32_t)s->count++;
}

uint32_t og_sources_add(og_sources *s, const char *path, const char *text,
                        size_t len) {
  char *copy = og_xmalloc(len + 1);
  if (len) memcpy(copy, text, len); /* text may be NULL when empty */
  return add_owned(s, path, copy, len);
}

/* Opens without blocking (a FIFO with no writer would block open()
 * forever), then reads blocking. Directories are refused here, before any
 * read. */
static int open_input(const char *path, struct stat *st) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return -1;
  int flags = fcntl(fd, F_GETFL);
  if (fstat(fd, st) != 0 ||
      (flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)) {
    int err = errno;
    close(fd);
    errno = err;
    return -1;
  }
  if (S_ISDIR(st->st_mode)) {
    close(fd);
    errno = EISDIR;
    return -1;
  }
  return fd;
}

/* Reads fd to its end in chunks, never holding more than
 * OG_MAX_INPUT_BYTES + 1 bytes: EFBIG as soon as the input is longer,
 * whatever it is (a file, a pipe, /dev/zero). */
static char *read_capped(int fd, const struct stat *st, size_t *len) {
  if (S_ISREG(st->st_mode) && st->st_size > (off_t)OG_MAX_INPUT_BYTES) {
    errno = EFBIG; /* known before reading (/proc files say 0: read) */
    return NULL;
  }
  size_t cap = 0, n = 0;
  char *buf = NULL;
  /* A regular file in one read, with room for the NUL and for the read
   * that says it ended (a file that grows meanwhile grows the buffer). */
  size_t first = S_ISREG(st->st_mode) ? (size_t)st->st_size + 2 : 65536;
  for (;;) {
    size_t step = n ? 65536 : first;
    size_t want = n + step > OG_MAX_INPUT_BYTES + 1 ? OG_MAX_INPUT_BYTES + 1
                                                    : n + step;
    if (cap < want) buf = og_xgrow(buf, &cap, want, 1);
    ssize_t got = read(fd, buf + n, want - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 || n + (size_t)got > OG_MAX_INPUT_BYTES) {
      int err = got < 0 ? errno : EFBIG;
      free(buf);
      errno = err;
      return NULL;
    }
    if (got == 0) break;
    n += (size_t)got;
  }
  *len = n;
  if (n == cap) buf = og_xgrow(buf, &cap, n + 1, 1); /* the NUL */
  return buf;
}

int og_sources_load(og_sources *s, const char *path) {
  struct stat st;
  int fd = open_input(path, &st);
  if (fd < 0) return -1;
  size_t len = 0;
  char *buf = read_capped(fd, &st, &len);
  int err = errno;
  close(fd);
  if (!buf) {
    errno = err;
    return -1;
  }
  return (int)add_owned(s, path, buf, len);
}

const og_source *og_sources_find(const og_sources *s, const char *path) {
  for (size_t i = 0; s && path && i < s->count; i++)
    if (strcmp(s->items[i]->path, path) == 0) return s->items[i];
  return NULL;
}

og_srcpos og_sources_pos(const og_sources *s, og_loc loc) {
  return og_sources_pos_near(s, loc, 0);
}

og_srcpos og_sources_pos_near(const og_sources *s, og_loc loc,
                              uint32_t near) {
  og_srcpos pos = {0};
  if (loc.file >= s->count) return pos;
  const og_source *src = s->items[loc.file];
  size_t lo = 0, hi = src->nlines;
  /* A few lines down from `near` (a checked op's items): walked. */
  if (near < src->nlines && src->line_starts[near] <= loc.begin) {
    lo = near;
    for (size_t k = 0; k < 16 && lo + 1 < hi; k++) {
      if (src->line_starts[lo + 1] > loc.begin) {
        hi = lo + 1;
        break;
      }
      lo++;
    }
  }
  while (hi - lo > 1) { /* last line starting at or before begin */
    size_t mid = (lo + hi) / 2;
    if (src->line_starts[mid] <= loc.begin) lo = mid;
    else hi = mid;
  }
  pos.file = src->path;
  pos.line = (uint32_t)lo + 1;
  pos.col = loc.begin - src->line_starts[lo] + 1;
  size_t line_end = lo + 1 < src->nlines ? src->line_starts[lo + 1] - 1
                                         : src->len;
  uint32_t end = loc.end < line_end ? loc.end : (uint32_t)line_end;
  pos.len = end > loc.begin ? end - loc.begin : 0;
  return pos;
}

const char *og_source_line(const og_source *src, uint32_t line, size_t *len) {
  if (line == 0 || line > src->nlines) {
    *len = 0;
    return "";
  }
  size_t b = src->line_starts[line - 1];
  size_t e = line < src->nlines ? src->line_starts[line] - 1 : src->len;
  if (e > b && src->text[e - 1] == '\r') e--;
  *len = e - b;
  return src->text + b;
}

size_t og_utf8_seq_len(const unsigned char *s, size_t avail) {
  unsigned char c = s[0];
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF; /* bounds of the second byte */
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (avail < n || s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < n; i++)
    if (s[i] < 0x80 || s[i] > 0xBF) return 0;
  return n;
}

size_t og_utf8_check(const char *text, size_t len) {
  const unsigned char *p = (const unsigned char *)text;
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  for (size_t i = 0, n; i < len; i += n) {
    n = 8; /* eight ASCII bytes, none '\0': nearly all of a spec */
    uint64_t x;
    if (i + 8 <= len && (memcpy(&x, p + i, 8), !((x | ((x - ones) & ~x)) & highs)))
      continue;
    n = 1;
    if (p[i] - 1u < 0x7Fu) continue;
    if (p[i] == 0 || !(n = og_utf8_seq_len(p + i, len - i))) return i;
  }
  return (size_t)-1;
}
