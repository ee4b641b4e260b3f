/* Many threads at once: workers run the shipped ops in loops (through
 * the generic entry, on shared and private contexts, listing the
 * registries as they go) while loaders load the same op libraries again
 * and again, the refused ones included. Every result must equal the
 * single-threaded one; each library loads once (the other loads answer
 * ALREADY_EXISTS with the same handle) and its ops work for everybody
 * once a load has returned. Run under TSan by .ci/sanitize (the test's
 * name matches its "concurrency" filter).
 *
 * CMocka's assertions are not for threads: the threads count failures
 * and keep the first message; the main thread asserts. */
#include "testutil.h"

#include "opr/opr.h"
#include "shipped.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { NWORKERS = 8, NLOADERS = 4, ROUNDS = 60, LOAD_ROUNDS = 6 };

/* ---- failures, from any thread ---- */

static atomic_int failures;
static pthread_mutex_t failure_mutex = PTHREAD_MUTEX_INITIALIZER;
static char first_failure[512];

static void failure(const char *what, opr_status s) {
  if (atomic_fetch_add(&failures, 1) == 0) {
    pthread_mutex_lock(&failure_mutex);
    snprintf(first_failure, sizeof first_failure, "%s%s%s", what,
             s ? ": " : "", s ? opr_status_message(s) : "");
    pthread_mutex_unlock(&failure_mutex);
  }
  opr_status_free(s);
}

static void expect_ok(opr_status s) {
  if (s) fail_msg("unexpected: %s", opr_status_message(s));
}

/* ---- the calls the workers make ---- */

typedef struct job {
  const char *op;
  opr_tensor *in[3];       /* one tensor per input argument */
  size_t nin;
  opr_named_attr attrs[2];
  size_t nattrs;
  opr_tensor *want;        /* the single-threaded result */
  opr_tensor *want_alt;    /* also right while a library is loading */
  atomic_bool *settled;    /* once true before a call, only `want` */
} job;

/* Set by a loader once a load of the library has returned (OK or
 * ALREADY_EXISTS): from then on its ops must work. */
static atomic_bool zero_out_loaded, shared_loaded;

static opr_tensor *from_data(opr_dtype dt, int rank, const int64_t *dims,
                             const void *data, size_t nbytes) {
  opr_tensor *t = NULL;
  expect_ok(opr_tensor_from_data(dt, rank, dims, data, nbytes, &t));
  return t;
}

static opr_status run_job(opr_context *ctx, const job *j, opr_tensor **out) {
  opr_input inputs[3];
  for (size_t i = 0; i < j->nin; i++)
    inputs[i] = (opr_input){(const opr_tensor *const *)&j->in[i], 1};
  size_t n = 0;
  *out = NULL;
  return opr_execute(ctx, j->op, inputs, j->nin, j->attrs, j->nattrs, out, 1,
                     &n);
}

static bool same_tensor(const opr_tensor *a, const opr_tensor *b) {
  return a && b && a->dtype == b->dtype && a->rank == b->rank &&
         memcmp(a->dims, b->dims, (size_t)a->rank * sizeof *a->dims) == 0 &&
         a->nbytes == b->nbytes && memcmp(a->data, b->data, a->nbytes) == 0;
}

enum { EXAMPLE_N = 40000, PAD_ROWS = 64, PAD_COLS = 50 };

static job jobs[8];
static size_t njobs;
static opr_context *reference_ctx; /* one thread */

static job *add_job(const char *op) {
  job *j = &jobs[njobs++];
  memset(j, 0, sizeof *j);
  j->op = op;
  return j;
}

