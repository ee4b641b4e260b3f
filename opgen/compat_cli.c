/* The compat verb: `opgen compat --baseline OLD [--baseline OLD]...
 * [--format=text|json|github] [--strict] FILES...`. OLD is one dump
 * (`opgen dump` JSON) or any number of old .op files; see docs/compat.md. */
#include "cli.h"

#include "cli_help.h"
#include "cli_limits.h"
#include "compat.h"
#include "compat_output.h"
#include "compile.h"
#include "dump_read.h"
#include "writer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>


typedef struct opts {
  const char **baselines; /* malloc'd */
  int nbaselines;
  char **files;
  int nfiles;
  bool strict;
  og_compat_out *out; /* the format, and diagnostics for JSON and github */
} opts;

/* Where errors go: stderr for text, the collected diagnostics (written
 * at the end, on stdout) for JSON and github. */
static og_compat_out *g_out;

static int vfail(const char *id, const char *fmt, va_list ap) {
  if (g_out->format == OG_COMPAT_TEXT) {
    fputs("opgen: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
  } else {
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    og_compat_out_add(g_out, OG_SEV_ERROR, (og_srcpos){0}, id, "%s", buf);
  }
  return OG_EXIT_USAGE;
}

static int fail(const char *id, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(const char *id, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vfail(id, fmt, ap);
  va_end(ap);
  return rc;
}

static int usage_error(const char *msg, const char *arg) {
  fail("USAGE", "%s%s%s%s", msg, arg ? " '" : "", arg ? arg : "",
       arg ? "'" : "");
  fprintf(stderr, "usage: %s\n", og_cli_synopsis("compat"));
  return OG_EXIT_USAGE;
}

static bool format_of(const char *v, og_compat_format *f) {
  if (strcmp(v, "text") == 0) *f = OG_COMPAT_TEXT;
  else if (strcmp(v, "json") == 0) *f = OG_COMPAT_JSON;
  else if (strcmp(v, "github") == 0) *f = OG_COMPAT_GITHUB;
  else return false;
  return true;
}

/* The format, looked up before anything else so that even usage errors
 * come out in it; a bad value is reported by parse_option. */
static og_compat_format prescan_format(int argc, char **argv) {
  og_compat_format f = OG_COMPAT_TEXT;
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strncmp(argv[i], "--format=", 9) == 0) format_of(argv[i] + 9, &f);
    else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
      format_of(argv[++i], &f);
  }
  return f;
}

/* One option at argv[*i]; 0 when taken, else the exit status. */
static int parse_option(int argc, char **argv, int *i, opts *o) {
  const char *a = argv[*i], *value = NULL;
  if (strcmp(a, "--strict") == 0) {
    o->strict = true;
    return 0;
  }
  if (og_cli_is_max_errors(a))
    return og_cli_take_max_errors(a)
               ? 0
               : usage_error("bad count (--max-errors=N, 0: no limit) in", a);
  if (strcmp(a, "--baseline") == 0 || strcmp(a, "--format") == 0) {
    if (*i + 1 == argc) return usage_error("missing value for", a);
    value = argv[++*i];
  } else if (strncmp(a, "--baseline=", 11) == 0 ||
             strncmp(a, "--format=", 9) == 0) {
    value = strchr(a, '=') + 1;
  } else {
    return usage_error("unknown option", a);
  }
  if (a[2] == 'b') {
    if (!*value) return usage_error("empty baseline name", NULL);
    o->baselines[o->nbaselines++] = value;
  } else if (!format_of(value, &o->out->format)) {
    return usage_error("unknown format (text, json or github)", value);
  }
  return 0;
}

/* 0: run; -1: help printed; else the exit status. o->files and
 * o->baselines point into argv. */
static int parse_args(int argc, char **argv, opts *o) {
  o->baselines = og_xmalloc((size_t)argc * sizeof *o->baselines);
  o->files = og_xmalloc((size_t)argc * sizeof *o->files);
  bool only_files = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (only_files || a[0] != '-' || a[1] == '\0') {
      o->files[o->nfiles++] = argv[i];
    } else if (strcmp(a, "--") == 0) {
      only_files = true;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      og_cli_print_help(stdout, "compat");
      return -1;
    } else {
      int rc = parse_option(argc, argv, &i, o);
      if (rc) return rc;
    }
  }
  if (o->nbaselines == 0)
    return usage_error("no baseline (--baseline OLD)", NULL);
  if (o->nfiles == 0) return usage_error("no input files", NULL);
  return 0;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Old specs are named *.op; any other baseline is a dump. */
static bool is_dump(const og_source *src) {
  return !ends_with(src->path, ".op");
}

