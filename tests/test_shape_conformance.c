/* Shape conformance: TensorFlow's own tests of its shape functions
 * (../shared/corpus/tf-tests/shape_cases.json: 1,535 INFER_OK /
 * INFER_ERROR cases over 117 ops) run through generated shape functions.
 *
 * The ops' definitions come from `opgen import-tf` of the corpus's
 * tf-ops.pbtxt; each op with a statement file tests/shape/tf/<Op>.shape
 * gets that file's statements spliced in before its closing brace; the
 * result goes through `opgen gen`, the generated _ops.c is compiled into a
 * shared object, loaded (dlopen; this program exports the runtime) and its
 * ops registered; then every case of those ops runs through
 * opr_infer_shapes: an `error` case must be rejected, an `ok` case must
 * give the expected outputs (relations such as d0_1 or in0 met by the same
 * value, known or unknown). Ops without a statement file must be listed,
 * with the reason, in tests/shape/tf/LEFT_OUT.md (`OpName: reason`).
 *
 * OPGEN_SHAPE_OPS=Pad,Tile runs only those ops, without the coverage
 * check (while debugging). The
 * Python reference evaluator runs the same cases on the contract
 * (tests/shape/ref/run_cases.py). */
#include "testutil.h"

#include "shape/conformance_cases.h"

#include "opr/shape.h"
#include "opr/status.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STATEMENTS_DIR "tests/shape/tf"
#define LEFT_OUT_FILE STATEMENTS_DIR "/LEFT_OUT.md"
#define SPEC_PACKAGE "shape_conformance"
#define MAX_FAILURE_LINES 50

/* Cases that are not run, with the reason (corpus README). */
static const struct {
  const char *op;
  int line; /* 0: every case of the op */
  const char *reason;
} not_run[] = {
    {"Const", 0, "its cases carry no tensor value (the extraction could not "
                 "read it)"},
    {"ConcatV2", 939, "an input value contradicts that input's shape"},
    {"Reshape", 1012, "an input value contradicts that input's shape"},
    {"Reshape", 1014, "an input value contradicts that input's shape"},
    {"SpaceToBatchND", 1552, "an input value contradicts that input's shape"},
    {"SparseSegmentMeanGrad", 400,
     "an input value contradicts that input's shape"},
    {"Transpose", 1106, "an input value contradicts that input's shape"},
};
#define NNOT_RUN (sizeof not_run / sizeof *not_run)

static char dir[] = "/tmp/opgen_shape_conf_XXXXXX";
TU_TMPDIR_FIXTURES(dir)

static struct {
  size_t ops_with_file, ops_clean, cases, agree, not_run, failures;
  size_t left_out;
  bool ran;
} sum;

/* ---- small helpers ---- */

static bool has_statements(const char *op) {
  char path[512];
  snprintf(path, sizeof path, STATEMENTS_DIR "/%s.shape", op);
  return access(path, R_OK) == 0;
}

/* OPGEN_SHAPE_OPS, a comma-separated list, or every op. */
static bool selected(const char *op) {
  const char *sel = getenv("OPGEN_SHAPE_OPS");
  if (!sel || !*sel) return true;
  size_t n = strlen(op);
  for (const char *p = sel; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && strncmp(p, op, n) == 0) return true;
    p += len + (e ? 1 : 0);
  }
  return false;
}

static const char *not_run_reason(const char *op, int line) {
  for (size_t i = 0; i < NNOT_RUN; i++)
    if (strcmp(not_run[i].op, op) == 0 &&
        (not_run[i].line == 0 || not_run[i].line == line))
      return not_run[i].reason;
  return NULL;
}

static const char *statement_line(long line, char *buf, size_t n);

/* Prints at most 40 lines of a tool's error output; a line that starts
 * with `spec:LINE:` gets the statement file's line appended. */
static void print_head(const char *path, const char *spec) {
  char *text = tu_read_file(path, NULL);
  if (!text) return;
  int lines = 0;
  for (char *p = text; *p && lines < 40; lines++) {
    char *e = strchr(p, '\n');
    char where[128] = "";
    size_t sl = spec ? strlen(spec) : 0;
    if (sl && strncmp(p, spec, sl) == 0 && p[sl] == ':')
      statement_line(strtol(p + sl + 1, NULL, 10), where, sizeof where);
    print_error("  %.*s%s\n", (int)(e ? e - p : (long)strlen(p)), p, where);
    p = e ? e + 1 : p + strlen(p);
  }
  free(text);
}

