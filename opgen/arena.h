/* Bump allocator: everything allocated from an arena is freed at once. */
#ifndef OPGEN_ARENA_H
#define OPGEN_ARENA_H

#include <stddef.h>
#include <string.h>

typedef struct og_arena_block og_arena_block;

typedef struct og_arena {
  og_arena_block *head;
  char *next, *end; /* the free part of head (NULL: none) */
} og_arena;

void og_arena_init(og_arena *arena);
/* Frees every block; the arena may be reused afterwards. */
void og_arena_free(og_arena *arena);
/* Moves every block of src into dst (src is left empty): what was
 * allocated from src lives as long as dst. */
void og_arena_adopt(og_arena *dst, og_arena *src);
/* Takes `size` bytes (a multiple of max_align_t) from a new block. */
void *og_arena_alloc_new(og_arena *arena, size_t size);

/* Not zeroed, aligned for any type: in line, for the many small ones
 * (names, nodes). */
static inline void *og_arena_take(og_arena *arena, size_t size) {
  const size_t align = sizeof(max_align_t);
  size = (size + align - 1) / align * align;
  if ((size_t)(arena->end - arena->next) < size)
    return og_arena_alloc_new(arena, size);
  void *p = arena->next;
  arena->next += size;
  return p;
}

/* Zeroed, aligned for any type. Aborts on out-of-memory (see og_xalloc). */
static inline void *og_arena_alloc(og_arena *arena, size_t size) {
  char *p = og_arena_take(arena, size);
  /* Most are a few 16-byte units: stores in line beat a memset call. */
  if (size <= 64 && size % 16 == 0)
    for (size_t i = 0; i < size; i += 16) memset(p + i, 0, 16);
  else
    memset(p, 0, size);
  return p;
}
void *og_arena_array(og_arena *arena, size_t count, size_t size);
char *og_arena_strndup(og_arena *arena, const char *s, size_t len);
char *og_arena_strdup(og_arena *arena, const char *s);
char *og_arena_printf(og_arena *arena, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* malloc/realloc that abort with a message on exhaustion: out-of-memory is
 * not a recoverable condition for a compiler-like tool. */
void *og_xmalloc(size_t size);
void *og_xrealloc(void *ptr, size_t size);
void *og_xgrow(void *ptr, size_t *cap, size_t need, size_t elem);

#endif
