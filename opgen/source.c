#include "source.h"

#include "arena.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  for (size_t i = 0; i < src->len; i++) {
    if (src->text[i] != '\n') continue;
    src->line_starts = og_xgrow(src->line_starts, &cap, src->nlines + 1,
                                sizeof *src->line_starts);
    src->line_starts[src->nlines++] = (uint32_t)(i + 1);
  }
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(og_xmalloc(n), s, n);
}

uint32_t og_sources_add(og_sources *s, const char *path, const char *text,
                        size_t len) {
  og_source *src = og_xmalloc(sizeof *src);
  memset(src, 0, sizeof *src);
  src->path = xstrdup(path);
  src->text = og_xmalloc(len + 1);
  if (len) memcpy(src->text, text, len); /* text may be NULL when empty */
  src->text[len] = '\0';
  src->len = len;
  index_lines(src);
  s->items = og_xgrow(s->items, &s->cap, s->count + 1, sizeof *s->items);
  s->items[s->count] = src;
  return (uint32_t)s->count++;
}

int og_sources_load(og_sources *s, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t cap = 0, len = 0;
  char *buf = NULL;
  for (;;) {
    buf = og_xgrow(buf, &cap, len + 65536, 1);
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (n == 0) break;
  }
  int err = ferror(f) ? (errno ? errno : EIO) : 0;
  fclose(f);
  if (err || len > INT32_MAX) { /* offsets are 32-bit; flex takes an int */
    free(buf);
    errno = err ? err : EFBIG;
    return -1;
  }
  uint32_t idx = og_sources_add(s, path, buf, len);
  free(buf);
  return (int)idx;
}

const og_source *og_sources_find(const og_sources *s, const char *path) {
  for (size_t i = 0; s && path && i < s->count; i++)
    if (strcmp(s->items[i]->path, path) == 0) return s->items[i];
  return NULL;
}

og_srcpos og_sources_pos(const og_sources *s, og_loc loc) {
  og_srcpos pos = {0};
  if (loc.file >= s->count) return pos;
  const og_source *src = s->items[loc.file];
  size_t lo = 0, hi = src->nlines;
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

size_t og_utf8_check(const char *text, size_t len) {
  const unsigned char *p = (const unsigned char *)text;
  size_t i = 0;
  while (i < len) {
    unsigned c = p[i];
    size_t n;
    unsigned min;
    if (c == 0) return i;
    if (c < 0x80) { i++; continue; }
    if ((c & 0xE0) == 0xC0) n = 1, min = 0x80;
    else if ((c & 0xF0) == 0xE0) n = 2, min = 0x800;
    else if ((c & 0xF8) == 0xF0) n = 3, min = 0x10000;
    else return i;
    if (len - i <= n) return i;
    unsigned cp = c & (0x3F >> n);
    for (size_t k = 1; k <= n; k++) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n + 1;
  }
  return (size_t)-1;
}
