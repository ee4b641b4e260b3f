#include "arena.h"

#include "format.h"
#include "pages.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct og_arena_block {
  og_arena_block *next;
  size_t cap;
  max_align_t data[];
};

/* A block's size with its header: whole pages of og_pages. */
enum { OG_ARENA_BLOCK = 64 * 1024 };

void og_arena_init(og_arena *arena) {
  arena->head = NULL;
  arena->next = arena->end = NULL;
}

void og_arena_free(og_arena *arena) {
  og_arena_block *b = arena->head;
  while (b) {
    og_arena_block *next = b->next;
    og_pages_free(b, sizeof *b + b->cap);
    b = next;
  }
  og_arena_init(arena);
}

void og_arena_adopt(og_arena *dst, og_arena *src) {
  og_arena_block *last = src->head;
  if (!last) return;
  while (last->next) last = last->next;
  /* After dst's head, which stays the block it allocates from. */
  if (dst->head) {
    last->next = dst->head->next;
    dst->head->next = src->head;
  } else {
    *dst = *src; /* allocating on from src's head */
  }
  og_arena_init(src);
}

void *og_xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p) {
    fputs("opgen: out of memory\n", stderr);
    abort();
  }
  return p;
}

void *og_xrealloc(void *ptr, size_t size) {
  void *p = realloc(ptr, size ? size : 1);
  if (!p) {
    fputs("opgen: out of memory\n", stderr);
    abort();
  }
  return p;
}

void *og_xgrow(void *ptr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return ptr;
  size_t n = *cap ? *cap : 8;
  while (n < need) {
    if (n > SIZE_MAX / 2 / elem) {
      fputs("opgen: out of memory\n", stderr);
      abort();
    }
    n *= 2;
  }
  *cap = n;
  return og_xrealloc(ptr, n * elem);
}

void *og_arena_alloc_new(og_arena *arena, size_t size) {
  og_arena_block *b;
  size_t cap = size > OG_ARENA_BLOCK - sizeof *b ? size
                                                 : OG_ARENA_BLOCK - sizeof *b;
  b = og_pages_alloc(sizeof *b + cap);
  b->cap = cap;
  b->next = arena->head;
  arena->head = b;
  arena->next = (char *)b->data + size;
  arena->end = (char *)b->data + cap;
  return b->data;
}

void *og_arena_array(og_arena *arena, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) {
    fputs("opgen: out of memory\n", stderr);
    abort();
  }
  return og_arena_alloc(arena, count * size);
}

char *og_arena_strndup(og_arena *arena, const char *s, size_t len) {
  char *p = og_arena_take(arena, len + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *og_arena_strdup(og_arena *arena, const char *s) {
  return og_arena_strndup(arena, s, strlen(s));
}

/* Formats once: in place, in the free part of the arena's block, which
 * holds nearly every name; else into a stack buffer first. */
char *og_arena_printf(og_arena *arena, const char *fmt, ...) {
  va_list ap;
  size_t room = (size_t)(arena->end - arena->next);
  if (room >= 256) {
    va_start(ap, fmt);
    int n = og_vsnprintf(arena->next, room, fmt, ap);
    va_end(ap);
    /* Taken where it was written: the rounded size fits the room. */
    if (n >= 0 && (size_t)n + sizeof(max_align_t) <= room)
      return og_arena_take(arena, (size_t)n + 1);
  }
  char small[256];
  va_start(ap, fmt);
  int n = og_vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  if ((size_t)n < sizeof small) return og_arena_strndup(arena, small, (size_t)n);
  char *p = og_arena_alloc(arena, (size_t)n + 1);
  va_start(ap, fmt);
  og_vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}
