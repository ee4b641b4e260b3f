/* Helpers shared by the CMocka tests. */
#ifndef OPGEN_TESTUTIL_H
#define OPGEN_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka.h needs the three headers above first. */
#include <cmocka.h>

#include "compile.h"
#include "diag.h"

/* Diagnostics captured as "file:line:col: severity: message" lines. */
typedef struct tu_diags {
  char **lines;
  size_t count, cap;
} tu_diags;

void tu_diags_free(tu_diags *d);
/* The model's JSON dump (malloc'd; NULL for NULL), the model freed. */
char *tu_model_json(og_model *m);

/* How tu_compile_threaded compiles: the sema_stream.c thresholds
 * (SIZE_MAX: never) and the error cap (0: none). */
typedef struct tu_threads {
  size_t stream_bytes, split_bytes, pieces, max_errors;
} tu_threads;
/* What a compile gave, to compare between thread settings. */
typedef struct tu_compiled {
  tu_diags diags;
  char *json; /* tu_model_json of the model; NULL: no model */
  size_t errors, warnings, suppressed;
} tu_compiled;
/* Compiles text as "big.op" with the thresholds of t, then restores
 * them. */
tu_compiled tu_compile_threaded(const char *text, tu_threads t);
void tu_compiled_free(tu_compiled *r);
/* og_diag_fn that appends to a tu_diags (ctx). */
void tu_diags_sink(void *ctx, const og_diagnostic *d);
/* All lines joined with '\n' (static buffer reused per call). */
const char *tu_diags_text(const tu_diags *d);

/* Compiles one in-memory spec named `path`; diagnostics into *out (which
 * the caller frees). Returns the model or NULL. */
og_model *tu_compile(const char *path, const char *text, tu_diags *out);

/* Asserts that compiling `text` (as "t.op") fails with exactly one error
 * whose "line:col: error: message" equals `expected`. */
#define tu_expect_error(text, expected) \
  tu_expect_error_at(__FILE__, __LINE__, text, expected)
void tu_expect_error_at(const char *file, int line, const char *text,
                        const char *expected);
/* Asserts that `text` compiles without errors; returns the model. */
og_model *tu_expect_ok(const char *text);

/* Locale independence: switch the process to a locale where numbers are
 * written "1,5" (LC_NUMERIC), bytes >= 0x80 are letters (LC_CTYPE,
 * Latin-1) or 'I' does not lower-case to 'i' (LC_CTYPE, Turkish), and
 * true; false, staying in "C", when this system has no such locale (a test
 * then checks the same results under "C"; set LOCPATH to a directory made
 * by localedef to run it for real). tu_c_locale() goes back to "C". */
bool tu_comma_locale(void);
bool tu_latin1_locale(void);
bool tu_turkish_locale(void);
void tu_c_locale(void);

/* Runs a shell command; prints it with its status when that is not 0. */
int tu_run(const char *cmd);
/* A temporary directory from a mkdtemp template (changed in place), and
 * its removal with everything in it: 0 on success, for CMocka's group
 * setup and teardown. */
int tu_tmpdir_make(char *tmpl);
int tu_tmpdir_remove(const char *dir);
/* Defines the group fixtures `setup` and `teardown` that make and remove
 * the temporary directory of template `dir` (a char array). */
#define TU_TMPDIR_FIXTURES(dir)                                         \
  static int setup(void **state) {                                      \
    (void)state;                                                        \
    return tu_tmpdir_make(dir);                                         \
  }                                                                     \
  static int teardown(void **state) {                                   \
    (void)state;                                                        \
    return tu_tmpdir_remove(dir);                                       \
  }

/* Whole file into a NUL-terminated malloc'd buffer, or NULL. */
char *tu_read_file(const char *path, size_t *len);
/* $OPGEN_CORPUS_DIR/<name>, by default ../shared/corpus/<name> (tests run
 * from the repository root), when it exists; else NULL: the caller
 * skips. */
const char *tu_corpus(const char *name);

#endif
