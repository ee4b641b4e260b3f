/* Bump allocator: everything allocated from an arena is freed at once. */
#ifndef OPGEN_ARENA_H
#define OPGEN_ARENA_H

#include <stddef.h>

typedef struct og_arena_block og_arena_block;

typedef struct og_arena {
  og_arena_block *head;
} og_arena;

void og_arena_init(og_arena *arena);
/* Frees every block; the arena may be reused afterwards. */
void og_arena_free(og_arena *arena);
/* Moves every block of src into dst (src is left empty): what was
 * allocated from src lives as long as dst. */
void og_arena_adopt(og_arena *dst, og_arena *src);
/* Zeroed, aligned for any type. Aborts on out-of-memory (see og_xalloc). */
void *og_arena_alloc(og_arena *arena, size_t size);
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
