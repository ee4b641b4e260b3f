/* Compiles and links what `opgen gen` wrote into a directory, as strictly
 * as issue 11 promises: every `*_ops.c` with `-std=c11 -Wall -Wextra
 * -Werror -pedantic -c`; one C file including <assert.h>, <errno.h>,
 * <limits.h>, <math.h>, <stdio.h>, <stdlib.h>, <string.h> and then every
 * generated header, as a caller's file would (it also defines the spec's
 * `shape_fn`s and a main referencing every register function); those objects
 * linked with the runtime library (so a symbol defined twice, or one that
 * nothing defines, fails); and, with a C++ compiler, one C++17 file
 * including the same standard headers (<cassert>, ...) and every
 * generated header, `-fsyntax-only` with the same warnings. With
 * `run_flags`, a last stage compiles the sources again with those flags
 * (sanitizers), links them with infer_driver.c and runs it: every op's
 * shape function on random partial inputs (a crash, a leak, undefined
 * behaviour or a hang past 20 s fails). Shared by fuzz_gen_compile and
 * test_gen_compile_sample. */
#ifndef OPGEN_FUZZ_GEN_COMPILE_H
#define OPGEN_FUZZ_GEN_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct fz_cc {
  const char *cc;          /* the C compiler */
  const char *cxx;         /* a C++ compiler, or NULL: no C++ stage */
  const char *include;     /* the runtime's public headers */
  const char *link;        /* after the objects: the runtime and flags */
  const char *run_flags;   /* e.g. "-fsanitize=address,undefined", or NULL:
                              no run stage */
  const char *driver;      /* the path of infer_driver.c */
  unsigned long run_seed;  /* the driver's random inputs */
} fz_cc;

#define FZ_CC_MAX_FAILS 8

/* One failed compiler run: what it compiled and its first error. */
typedef struct fz_cc_fail {
  char stage[8]; /* "c", "c++", "link", "run" */
  char file[96];
  char first_error[400];
} fz_cc_fail;

typedef struct fz_cc_result {
  fz_cc_fail fails[FZ_CC_MAX_FAILS];
  size_t nfails;
  char *log; /* every failing run's command and output (malloc'd) */
} fz_cc_result;

/* The C++ compiler to use: $OPGEN_CXX, else g++ or clang++ from PATH,
 * else NULL. */
const char *fz_find_cxx(void);

/* Runs every stage on `dir`; true when all passed. The shape_fn stubs
 * return OPR_OK. Free res->log afterwards. */
bool fz_cc_check(const fz_cc *cfg, const char *dir, char *const *shape_fns,
                 size_t nshape_fns, fz_cc_result *res);

/* "rm -rf DIR". */
void fz_remove_dir(const char *dir);

#endif