static void make_jobs(void) {
  static float xs[EXAMPLE_N];
  for (int i = 0; i < EXAMPLE_N; i++) xs[i] = (float)(i % 1000) * 0.25f - 7;
  int64_t n = EXAMPLE_N;
  job *j = add_job("Example"); /* large enough to be sharded */
  j->in[0] = from_data(OPR_DT_FLOAT, 1, &n, xs, sizeof xs);
  j->nin = 1;

  static int32_t m[PAD_ROWS * PAD_COLS];
  for (int i = 0; i < PAD_ROWS * PAD_COLS; i++) m[i] = i * 7 - 300;
  const int64_t md[2] = {PAD_ROWS, PAD_COLS};
  j = add_job("ZeroOut");
  j->in[0] = from_data(OPR_DT_INT32, 2, md, m, sizeof m);
  j->nin = 1;
  j->attrs[0] = (opr_named_attr){"preserve_index",
                                 {.kind = OPR_ATTR_INT, .u.i = 77}};
  j->nattrs = 1;

  j = add_job("AddN"); /* run() passes in[0] three times */
  j->in[0] = from_data(OPR_DT_INT32, 2, md, m, sizeof m);
  j->nin = 1;

  static const int32_t pads[4] = {2, 3, 1, 4};
  const int64_t pd[2] = {2, 2};
  static const char *const modes[] = {"REFLECT", "SYMMETRIC"};
  for (int k = 0; k < 2; k++) {
    j = add_job("Pad");
    j->in[0] = from_data(OPR_DT_INT32, 2, md, m, sizeof m);
    j->in[1] = from_data(OPR_DT_INT32, 2, pd, pads, sizeof pads);
    j->nin = 2;
    j->attrs[0] = (opr_named_attr){"mode",
                                   opr_attr_cstring(OPR_ATTR_STRING,
                                                    modes[k])};
    j->nattrs = 1;
  }

  const char *strs[4] = {"3.25", " -1e3 ", "0x10", "inf"};
  const int64_t sd = 4;
  j = add_job("StringToNumber");
  expect_ok(opr_tensor_from_strings(1, &sd, strs, NULL, &j->in[0]));
  j->nin = 1;

  static int32_t small[6] = {1, 2, 3, 4, 5, 6};
  const int64_t sm[2] = {2, 3};
  j = add_job("AddOne"); /* shared_lib adds a kernel that adds 100 */
  j->in[0] = from_data(OPR_DT_INT32, 2, sm, small, sizeof small);
  j->nin = 1;
  j->settled = &shared_loaded;

  j = add_job("LibZeroOut"); /* in zero_out_lib */
  j->in[0] = from_data(OPR_DT_INT32, 2, sm, small, sizeof small);
  j->nin = 1;
  j->settled = &zero_out_loaded;
}

/* AddN takes a list: its job's in[0], three times. */
static opr_status run(opr_context *ctx, const job *j, opr_tensor **out) {
  if (strcmp(j->op, "AddN") != 0) return run_job(ctx, j, out);
  const opr_tensor *list[3] = {j->in[0], j->in[0], j->in[0]};
  opr_input inputs[1] = {{list, 3}};
  size_t n = 0;
  *out = NULL;
  return opr_execute(ctx, j->op, inputs, 1, NULL, 0, out, 1, &n);
}

/* ---- the threads ---- */

static atomic_bool go;
static opr_context *shared_ctx; /* several threads of its own */

static void wait_for_go(void) {
  while (!atomic_load(&go)) sched_yield();
}

/* One call of a job: the single-threaded result, or while its library
 * is not settled yet an answer that a load in progress explains. */
/* Results change hands: each call leaves a reference to its output here
 * and takes the one left before, reads it and drops it, so that the last
 * reference to a tensor goes on whichever thread comes last. */
static _Atomic(opr_tensor *) mailbox;
static atomic_uint read_sum;

static void pass_along(opr_tensor *out) {
  opr_tensor *prev = atomic_exchange(&mailbox, opr_tensor_ref(out));
  if (!prev) return;
  unsigned sum = 0;
  for (size_t i = 0; i < prev->nbytes && prev->dtype != OPR_DT_STRING; i++)
    sum += ((const unsigned char *)prev->data)[i];
  atomic_fetch_add(&read_sum, sum);
  opr_tensor_unref(prev);
}

static atomic_int calls_started;
static atomic_int unsettled_calls; /* calls that overlapped a load */

static void check_call(opr_context *ctx, const job *j) {
  atomic_fetch_add(&calls_started, 1);
  bool settled = !j->settled || atomic_load(j->settled);
  if (!settled) atomic_fetch_add(&unsettled_calls, 1);
  opr_tensor *out = NULL;
  opr_status s = run(ctx, j, &out);
  char what[128];
  snprintf(what, sizeof what, "%s (%s)", j->op,
           settled ? "settled" : "while loading");
  if (s) {
    opr_code c = opr_status_code(s);
    bool in_progress = !settled && (c == OPR_NOT_FOUND ||
                                    c == OPR_UNIMPLEMENTED);
    if (in_progress) opr_status_free(s);
    else failure(what, s);
  } else if (!same_tensor(out, j->want) &&
             (settled || !same_tensor(out, j->want_alt))) {
    failure(what, opr_error(OPR_INTERNAL, "wrong result"));
  }
  pass_along(out);
  opr_tensor_unref(out);
}