static const og_json *load_cases(og_arena *a, char **text) {
  const char *path = tu_corpus("tf-tests/shape_cases.json");
  if (!path) return NULL;
  size_t len = 0;
  *text = tu_read_file(path, &len);
  if (!*text) return NULL;
  tu_diags d = {0};
  og_diag diag;
  og_diag_init(&diag, NULL, tu_diags_sink, &d);
  const og_json *j = og_json_parse(a, path, *text, len, &diag);
  if (!j) print_error("%s\n", tu_diags_text(&d));
  tu_diags_free(&d);
  return j ? og_json_get(j, "ops") : NULL;
}

/* ---- LEFT_OUT.md ---- */

/* "OpName: reason" lines (a leading "- " or "* " and backquotes around
 * the name allowed); the name into name[], the reason returned. */
static const char *left_out_line(char *line, char *name, size_t n) {
  while (*line == ' ' || *line == '-' || *line == '*') line++;
  if (*line == '`') line++;
  size_t k = 0;
  while ((line[k] == '_' || (line[k] >= '0' && line[k] <= '9') ||
          (line[k] >= 'A' && line[k] <= 'Z') ||
          (line[k] >= 'a' && line[k] <= 'z')) && k + 1 < n) {
    name[k] = line[k];
    k++;
  }
  name[k] = '\0';
  const char *rest = line + k;
  if (*rest == '`') rest++;
  if (!k || *rest != ':') return NULL;
  rest++;
  while (*rest == ' ') rest++;
  return rest;
}

/* LEFT_OUT.md's text (read once; NULL when there is none). */
static const char *left_out_text(void) {
  static char *text;
  if (!text) text = tu_read_file(LEFT_OUT_FILE, NULL);
  return text;
}

/* Calls fn(name, reason, ctx) for each line naming an op; stops when fn
 * returns true and returns whether it did. */
static bool each_left_out(bool (*fn)(const char *, const char *, void *),
                          void *ctx) {
  const char *text = left_out_text();
  for (const char *p = text; p && *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char line[1024], name[128];
    snprintf(line, sizeof line, "%.*s", (int)len, p);
    const char *why = left_out_line(line, name, sizeof name);
    if (why && fn(name, why, ctx)) return true;
    p += len + (e ? 1 : 0);
  }
  return false;
}

typedef struct lookup {
  const char *op;
  char reason[1024]; /* a copy: `why` lives in each_left_out's buffer */
} lookup;

static bool match(const char *name, const char *why, void *ctx) {
  lookup *l = ctx;
  if (strcmp(name, l->op) != 0) return false;
  snprintf(l->reason, sizeof l->reason, "%s", why);
  return true;
}

/* Whether `op` is listed, and why. */
static bool left_out(const char *op, const char **reason) {
  static char kept[1024];
  lookup l = {op, ""};
  if (!each_left_out(match, &l)) return false;
  snprintf(kept, sizeof kept, "%s", l.reason);
  *reason = kept;
  return true;
}

/* A listed name that is none of the cases' ops (a typo). */
static bool stray(const char *name, const char *why, void *ctx) {
  (void)why;
  const og_json *ops = ((void **)ctx)[0];
  size_t *count = ((void **)ctx)[1];
  if (og_json_get(ops, name)) return false;
  if ((*count)++ < 20)
    print_error("%s names '%s', which has no cases\n", LEFT_OUT_FILE, name);
  return false;
}

/* ---- the generated op library ---- */

/* Where each statement file starts in conformance.op, to name the
 * statement file's own line in opgen's errors. */
static struct {
  char op[64];
  long first; /* line of the file's first statement line */
} spliced[256];
static size_t nspliced;

static long count_lines(const char *s, size_t n) {
  long lines = 0;
  for (size_t i = 0; i < n; i++) lines += s[i] == '\n';
  return lines;
}

/* "tests/shape/tf/X.shape:L" for line `line` of conformance.op. */
static const char *statement_line(long line, char *buf, size_t n) {
  *buf = '\0';
  for (size_t i = 0; i < nspliced; i++)
    if (line >= spliced[i].first &&
        (i + 1 == nspliced || line < spliced[i + 1].first))
      snprintf(buf, n, " [" STATEMENTS_DIR "/%.63s.shape:%ld]", spliced[i].op,
               line - spliced[i].first + 1);
  return buf;
}

/* The imported op `name` from `text` (tf_ops.op), its closing brace
 * excluded, into f. */
