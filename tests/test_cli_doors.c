/* Every door of the command line: misuse of each verb, inputs that cannot
 * be read or are not UTF-8, a full disk while writing, an output directory
 * that cannot be created. Each gets a clear message and its exit status
 * (2 for usage and I/O errors, 1 for a bad input), and leaves no output,
 * no temporary file and no directory behind (docs/guarantees.md).
 *
 * Tests run as root here, so "unreadable" cannot come from file modes:
 * the inputs are a directory (EISDIR), a path through a regular file
 * (ENOTDIR) and /proc/self/mem, which fails to read at offset 0 (EIO)
 * whoever reads it. A full disk is RLIMIT_FSIZE with SIGXFSZ ignored:
 * writes past the limit fail with EFBIG, as on a full file system they
 * fail with ENOSPC, through the same code path. */
#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/opgen_doors_XXXXXX";

typedef struct run_result {
  int status;
  char *out, *err;
} run_result;

/* How a run is set up: stdout to `stdout_path` instead of a pipe; writes
 * limited to `fsize` bytes per file (0: no limit). stdout and stderr are
 * pipes, which the limit does not apply to. */
typedef struct run_opts {
  const char *stdout_path;
  rlim_t fsize;
} run_opts;

typedef struct buffer {
  char *data;
  size_t len, cap;
} buffer;

/* Reads what is there on fd into b; false at end of file. */
static bool drain(int fd, buffer *b) {
  if (b->cap - b->len < 4096) {
    b->cap = b->cap * 2 + 4096;
    b->data = realloc(b->data, b->cap);
    assert_non_null(b->data);
  }
  ssize_t n = read(fd, b->data + b->len, b->cap - b->len - 1);
  if (n > 0) b->len += (size_t)n;
  b->data[b->len] = '\0';
  return n > 0;
}

static run_result run_with(run_opts o, const char *const *args) {
  const char *bin = getenv("OPGEN_BIN");
  assert_non_null(bin);
  const char *argv[32] = {bin};
  size_t n = 1;
  for (; args[n - 1]; n++) argv[n] = args[n - 1];
  argv[n] = NULL;
  int out_pipe[2], err_pipe[2];
  assert_int_equal(pipe(out_pipe), 0);
  assert_int_equal(pipe(err_pipe), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    int out = o.stdout_path ? open(o.stdout_path, O_WRONLY) : out_pipe[1];
    if (out < 0) _exit(126);
    dup2(out, 1);
    dup2(err_pipe[1], 2);
    close(out_pipe[0]);
    close(err_pipe[0]);
    if (o.fsize) {
      /* A full disk: writes beyond the limit fail with EFBIG instead of
       * killing the process. */
      signal(SIGXFSZ, SIG_IGN);
      struct rlimit rl = {o.fsize, o.fsize};
      if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(126);
    }
    execv(bin, (char *const *)argv);
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  buffer out = {calloc(1, 1), 0, 1}, err = {calloc(1, 1), 0, 1};
  struct pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  buffer *bufs[2] = {&out, &err};
  for (int open_fds = 2; open_fds > 0;) {
    assert_true(poll(fds, 2, -1) > 0);
    for (int i = 0; i < 2; i++)
      if (fds[i].fd >= 0 && fds[i].revents && !drain(fds[i].fd, bufs[i])) {
        close(fds[i].fd);
        fds[i].fd = -1;
        open_fds--;
      }
  }
  int wstatus;
  assert_int_equal(waitpid(pid, &wstatus, 0), pid);
  run_result r = {WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1, out.data,
                  err.data};
  return r;
}

static run_result run(const char *const *args) {
  return run_with((run_opts){0}, args);
}

#define RUN(...) run((const char *[]){__VA_ARGS__, NULL})

static void run_free(run_result *r) {
  free(r->out);
  free(r->err);
}

/* Runs opgen; asserts the exit status and the whole of stderr. */
#define expect_run(want_status, want_err, ...)                          \
  do {                                                                  \
    run_result r_ = RUN(__VA_ARGS__);                                   \
    assert_string_equal(r_.err, want_err);                              \
    assert_int_equal(r_.status, want_status);                           \
    run_free(&r_);                                                      \
  } while (0)

static const char *path_in(const char *name) {
  static char paths[8][600];
  static int next;
  char *p = paths[next++ % 8];
  snprintf(p, 600, "%s/%s", tmpdir, name);
  return p;
}

static const char *write_file(const char *name, const char *text,
                              size_t len) {
  const char *p = path_in(name);
  FILE *f = fopen(p, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
  return p;
}

static const char *write_text(const char *name, const char *text) {
  return write_file(name, text, strlen(text));
}

/* The names in `dir` (those starting with '.' aside), sorted
 * and joined with spaces; "" when empty; NULL when it does not exist. */
static char *listing(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return NULL;
  char *names[64];
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 64)
    if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
  closedir(d);
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char *t = names[j];
      names[j] = names[j - 1];
      names[j - 1] = t;
    }
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
  if (!want) {
    if (got) fail_msg("'%s' exists (holding '%s')", dir, got);
    return;
  }
  if (!got) fail_msg("'%s' does not exist", dir);
  assert_string_equal(got, want);
  free(got);
}

