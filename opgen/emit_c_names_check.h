/* Internal to the names check (emit_c_names_*.c): what its files share.
 * The lookups are inline, as they were in one file: the check and the
 * scopes look up some 60,000 names a corpus. */
#ifndef OPGEN_EMIT_C_NAMES_CHECK_H
#define OPGEN_EMIT_C_NAMES_CHECK_H

#include "emit_c_internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Who generates names, to say so in a diagnostic: one an item (op,
 * attr, input, output, file), shared by the item's names. */
typedef struct who {
  const char *item_kind; /* "attr", "input", "output"; NULL: the op's */
  const char *item;
  const og_op *op;       /* NULL: the file's */
  const og_c_file *file;
  const og_srcpos *pos; /* into the model or the og_c_file */
  bool shared;   /* shape_fn: other ops may name the same function */
  bool reported; /* an item's names after its first report stay quiet */
} who;

typedef struct claim {
  const char *name;
  const char *what; /* "the wrapper", "an enumerator", ... */
  const who *at;
} claim;

/* A recorded global name, or a report found while recording. */
typedef enum entry_kind {
  E_CLAIM,    /* a name; its reserved spelling checked */
  E_CLAIM_ANY_SPELLING, /* a file name: no identifier */
  E_REPORT,   /* why, or the collision with `first` */
} entry_kind;

typedef struct entry {
  claim c;
  const char *why; /* a reserved name, or an E_REPORT's text */
  uint64_t hash;   /* of a claim's name */
  int32_t first;   /* the earlier entry of the same name, or -1 */
  uint8_t kind;
  bool item; /* an item's name (quiet after the item's first report) */
} entry;

/* Large tables from og_pages (huge pages, no fault per 4 KiB). */
void *og_cn_table(size_t size);
/* A table of `cap` items of `size` bytes holding the `count` of old
 * (`old_cap` items, freed). */
void *og_cn_table_move(void *old, size_t count, size_t old_cap, size_t cap,
                       size_t size);
/* The hash of s; *reserved: s is spelled as C and C++ reserve. */
uint64_t og_cn_name_scan(const char *s, bool *reserved);

/* A slot: the hash's low half, to compare before the strings, and the
 * name's number + 1 (0: empty). */
typedef struct set_entry {
  uint32_t hash, id;
} set_entry;

/* The global names: slot i from the hash's top bits, so that names
 * sorted by hash fill the table from its start to its end. */
typedef struct global_set {
  set_entry *slots;
  size_t cap;     /* a power of two */
  unsigned shift; /* 64 - log2(cap) */
  const entry *entries;
} global_set;

/* The slot of name (hash h): its own, or the empty one it would take. */
static inline set_entry *og_cn_global_slot(const global_set *g,
                                           const char *name, uint64_t h) {
  size_t i = (size_t)(h >> g->shift);
  for (; g->slots[i].id; i = (i + 1) & (g->cap - 1))
    if (g->slots[i].hash == (uint32_t)h &&
        strcmp(g->entries[g->slots[i].id - 1].c.name, name) == 0)
      break;
  return &g->slots[i];
}

/* One scope's names (a few dozen): slot i from the hash's low bits. */
typedef struct name_set {
  set_entry *slots;
  const char **names; /* by number */
  size_t count, cap, names_cap; /* cap: a power of two, or 0 */
} name_set;

static inline set_entry *og_cn_set_slot(const name_set *s, const char *name,
                                        uint64_t h) {
  uint32_t tag = (uint32_t)(h >> 32);
  size_t i = h & (s->cap - 1);
  for (; s->slots[i].id; i = (i + 1) & (s->cap - 1))
    if (s->slots[i].hash == tag &&
        strcmp(s->names[s->slots[i].id - 1], name) == 0)
      break;
  return &s->slots[i];
}

static inline bool og_cn_set_has(const name_set *s, const char *name,
                                 uint64_t h) {
  return s->cap && og_cn_set_slot(s, name, h)->id;
}

static inline bool og_cn_global_has(const global_set *g, const char *name,
                                    uint64_t h) {
  return og_cn_global_slot(g, name, h)->id != 0;
}

/* Adds name (hash h) unless present; returns its number. */
size_t og_cn_set_add_hashed(name_set *s, const char *name, uint64_t h);
size_t og_cn_set_add(name_set *s, const char *name);
/* Empty, keeping its tables. */
void og_cn_set_clear(name_set *s);
void og_cn_set_free(name_set *s);

/* The global names of a run, as recorded (emit_c_names_claims.c). */
typedef struct run {
  og_diag *diag;
  og_arena *arena; /* the whos */
  entry *entries;
  size_t count, cap;
  size_t *file_claims; /* by number in files: the file name's entry */
  size_t file_cap;
  name_set files;
  global_set global;
  bool ok;
} run;

/* Records the global names of file f (emit_c_names_claims.c). */
void og_cn_check_file(run *r, const og_c_file *f);
/* About as many global names as ops[0..n) will claim. */
size_t og_cn_estimate_names(const og_op *const *ops, size_t n);
/* Whether op has the og_cn_op name `p`. */
bool og_cn_op_has_part(const og_c_file *f, const og_op *op, int p);

/* Fills the global table, then reports in recorded order what it found
 * (emit_c_names_dedup.c). */
void og_cn_dedup(run *r);
void og_cn_report_all(run *r);

/* The names scopes chose before the run's global names were known (see
 * og_cn_prepare), with their hashes, to look up there later. */
typedef struct chosen {
  struct chosen_name {
    const char *name;
    uint64_t hash;
  } *items;
  size_t count, cap;
} chosen;

/* Scopes f's ops; `global` NULL: before the global names are known,
 * the names chosen into chosen[0] and [1] (emit_c_names_scope.c). */
bool og_cn_scope_names(og_c_file *f, const global_set *global,
                       bool params, og_diag *diag, chosen *chosen);

#endif
