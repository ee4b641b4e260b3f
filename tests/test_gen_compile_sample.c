/* Issue 11's promise on a fixed sample of synthesized spec sets: for each
 * seed, tests/fuzz/spec_synth.c writes a set of hostile but valid spec
 * files; the real `opgen gen` either rejects it (exit 1, at the spec) or
 * its output compiles as C11 and C++17 with -Werror and links with the
 * runtime (tests/fuzz/gen_compile.c). One line per failure: seed, stage,
 * file, first compiler error, and the kept spec directory.
 *
 * Part of the suite (label gen-compile); to run it by hand:
 * OPGEN_BIN=... OPGEN_CC=cc OPGEN_RUNTIME_INCLUDE=runtime/include
 * OPGEN_RUNTIME_LINK="libopgenrt.a -lpthread -lm -ldl"
 * build/bin/test_gen_compile_sample. GEN_COMPILE_SEEDS=N (default 40)
 * and GEN_COMPILE_FIRST_SEED=K pick the seeds; GEN_COMPILE_KEEP=1 keeps
 * every seed's directory. Each accepted set also goes through the run
 * stage (tests/fuzz/infer_driver.c: every shape function on random
 * partial inputs, compiled with GEN_COMPILE_RUN_FLAGS, by default
 * "-fsanitize=address,undefined -fno-sanitize-recover=undefined"; an
 * empty value leaves the stage out), 1 in GEN_COMPILE_RUN_EVERY
 * (default 2) to keep the test fast. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include "gen_compile.h"
#include "spec_synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


typedef struct tally {
  unsigned accepted, rejected_check, rejected_gen, failed;
} tally;

static unsigned long env_num(const char *name, unsigned long dflt) {
  const char *v = getenv(name);
  return v && *v ? strtoul(v, NULL, 10) : dflt;
}

/* Writes the set's files into DIR/spec; their paths, space-separated
 * and quoted, into `args`. */
static bool write_specs(const fz_spec_set *set, const char *dir, char *args,
                        size_t cap) {
  char path[4096];
  snprintf(path, sizeof path, "%s/spec", dir);
  if (mkdir(dir, 0700) != 0 || mkdir(path, 0700) != 0) return false;
  args[0] = '\0';
  for (size_t i = 0; i < set->nfiles; i++) {
    snprintf(path, sizeof path, "%s/spec/%s", dir, set->files[i].name);
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    fwrite(set->files[i].text, 1, set->files[i].len, f);
    if (fclose(f) != 0) return false;
    size_t len = strlen(args);
    snprintf(args + len, cap - len, " '%s'", path);
  }
  return true;
}

/* The first "error:" line of a log file, or "". */
static void log_error(const char *path, char *dst, size_t cap) {
  char *text = tu_read_file(path, NULL);
  const char *e = text ? strstr(text, "error:") : NULL;
  while (e && e > text && e[-1] != '\n') e--;
  snprintf(dst, cap, "%.*s", e ? (int)strcspn(e, "\n") : 0, e ? e : "");
  free(text);
}

/* `opgen check FILES` or `opgen gen -o DIR/out FILES`, its output in
 * DIR/<verb>.log; the exit status. */
static int opgen(const char *verb, const char *dir, const char *args) {
  char cmd[16384];
  bool gen = strcmp(verb, "gen") == 0;
  snprintf(cmd, sizeof cmd, "'%s' %s%s%s%s%s >'%s/%s.log' 2>&1",
           getenv("OPGEN_BIN"), verb, gen ? " -o '" : "", gen ? dir : "",
           gen ? "/out'" : "", args, dir, verb);
  int rc = system(cmd);
  return rc == -1 ? -1 : (rc >> 8) & 0xff;
}

static void report_failures(unsigned long seed, const char *dir,
                            const fz_spec_set *set, const fz_cc_result *res) {
  for (size_t i = 0; i < res->nfails; i++)
    print_message("seed %lu: FAIL %s %s: %s\n", seed, res->fails[i].stage,
                  res->fails[i].file, res->fails[i].first_error);
  print_message("seed %lu:   spec:", seed);
  for (size_t i = 0; i < set->nfiles; i++)
    print_message(" %s/spec/%s", dir, set->files[i].name);
  print_message("\n");
}