static const char *good_spec(void) {
  return write_text("good.op", "package good;\nop Good {\n  input x: float;\n"
                               "  output y: float;\n}\n");
}

/* ---- misuse ---- */

static void top_level_misuse(void **state) {
  (void)state;
  run_result r = RUN("--frob");
  assert_int_equal(r.status, 2);
  const char *want = "opgen: error: unknown command '--frob'\n"
                     "usage: opgen <command>";
  assert_memory_equal(r.err, want, strlen(want));
  run_free(&r);
  r = RUN("");
  assert_int_equal(r.status, 2);
  assert_non_null(strstr(r.err, "opgen: error: unknown command ''\n"));
  run_free(&r);
}

static void check_misuse(void **state) {
  (void)state;
  const char *good = good_spec();
  expect_run(2, "opgen: error: unknown option '-x' for check\n"
                "usage: opgen check [--max-errors=N] FILES...\n", "check", "-x", good);
  expect_run(2, "opgen: error: unknown option '-o' for check\n"
                "usage: opgen check [--max-errors=N] FILES...\n", "check", "-o", "x", good);
  expect_run(2, "opgen: error: unknown option '--baseline' for check\n"
                "usage: opgen check [--max-errors=N] FILES...\n", "check", good, "--baseline");
  expect_run(2, "opgen: error: no input files (try 'opgen --help')\n",
             "check");
  expect_run(2, "opgen: error: no input files (try 'opgen --help')\n",
             "check", "--");
  /* After "--" a name starting with '-' is a file. */
  expect_run(2, "opgen: error: cannot read '-x': No such file or "
                "directory\n", "check", "--", "-x");
  expect_run(0, "", "check", "--", good);
  run_result r = RUN("check", "--help");
  assert_int_equal(r.status, 0);
  /* The full help (test_cli_help), starting with the usage line. */
  const char *usage = "usage: opgen check [--max-errors=N] FILES...\n\n";
  assert_memory_equal(r.out, usage, strlen(usage));
  run_free(&r);
}

static void dump_misuse(void **state) {
  (void)state;
  const char *good = good_spec();
  const char *usage = "usage: opgen dump [--max-errors=N] [-o FILE] FILES...\n";
  char want[2048];
  snprintf(want, sizeof want, "opgen: error: option '-o' needs a file\n%s",
           usage);
  expect_run(2, want, "dump", "-o");
  expect_run(2, want, "dump", good, "-o");
  snprintf(want, sizeof want, "opgen: error: option '--output' needs a "
           "file\n%s", usage);
  expect_run(2, want, "dump", good, "--output");
  snprintf(want, sizeof want, "opgen: error: more than one output file "
           "('a.json' and 'b.json')\n%s", usage);
  expect_run(2, want, "dump", "-o", "a.json", good, "-ob.json");
  snprintf(want, sizeof want, "opgen: error: empty output file name\n%s",
           usage);
  expect_run(2, want, "dump", "-o", "", good);
  expect_run(2, want, "dump", "--output=", good);
  snprintf(want, sizeof want, "opgen: error: unknown option '--split' for "
           "dump\n%s", usage);
  expect_run(2, want, "dump", "--split", good);
  expect_run(2, "opgen: error: no input files (try 'opgen --help')\n",
             "dump", "-o", path_in("never.json"));
  assert_int_equal(access(path_in("never.json"), F_OK), -1);
  /* -o after the files works as well. */
  const char *out = path_in("late.json");
  expect_run(0, "", "dump", good, "-o", out);
  assert_int_equal(access(out, F_OK), 0);
}

