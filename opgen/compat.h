/* Backward-compatibility lint: a new set of ops against a baseline, with
 * TensorFlow's rules (OpDefCompatible and OpDefAttrDefaultsUnchanged of
 * op_def_util.cc). Reads only the two models. */
#ifndef OPGEN_COMPAT_H
#define OPGEN_COMPAT_H

#include "arena.h"
#include "diag.h"
#include "model.h"
#include "writer.h"

#include <stddef.h>

/* One rule per way a change can break a graph written against the
 * baseline. The ids (og_compat_rule_id) are stable: tools match on them. */
typedef enum og_compat_rule {
  OG_COMPAT_OP_REMOVED,
  OG_COMPAT_ATTR_REMOVED,
  OG_COMPAT_ATTR_TYPE_CHANGED,
  OG_COMPAT_ALLOWED_NARROWED,
  OG_COMPAT_MINIMUM_RAISED,
  OG_COMPAT_ATTR_ADDED_WITHOUT_DEFAULT,
  OG_COMPAT_DEFAULT_CHANGED,
  OG_COMPAT_INPUT_SIGNATURE_CHANGED,
  OG_COMPAT_OUTPUT_SIGNATURE_CHANGED,
  OG_COMPAT_INPUT_MADE_REF,
  OG_COMPAT_OUTPUT_REF_REMOVED,
  OG_COMPAT_REQUIRE_TIGHTENED, /* a warning unless options.strict */
  OG_COMPAT_NRULES
} og_compat_rule;

/* "OP_REMOVED", "ATTR_REMOVED", ... */
const char *og_compat_rule_id(og_compat_rule rule);

typedef struct og_compat_finding {
  og_compat_rule rule;
  const char *op;
  /* In the new specs: the attr or arg that changed; the op where the
   * thing is gone; for a removed op, its file (line 0). */
  og_srcpos pos;
  const char *message;   /* without the rule id */
  og_srcpos base_pos;    /* in the baseline (col 0 when read from a dump) */
  const char *baseline;  /* the baseline's side, in words */
  const char *hint;      /* how to make the change safely */
  bool warning;          /* REQUIRE_TIGHTENED without strict */
} og_compat_finding;

/* Owns its findings and all their strings (the arena). */
typedef struct og_compat_result {
  og_arena arena;
  og_compat_finding *items; /* malloc'd */
  size_t count, cap;
} og_compat_result;

/* Compares `newm` against the baseline `old` into `out` (initialized here;
 * free it with og_compat_result_free). Findings are sorted by position in
 * the new specs: files in newm->files order, then line and column; several
 * at one place keep the order the rules run in. Compatible when
 * out->count is 0. */
void og_compat_check(const og_model *old, const og_model *newm,
                     og_compat_result *out);

typedef struct og_compat_options {
  /* Compare `require` rules (compat_require.c). Off for a dump baseline,
   * which does not carry shape rules. */
  bool requires;
  bool strict; /* REQUIRE_TIGHTENED is an error, not a warning */
} og_compat_options;

/* og_compat_check is this with no options (requires not compared). */
void og_compat_check_with(const og_model *old, const og_model *newm,
                          const og_compat_options *opts,
                          og_compat_result *out);
/* The findings that are errors (not warnings). */
size_t og_compat_errors(const og_compat_result *r);
void og_compat_result_free(og_compat_result *r);

/* Each finding as three diagnostics: the error (or warning)
 * "[RULE_ID] message" at
 * `pos`, a note at `base_pos` with the baseline's side, and a note at
 * `pos` with the hint. */
void og_compat_report(const og_compat_result *r, og_diag *diag);

/* {"findings": [...]} and a newline; each finding an object with "rule",
 * "op", "file", "line", "col", "message", "baseline", "baseline_file",
 * "baseline_line", "baseline_col", "hint" and "severity" ("error" or
 * "warning"). */
void og_compat_write_json(const og_compat_result *r, og_writer *w);
/* Only the array of findings, "[...]", without a newline. */
void og_compat_write_findings(const og_compat_result *r, og_writer *w);

#endif