static void check_registries(void) {
  size_t n = opr_list_ops(NULL, 0);
  const opr_op_def *ops[64];
  size_t got = opr_list_ops(ops, 64);
  if (got < n || got > 64) {
    failure("opr_list_ops shrank or overflowed", NULL);
    return;
  }
  for (size_t i = 0; i < got; i++) {
    const opr_kernel_def *k[32];
    size_t nk = opr_list_kernels(ops[i], k, 32);
    for (size_t q = 0; q < nk && q < 32; q++)
      if (!k[q]->fn || strcmp(k[q]->op, ops[i]->name) != 0)
        failure("opr_list_kernels gave a bad kernel", NULL);
      else if (k[q]->label && strncmp(k[q]->label, "ctor_lib", 8) == 0)
        failure("a refused library's kernel is registered", NULL);
    if (opr_find_op(ops[i]->name) != ops[i])
      failure("opr_find_op disagrees with opr_list_ops", NULL);
  }
  if (opr_find_op("CtorOnly"))
    failure("a refused library's op is registered", NULL);
}

static void *worker(void *arg) {
  int id = (int)(intptr_t)arg;
  opr_context *own = NULL;
  if (id % 2) {
    opr_context_options o = {.device = OPR_DEVICE_CPU, .threads = 2};
    opr_status s = opr_context_new(&o, &own);
    if (s) {
      failure("opr_context_new", s);
      return NULL;
    }
  }
  opr_context *ctx = own ? own : shared_ctx;
  wait_for_go();
  for (int r = 0; r < ROUNDS; r++) {
    for (size_t k = 0; k < njobs; k++)
      check_call(ctx, &jobs[(k + (size_t)id) % njobs]);
    if (r % 10 == id % 10) check_registries();
  }
  opr_context_free(own);
  return NULL;
}

/* Outcomes of the loads, by library. */
typedef struct library_case {
  const char *path;
  opr_code expect;        /* of the loads that do not succeed */
  atomic_bool *loaded;    /* NULL: refused every time */
  atomic_int ok, already, other;
  _Atomic(opr_library *) handle;
} library_case;

static library_case libraries[] = {
    {.path = OPLIB_ZERO_OUT, .expect = OPR_ALREADY_EXISTS,
     .loaded = &zero_out_loaded},
    {.path = OPLIB_SHARED, .expect = OPR_ALREADY_EXISTS,
     .loaded = &shared_loaded},
    {.path = OPLIB_BAD_ABI, .expect = OPR_FAILED_PRECONDITION},
    {.path = OPLIB_BAD_HASH, .expect = OPR_DATA_LOSS},
    {.path = OPLIB_CONFLICT, .expect = OPR_ABORTED},
    /* Refused after their constructors registered an op and kernels (one
     * of them for AddOne): check_registries must never see those. */
    {.path = OPLIB_CTOR_BAD_ABI, .expect = OPR_FAILED_PRECONDITION},
    {.path = OPLIB_CTOR_BAD_HASH, .expect = OPR_DATA_LOSS},
    {.path = OPLIB_CTOR_CONFLICT, .expect = OPR_ABORTED},
};
enum { NLIBRARIES = sizeof libraries / sizeof libraries[0] };

static void load_one(library_case *c) {
  opr_library *lib = NULL;
  opr_status s = opr_load_library(c->path, &lib);
  opr_code code = opr_status_code(s);
  if (!s && c->loaded) {
    atomic_fetch_add(&c->ok, 1);
  } else if (code == c->expect) {
    atomic_fetch_add(&c->already, 1);
  } else {
    atomic_fetch_add(&c->other, 1);
    failure(c->path, s);
    return;
  }
  opr_status_free(s);
  if (!c->loaded) return;
  /* Every load that returned names the one loaded library. */
  opr_library *expected = NULL;
  if (!atomic_compare_exchange_strong(&c->handle, &expected, lib) &&
      expected != lib)
    failure("two handles for one library", NULL);
  if (!lib) failure("a load returned no handle", NULL);
  atomic_store(c->loaded, true);
}