static void gen_misuse(void **state) {
  (void)state;
  const char *good = good_spec();
  const char *usage = "usage: opgen gen [--max-errors=N] -o DIR FILES...\n";
  char want[2048];
  snprintf(want, sizeof want, "opgen: error: option '-o' needs a "
           "directory\n%s", usage);
  expect_run(2, want, "gen", good, "-o");
  snprintf(want, sizeof want, "opgen: error: gen needs an output "
           "directory: -o DIR\n%s", usage);
  expect_run(2, want, "gen", good);
  expect_run(2, want, "gen");
  snprintf(want, sizeof want, "opgen: error: more than one output "
           "directory ('a' and 'b')\n%s", usage);
  expect_run(2, want, "gen", "-o", "a", "-o", "b", good);
  snprintf(want, sizeof want, "opgen: error: unknown option '-q' for "
           "gen\n%s", usage);
  expect_run(2, want, "gen", "-q", "-o", path_in("g"), good);
  expect_run(2, "opgen: error: no input files (try 'opgen --help')\n",
             "gen", "-o", path_in("g"));
  expect_listing(path_in("g"), NULL);
}

static void compat_and_import_misuse(void **state) {
  (void)state;
  const char *good = good_spec();
  const char *compat_usage =
      "usage: opgen compat --baseline OLD [--baseline OLD]... "
      "[--format=text|json|github] [--strict] [--max-errors=N] "
      "FILES...\n";
  char want[2048];
  snprintf(want, sizeof want, "opgen: error: missing value for "
           "'--baseline'\n%s", compat_usage);
  expect_run(2, want, "compat", good, "--baseline");
  snprintf(want, sizeof want, "opgen: error: no baseline (--baseline "
           "OLD)\n%s", compat_usage);
  expect_run(2, want, "compat", good);
  snprintf(want, sizeof want, "opgen: error: no input files\n%s",
           compat_usage);
  expect_run(2, want, "compat", "--baseline", good);
  snprintf(want, sizeof want, "opgen: error: unknown format (text, json "
           "or github) 'xml'\n%s", compat_usage);
  expect_run(2, want, "compat", "--baseline", good, "--format=xml", good);
  const char *import_usage = "usage: opgen import-tf [--max-errors=N] "
                             "OPS.pbtxt -o DIR [--split] [-v]\n";
  snprintf(want, sizeof want, "opgen: error: option '-o' needs a "
           "directory\n%s", import_usage);
  expect_run(2, want, "import-tf", "x.pbtxt", "-o");
  snprintf(want, sizeof want, "opgen: error: more than one input file "
           "('a' and 'b')\n%s", import_usage);
  expect_run(2, want, "import-tf", "a", "b", "-o", "d");
  snprintf(want, sizeof want, "opgen: error: no input file\n%s",
           import_usage);
  expect_run(2, want, "import-tf", "-o", "d");
  snprintf(want, sizeof want, "opgen: error: no output directory (-o "
           "DIR)\n%s", import_usage);
  expect_run(2, want, "import-tf", "a");
}

/* ---- unreadable inputs ---- */

static void unreadable_inputs_are_io_errors(void **state) {
  (void)state;
  const char *good = good_spec();
  const char *not_dir = path_in("good.op/x.op"); /* through a file */
  char want[2048];
  const char *verbs[] = {"check", "dump"};
  for (int v = 0; v < 2; v++) {
    snprintf(want, sizeof want, "opgen: error: cannot read '%s': Is a "
             "directory\n", tmpdir);
    expect_run(2, want, verbs[v], good, tmpdir);
    snprintf(want, sizeof want, "opgen: error: cannot read '%s': Not a "
             "directory\n", not_dir);
    expect_run(2, want, verbs[v], not_dir);
    expect_run(2, "opgen: error: cannot read '/proc/self/mem': "
                  "Input/output error\n", verbs[v], "/proc/self/mem");
  }
  const char *out = path_in("unread_out");
  snprintf(want, sizeof want, "opgen: error: cannot read '%s': Is a "
           "directory\n", tmpdir);
  expect_run(2, want, "gen", "-o", out, tmpdir);
  expect_run(2, want, "compat", "--baseline", tmpdir, good);
  expect_run(2, want, "import-tf", tmpdir, "-o", out);
  expect_run(2, "opgen: error: cannot read '/proc/self/mem': "
                "Input/output error\n", "compat", "--baseline",
             "/proc/self/mem", good);
  expect_run(2, "opgen: error: cannot read '/proc/self/mem': "
                "Input/output error\n", "import-tf", "/proc/self/mem", "-o",
             out);
  expect_listing(out, NULL);
}

