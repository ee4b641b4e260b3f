/* compat's machine formats: the JSON document and GitHub annotations. */
#include "compat_output.h"

#include "json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void og_compat_out_init(og_compat_out *o, og_compat_format format) {
  memset(o, 0, sizeof *o);
  o->format = format;
  o->id = "SPEC";
  og_arena_init(&o->arena);
}

void og_compat_out_free(og_compat_out *o) {
  og_arena_free(&o->arena);
  free(o->items);
  memset(o, 0, sizeof *o);
}

static void add_text(og_compat_out *o, og_severity sev, og_srcpos pos,
                     const char *id, const char *message) {
  o->items = og_xgrow(o->items, &o->cap, o->count + 1, sizeof *o->items);
  if (pos.file) pos.file = og_arena_strdup(&o->arena, pos.file);
  o->items[o->count++] =
      (og_compat_diag){sev, pos, id, og_arena_strdup(&o->arena, message)};
}

void og_compat_out_sink(void *ctx, const og_diagnostic *d) {
  og_compat_out *o = ctx;
  add_text(o, d->severity, d->pos, o->id, d->message);
}

void og_compat_out_add(og_compat_out *o, og_severity sev, og_srcpos pos,
                       const char *id, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  og_writer w;
  og_writer_init(&w);
  og_w_vprintf(&w, fmt, ap);
  va_end(ap);
  add_text(o, sev, pos, id, og_arena_strndup(&o->arena, w.buf ? w.buf : "", w.len));
  og_writer_free(&w);
}

static const char *sev_name(og_severity sev) {
  return sev == OG_SEV_ERROR ? "error" : sev == OG_SEV_WARNING ? "warning"
                                                               : "note";
}

/* ---- JSON ---- */

static void put_diag(og_writer *w, const og_compat_diag *d) {
  og_w_puts(w, "{\"file\": ");
  og_json_write_cstring(w, d->pos.file ? d->pos.file : "");
  og_w_printf(w, ", \"line\": %u, \"col\": %u, \"severity\": ",
              (unsigned)d->pos.line, (unsigned)d->pos.col);
  og_json_write_cstring(w, sev_name(d->severity));
  og_w_puts(w, ", \"id\": ");
  og_json_write_cstring(w, d->id);
  og_w_puts(w, ", \"message\": ");
  og_json_write_cstring(w, d->message);
  og_w_puts(w, "}");
}

void og_compat_out_json(const og_compat_out *o, const og_compat_summary *s,
                        og_writer *w) {
  og_w_puts(w, "{\"findings\": ");
  if (s->result) og_compat_write_findings(s->result, w);
  else og_w_puts(w, "[]");
  og_w_puts(w, ",\n\"diagnostics\": [");
  for (size_t i = 0; i < o->count; i++) {
    og_w_puts(w, i ? ",\n  " : "\n  ");
    put_diag(w, &o->items[i]);
  }
  og_w_puts(w, o->count ? "\n],\n" : "],\n");
  og_w_printf(w, "\"ops_checked\": %zu,\n\"baseline\": ", s->ops_checked);
  og_json_write_cstring(w, s->baseline ? s->baseline : "");
  og_w_printf(w, ",\n\"exit\": %d}\n", s->exit_status);
}

/* ---- GitHub workflow commands ---- */

/* The escapes GitHub's runner undoes: '%', CR and LF everywhere, ':' and
 * ',' also in properties. */
static void put_escaped(og_writer *w, const char *s, bool property) {
  for (; s && *s; s++) {
    switch (*s) {
    case '%': og_w_puts(w, "%25"); break;
    case '\r': og_w_puts(w, "%0D"); break;
    case '\n': og_w_puts(w, "%0A"); break;
    case ':': og_w_puts(w, property ? "%3A" : ":"); break;
    case ',': og_w_puts(w, property ? "%2C" : ","); break;
    default: og_w_write(w, s, 1);
    }
  }
}

static void put_command(og_writer *w, og_severity sev, og_srcpos pos,
                        const char *title, const char *message) {
  og_w_puts(w, sev == OG_SEV_ERROR     ? "::error "
               : sev == OG_SEV_WARNING ? "::warning "
                                       : "::notice ");
  if (pos.file) {
    og_w_puts(w, "file=");
    put_escaped(w, pos.file, true);
    og_w_puts(w, ",");
  }
  if (pos.line) og_w_printf(w, "line=%u,", (unsigned)pos.line);
  if (pos.line && pos.col) og_w_printf(w, "col=%u,", (unsigned)pos.col);
  og_w_puts(w, "title=");
  put_escaped(w, title, true);
  og_w_puts(w, "::");
  put_escaped(w, message, false);
  og_w_puts(w, "\n");
}

void og_compat_out_github(const og_compat_out *o, const og_compat_summary *s,
                          og_writer *w) {
  for (size_t i = 0; i < o->count; i++) {
    const og_compat_diag *d = &o->items[i];
    put_command(w, d->severity, d->pos, d->id, d->message);
  }
  for (size_t i = 0; s->result && i < s->result->count; i++) {
    const og_compat_finding *f = &s->result->items[i];
    og_writer m;
    og_writer_init(&m);
    og_w_printf(&m, "%s\n%s\n%s", f->message, f->baseline, f->hint);
    og_w_write(&m, "", 1); /* the NUL */
    put_command(w, f->warning ? OG_SEV_WARNING : OG_SEV_ERROR, f->pos,
                og_compat_rule_id(f->rule), m.buf);
    og_writer_free(&m);
  }
}