static void *loader(void *arg) {
  int id = (int)(intptr_t)arg;
  wait_for_go();
  /* Load while every worker is in its loop. */
  while (atomic_load(&calls_started) < 2 * NWORKERS * (int)njobs)
    sched_yield();
  for (int r = 0; r < LOAD_ROUNDS; r++)
    for (size_t k = 0; k < NLIBRARIES; k++)
      load_one(&libraries[(k + (size_t)id + (size_t)r) % NLIBRARIES]);
  return NULL;
}

/* ---- the test ---- */

static void compute_references(void) {
  for (size_t k = 0; k < njobs; k++) {
    job *j = &jobs[k];
    if (strcmp(j->op, "LibZeroOut") == 0) {
      /* Zeroes all but the first element. */
      const int32_t want[6] = {1, 0, 0, 0, 0, 0};
      const int64_t dims[2] = {2, 3};
      j->want = from_data(OPR_DT_INT32, 2, dims, want, sizeof want);
      continue;
    }
    expect_ok(run(reference_ctx, j, &j->want));
    if (strcmp(j->op, "AddOne") == 0) {
      /* The shipped kernel adds 1 (want_alt); shared_lib's adds 100. */
      j->want_alt = j->want;
      int32_t v[6];
      const int32_t *x = j->in[0]->data;
      for (int i = 0; i < 6; i++) v[i] = x[i] + 100;
      j->want = from_data(OPR_DT_INT32, 2, j->in[0]->dims, v, sizeof v);
    }
  }
}

static void threads_give_single_threaded_results(void **state) {
  (void)state;
  make_jobs();
  compute_references();
  opr_context_options o = {.device = OPR_DEVICE_CPU, .threads = 4};
  expect_ok(opr_context_new(&o, &shared_ctx));

  pthread_t threads[NWORKERS + NLOADERS];
  for (int i = 0; i < NWORKERS; i++)
    assert_int_equal(pthread_create(&threads[i], NULL, worker,
                                    (void *)(intptr_t)i), 0);
  for (int i = 0; i < NLOADERS; i++)
    assert_int_equal(pthread_create(&threads[NWORKERS + i], NULL, loader,
                                    (void *)(intptr_t)i), 0);
  atomic_store(&go, true);
  for (int i = 0; i < NWORKERS + NLOADERS; i++)
    assert_int_equal(pthread_join(threads[i], NULL), 0);

  printf("calls made before their library had loaded: %d\n",
         atomic_load(&unsettled_calls));
  opr_tensor_unref(atomic_exchange(&mailbox, NULL));
  if (atomic_load(&failures))
    fail_msg("%d failures; the first: %s", atomic_load(&failures),
             first_failure);
  for (size_t k = 0; k < NLIBRARIES; k++) {
    library_case *c = &libraries[k];
    int loads = NLOADERS * LOAD_ROUNDS;
    assert_int_equal(atomic_load(&c->other), 0);
    assert_int_equal(atomic_load(&c->ok), c->loaded ? 1 : 0);
    assert_int_equal(atomic_load(&c->already), loads - (c->loaded ? 1 : 0));
  }
  /* Afterwards, one thread: every op works and gives the same results. */
  for (size_t k = 0; k < njobs; k++) {
    opr_tensor *out = NULL;
    expect_ok(run(reference_ctx, &jobs[k], &out));
    if (!same_tensor(out, jobs[k].want))
      fail_msg("%s: another result after the threads", jobs[k].op);
    opr_tensor_unref(out);
  }
  opr_context_free(shared_ctx);
}

static int setup(void **state) {
  (void)state;
  opr_status s = opgen_shipped_register();
  opr_context_options o = {.device = OPR_DEVICE_CPU, .threads = 1};
  if (!s) s = opr_context_new(&o, &reference_ctx);
  if (s) opr_status_free(s);
  return s ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  for (size_t k = 0; k < njobs; k++) {
    for (size_t i = 0; i < jobs[k].nin; i++) opr_tensor_unref(jobs[k].in[i]);
    opr_tensor_unref(jobs[k].want);
    opr_tensor_unref(jobs[k].want_alt);
  }
  opr_context_free(reference_ctx);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(threads_give_single_threaded_results),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