static bool copy_op(FILE *f, const char *text, const char *name,
                    long *lines) {
  char head[256];
  snprintf(head, sizeof head, "\nop %s {\n", name);
  const char *start = strstr(text, head);
  if (!start) return false;
  start++;
  const char *end = strstr(start, "\n}\n");
  if (!end) return false;
  fwrite(start, 1, (size_t)(end - start) + 1, f);
  *lines += count_lines(start, (size_t)(end - start) + 1);
  return true;
}

/* conformance.op: every op of the cases that has a statement file, with
 * its statements. Returns the number of ops written. */
static size_t write_spec(const og_json *ops, const char *imported,
                         const char *path) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "package " SPEC_PACKAGE ";\n");
  long lines = 1; /* written so far */
  size_t n = 0;
  nspliced = 0;
  for (size_t i = 0; i < ops->u.obj.count; i++) {
    const char *op = ops->u.obj.members[i].key.ptr;
    if (!has_statements(op) || !selected(op)) continue;
    char spath[512];
    snprintf(spath, sizeof spath, STATEMENTS_DIR "/%s.shape", op);
    char *st = tu_read_file(spath, NULL);
    assert_non_null(st);
    fprintf(f, "\n");
    lines++;
    if (!copy_op(f, imported, op, &lines)) {
      print_error("%s: not among the imported ops\n", op);
      fail();
    }
    fprintf(f, "  // %s\n", spath);
    lines++;
    if (nspliced < sizeof spliced / sizeof *spliced) {
      snprintf(spliced[nspliced].op, sizeof spliced[nspliced].op, "%s", op);
      spliced[nspliced++].first = lines + 1;
    }
    fprintf(f, "%s\n}\n", st);
    lines += count_lines(st, strlen(st)) + 2;
    free(st);
    n++;
  }
  fclose(f);
  return n;
}

/* import-tf, splice, gen, compile, dlopen, register. */
static void build_library(const og_json *ops) {
  const char *bin = getenv("OPGEN_BIN"), *cc = getenv("OPGEN_CC");
  const char *inc = getenv("OPGEN_RUNTIME_INCLUDE");
  char cmd[4096], path[512];
  snprintf(cmd, sizeof cmd, "'%s' import-tf '%s' -o '%s/imp' >'%s/imp.err' "
           "2>&1", bin, tu_corpus("tf-ops.pbtxt"), dir, dir);
  assert_int_equal(tu_run(cmd), 0);
  snprintf(path, sizeof path, "%s/imp/tf_ops.op", dir);
  char *imported = tu_read_file(path, NULL);
  assert_non_null(imported);
  snprintf(path, sizeof path, "%s/conformance.op", dir);
  size_t n = write_spec(ops, imported, path);
  free(imported);
  snprintf(cmd, sizeof cmd, "'%s' gen -o '%s/gen' '%s' 2>'%s/gen.err'", bin,
           dir, path, dir);
  if (tu_run(cmd) != 0) {
    print_error("opgen gen rejects the statements (%zu ops spliced into "
                "%s):\n", n, path);
    char err[512];
    snprintf(err, sizeof err, "%s/gen.err", dir);
    print_head(err, path);
    fail();
  }
  snprintf(cmd, sizeof cmd, "'%s' -std=c11 -fPIC -shared -I'%s' -I'%s/gen' "
           "'%s/gen/conformance_ops.c' -o '%s/conformance.so' "
           "2>'%s/cc.err'", cc, inc, dir, dir, dir, dir);
  if (tu_run(cmd) != 0) {
    print_error("the generated code does not compile:\n");
    snprintf(path, sizeof path, "%s/cc.err", dir);
    print_head(path, NULL);
    fail();
  }
  snprintf(path, sizeof path, "%s/conformance.so", dir);
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) print_error("dlopen: %s\n", dlerror());
  assert_non_null(lib); /* stays loaded: the registry points into it */
  opr_status (*reg)(void);
  *(void **)&reg = dlsym(lib, SPEC_PACKAGE "_register_ops"); /* POSIX */
  assert_non_null(reg);
  opr_status s = reg();
  if (s) print_error("registering: %s\n", opr_status_message(s));
  assert_null(s);
}

/* ---- running the cases ---- */