/* One seed: synthesize, check, gen, compile; updates the tally. */
static void one_seed(const fz_cc *cc, const char *root, unsigned long seed,
                     tally *t) {
  uint8_t bytes[512];
  fz_seed_bytes(seed, bytes, sizeof bytes);
  fz_spec_set set;
  fz_synth(bytes, sizeof bytes, &set);
  fz_cc run_cc = *cc;
  run_cc.run_seed = seed;
  unsigned long every = env_num("GEN_COMPILE_RUN_EVERY", 2);
  if (every == 0 || t->accepted % every != 0) run_cc.run_flags = NULL;
  cc = &run_cc;
  char dir[1024], args[8192], err[512], path[1200];
  snprintf(dir, sizeof dir, "%s/seed%lu", root, seed);
  assert_true(write_specs(&set, dir, args, sizeof args));
  bool keep = env_num("GEN_COMPILE_KEEP", 0) != 0;
  const char *verb = "check";
  int rc = opgen(verb, dir, args);
  if (rc == 0) rc = opgen(verb = "gen", dir, args);
  snprintf(path, sizeof path, "%s/%s.log", dir, verb);
  log_error(path, err, sizeof err);
  if (rc == 1) {
    *(verb[0] == 'c' ? &t->rejected_check : &t->rejected_gen) += 1;
    print_message("seed %lu: rejected by %s: %s\n", seed, verb, err);
  } else if (rc != 0) {
    t->failed++;
    print_message("seed %lu: FAIL opgen %s exited %d: %s\n", seed, verb, rc,
                  err);
    keep = true;
  } else {
    t->accepted++;
    fz_cc_result res;
    snprintf(path, sizeof path, "%s/out", dir);
    if (!fz_cc_check(cc, path, set.shape_fns, set.nshape_fns, &res)) {
      t->failed++;
      report_failures(seed, dir, &set, &res);
      keep = true;
    }
    free(res.log);
  }
  if (!keep) fz_remove_dir(dir);
  fz_spec_set_free(&set);
}

static void accepted_specs_compile_and_link(void **state) {
  (void)state;
  const char *bin = getenv("OPGEN_BIN"), *cc = getenv("OPGEN_CC");
  const char *inc = getenv("OPGEN_RUNTIME_INCLUDE");
  const char *link = getenv("OPGEN_RUNTIME_LINK");
  if (!bin || !cc || !inc || !link) skip();
  const char *flags = getenv("GEN_COMPILE_RUN_FLAGS");
  if (!flags) flags = "-fsanitize=address,undefined "
                      "-fno-sanitize-recover=undefined";
  char cwd[2048], driver[4096];
  if (!getcwd(cwd, sizeof cwd)) skip();
  snprintf(driver, sizeof driver, "%s/tests/fuzz/infer_driver.c", cwd);
  fz_cc cfg = {cc, fz_find_cxx(), inc, link, *flags ? flags : NULL, driver, 0};
  char root[] = "/tmp/opgen_gen_compile_XXXXXX";
  assert_non_null(mkdtemp(root));
  unsigned long first = env_num("GEN_COMPILE_FIRST_SEED", 1);
  unsigned long n = env_num("GEN_COMPILE_SEEDS", 40);
  tally t = {0};
  for (unsigned long s = first; s < first + n; s++) one_seed(&cfg, root, s, &t);
  print_message("%lu seeds: %u accepted, %u rejected by check, %u rejected "
                "by gen, %u failed (C++: %s)\n",
                n, t.accepted, t.rejected_check, t.rejected_gen, t.failed,
                cfg.cxx ? cfg.cxx : "none");
  if (t.failed == 0) fz_remove_dir(root);
  else print_message("failing seeds are kept under %s\n", root);
  assert_int_equal(t.failed, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(accepted_specs_compile_and_link),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