/* ---- not UTF-8 ---- */

static void non_utf8_inputs_fail_at_the_first_bad_byte(void **state) {
  (void)state;
  static const struct {
    const char *bytes, *where, *byte;
  } cases[] = {
      {"op A {} // caf\xe9\n", "1:15", "0xe9"},           /* Latin-1 */
      {"op A {}\n\x80\n", "2:1", "0x80"},                 /* continuation */
      {"op A {}\n// \xc0\x80\n", "2:4", "0xc0"},          /* overlong NUL */
      {"op A {}\n// \xed\xa0\x80\n", "2:4", "0xed"},      /* surrogate */
      {"op A {}\n// \xf4\x90\x80\x80\n", "2:4", "0xf4"},  /* > U+10FFFF */
      {"op A {}\n// \xe2\x82", "2:4", "0xe2"},            /* cut short */
      {"op A {} \xff\xfe\n", "1:9", "0xff"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *p = write_text("bad8.op", cases[i].bytes);
    run_result r = RUN("check", p);
    char want[2048];
    snprintf(want, sizeof want, "%s:%s: error: invalid UTF-8 byte %s; spec "
             "files are UTF-8 text\n", p, cases[i].where, cases[i].byte);
    if (strncmp(r.err, want, strlen(want)) != 0)
      fail_msg("case %zu: got\n%s\nwanted\n%s", i, r.err, want);
    assert_non_null(strstr(r.err, "\n1 error generated.\n"));
    assert_int_equal(r.status, 1);
    run_free(&r);
  }
  const char *nul = write_file("nul.op", "op A {}\0\n", 9);
  run_result r = RUN("check", nul);
  assert_int_equal(r.status, 1);
  char want[2048];
  snprintf(want, sizeof want, "%s:1:8: error: NUL byte in spec; spec files "
           "are UTF-8 text\n", nul);
  assert_memory_equal(r.err, want, strlen(want));
  run_free(&r);
  /* gen writes nothing. */
  const char *bad = write_text("bad9.op", "op A {} // caf\xe9\n");
  const char *out = path_in("utf8_out");
  r = RUN("gen", "-o", out, bad);
  assert_int_equal(r.status, 1);
  run_free(&r);
  expect_listing(out, NULL);
  /* An OpList for import-tf, and a JSON baseline for compat. */
  const char *pb = write_text("bad.pbtxt", "op {\n  name: \"A\"\n  # \xff\n}\n");
  r = RUN("import-tf", pb, "-o", out);
  snprintf(want, sizeof want, "%s:3:5: error: invalid UTF-8 byte 0xff; "
           "OpList files are UTF-8 text\n", pb);
  assert_memory_equal(r.err, want, strlen(want));
  assert_int_equal(r.status, 1);
  run_free(&r);
  expect_listing(out, NULL);
  const char *json = write_text("bad.json", "{\"ops\": [{\"name\": \"A\xc0\x80"
                                            "\"}]}\n");
  r = RUN("compat", "--baseline", json, good_spec());
  snprintf(want, sizeof want, "%s:1:21: error: invalid UTF-8 in string\n",
           json);
  assert_memory_equal(r.err, want, strlen(want));
  assert_int_equal(r.status, 2); /* an unusable baseline */
  run_free(&r);
}

/* ---- limits ---- */

/* `a + a + ...` grows the tree without growing the parser's stack: it
 * used to overflow the C stack in the checks (a crash); now it is an
 * error at the expression. */
static void an_expression_too_deep_is_an_error(void **state) {
  (void)state;
  static const char head[] = "op A {\n  input x: float;\n  output y: "
                             "float;\n  shape y = [";
  static const char term[] = "dim(x, 0) + ";
  const size_t terms = 100000;
  size_t len = strlen(head) + terms * strlen(term) + 16;
  char *text = malloc(len), *p = text;
  p += sprintf(p, "%s", head);
  for (size_t i = 0; i < terms; i++) p += sprintf(p, "%s", term);
  sprintf(p, "1];\n}\n");
  const char *spec = write_text("deep.op", text);
  free(text);
  const char *out = path_in("deep_out");
  run_result r = RUN("gen", "-o", out, spec);
  char want[2048];
  snprintf(want, sizeof want, "%s:4:14: error: expression nested too deeply "
           "(more than 10000 levels)\n", spec);
  assert_memory_equal(r.err, want, strlen(want));
  assert_non_null(strstr(r.err, "\n1 error generated.\n"));
  assert_int_equal(r.status, 1);
  run_free(&r);
  expect_listing(out, NULL);
  /* Nesting that grows the parser's stack stops at its limit. */
  char nested[20100];
  p = nested + sprintf(nested, "op A {\n  shape y = ");
  for (int i = 0; i < 10000; i++) *p++ = '(';
  sprintf(p, "1;\n}\n");
  spec = write_text("nested.op", nested);
  r = RUN("check", spec);
  snprintf(want, sizeof want, "%s:2:10002: error: nested too deeply "
           "(parser stack limit of 10000 exceeded)\n", spec);
  assert_memory_equal(r.err, want, strlen(want));
  assert_int_equal(r.status, 1);
  run_free(&r);
}

/* ---- a full disk ---- */

static bool has_temporaries(const char *dir) {
  char *names = listing(dir);
  bool found = names && strstr(names, ".tmp");
  free(names);
  return found;
}

static void a_full_disk_during_gen_leaves_nothing(void **state) {
  (void)state;
  /* specs/demo.op's files are about 17, 42 and 21 KB, written in that
   * order: at 24 KB the first temporary is written, the second fails. */
  const char *dir = path_in("full");
  const char *deep = path_in("full_new/a/b");
  const rlim_t limits[] = {1, 4096, 24576};
  for (size_t i = 0; i < 3; i++) {
    run_result r = run_with((run_opts){.fsize = limits[i]},
                            (const char *[]){"gen", "-o", deep,
                                             "specs/demo.op", NULL});
    char want[2048];
    snprintf(want, sizeof want, "opgen: error: cannot write '%s/demo_ops.%s'"
             ": File too large\n", deep, i == 2 ? "c" : "h");
    assert_string_equal(r.err, want);
    assert_int_equal(r.status, 2);
    run_free(&r);
    /* The directories it made are gone again. */
    expect_listing(path_in("full_new"), NULL);
  }
  /* Over earlier output: every file stays as it was. */
  run_result r = RUN("gen", "-o", dir, "specs/demo.op");
  assert_int_equal(r.status, 0);
  run_free(&r);
  char h[700], c[700];
  snprintf(h, sizeof h, "%s/demo_ops.h", dir);
  snprintf(c, sizeof c, "%s/demo_ops.c", dir);
  char *h_before = tu_read_file(h, NULL), *c_before = tu_read_file(c, NULL);
  /* A spec of the same stem whose files differ: the doc text changes. */
  char *spec = tu_read_file("specs/demo.op", NULL);
  assert_non_null(spec);
  size_t len = strlen(spec);
  char *edited = malloc(len + 64);
  snprintf(edited, len + 64, "%s\n/// Edited.\nop Edited {}\n", spec);
  char demo[600];
  snprintf(demo, sizeof demo, "%s/spec/demo.op", tmpdir);
  mkdir(path_in("spec"), 0777);
  FILE *f = fopen(demo, "wb");
  assert_non_null(f);
  fputs(edited, f);
  fclose(f);
  r = run_with((run_opts){.fsize = 24576},
               (const char *[]){"gen", "-o", dir, demo, NULL});
  char want[2048];
  snprintf(want, sizeof want, "opgen: error: cannot write '%s': File too "
           "large\n", c);
  assert_string_equal(r.err, want);
  assert_int_equal(r.status, 2);
  run_free(&r);
  expect_listing(dir, "demo_kernels.h demo_ops.c demo_ops.h");
  assert_false(has_temporaries(dir));
  char *h_after = tu_read_file(h, NULL), *c_after = tu_read_file(c, NULL);
  assert_string_equal(h_after, h_before);
  assert_string_equal(c_after, c_before);
  /* Without the limit the same run goes through. */
  r = RUN("gen", "-o", dir, demo);
  assert_int_equal(r.status, 0);
  run_free(&r);
  char *h_new = tu_read_file(h, NULL);
  assert_non_null(strstr(h_new, "Edited"));
  free(h_new);
  free(h_before);
  free(c_before);
  free(h_after);
  free(c_after);
  free(edited);
  free(spec);
}

static void a_full_disk_during_dump_and_import_leaves_nothing(void **state) {
  (void)state;
  const char *json = path_in("full.json");
  const char *old = "{\"ops\": []}\n";
  write_text("full.json", old);
  run_result r = run_with((run_opts){.fsize = 1024},
                          (const char *[]){"dump", "-o", json,
                                           "specs/demo.op", NULL});
  char want[2048];
  snprintf(want, sizeof want, "opgen: error: cannot write '%s': File too "
           "large\n", json);
  assert_string_equal(r.err, want);
  assert_int_equal(r.status, 2);
  run_free(&r);
  char *kept = tu_read_file(json, NULL);
  assert_string_equal(kept, old);
  free(kept);
  assert_false(has_temporaries(tmpdir));
  /* To stdout: a full device. */
  r = run_with((run_opts){.stdout_path = "/dev/full"},
               (const char *[]){"dump", "specs/demo.op", NULL});
  assert_string_equal(r.err, "opgen: error: cannot write '<stdout>': No "
                             "space left on device\n");
  assert_int_equal(r.status, 2);
  run_free(&r);
  /* import-tf. */
  const char *pb = write_text("ok.pbtxt", "op {\n  name: \"Aaa\"\n"
                                          "  summary: \"A summary that makes "
                                          "the file long enough.\"\n}\n");
  const char *dir = path_in("import_full");
  r = run_with((run_opts){.fsize = 16},
               (const char *[]){"import-tf", pb, "-o", dir, NULL});
  snprintf(want, sizeof want, "opgen: error: cannot write '%s/ok.op': File "
           "too large\n", dir);
  assert_string_equal(r.err, want);
  assert_int_equal(r.status, 2);
  run_free(&r);
  expect_listing(dir, NULL);
}

/* ---- output directories that cannot be created ---- */

static void an_output_directory_that_cannot_be_made_leaves_nothing(
    void **state) {
  (void)state;
  const char *good = good_spec();
  const char *under_file = path_in("good.op/out"); /* good.op is a file */
  char want[2048];
  snprintf(want, sizeof want, "opgen: error: cannot create directory '%s': "
           "Not a directory\n", under_file);
  expect_run(2, want, "gen", "-o", under_file, good);
  const char *pb = write_text("ok2.pbtxt", "op {\n  name: \"Bbb\"\n}\n");
  expect_run(2, want, "import-tf", pb, "-o", under_file);
  snprintf(want, sizeof want, "opgen: error: cannot write '%s/x.json': Not "
           "a directory\n", under_file);
  char json[700];
  snprintf(json, sizeof json, "%s/x.json", under_file);
  expect_run(2, want, "dump", "-o", json, good);
  /* New directories made before a deeper one fails are removed. */
  char deep[1400];
  char longname[300];
  memset(longname, 'n', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  snprintf(deep, sizeof deep, "%s/made/%s", tmpdir, longname);
  snprintf(want, sizeof want, "opgen: error: cannot create directory '%s': "
           "File name too long\n", deep);
  expect_run(2, want, "gen", "-o", deep, good);
  expect_listing(path_in("made"), NULL);
  struct stat st;
  assert_int_equal(stat(path_in("good.op"), &st), 0);
  assert_true(S_ISREG(st.st_mode));
}

TU_TMPDIR_FIXTURES(tmpdir)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(top_level_misuse),
      cmocka_unit_test(check_misuse),
      cmocka_unit_test(dump_misuse),
      cmocka_unit_test(gen_misuse),
      cmocka_unit_test(compat_and_import_misuse),
      cmocka_unit_test(unreadable_inputs_are_io_errors),
      cmocka_unit_test(non_utf8_inputs_fail_at_the_first_bad_byte),
      cmocka_unit_test(an_expression_too_deep_is_an_error),
      cmocka_unit_test(a_full_disk_during_gen_leaves_nothing),
      cmocka_unit_test(a_full_disk_during_dump_and_import_leaves_nothing),
      cmocka_unit_test(an_output_directory_that_cannot_be_made_leaves_nothing),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
