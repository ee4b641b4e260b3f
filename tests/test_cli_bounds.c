/* Bounded failure (issue 11, point 5; docs/guarantees.md):
 * inputs read with a size cap and without blocking in open(), at most
 * --max-errors diagnostics with windowed excerpts, name checks that stay
 * linear, targets that must be regular files, renames all or none, and
 * temporaries removed on signals and by the next run after a SIGKILL.
 * Signals reach a gen stopped between writing its temporaries and
 * renaming them (OPGEN_TEST_HOOK=stop-before-rename); a failing rename is
 * OPGEN_TEST_HOOK=fail-rename=N. */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/opgen_bounds_XXXXXX";

static const char *path_in(const char *name) {
  static char paths[8][600];
  static int next;
  char *p = paths[next++ % 8];
  snprintf(p, 600, "%s/%s", tmpdir, name);
  return p;
}

static void write_bytes(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
}

static const char *write_text(const char *name, const char *text) {
  const char *p = path_in(name);
  write_bytes(p, text, strlen(text));
  return p;
}

/* How opgen runs: OPGEN_TEST_HOOK, a file size limit (SIGXFSZ left at
 * its default), stdout and stderr to /dev/null instead of files. */
typedef struct spawn_opts {
  const char *hook;
  rlim_t fsize;
  bool quiet;
} spawn_opts;

static pid_t spawn(spawn_opts o, const char *const *args) {
  const char *bin = getenv("OPGEN_BIN");
  assert_non_null(bin);
  const char *argv[32] = {bin};
  size_t n = 1;
  for (; args[n - 1]; n++) argv[n] = args[n - 1];
  argv[n] = NULL;
  char out[700] = "/dev/null", err[700] = "/dev/null";
  if (!o.quiet) {
    snprintf(out, sizeof out, "%s/stdout.txt", tmpdir);
    snprintf(err, sizeof err, "%s/stderr.txt", tmpdir);
  }
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fo < 0 || fe < 0) _exit(126);
    dup2(fo, 1);
    dup2(fe, 2);
    if (o.hook) setenv("OPGEN_TEST_HOOK", o.hook, 1);
    else unsetenv("OPGEN_TEST_HOOK");
    struct rlimit rl = {o.fsize, o.fsize};
    if (o.fsize && setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(126);
    execv(bin, (char *const *)argv);
    _exit(127);
  }
  return pid;
}

typedef struct result {
  int status; /* exit status, or -1 when killed */
  int signal; /* the signal that killed it, or 0 */
  char *out, *err;
  size_t err_len;
} result;

static result finish(pid_t pid, bool quiet) {
  int ws;
  assert_int_equal(waitpid(pid, &ws, 0), pid);
  result r = {WIFEXITED(ws) ? WEXITSTATUS(ws) : -1,
              WIFSIGNALED(ws) ? WTERMSIG(ws) : 0, NULL, NULL, 0};
  size_t len;
  char out[700], err[700];
  snprintf(out, sizeof out, "%s/stdout.txt", tmpdir);
  snprintf(err, sizeof err, "%s/stderr.txt", tmpdir);
  r.out = quiet ? strdup("") : tu_read_file(out, &len);
  r.err = quiet ? strdup("") : tu_read_file(err, &r.err_len);
  assert_non_null(r.out);
  assert_non_null(r.err);
  return r;
}

static result run_with(spawn_opts o, const char *const *args) {
  return finish(spawn(o, args), o.quiet);
}

#define RUN(...) run_with((spawn_opts){0}, (const char *[]){__VA_ARGS__, NULL})

static void result_free(result *r) {
  free(r->out);
  free(r->err);
}

#define expect_run(want_status, want_err, ...)                          \
  do {                                                                  \
    result r_ = RUN(__VA_ARGS__);                                       \
    assert_string_equal(r_.err, want_err);                              \
    assert_int_equal(r_.status, want_status);                           \
    result_free(&r_);                                                   \
  } while (0)

