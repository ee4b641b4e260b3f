/* Diagnostics: every problem goes through one sink, printed GCC-style. */
#ifndef OPGEN_DIAG_H
#define OPGEN_DIAG_H

#include "source.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

typedef enum og_severity {
  OG_SEV_ERROR,
  OG_SEV_WARNING,
  OG_SEV_NOTE,
} og_severity;

typedef struct og_diagnostic {
  og_severity severity;
  og_srcpos pos;      /* pos.file NULL: no location (e.g. a CLI problem) */
  const char *message;
} og_diagnostic;

typedef void (*og_diag_fn)(void *ctx, const og_diagnostic *d);

typedef struct og_diag_held og_diag_held;

typedef struct og_diag {
  og_diag_fn fn;
  void *ctx;
  const og_sources *sources; /* for og_diag_at and source lines */
  size_t errors, warnings;
  /* Delivery stops after max_errors errors (0: no cap); later errors and
   * warnings are counted instead (og_diag_print_suppressed), their notes
   * dropped with them. */
  size_t max_errors, shown_errors, suppressed_errors, suppressed_warnings;
  bool skipping; /* the last error or warning was suppressed */
  /* While holding, diagnostics are buffered and released in source order. */
  bool holding;
  og_diag_held *held;
  size_t nheld, held_cap;
} og_diag;

void og_diag_init(og_diag *d, const og_sources *sources, og_diag_fn fn,
                  void *ctx);

void og_diag_report(og_diag *d, og_severity sev, og_srcpos pos,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void og_diag_vreport(og_diag *d, og_severity sev, og_srcpos pos,
                     const char *fmt, va_list ap);
void og_diag_at(og_diag *d, og_severity sev, og_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define og_error_at(d, loc, ...) og_diag_at(d, OG_SEV_ERROR, loc, __VA_ARGS__)
#define og_note_at(d, loc, ...) og_diag_at(d, OG_SEV_NOTE, loc, __VA_ARGS__)

/* Buffers diagnostics until og_diag_release, which delivers them sorted
 * by position (each note stays after the diagnostic it belongs to). Used
 * per op, whose checks run in passes rather than in source order. */
void og_diag_hold(og_diag *d);
void og_diag_release(og_diag *d);

/* The default of --max-errors, as gcc's -fmax-errors. */
#define OG_DEFAULT_MAX_ERRORS 50

/* When d suppressed anything: "opgen: note: N more errors (and K
 * warnings) not shown (--max-errors=M; 0 shows all)" on out. */
void og_diag_print_suppressed(FILE *out, const og_diag *d);

/* Longest message and source excerpt printed (bytes, columns); longer
 * ones are cut with "...", the excerpt around the column. */
#define OG_DIAG_MAX_MESSAGE 1024
#define OG_DIAG_EXCERPT_WIDTH 100

/* "file:line:col: error: message", the source line and a caret under the
 * range when the source is known. */
void og_diag_print(FILE *out, const og_sources *sources,
                   const og_diagnostic *d);
/* Sink that prints to the FILE * given as ctx (sources from og_diag). */
void og_diag_print_sink(void *ctx, const og_diagnostic *d);

typedef struct og_diag_printer {
  FILE *out;
  const og_sources *sources;
} og_diag_printer;

#endif
