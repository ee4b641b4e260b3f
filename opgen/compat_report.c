/* Findings out: as diagnostics (an error and two notes each) or as JSON
 * for tools. */
#include "compat.h"

#include "json.h"

void og_compat_report(const og_compat_result *r, og_diag *diag) {
  for (size_t i = 0; i < r->count; i++) {
    const og_compat_finding *f = &r->items[i];
    og_diag_report(diag, f->warning ? OG_SEV_WARNING : OG_SEV_ERROR, f->pos,
                   "[%s] %s",
                   og_compat_rule_id(f->rule), f->message);
    og_diag_report(diag, OG_SEV_NOTE, f->base_pos, "%s", f->baseline);
    og_diag_report(diag, OG_SEV_NOTE, f->pos, "%s", f->hint);
  }
}

static void put_key(og_writer *w, const char *key, bool first) {
  if (!first) og_w_puts(w, ",\n");
  og_json_write_cstring(w, key);
  og_w_puts(w, ": ");
}

static void put_string(og_writer *w, const char *key, const char *value) {
  put_key(w, key, false);
  og_json_write_cstring(w, value ? value : "");
}

static void put_number(og_writer *w, const char *key, unsigned value) {
  put_key(w, key, false);
  og_w_printf(w, "%u", value);
}

static void put_finding(og_writer *w, const og_compat_finding *f) {
  og_w_puts(w, "{\n");
  og_w_indent(w);
  put_key(w, "rule", true);
  og_json_write_cstring(w, og_compat_rule_id(f->rule));
  put_string(w, "op", f->op);
  put_string(w, "file", f->pos.file);
  put_number(w, "line", f->pos.line);
  put_number(w, "col", f->pos.col);
  put_string(w, "message", f->message);
  put_string(w, "baseline", f->baseline);
  put_string(w, "baseline_file", f->base_pos.file);
  put_number(w, "baseline_line", f->base_pos.line);
  put_number(w, "baseline_col", f->base_pos.col);
  put_string(w, "hint", f->hint);
  put_string(w, "severity", f->warning ? "warning" : "error");
  og_w_puts(w, "\n");
  og_w_dedent(w);
  og_w_puts(w, "}");
}

void og_compat_write_findings(const og_compat_result *r, og_writer *w) {
  if (r->count == 0) {
    og_w_puts(w, "[]");
    return;
  }
  og_w_puts(w, "[\n");
  og_w_indent(w);
  for (size_t i = 0; i < r->count; i++) {
    if (i) og_w_puts(w, ",\n");
    put_finding(w, &r->items[i]);
  }
  og_w_puts(w, "\n");
  og_w_dedent(w);
  og_w_puts(w, "]");
}

void og_compat_write_json(const og_compat_result *r, og_writer *w) {
  og_w_puts(w, "{\"findings\": ");
  og_compat_write_findings(r, w);
  og_w_puts(w, "}\n");
}