/* Sorts the array of char * that qsort hands over. */
static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in `dir` (not starting with '.'), sorted, joined by spaces. */
static char *listing(const char *dir) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  char *names[64];
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 64)
    if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
  closedir(d);
  qsort(names, n, sizeof *names, by_name);
  char *out = calloc(1, 64 * 300);
  for (size_t i = 0; i < n; i++) {
    if (i) strcat(out, " ");
    strncat(out, names[i], 256);
    free(names[i]);
  }
  return out;
}

static void expect_listing(const char *dir, const char *want) {
  char *got = listing(dir);
  assert_string_equal(got, want);
  free(got);
}

static double now(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* ---- inputs ---- */

static void dev_zero_is_refused_by_every_verb(void **state) {
  (void)state;
  const char *good = write_text("good.op", "op Good { input x: float; }\n");
  const char *out = path_in("zero_out");
  const char *want = "opgen: error: cannot read '/dev/zero': File too large\n";
  double t0 = now();
  expect_run(2, want, "check", "/dev/zero");
  expect_run(2, want, "dump", "/dev/zero");
  expect_run(2, want, "gen", "-o", out, "/dev/zero");
  expect_run(2, want, "compat", "--baseline", "/dev/zero", good);
  expect_run(2, want, "import-tf", "/dev/zero", "-o", out);
  /* Five runs, each reading at most 64 MiB: well within seconds. */
  assert_true(now() - t0 < 30);
  assert_int_equal(access(out, F_OK), -1);
}

static void a_file_over_the_limit_is_refused_unread(void **state) {
  (void)state;
  const char *big = path_in("big.op");
  int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  assert_true(fd >= 0);
  assert_int_equal(ftruncate(fd, ((off_t)64 << 20) + 1), 0); /* sparse */
  close(fd);
  char want[700];
  snprintf(want, sizeof want,
           "opgen: error: cannot read '%s': File too large\n", big);
  expect_run(2, want, "check", big);
  unlink(big);
}

static void a_fifo_with_no_writer_does_not_block(void **state) {
  (void)state;
  const char *fifo = path_in("in.fifo");
  assert_int_equal(mkfifo(fifo, 0600), 0);
  /* Opening does not wait for a writer; with none, the input is empty. */
  expect_run(0, "", "check", fifo);
  unlink(fifo);
}

/* ---- diagnostics ---- */

static char *repeat(const char *head, const char *unit, size_t n,
                    const char *tail) {
  size_t h = strlen(head), u = strlen(unit), t = strlen(tail);
  char *s = malloc(h + u * n + t + 1);
  assert_non_null(s);
  memcpy(s, head, h);
  for (size_t i = 0; i < n; i++) memcpy(s + h + i * u, unit, u);
  memcpy(s + h + u * n, tail, t + 1);
  return s;
}

static size_t count(const char *s, const char *what) {
  size_t n = 0;
  for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
  return n;
}

static void errors_are_capped_at_50_by_default(void **state) {
  (void)state;
  char *text = repeat("", "op A { attr x: int = ; }\n", 200, "");
  const char *spec = write_text("many.op", text);
  free(text);
  result r = RUN("check", spec);
  assert_int_equal(r.status, 1);
  assert_int_equal(count(r.err, ": error: "), 50);
  const char *tail = "opgen: note: 150 more errors not shown "
                     "(--max-errors=50; 0 shows all)\n200 errors generated.\n";
  assert_string_equal(r.err + r.err_len - strlen(tail), tail);
  result_free(&r);
}

static void max_errors_sets_the_cap_and_zero_lifts_it(void **state) {
  (void)state;
  char *text = repeat("", "op A { attr x: int = ; }\n", 200, "");
  const char *spec = write_text("many.op", text);
  free(text);
  result r = RUN("check", "--max-errors=3", spec);
  assert_int_equal(count(r.err, ": error: "), 3);
  assert_non_null(strstr(r.err, "\nopgen: note: 197 more errors not shown "
                                "(--max-errors=3; 0 shows all)\n"));
  result_free(&r);
  r = RUN("check", spec, "--max-errors=0");
  assert_int_equal(count(r.err, ": error: "), 200);
  assert_null(strstr(r.err, "not shown"));
  assert_int_equal(r.status, 1);
  result_free(&r);
  expect_run(2,
             "opgen: error: option '--max-errors=x' needs a count: "
             "--max-errors=N (0: no limit)\n"
             "usage: opgen check [--max-errors=N] FILES...\n",
             "check", "--max-errors=x", spec);
  expect_run(2,
             "opgen: error: option '--max-errors' needs a count: "
             "--max-errors=N (0: no limit)\n"
             "usage: opgen gen [--max-errors=N] -o DIR FILES...\n",
             "gen", "--max-errors", "-o", path_in("o"), spec);
}

static void compat_honours_max_errors(void **state) {
  (void)state;
  char old[4096] = "", new[8192] = "";
  for (int i = 0; i < 10; i++) {
    char op[200];
    snprintf(op, sizeof op, "op A%d { input x: float; }\n", i);
    strcat(old, op);
    snprintf(op, sizeof op, "op A%d { attr n: int; input x: float; }\n", i);
    strcat(new, op);
  }
  const char *o = write_text("old.op", old), *n = write_text("new.op", new);
  result r = RUN("compat", "--max-errors=4", "--baseline", o, n);
  assert_int_equal(r.status, 1);
  assert_int_equal(count(r.err, ": error: "), 4);
  assert_non_null(strstr(r.err, "\nopgen: note: 6 more errors not shown "
                                "(--max-errors=4; 0 shows all)\n"
                                "10 incompatible changes found.\n"));
  result_free(&r);
}

static void import_tf_honours_max_errors(void **state) {
  (void)state;
  char *text = repeat("", "op { name: \"A\" attr { name: \"T\" type: "
                          "\"bogus\" } }\n", 20, "");
  const char *pb = write_text("bad.pbtxt", text);
  free(text);
  result r = RUN("import-tf", "--max-errors=2", pb, "-o", path_in("imp"));
  assert_int_equal(r.status, 1);
  assert_int_equal(count(r.err, ": error: "), 2);
  const char *tail = "\nopgen: note: 18 more errors not shown "
                     "(--max-errors=2; 0 shows all)\n";
  assert_string_equal(r.err + r.err_len - strlen(tail), tail);
  result_free(&r);
}

/* A long line prints as a window of 100 bytes around the column, cut
 * with "...", the caret under the column. */
static void a_long_line_prints_a_window(void **state) {
  (void)state;
  char line[400];
  snprintf(line, sizeof line, "op A { attr x: int = %150s;%150s}\n", "", "");
  const char *spec = write_text("long.op", line);
  result r = RUN("check", spec);
  char want[1200];
  snprintf(want, sizeof want,
           "%s:1:172: error: unexpected ';'\n"
           "  ...%33s;%66s...\n"
           "     %33s^\n"
           "1 error generated.\n",
           spec, "", "", "");
  assert_string_equal(r.err, want);
  result_free(&r);
  /* Near the end of the line the window ends there, without "...". */
  snprintf(line, sizeof line, "op A { attr x: int = %150s; }\n", "");
  spec = write_text("long.op", line);
  r = RUN("check", spec);
  snprintf(want, sizeof want,
           "%s:1:172: error: unexpected ';'\n"
           "  ...%97s; }\n"
           "     %97s^\n"
           "1 error generated.\n",
           spec, "", "");
  assert_string_equal(r.err, want);
  result_free(&r);
}

static void a_10_mb_line_of_errors_prints_a_few_kb(void **state) {
  (void)state;
  /* 655,360 errors on one line of 10 MB. */
  char *text = repeat("op A { ", "attr x: int = ; ", 655360, "}\n");
  const char *spec = path_in("ten.op");
  write_bytes(spec, text, strlen(text));
  free(text);
  result r = RUN("check", spec);
  assert_int_equal(r.status, 1);
  assert_true(r.err_len < 16384);
  const char *tail = "opgen: note: 655310 more errors not shown "
                     "(--max-errors=50; 0 shows all)\n"
                     "655360 errors generated.\n";
  assert_string_equal(r.err + r.err_len - strlen(tail), tail);
  result_free(&r);
  /* A 5 MB name quoted in a message: the message is cut at 1 KB. */
  char *name = repeat("", "a", 5 << 20, "");
  size_t n = strlen(name) * 2 + 100;
  char *dup = malloc(n);
  snprintf(dup, n, "op A {\n  attr %s: int;\n  attr %s: int;\n}\n", name,
           name);
  write_bytes(spec, dup, strlen(dup));
  free(dup);
  free(name);
  r = RUN("check", spec);
  assert_int_equal(r.status, 1);
  assert_true(r.err_len < 4096);
  assert_non_null(strstr(r.err, ":3:8: error: duplicate name 'aaaa"));
  assert_non_null(strstr(r.err, "aaa...\n    attr aaaa"));
  result_free(&r);
  unlink(spec);
}

/* ---- linear name checks ---- */

static void write_big_specs(void) {
  FILE *f = fopen(path_in("attrs.op"), "w");
  assert_non_null(f);
  fputs("op Big {\n", f);
  for (int i = 0; i < 40000; i++) fprintf(f, "  attr a%d: int = %d;\n", i, i);
  fputs("  input x: float;\n  output y: float;\n}\n", f);
  fclose(f);
  f = fopen(path_in("inputs.op"), "w");
  assert_non_null(f);
  fputs("op Big {\n", f);
  for (int i = 0; i < 20000; i++) fprintf(f, "  attr T%d: type;\n", i);
  for (int i = 0; i < 20000; i++) fprintf(f, "  input x%d: T%d;\n", i, i);
  fputs("  output y: float;\n}\n", f);
  fclose(f);
  for (int k = 0; k < 10; k++) {
    char name[32];
    snprintf(name, sizeof name, "ops%d.op", k);
    f = fopen(path_in(name), "w");
    assert_non_null(f);
    fprintf(f, "package p%d;\n", k);
    for (int i = 0; i < 10000; i++)
      fprintf(f, "op Op%dx%d { input x: float; output y: float; }\n", k, i);
    fclose(f);
  }
}

/* Timed for the log only: the CTest TIMEOUT is the backstop. */
static void timed(const char *what, int want, const char *const *args) {
  double t0 = now();
  result r = run_with((spawn_opts){.quiet = true}, args);
  printf("    %-36s %.2f s\n", what, now() - t0);
  assert_int_equal(r.status, want);
  result_free(&r);
}

static void names_are_checked_in_linear_time(void **state) {
  (void)state;
  write_big_specs();
  const char *attrs = path_in("attrs.op"), *inputs = path_in("inputs.op");
  const char *gen = path_in("big_gen"), *json = path_in("big.json");
  timed("check, 40k attrs", 0, (const char *[]){"check", attrs, NULL});
  timed("dump, 40k attrs", 0, (const char *[]){"dump", "-o", json, attrs, NULL});
  timed("gen, 40k attrs", 0, (const char *[]){"gen", "-o", gen, attrs, NULL});
  timed("compat, 40k attrs", 0,
        (const char *[]){"compat", "--baseline", json, attrs, NULL});
  timed("gen, 20k attrs + 20k inputs", 0,
        (const char *[]){"gen", "-o", gen, inputs, NULL});
  timed("dump, 20k attrs + 20k inputs", 0,
        (const char *[]){"dump", "-o", json, inputs, NULL});
  timed("compat, 20k attrs + 20k inputs", 0,
        (const char *[]){"compat", "--baseline", json, inputs, NULL});
  const char *ops[12] = {"check"};
  for (int k = 0; k < 10; k++) {
    char name[32];
    snprintf(name, sizeof name, "ops%d.op", k);
    ops[k + 1] = strdup(path_in(name));
  }
  timed("check, 100k ops in 10 files", 0, ops);
  for (int k = 0; k < 10; k++) free((char *)ops[k + 1]);
  /* 20,000 duplicate attr names: 20,000 errors, 50 printed. */
  FILE *f = fopen(path_in("dups.op"), "w");
  fputs("op Big {\n", f);
  for (int i = 0; i < 40000; i++) fprintf(f, "  attr a%d: int;\n", i % 20000);
  fputs("}\n", f);
  fclose(f);
  timed("check, 20k duplicate attrs", 1,
        (const char *[]){"check", path_in("dups.op"), NULL});
  /* 40,000 allowed strings, repeats dropped by sorting, not pairwise. */
  f = fopen(path_in("allowed.op"), "w");
  fputs("op A {\n  attr s: {", f);
  for (int i = 0; i < 40000; i++) fprintf(f, "'v%d', ", i % 30000);
  fputs("'v0'} = 'v1';\n}\n", f);
  fclose(f);
  timed("check, 40k allowed strings", 0,
        (const char *[]){"check", path_in("allowed.op"), NULL});
}

/* ---- targets ---- */

static const char *spec_v1(void) {
  return write_text("v1/x.op", "package x;\nop A { input a: float; }\n");
}

static const char *spec_v2(void) {
  return write_text("v2/x.op", "package x;\nop B { input b: float; }\n");
}

static void setup_versions(void) {
  mkdir(path_in("v1"), 0755);
  mkdir(path_in("v2"), 0755);
}

static void targets_must_be_regular_files(void **state) {
  (void)state;
  setup_versions();
  const char *spec = spec_v1();
  const char *dir = path_in("t_fifo");
  assert_int_equal(mkdir(dir, 0755), 0);
  char target[700], want[900];
  snprintf(target, sizeof target, "%s/x_ops.h", dir);
  assert_int_equal(mkfifo(target, 0600), 0);
  snprintf(want, sizeof want, "opgen: error: cannot write '%s': Not a "
           "regular file (a FIFO)\n", target);
  expect_run(2, want, "gen", "-o", dir, spec);
  expect_listing(dir, "x_ops.h"); /* nothing else written */
  unlink(target);
  assert_int_equal(mkdir(target, 0755), 0);
  snprintf(want, sizeof want, "opgen: error: cannot write '%s': Is a "
           "directory\n", target);
  expect_run(2, want, "gen", "-o", dir, spec);
  expect_listing(dir, "x_ops.h");
  rmdir(target);
  /* dump -o: a directory is refused; a FIFO without a reader is an
   * error, not a wait; /dev/null is written as it is. */
  snprintf(want, sizeof want, "opgen: error: cannot write '%s': Is a "
           "directory\n", dir);
  expect_run(2, want, "dump", "-o", dir, spec);
  assert_int_equal(mkfifo(target, 0600), 0);
  snprintf(want, sizeof want, "opgen: error: cannot write '%s': No reader "
           "(a FIFO that no process has open for reading)\n", target);
  expect_run(2, want, "dump", "-o", target, spec);
  unlink(target);
  expect_run(0, "", "dump", "-o", "/dev/null", spec);
  struct stat st;
  assert_int_equal(stat("/dev/null", &st), 0);
  assert_true(S_ISCHR(st.st_mode));
  /* /dev/stdout (here a regular file) is the descriptor, not a link in
   * /dev to replace. */
  result plain = RUN("dump", spec), named = RUN("dump", "-o", "/dev/stdout",
                                                 spec);
  assert_int_equal(named.status, 0);
  assert_string_equal(named.out, plain.out);
  assert_int_equal(lstat("/dev/stdout", &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  result_free(&plain);
  result_free(&named);
}

static void expect_same_file(const char *a, const char *b) {
  size_t na, nb;
  char *x = tu_read_file(a, &na), *y = tu_read_file(b, &nb);
  assert_non_null(x);
  assert_non_null(y);
  assert_int_equal(na, nb);
  assert_memory_equal(x, y, na);
  free(x);
  free(y);
}

/* `dir` holds v1's outputs; `ref` a copy of them. */
static void gen_v1(const char *dir, const char *ref) {
  setup_versions();
  const char *v1 = spec_v1();
  expect_run(0, "", "gen", "-o", dir, v1);
  expect_run(0, "", "gen", "-o", ref, v1);
}

static void expect_v1(const char *dir, const char *ref) {
  expect_listing(dir, "x_kernels.h x_ops.c x_ops.h");
  const char *names[] = {"x_kernels.h", "x_ops.c", "x_ops.h"};
  for (int i = 0; i < 3; i++) {
    char a[700], b[700];
    snprintf(a, sizeof a, "%s/%s", dir, names[i]);
    snprintf(b, sizeof b, "%s/%s", ref, names[i]);
    expect_same_file(a, b);
  }
}

static void a_failed_rename_rolls_back_the_earlier_ones(void **state) {
  (void)state;
  const char *dir = path_in("rb"), *ref = path_in("rb_ref");
  gen_v1(dir, ref);
  const char *v2 = spec_v2();
  /* x_ops.h, x_ops.c, x_kernels.h are renamed in that order. */
  for (int nth = 1; nth <= 3; nth++) {
    char hook[32], want[900];
    snprintf(hook, sizeof hook, "fail-rename=%d", nth);
    result r = run_with((spawn_opts){.hook = hook},
                        (const char *[]){"gen", "-o", dir, v2, NULL});
    const char *names[] = {"x_ops.h", "x_ops.c", "x_kernels.h"};
    snprintf(want, sizeof want, "opgen: error: cannot write '%s/%s': "
             "Input/output error\n", dir, names[nth - 1]);
    assert_string_equal(r.err, want);
    assert_int_equal(r.status, 2);
    result_free(&r);
    expect_v1(dir, ref);
  }
}

static pid_t spawn_stopped(const char *dir, const char *spec) {
  pid_t pid = spawn((spawn_opts){.hook = "stop-before-rename", .quiet = true},
                    (const char *[]){"gen", "-o", dir, spec, NULL});
  int ws;
  assert_int_equal(waitpid(pid, &ws, WUNTRACED), pid);
  assert_true(WIFSTOPPED(ws));
  return pid;
}

static void a_target_replaced_after_the_checks_rolls_back(void **state) {
  (void)state;
  const char *dir = path_in("late"), *ref = path_in("late_ref");
  gen_v1(dir, ref);
  pid_t pid = spawn((spawn_opts){.hook = "stop-before-rename"},
                    (const char *[]){"gen", "-o", dir, spec_v2(), NULL});
  int ws;
  assert_int_equal(waitpid(pid, &ws, WUNTRACED), pid);
  assert_true(WIFSTOPPED(ws));
  /* The last target becomes a non-empty directory. */
  char target[700], inside[800], want[900];
  snprintf(target, sizeof target, "%s/x_kernels.h", dir);
  snprintf(inside, sizeof inside, "%s/f", target);
  assert_int_equal(unlink(target), 0);
  assert_int_equal(mkdir(target, 0755), 0);
  write_bytes(inside, "x", 1);
  kill(pid, SIGCONT);
  result r = finish(pid, false);
  snprintf(want, sizeof want, "opgen: error: cannot write '%s': Is a "
           "directory\n", target);
  assert_string_equal(r.err, want);
  assert_int_equal(r.status, 2);
  result_free(&r);
  unlink(inside);
  rmdir(target);
  char a[700], b[700];
  snprintf(a, sizeof a, "%s/x_ops.h", dir);
  snprintf(b, sizeof b, "%s/x_ops.h", ref);
  expect_same_file(a, b);
  snprintf(a, sizeof a, "%s/x_ops.c", dir);
  snprintf(b, sizeof b, "%s/x_ops.c", ref);
  expect_same_file(a, b);
  expect_listing(dir, "x_ops.c x_ops.h");
}

/* ---- signals and leftovers ---- */

static void signals_remove_the_temporaries(void **state) {
  (void)state;
  const char *dir = path_in("sig"), *ref = path_in("sig_ref");
  gen_v1(dir, ref);
  const char *v2 = spec_v2();
  const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (int i = 0; i < 3; i++) {
    pid_t pid = spawn_stopped(dir, v2);
    char *names = listing(dir);
    assert_int_equal(count(names, ".tmp-opgen-"), 3); /* written, stopped */
    free(names);
    kill(pid, sigs[i]);
    kill(pid, SIGCONT);
    result r = finish(pid, true);
    assert_int_equal(r.signal, sigs[i]);
    result_free(&r);
    expect_v1(dir, ref);
  }
}

static void sigxfsz_removes_the_temporaries(void **state) {
  (void)state;
  const char *dir = path_in("xfsz"), *ref = path_in("xfsz_ref");
  gen_v1(dir, ref);
  result r = run_with((spawn_opts){.fsize = 100, .quiet = true},
                      (const char *[]){"gen", "-o", dir, spec_v2(), NULL});
  assert_int_equal(r.signal, SIGXFSZ);
  result_free(&r);
  expect_v1(dir, ref);
}

static void leftovers_of_a_killed_run_are_removed_by_the_next(void **state) {
  (void)state;
  const char *dir = path_in("kill"), *ref = path_in("kill_ref");
  gen_v1(dir, ref);
  pid_t pid = spawn_stopped(dir, spec_v2());
  kill(pid, SIGKILL);
  result r = finish(pid, true);
  assert_int_equal(r.signal, SIGKILL);
  result_free(&r);
  char *names = listing(dir);
  assert_int_equal(count(names, ".tmp-opgen-"), 3);
  free(names);
  /* Leftovers of a dead writer go; a live writer's and look-alikes stay. */
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  assert_int_equal(waitpid(dead, NULL, 0), dead);
  char name[700];
  snprintf(name, sizeof name, "%s/x_ops.h.old-opgen-%ld-7", dir, (long)dead);
  write_bytes(name, "x", 1);
  snprintf(name, sizeof name, "%s/y.tmp-opgen-%ld-0", dir, (long)getpid());
  write_bytes(name, "x", 1);
  snprintf(name, sizeof name, "%s/z.tmp-opgen-12x-1", dir);
  write_bytes(name, "x", 1);
  expect_run(0, "", "gen", "-o", dir, spec_v1());
  char want[400];
  snprintf(want, sizeof want,
           "x_kernels.h x_ops.c x_ops.h y.tmp-opgen-%ld-0 z.tmp-opgen-12x-1",
           (long)getpid());
  expect_listing(dir, want);
}

static int teardown_all(void **state) {
  (void)state;
  return tu_tmpdir_remove(tmpdir);
}

int main(void) {
  if (!mkdtemp(tmpdir)) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(dev_zero_is_refused_by_every_verb),
      cmocka_unit_test(a_file_over_the_limit_is_refused_unread),
      cmocka_unit_test(a_fifo_with_no_writer_does_not_block),
      cmocka_unit_test(errors_are_capped_at_50_by_default),
      cmocka_unit_test(max_errors_sets_the_cap_and_zero_lifts_it),
      cmocka_unit_test(compat_honours_max_errors),
      cmocka_unit_test(import_tf_honours_max_errors),
      cmocka_unit_test(a_long_line_prints_a_window),
      cmocka_unit_test(a_10_mb_line_of_errors_prints_a_few_kb),
      cmocka_unit_test(names_are_checked_in_linear_time),
      cmocka_unit_test(targets_must_be_regular_files),
      cmocka_unit_test(a_failed_rename_rolls_back_the_earlier_ones),
      cmocka_unit_test(a_target_replaced_after_the_checks_rolls_back),
      cmocka_unit_test(signals_remove_the_temporaries),
      cmocka_unit_test(sigxfsz_removes_the_temporaries),
      cmocka_unit_test(leftovers_of_a_killed_run_are_removed_by_the_next),
  };
  return cmocka_run_group_tests(tests, NULL, teardown_all);
}