static void report(const char *op, const og_json *c, og_arena *a,
                   const char *want, const char *got, const char *msg) {
  sum.failures++;
  if (sum.failures > MAX_FAILURE_LINES) return;
  const og_json *line = og_json_get(c, "line");
  const og_json *in = og_json_get(c, "inputs");
  const og_json *ts = og_json_get(c, "input_tensors");
  const og_json *attrs = og_json_get(c, "attrs");
  char vals[512] = "";
  size_t used = 0;
  for (size_t i = 0; ts && ts->kind == OG_JSON_ARRAY && i < ts->u.arr.count;
       i++) {
    const og_json *v = og_json_get(&ts->u.arr.items[i], "values");
    if (!v || used >= sizeof vals) continue;
    used += (size_t)snprintf(vals + used, sizeof vals - used, " %zu=[", i);
    for (size_t k = 0; k < v->u.arr.count && used < sizeof vals; k++)
      used += (size_t)snprintf(vals + used, sizeof vals - used, "%s%s",
                               k ? "," : "", v->u.arr.items[k].u.num.text);
    if (used < sizeof vals)
      used += (size_t)snprintf(vals + used, sizeof vals - used, "]");
  }
  print_error("%s line %s: inputs %s%s%s%s%s: expected %s, got %s%s%s%s\n",
              op, line ? line->u.num.text : "?", in ? in->u.str.ptr : "",
              *vals ? " values" : "", vals,
              attrs && attrs->u.obj.count ? " attrs " : "",
              sc_attrs_text(a, attrs), want, got,
              msg ? " (" : "", msg ? msg : "", msg ? ")" : "");
}

/* One case: returns whether it agrees. */
static bool run_case(const opr_op_def *def, const og_json *c, og_arena *a) {
  const og_json *kind = og_json_get(c, "kind");
  const og_json *outs = og_json_get(c, "outputs");
  bool want_ok = strcmp(kind->u.str.ptr, "ok") == 0;
  const char *want = want_ok && outs ? outs->u.str.ptr : "error";
  sc_case k;
  const char *why;
  if (!sc_case_build(a, def, c, &k, &why)) {
    sc_case_free(&k);
    report(def->name, c, a, want, "no call", why);
    return false;
  }
  opr_inferred_shapes got = {NULL, 0};
  opr_status s = opr_infer_shapes(def, k.inputs, def->ninputs, k.attrs,
                                  k.nattrs, &got);
  bool agree = s ? !want_ok
                 : want_ok && sc_outputs_agree(want, got.shapes, got.count,
                                               k.flat, k.nflat);
  if (!agree) {
    char text[1024] = "error";
    size_t used = 0;
    for (size_t i = 0; !s && i < got.count && used < sizeof text; i++) {
      char one[512];
      used += (size_t)snprintf(text + used, sizeof text - used, "%s%s",
                               i ? ";" : "",
                               sc_shape_text(got.shapes[i], one, sizeof one));
    }
    report(def->name, c, a, want, text, s ? opr_status_message(s) : NULL);
  }
  opr_status_free(s);
  opr_inferred_shapes_free(&got);
  sc_case_free(&k);
  return agree;
}

static void run_op(const char *op, const og_json *cases) {
  const opr_op_def *def = opr_find_op(op);
  assert_non_null(def);
  size_t bad = 0;
  for (size_t i = 0; i < cases->u.arr.count; i++) {
    const og_json *c = &cases->u.arr.items[i];
    if (not_run_reason(op, (int)og_json_get(c, "line")->u.num.i)) {
      sum.not_run++;
      continue;
    }
    og_arena a;
    og_arena_init(&a);
    sum.cases++;
    if (run_case(def, c, &a)) sum.agree++;
    else bad++;
    og_arena_free(&a);
  }
  if (!bad) sum.ops_clean++;
}

/* ---- tests ---- */

/* The matcher itself: relations are met by the same value, known or
 * unknown; `a|b` takes either; outputs separated by ';'. */
static void expected_outputs_match_by_value(void **state) {
  (void)state;
  og_arena a;
  og_arena_init(&a);
  opr_shape in[2], got[2];
  assert_true(sc_parse_shape(&a, "[2,?]", 5, &in[0]));
  assert_true(sc_parse_shape(&a, "?", 1, &in[1]));
  assert_true(sc_parse_shape(&a, "[?,2]", 5, &got[0]));
  assert_true(sc_parse_shape(&a, "?", 1, &got[1]));
  assert_true(sc_outputs_agree("[d0_1,d0_0];in1", got, 2, in, 2));
  assert_true(sc_outputs_agree("[?,d1_0|2];?", got, 2, in, 2));
  assert_false(sc_outputs_agree("[?,3];?", got, 2, in, 2));
  assert_false(sc_outputs_agree("in0;?", got, 2, in, 2));
  assert_false(sc_outputs_agree("[d0_1,d0_0]", got, 2, in, 2));
  assert_true(sc_outputs_agree("in1|in0", got + 1, 1, in, 2));
  assert_false(sc_parse_shape(&a, "[2,x]", 5, &got[0]));
  og_arena_free(&a);
}

