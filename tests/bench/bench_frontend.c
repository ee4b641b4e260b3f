/* Section 1: the opgen command line, end to end, on every TensorFlow op:
 * wall time of whole runs (process start, read, parse, validate, emit,
 * write), median and best of several, and their CPU time (which a busy
 * machine disturbs less than the wall time). */
#include "bench_sections.h"
#include "bench_util.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

enum { CORPUS_OPS = 1256 };

static double cpu_seconds(const struct rusage *r) {
  return (double)(r->ru_utime.tv_sec + r->ru_stime.tv_sec) +
         (double)(r->ru_utime.tv_usec + r->ru_stime.tv_usec) * 1e-6;
}

/* Runs argv silently; returns its wall time in seconds, or -1, and its
 * CPU time (user + system) in *cpu when cpu is not NULL. */
static double timed_run_cpu(char *const argv[], double *cpu) {
  fflush(stdout); /* or the child inherits and repeats buffered output */
  struct rusage before, after;
  getrusage(RUSAGE_CHILDREN, &before);
  double start = bench_now();
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(argv[0], argv);
    _exit(127);
  }
  int status;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return -1;
  double t = bench_now() - start;
  getrusage(RUSAGE_CHILDREN, &after);
  if (cpu) *cpu = cpu_seconds(&after) - cpu_seconds(&before);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

static double timed_run(char *const argv[]) {
  return timed_run_cpu(argv, NULL);
}

static void sibling_path(const char *name, char *out, size_t n) {
  char self[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  self[len > 0 ? len : 0] = '\0';
  char *slash = strrchr(self, '/');
  if (slash) *slash = '\0';
  int len2 = snprintf(out, n, "%s/%s", slash ? self : ".", name);
  if (len2 < 0 || (size_t)len2 >= n) out[0] = '\0'; /* too long: fails later */
}

/* Wall time (median and best) and CPU time (median) of several runs. */
typedef struct runs {
  double median, best, cpu;
} runs;

/* `reps` runs; `fresh` (may be NULL) is run before each one, untimed,
 * e.g. to remove previous output. median < 0 on failure. */
static runs repeat_run(char *const argv[], const char *fresh, int reps) {
  double wall[32], cpu[32];
  runs r = {-1, -1, -1};
  for (int i = 0; i < reps; i++) {
    if (fresh && system(fresh) != 0) return r;
    wall[i] = timed_run_cpu(argv, &cpu[i]);
    if (wall[i] < 0) return r;
  }
  r.median = bench_median(wall, reps);
  r.best = wall[0]; /* sorted by bench_median */
  r.cpu = bench_median(cpu, reps);
  return r;
}

static void row(const char *what, runs r, double goal_ms) {
  if (r.median < 0) {
    printf("  %-30s %10s\n", what, "failed");
    return;
  }
  double ms = r.median * 1e3;
  printf("  %-30s %7.1f ms (best %5.1f, CPU %5.1f) %6.0f ops/s", what, ms,
         r.best * 1e3, r.cpu * 1e3, CORPUS_OPS / r.median);
  if (goal_ms > 0) printf("  goal <= %.0f ms: %.2fx of goal", goal_ms, ms / goal_ms);
  printf("\n");
}

int bench_frontend(bool quick) {
  const char *dir_env = getenv("OPGEN_CORPUS_DIR");
  char corpus[PATH_MAX], opgen[PATH_MAX], tmp[] = "/tmp/opgen_bench_XXXXXX";
  snprintf(corpus, sizeof corpus, "%s/tf-ops.pbtxt",
           dir_env ? dir_env : "../shared/corpus");
  sibling_path("opgen", opgen, sizeof opgen);
  printf("1. opgen on the TensorFlow corpus (%d ops), whole runs\n", CORPUS_OPS);
  if (access(corpus, R_OK) != 0 || !mkdtemp(tmp)) {
    printf("  skipped: no corpus at %s (set OPGEN_CORPUS_DIR)\n\n", corpus);
    return 0;
  }
  char spec[PATH_MAX], gen[PATH_MAX], base[PATH_MAX], fresh[PATH_MAX + 16];
  snprintf(spec, sizeof spec, "%s/tf_ops.op", tmp);
  snprintf(gen, sizeof gen, "%s/gen", tmp);
  snprintf(base, sizeof base, "%s/baseline.json", tmp);
  snprintf(fresh, sizeof fresh, "rm -rf '%s'", gen);
  int reps = quick ? 3 : 11, failures = 0;
  char *import_argv[] = {opgen, "import-tf", corpus, "-o", tmp, NULL};
  char *dump_argv[] = {opgen, "dump", "-o", base, spec, NULL};
  if (timed_run(import_argv) < 0 || timed_run(dump_argv) < 0) {
    printf("  failed: opgen import-tf / dump\n\n");
    return 1;
  }
  char *check_argv[] = {opgen, "check", spec, NULL};
  char *gen_argv[] = {opgen, "gen", "-o", gen, spec, NULL};
  char *compat_argv[] = {opgen, "compat", "--baseline", base, spec, NULL};
  runs check = repeat_run(check_argv, NULL, reps);
  runs both = repeat_run(gen_argv, fresh, reps);
  runs compat = repeat_run(compat_argv, NULL, reps);
  printf("  wall time: median of %d runs (best); CPU: user + system, median\n",
         reps);
  row("check", check, 0);
  row("check + gen (gen does both)", both, 100);
  row("compat against own baseline", compat, 0);
  failures += (check.median < 0) + (both.median < 0) + (compat.median < 0);
  snprintf(fresh, sizeof fresh, "rm -rf '%s'", tmp);
  if (system(fresh) != 0) failures++;
  printf("\n");
  return failures;
}