/* The first byte after a byte order mark and blanks; NULL if none. */
static const char *first_content(const og_source *src) {
  const char *p = src->text, *end = src->text + src->len;
  if (src->len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  return p < end ? p : NULL;
}

/* An empty file (`--baseline /dev/null`) or one that is not JSON would
 * otherwise read as a baseline without ops, against which every change
 * is compatible: both are refused before anything is read. */
static int check_baseline_file(const og_source *src) {
  const char *first = first_content(src);
  if (!first)
    return fail("BASELINE", "baseline '%s' is empty: a baseline is a JSON file "
                       "written by 'opgen dump', or old .op files",
                       src->path);
  if (is_dump(src) && *first != '{')
    return fail("BASELINE", "baseline '%s' is not an 'opgen dump' JSON file: it "
                       "does not start with '{' (old spec files must be "
                       "named *.op)",
                       src->path);
  return OG_EXIT_OK;
}

/* Loads `paths` into `sources`; their indexes into `out`. */
static int load_all(og_sources *sources, const char *const *paths, int n,
                    uint32_t *out) {
  for (int i = 0; i < n; i++) {
    int idx = og_sources_load(sources, paths[i]);
    if (idx < 0)
      return fail("IO", "cannot read '%s': %s", paths[i], strerror(errno));
    out[i] = (uint32_t)idx;
  }
  return OG_EXIT_OK;
}

static void count_errors(const og_diag *diag) {
  if (g_out->format == OG_COMPAT_TEXT) og_cli_count_errors(diag);
}

/* The baseline model: one dump, or old .op files compiled as one run.
 * An unreadable baseline is a usage error: the lint cannot run. */
static int load_baseline(const opts *o, og_sources *sources,
                         const uint32_t *idx, og_diag *diag, og_model **out) {
  int dumps = 0;
  for (int i = 0; i < o->nbaselines; i++) {
    int rc = check_baseline_file(sources->items[idx[i]]);
    if (rc) return rc;
    dumps += is_dump(sources->items[idx[i]]);
  }
  if (dumps && o->nbaselines > 1)
    return usage_error("a JSON baseline must be the only --baseline", NULL);
  if (dumps) {
    const og_source *src = sources->items[idx[0]];
    *out = og_dump_read(src->path, src->text, src->len, diag);
  } else {
    *out = og_compile(sources, idx, (size_t)o->nbaselines, diag);
  }
  if (*out && (*out)->nops) return OG_EXIT_OK;
  if (*out)
    return fail("BASELINE", "the baseline holds no ops; nothing would be "
                "compared");
  count_errors(diag);
  return fail("BASELINE", "the baseline is invalid; nothing was compared");
}

/* Findings print GCC style, except that a note at its error's place does
 * not repeat the source excerpt, and a position without a column (from a
 * dump, whose positions are the ops' lines) prints as "file:line:" with
 * no excerpt: the line is the baseline's, not the current file's. */
typedef struct finding_printer {
  const og_sources *sources;
  og_srcpos error_pos;
} finding_printer;

static bool same_pos(og_srcpos a, og_srcpos b) {
  return a.file && b.file && strcmp(a.file, b.file) == 0 &&
         a.line == b.line && a.col == b.col;
}

static void finding_sink(void *ctx, const og_diagnostic *d) {
  finding_printer *p = ctx;
  bool note = d->severity == OG_SEV_NOTE;
  if (!note) p->error_pos = d->pos;
  const char *sev = note                            ? "note"
                    : d->severity == OG_SEV_WARNING ? "warning"
                                                    : "error";
  if (d->pos.file && d->pos.line && !d->pos.col)
    fprintf(stderr, "%s:%u: %s: %s\n", d->pos.file, (unsigned)d->pos.line,
            sev, d->message);
  else if (note && d->pos.line && same_pos(d->pos, p->error_pos))
    fprintf(stderr, "%s:%u:%u: %s: %s\n", d->pos.file, (unsigned)d->pos.line,
            (unsigned)d->pos.col, sev, d->message);
  else
    og_diag_print(stderr, p->sources, d);
}

/* The summary line: "compatible: N ops checked against BASELINE". */
static void print_text(const og_sources *sources, const og_compat_result *r,
                       const og_compat_summary *sum) {
  size_t errors = og_compat_errors(r), warnings = r->count - errors;
  if (r->count) {
    finding_printer printer = {sources, {0}};
    og_diag diag;
    og_cli_diag_init(&diag, sources, finding_sink, &printer);
    og_compat_report(r, &diag);
    og_diag_print_suppressed(stderr, &diag);
  }
  if (errors)
    fprintf(stderr, "%zu incompatible change%s found%s", errors,
            errors == 1 ? "" : "s", warnings ? ", and " : ".\n");
  else if (warnings)
    fputs("compatible, with ", stderr);
  if (warnings)
    fprintf(stderr, "%zu warning%s.\n", warnings, warnings == 1 ? "" : "s");
  if (!errors)
    printf("compatible: %zu op%s checked against %s\n", sum->ops_checked,
           sum->ops_checked == 1 ? "" : "s", sum->baseline);
}

/* Everything after the arguments: load, compile the new specs (a bad one
 * is exit 1, as for check), read the baseline, compare, print. */
static int run(const opts *o, og_sources *sources, uint32_t *new_idx,
               uint32_t *old_idx, og_compat_result *r, og_compat_summary *sum) {
  int rc = load_all(sources, (const char *const *)o->files, o->nfiles, new_idx);
  if (!rc) rc = load_all(sources, o->baselines, o->nbaselines, old_idx);
  if (rc) return rc;
  og_diag_printer printer = {stderr, sources};
  og_diag diag;
  if (o->out->format == OG_COMPAT_TEXT)
    og_cli_diag_init(&diag, sources, og_diag_print_sink, &printer);
  else
    og_cli_diag_init(&diag, sources, og_compat_out_sink, o->out);
  og_model *newm = og_compile(sources, new_idx, (size_t)o->nfiles, &diag);
  if (!newm) {
    count_errors(&diag);
    return OG_EXIT_INVALID;
  }
  og_model *old = NULL;
  o->out->id = "BASELINE";
  rc = load_baseline(o, sources, old_idx, &diag, &old);
  if (!rc) {
    og_compat_options copts = {!is_dump(sources->items[old_idx[0]]),
                               o->strict};
    og_compat_check_with(old, newm, &copts, r);
    sum->result = r;
    sum->ops_checked = old->nops;
    rc = og_compat_errors(r) ? OG_EXIT_INVALID : OG_EXIT_OK;
    if (o->out->format == OG_COMPAT_TEXT) print_text(sources, r, sum);
  }
  og_model_free(old);
  og_model_free(newm);
  return rc;
}

/* The --baseline names, joined by ", " (malloc'd). */
static char *baseline_names(const opts *o) {
  og_writer w;
  og_writer_init(&w);
  for (int i = 0; i < o->nbaselines; i++)
    og_w_printf(&w, "%s%s", i ? ", " : "", o->baselines[i]);
  og_w_write(&w, "", 1);
  return w.buf;
}

/* JSON and github: everything at once, on stdout. */
static int print_machine(const og_compat_out *out,
                         const og_compat_summary *sum) {
  og_writer w;
  og_writer_init(&w);
  if (out->format == OG_COMPAT_JSON) og_compat_out_json(out, sum, &w);
  else og_compat_out_github(out, sum, &w);
  if (out->format == OG_COMPAT_GITHUB && sum->exit_status == 0 && sum->result)
    og_w_printf(&w, "compatible: %zu op%s checked against %s\n",
                sum->ops_checked, sum->ops_checked == 1 ? "" : "s",
                sum->baseline);
  bool ok = fwrite(w.buf ? w.buf : "", 1, w.len, stdout) == w.len &&
            fflush(stdout) == 0;
  og_writer_free(&w);
  if (ok) return sum->exit_status;
  fprintf(stderr, "opgen: error: cannot write '<stdout>': %s\n",
          strerror(errno));
  return OG_EXIT_USAGE;
}

int og_cmd_compat(int argc, char **argv) {
  og_compat_out out;
  og_compat_out_init(&out, prescan_format(argc, argv));
  g_out = &out;
  opts o = {.out = &out};
  og_compat_result r = {0};
  og_compat_summary sum = {0};
  int rc = parse_args(argc, argv, &o);
  char *names = baseline_names(&o);
  sum.baseline = names;
  if (rc == 0) {
    og_sources sources;
    og_sources_init(&sources);
    uint32_t *new_idx = og_xmalloc((size_t)argc * sizeof *new_idx);
    uint32_t *old_idx = og_xmalloc((size_t)argc * sizeof *old_idx);
    rc = run(&o, &sources, new_idx, old_idx, &r, &sum);
    sum.exit_status = rc;
    if (out.format != OG_COMPAT_TEXT) rc = print_machine(&out, &sum);
    free(new_idx);
    free(old_idx);
    og_sources_free(&sources);
  } else if (rc > 0 && out.format != OG_COMPAT_TEXT) {
    sum.exit_status = rc;
    rc = print_machine(&out, &sum);
  }
  og_compat_result_free(&r);
  free(names);
  free(o.baselines);
  free(o.files);
  og_compat_out_free(&out);
  g_out = NULL;
  return rc < 0 ? OG_EXIT_OK : rc;
}
