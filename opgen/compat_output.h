/* What `opgen compat` prints for machines: one JSON document on stdout
 * (findings and diagnostics, whatever went wrong) or GitHub Actions
 * workflow annotations. Diagnostics are collected while the run goes,
 * then written once. */
#ifndef OPGEN_COMPAT_OUTPUT_H
#define OPGEN_COMPAT_OUTPUT_H

#include "arena.h"
#include "compat.h"
#include "diag.h"

#include <stdio.h>

typedef enum og_compat_format {
  OG_COMPAT_TEXT,
  OG_COMPAT_JSON,
  OG_COMPAT_GITHUB,
} og_compat_format;

typedef struct og_compat_diag {
  og_severity severity;
  og_srcpos pos;
  const char *id; /* "SPEC", "BASELINE", "USAGE", "IO" */
  const char *message;
} og_compat_diag;

typedef struct og_compat_out {
  og_compat_format format;
  og_arena arena; /* the diagnostics' strings */
  og_compat_diag *items; /* malloc'd */
  size_t count, cap;
  const char *id; /* given to diagnostics that og_compat_out_sink gets */
} og_compat_out;

void og_compat_out_init(og_compat_out *o, og_compat_format format);
void og_compat_out_free(og_compat_out *o);
/* An og_diag sink (ctx: the og_compat_out) that keeps the diagnostic
 * under o->id. */
void og_compat_out_sink(void *ctx, const og_diagnostic *d);
void og_compat_out_add(og_compat_out *o, og_severity sev, og_srcpos pos,
                       const char *id, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The summary a run ends with, NULL fields where not reached. */
typedef struct og_compat_summary {
  const og_compat_result *result; /* NULL: nothing was compared */
  size_t ops_checked;
  const char *baseline; /* the --baseline names, joined by ", " */
  int exit_status;
} og_compat_summary;

/* {"findings": [...], "diagnostics": [...], "ops_checked": N,
 * "baseline": "...", "exit": N} and a newline. */
void og_compat_out_json(const og_compat_out *o, const og_compat_summary *s,
                        og_writer *w);
/* One "::error ..."/"::warning ..."/"::notice ..." line per finding and
 * diagnostic. */
void og_compat_out_github(const og_compat_out *o, const og_compat_summary *s,
                          og_writer *w);

#endif
