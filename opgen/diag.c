#include "diag.h"

#include "arena.h"

#include <stdlib.h>
#include <string.h>

static const char *severity_name(og_severity sev) {
  switch (sev) {
  case OG_SEV_ERROR: return "error";
  case OG_SEV_WARNING: return "warning";
  case OG_SEV_NOTE: return "note";
  }
  return "error";
}

void og_diag_init(og_diag *d, const og_sources *sources, og_diag_fn fn,
                  void *ctx) {
  memset(d, 0, sizeof *d);
  d->sources = sources;
  d->fn = fn;
  d->ctx = ctx;
}

struct og_diag_held {
  og_diagnostic diag; /* message owned */
  size_t group;       /* index of the non-note diagnostic it belongs to */
  og_srcpos head;     /* that diagnostic's position: the sort key */
  size_t seq;
};

static void hold(og_diag *d, const og_diagnostic *diag) {
  d->held = og_xgrow(d->held, &d->held_cap, d->nheld + 1, sizeof *d->held);
  og_diag_held *h = &d->held[d->nheld];
  size_t n = strlen(diag->message) + 1;
  h->diag = *diag;
  h->diag.message = memcpy(og_xmalloc(n), diag->message, n);
  h->seq = d->nheld;
  h->group = diag->severity == OG_SEV_NOTE && d->nheld
                 ? d->held[d->nheld - 1].group
                 : d->nheld;
  h->head = h->group == d->nheld ? diag->pos : d->held[h->group].diag.pos;
  d->nheld++;
}

void og_diag_hold(og_diag *d) { d->holding = true; }

/* Groups ordered by their head's position, members by arrival. */
static int compare_held(const void *a, const void *b) {
  const og_diag_held *x = a, *y = b;
  const og_srcpos *px = &x->head, *py = &y->head;
  if (x->group != y->group) {
    if (px->line != py->line) return px->line < py->line ? -1 : 1;
    if (px->col != py->col) return px->col < py->col ? -1 : 1;
    return x->group < y->group ? -1 : 1;
  }
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void og_diag_release(og_diag *d) {
  d->holding = false;
  if (d->nheld) qsort(d->held, d->nheld, sizeof *d->held, compare_held);
  for (size_t i = 0; i < d->nheld; i++) {
    if (d->fn) d->fn(d->ctx, &d->held[i].diag);
    free((char *)d->held[i].diag.message);
  }
  free(d->held);
  d->held = NULL;
  d->nheld = d->held_cap = 0;
}

void og_diag_vreport(og_diag *d, og_severity sev, og_srcpos pos,
                     const char *fmt, va_list ap) {
  char small[512];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  char *msg = small;
  if (n >= (int)sizeof small) {
    msg = malloc((size_t)n + 1);
    if (msg) vsnprintf(msg, (size_t)n + 1, fmt, ap2);
    else msg = small;
  }
  va_end(ap2);
  if (sev == OG_SEV_ERROR) d->errors++;
  if (sev == OG_SEV_WARNING) d->warnings++;
  og_diagnostic diag = {sev, pos, msg};
  if (d->holding) hold(d, &diag);
  else if (d->fn) d->fn(d->ctx, &diag);
  if (msg != small) free(msg);
}

void og_diag_report(og_diag *d, og_severity sev, og_srcpos pos,
                    const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  og_diag_vreport(d, sev, pos, fmt, ap);
  va_end(ap);
}

void og_diag_at(og_diag *d, og_severity sev, og_loc loc, const char *fmt,
                ...) {
  og_srcpos pos = {0};
  if (d->sources) pos = og_sources_pos(d->sources, loc);
  va_list ap;
  va_start(ap, fmt);
  og_diag_vreport(d, sev, pos, fmt, ap);
  va_end(ap);
}

/* The source line, then spaces (tabs kept, so the caret lines up) and the
 * caret with '~' under the rest of the range. */
static void print_excerpt(FILE *out, const og_source *src, og_srcpos pos) {
  size_t len;
  const char *line = og_source_line(src, pos.line, &len);
  fprintf(out, "  %.*s\n  ", (int)len, line);
  for (size_t i = 0; i + 1 < pos.col && i < len; i++)
    fputc(line[i] == '\t' ? '\t' : ' ', out);
  fputc('^', out);
  for (uint32_t i = 1; i < pos.len; i++) fputc('~', out);
  fputc('\n', out);
}

void og_diag_print(FILE *out, const og_sources *sources,
                   const og_diagnostic *d) {
  const char *sev = severity_name(d->severity);
  if (!d->pos.file) {
    fprintf(out, "opgen: %s: %s\n", sev, d->message);
    return;
  }
  if (d->pos.line == 0) {
    fprintf(out, "%s: %s: %s\n", d->pos.file, sev, d->message);
    return;
  }
  fprintf(out, "%s:%u:%u: %s: %s\n", d->pos.file, (unsigned)d->pos.line,
          (unsigned)d->pos.col, sev, d->message);
  const og_source *src = og_sources_find(sources, d->pos.file);
  if (src) print_excerpt(out, src, d->pos);
}

void og_diag_print_sink(void *ctx, const og_diagnostic *d) {
  const og_diag_printer *p = ctx;
  og_diag_print(p->out, p->sources, d);
}
