/* The recorded global names checked all at once: inserted into the
 * hash table in the table's own order (a stable sort by slot), so that
 * its memory is swept once rather than hit at random some 33,000 times
 * for a corpus; then the problems are reported in the recorded order,
 * as if each name were checked when recorded. */
#include "emit_c_names_check.h"

#include "pages.h"

#include <stdlib.h>
#include <string.h>

static void describe(og_writer *w, const claim *c) {
  og_w_printf(w, "'%s' (%s", c->name, c->what);
  if (c->at->item_kind)
    og_w_printf(w, " of %s '%s'", c->at->item_kind, c->at->item);
  if (c->at->op) og_w_printf(w, " of op '%s'", c->at->op->name);
  else og_w_printf(w, " of '%s'", c->at->file->path);
  og_w_puts(w, ")");
}

static void report(run *r, const claim *c, const claim *earlier,
                   const char *why) {
  r->ok = false;
  og_writer t;
  og_writer_init(&t);
  describe(&t, c);
  if (earlier) {
    og_w_puts(&t, " collides with ");
    describe(&t, earlier);
    og_w_puts(&t, "; rename one of them");
  } else {
    og_w_printf(&t, " %s", why);
  }
  og_diag_report(r->diag, OG_SEV_ERROR, *c->at->pos, "%s", t.buf);
  if (earlier) {
    t.len = 0;
    describe(&t, earlier);
    og_diag_report(r->diag, OG_SEV_NOTE, *earlier->at->pos,
                   "%s is generated here", t.buf);
  }
  og_writer_free(&t);
}

/* A name to insert: its hash and entry (the name copied: the entries
 * are read in table order, at random, only where a hash matches). */
typedef struct to_insert {
  uint64_t hash;
  const char *name;
  size_t entry;
} to_insert;

/* The names free of reserved ones, stably sorted by their hash's top
 * `bits` bits (a counting sort: the order of equal names stays). */
static to_insert *sorted_names(run *r, unsigned bits, size_t *n) {
  enum { RADIX = 11 };
  unsigned b = bits < RADIX ? bits : RADIX;
  size_t *start = calloc((size_t)1 << b, sizeof *start);
  to_insert *in = og_cn_table(r->count * sizeof *in);
  to_insert *out = og_cn_table(r->count * sizeof *out);
  if (!start) abort();
  size_t k = 0;
  for (size_t i = 0; i < r->count; i++) {
    const entry *e = &r->entries[i];
    if (e->kind != E_REPORT && !e->why)
      in[k++] = (to_insert){e->hash, e->c.name, i};
  }
  for (size_t i = 0; i < k; i++) start[in[i].hash >> (64 - b)]++;
  for (size_t v = 0, sum = 0; v < ((size_t)1 << b); v++) {
    size_t c = start[v];
    start[v] = sum;
    sum += c;
  }
  for (size_t i = 0; i < k; i++) out[start[in[i].hash >> (64 - b)]++] = in[i];
  free(start);
  og_pages_free(in, r->count * sizeof *in);
  *n = k;
  return out;
}

/* Fills the global table; sets each entry's `first`. */
void og_cn_dedup(run *r) {
  global_set *g = &r->global;
  unsigned bits = 6;
  /* At most two thirds full: 33,000 corpus names in 512 KiB. */
  while (((size_t)1 << bits) < r->count + r->count / 2 + 2) bits++;
  g->cap = (size_t)1 << bits;
  g->shift = 64 - bits;
  g->entries = r->entries;
  g->slots = og_cn_table(g->cap * sizeof *g->slots);
  memset(g->slots, 0, g->cap * sizeof *g->slots);
  size_t n;
  to_insert *order = sorted_names(r, bits, &n);
  for (size_t k = 0; k < n; k++) {
    set_entry *s = og_cn_global_slot(g, order[k].name, order[k].hash);
    if (s->id) r->entries[order[k].entry].first = (int32_t)(s->id - 1);
    else *s = (set_entry){(uint32_t)order[k].hash, (uint32_t)order[k].entry + 1};
  }
  og_pages_free(order, r->count * sizeof *order);
}

/* Reports in recorded order what og_cn_dedup found. */
void og_cn_report_all(run *r) {
  for (size_t i = 0; i < r->count; i++) {
    const entry *e = &r->entries[i];
    const claim *earlier = e->first >= 0 ? &r->entries[e->first].c : NULL;
    if (e->kind == E_REPORT) {
      report(r, &e->c, earlier, e->why);
      continue;
    }
    if (!e->why && (!earlier || (e->c.at->shared && earlier->at->shared)))
      continue;
    who *at = (who *)e->c.at; /* the run's own */
    if (e->item && at->reported) continue; /* quiet */
    if (e->item) at->reported = true;
    report(r, &e->c, e->why ? NULL : earlier, e->why);
  }
}
