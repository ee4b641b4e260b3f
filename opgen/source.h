/* Spec sources held in memory, and source positions. */
#ifndef OPGEN_SOURCE_H
#define OPGEN_SOURCE_H

#include <stddef.h>
#include <stdint.h>

/* A byte range in one loaded source; what tokens and AST nodes carry. */
typedef struct og_loc {
  uint32_t file; /* index into og_sources */
  uint32_t begin, end;
} og_loc;

/* A resolved position: what the model carries and diagnostics print.
 * line and col are 1-based (col counts bytes); 0 means unknown. */
typedef struct og_srcpos {
  const char *file;
  uint32_t line, col;
  uint32_t len; /* bytes to underline on that line, 0 for just a caret */
} og_srcpos;

typedef struct og_source {
  char *path;
  char *text; /* NUL-terminated copy of the file */
  size_t len;
  uint32_t *line_starts;
  size_t nlines;
} og_source;

/* Owns every og_source added to it. */
typedef struct og_sources {
  og_source **items;
  size_t count, cap;
} og_sources;

void og_sources_init(og_sources *s);
void og_sources_free(og_sources *s);
/* Takes a copy of text (which may be NULL when len is 0); returns the
 * file index. */
uint32_t og_sources_add(og_sources *s, const char *path, const char *text,
                        size_t len);
/* The largest input file opgen reads (docs/guarantees.md, "Limits"): far above any
 * spec or OpList (TensorFlow's whole OpList is 0.8 MB), low enough that
 * reading /dev/zero or a runaway pipe stops within a second, in bounded
 * memory, and that 32-bit offsets hold. */
#define OG_MAX_INPUT_BYTES ((size_t)64 << 20)

/* Reads a file (or a pipe, a FIFO, a device) in chunks; returns its
 * index, or -1 with errno set: EFBIG past OG_MAX_INPUT_BYTES, EISDIR for
 * a directory. Opening never blocks: a FIFO with no writer reads as
 * empty. */
int og_sources_load(og_sources *s, const char *path);
const og_source *og_sources_find(const og_sources *s, const char *path);

og_srcpos og_sources_pos(const og_sources *s, og_loc loc);
/* The same, found faster from `near`, a line (0-based) a few lines
 * before loc's. */
og_srcpos og_sources_pos_near(const og_sources *s, og_loc loc,
                              uint32_t near);
/* The text of line `line` (1-based) without its newline. */
const char *og_source_line(const og_source *src, uint32_t line, size_t *len);

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlongs,
 * no surrogates, nothing above U+10FFFF), or 0. */
size_t og_utf8_seq_len(const unsigned char *s, size_t avail);
/* Offset of the first byte that is not valid UTF-8 (or a NUL byte), or
 * (size_t)-1 when the whole text is clean. */
size_t og_utf8_check(const char *text, size_t len);

#endif
