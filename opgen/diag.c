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

/* Hands one diagnostic to the sink unless the cap says otherwise; a note
 * follows the fate of the diagnostic before it. */
static void deliver(og_diag *d, const og_diagnostic *diag) {
  if (diag->severity != OG_SEV_NOTE) {
    d->skipping = d->max_errors && d->shown_errors >= d->max_errors;
    if (!d->skipping && diag->severity == OG_SEV_ERROR) d->shown_errors++;
  }
  if (!d->skipping) {
    if (d->fn) d->fn(d->ctx, diag);
  } else if (diag->severity == OG_SEV_ERROR) {
    d->suppressed_errors++;
  } else if (diag->severity == OG_SEV_WARNING) {
    d->suppressed_warnings++;
  }
}

void og_diag_print_suppressed(FILE *out, const og_diag *d) {
  size_t e = d->suppressed_errors, w = d->suppressed_warnings;
  if (!e && !w) return;
  fprintf(out, "opgen: note: %zu more error%s", e, e == 1 ? "" : "s");
  if (w) fprintf(out, " and %zu warning%s", w, w == 1 ? "" : "s");
  fprintf(out, " not shown (--max-errors=%zu; 0 shows all)\n",
          d->max_errors);
}

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
    deliver(d, &d->held[i].diag);
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
  else deliver(d, &diag);
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

static bool is_continuation(const char *line, size_t i) {
  return ((unsigned char)line[i] & 0xC0) == 0x80;
}

/* The part of a long line that is printed: OG_DIAG_EXCERPT_WIDTH bytes
 * around the column, cut at UTF-8 character boundaries. */
static void excerpt_window(const char *line, size_t len, size_t col0,
                           size_t *from, size_t *to) {
  *from = 0;
  *to = len;
  if (len <= OG_DIAG_EXCERPT_WIDTH) return;
  size_t before = OG_DIAG_EXCERPT_WIDTH / 3;
  *from = col0 > before ? col0 - before : 0;
  if (*from + OG_DIAG_EXCERPT_WIDTH > len) *from = len - OG_DIAG_EXCERPT_WIDTH;
  *to = *from + OG_DIAG_EXCERPT_WIDTH;
  while (*from < len && *from > 0 && is_continuation(line, *from)) (*from)++;
  while (*to < len && *to > *from && is_continuation(line, *to)) (*to)--;
}

/* The source line (a window of it when long, "..." marking the cut),
 * then spaces (tabs kept, so the caret lines up) and the caret with '~'
 * under the rest of the range. */
static void print_excerpt(FILE *out, const og_source *src, og_srcpos pos) {
  size_t len, from, to;
  const char *line = og_source_line(src, pos.line, &len);
  size_t col0 = pos.col ? pos.col - 1 : 0;
  excerpt_window(line, len, col0, &from, &to);
  const char *lead = from ? "..." : "";
  fprintf(out, "  %s%.*s%s\n  %s", lead, (int)(to - from), line + from,
          to < len ? "..." : "", from ? "   " : "");
  for (size_t i = from; i < col0 && i < to; i++)
    fputc(line[i] == '\t' ? '\t' : ' ', out);
  fputc('^', out);
  size_t room = to > col0 ? to - col0 : 1;
  for (uint32_t i = 1; i < pos.len && i < room; i++) fputc('~', out);
  fputc('\n', out);
}

/* The message, cut at OG_DIAG_MAX_MESSAGE bytes (at a character
 * boundary): a 10 MB name quoted in it prints a line, not 10 MB. */
static void print_message(FILE *out, const char *msg) {
  size_t n = strlen(msg);
  if (n <= OG_DIAG_MAX_MESSAGE) {
    fprintf(out, "%s\n", msg);
    return;
  }
  n = OG_DIAG_MAX_MESSAGE;
  while (n > 0 && is_continuation(msg, n)) n--;
  fprintf(out, "%.*s...\n", (int)n, msg);
}

void og_diag_print(FILE *out, const og_sources *sources,
                   const og_diagnostic *d) {
  const char *sev = severity_name(d->severity);
  if (!d->pos.file) {
    fprintf(out, "opgen: %s: ", sev);
    print_message(out, d->message);
    return;
  }
  if (d->pos.line == 0) {
    fprintf(out, "%s: %s: ", d->pos.file, sev);
    print_message(out, d->message);
    return;
  }
  fprintf(out, "%s:%u:%u: %s: ", d->pos.file, (unsigned)d->pos.line,
          (unsigned)d->pos.col, sev);
  print_message(out, d->message);
  const og_source *src = og_sources_find(sources, d->pos.file);
  if (src) print_excerpt(out, src, d->pos);
}

void og_diag_print_sink(void *ctx, const og_diagnostic *d) {
  const og_diag_printer *p = ctx;
  og_diag_print(p->out, p->sources, d);
}