/* Each of the 117 ops has a statement file or a line in LEFT_OUT.md
 * (Const, whose cases do not run, may have both); none has both
 * otherwise, and every line names one of them. */
static void every_op_has_statements_or_is_left_out(void **state) {
  (void)state;
  const char *sel = getenv("OPGEN_SHAPE_OPS");
  if (sel && *sel) {
    print_message("OPGEN_SHAPE_OPS is set: coverage not checked\n");
    skip();
  }
  og_arena a;
  og_arena_init(&a);
  char *text = NULL;
  const og_json *ops = load_cases(&a, &text);
  assert_non_null(ops);
  size_t missing = 0, both = 0;
  for (size_t i = 0; i < ops->u.obj.count; i++) {
    const char *op = ops->u.obj.members[i].key.ptr, *why;
    bool file = has_statements(op), listed = left_out(op, &why);
    if (listed) {
      sum.left_out++;
      print_message("left out: %s: %s\n", op, why);
    }
    if (!file && !listed && missing++ < 20)
      print_error("%s: no %s/%s.shape and no line in %s\n", op,
                  STATEMENTS_DIR, op, LEFT_OUT_FILE);
    if (file && listed && !not_run_reason(op, 0) && both++ < 20)
      print_error("%s: has a statement file and is listed in %s\n", op,
                  LEFT_OUT_FILE);
  }
  if (missing > 20) print_error("... %zu ops missing in all\n", missing);
  size_t strays = 0;
  void *ctx[2] = {(void *)ops, &strays};
  each_left_out(stray, ctx);
  free(text);
  og_arena_free(&a);
  assert_int_equal(missing, 0);
  assert_int_equal(both, 0);
  assert_int_equal(strays, 0);
}

static void every_case_agrees_with_tensorflow(void **state) {
  (void)state;
  og_arena a;
  og_arena_init(&a);
  char *text = NULL;
  const og_json *ops = load_cases(&a, &text);
  assert_non_null(ops);
  build_library(ops);
  sum.ran = true;
  for (size_t i = 0; i < ops->u.obj.count; i++) {
    const char *op = ops->u.obj.members[i].key.ptr;
    if (!has_statements(op) || !selected(op)) continue;
    sum.ops_with_file++;
    const char *why = not_run_reason(op, 0);
    if (why) {
      print_message("not run: %s: %s\n", op, why);
      sum.not_run += ops->u.obj.members[i].value.u.arr.count;
      continue;
    }
    run_op(op, &ops->u.obj.members[i].value);
  }
  if (sum.failures > MAX_FAILURE_LINES)
    print_error("... and %zu more disagreements\n",
                sum.failures - MAX_FAILURE_LINES);
  free(text);
  og_arena_free(&a);
  assert_int_equal(sum.failures, 0);
}

static int summary(void **state) {
  if (sum.ran)
    print_message("shape conformance: %zu ops with a statement file, %zu "
                  "with every case agreeing; %zu/%zu cases agree; %zu cases "
                  "not run; %zu ops left out (%s)\n",
                  sum.ops_with_file, sum.ops_clean, sum.agree, sum.cases,
                  sum.not_run, sum.left_out, LEFT_OUT_FILE);
  return teardown(state);
}

int main(void) {
  if (!tu_corpus("tf-tests/shape_cases.json") ||
      !tu_corpus("tf-ops.pbtxt")) {
    printf("shape conformance: corpus not found (../shared/corpus): "
           "skipped\n");
    return 77;
  }
  if (!getenv("OPGEN_BIN") || !getenv("OPGEN_CC") ||
      !getenv("OPGEN_RUNTIME_INCLUDE")) {
    printf("shape conformance: OPGEN_BIN, OPGEN_CC or "
           "OPGEN_RUNTIME_INCLUDE not set (run it through ctest): "
           "skipped\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(expected_outputs_match_by_value),
      cmocka_unit_test(every_op_has_statements_or_is_left_out),
      cmocka_unit_test(every_case_agrees_with_tensorflow),
  };
  return cmocka_run_group_tests(tests, setup, summary);
}
