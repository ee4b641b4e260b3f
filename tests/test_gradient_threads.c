/* Tapes are per thread: a tape records only the calls of the thread that
 * started it, so threads recording at once each get their own calls; a
 * tape recording on one thread cannot be started or stopped on another.
 * The registry takes registrations from many threads at once. */
#include "gradtest.h"

#include <pthread.h>

enum { NTHREADS = 4, CHAIN = 10 };

static pthread_barrier_t barrier;

typedef struct job {
  opr_tape *tape;
  size_t size;
  double grad;
  bool recording_after;
} job;

/* Starts a tape, waits for every thread to be recording, runs a chain of
 * Example calls, waits again, stops and differentiates. */
static void *record_chain(void *arg) {
  job *j = arg;
  kt_expect_ok(opr_tape_new(&j->tape));
  kt_expect_ok(opr_tape_start(j->tape));
  pthread_barrier_wait(&barrier);
  opr_tensor *x = gt_vec(OPR_DT_DOUBLE, 1, (double[]){1});
  opr_tensor *y = opr_tensor_ref(x);
  for (int i = 0; i < CHAIN; i++) {
    opr_tensor *next = NULL;
    kt_expect_ok(demo_example(gt_ctx, y, &next));
    opr_tensor_unref(y);
    y = next;
  }
  pthread_barrier_wait(&barrier);
  kt_expect_ok(opr_tape_stop(j->tape));
  j->recording_after = opr_tape_recording();
  j->size = opr_tape_size(j->tape);
  opr_tensor *g = gt_grad(j->tape, gt_ctx, y, x);
  j->grad = gt_at(g, 0);
  opr_tensor_unref(g);
  opr_tensor_unref(y);
  opr_tensor_unref(x);
  opr_tape_free(j->tape);
  return NULL;
}

static void threads_record_only_their_own_calls(void **state) {
  (void)state;
  opr_tape *mine = NULL; /* recording here all along: sees nothing */
  kt_expect_ok(opr_tape_new(&mine));
  kt_expect_ok(opr_tape_start(mine));
  pthread_barrier_init(&barrier, NULL, NTHREADS);
  pthread_t th[NTHREADS];
  job jobs[NTHREADS] = {{0}};
  for (int i = 0; i < NTHREADS; i++)
    assert_int_equal(pthread_create(&th[i], NULL, record_chain, &jobs[i]), 0);
  for (int i = 0; i < NTHREADS; i++) pthread_join(th[i], NULL);
  pthread_barrier_destroy(&barrier);
  for (int i = 0; i < NTHREADS; i++) {
    assert_int_equal(jobs[i].size, CHAIN);
    assert_true(jobs[i].grad == 1 << CHAIN);
    assert_false(jobs[i].recording_after);
  }
  assert_int_equal(opr_tape_size(mine), 0);
  kt_expect_ok(opr_tape_stop(mine));
  opr_tape_free(mine);
}

static opr_tape *shared;
static opr_status other_start, other_stop;
static bool other_recording;

static void *use_anothers_tape(void *arg) {
  (void)arg;
  other_recording = opr_tape_recording();
  other_start = opr_tape_start(shared);
  other_stop = opr_tape_stop(shared);
  return NULL;
}

static void a_tape_belongs_to_its_thread(void **state) {
  (void)state;
  kt_expect_ok(opr_tape_new(&shared));
  kt_expect_ok(opr_tape_start(shared));
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, use_anothers_tape, NULL), 0);
  pthread_join(th, NULL);
  assert_false(other_recording);
  kt_expect_status(other_start, OPR_FAILED_PRECONDITION,
                   "opr_tape_start: the tape is already recording");
  kt_expect_status(other_stop, OPR_FAILED_PRECONDITION,
                   "opr_tape_stop: the tape is not recording on this "
                   "thread");
  kt_expect_ok(opr_tape_stop(shared));
  /* Stopped, it may record on another thread. */
  pthread_barrier_init(&barrier, NULL, 1);
  job j = {0};
  pthread_create(&th, NULL, record_chain, &j);
  pthread_join(th, NULL);
  pthread_barrier_destroy(&barrier);
  assert_int_equal(j.size, CHAIN);
  opr_tape_free(shared);
}

static opr_status noop_grad(const opr_grad_op *op, const opr_tensor *const *g,
                            opr_tensor **d, void *user) {
  (void)op, (void)g, (void)d, (void)user;
  return OPR_OK;
}

static void *register_many(void *arg) {
  int id = *(int *)arg;
  char name[32];
  for (int i = 0; i < 200; i++) {
    snprintf(name, sizeof name, "Thr%d_%d", id, i);
    kt_expect_ok(opr_register_gradient(name, noop_grad, NULL));
    assert_true(opr_find_gradient(name, NULL, NULL));
    if (i % 2) kt_expect_ok(opr_unregister_gradient(name, NULL));
  }
  return NULL;
}

static void registry_takes_many_threads(void **state) {
  (void)state;
  pthread_t th[NTHREADS];
  int ids[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    ids[i] = i;
    assert_int_equal(pthread_create(&th[i], NULL, register_many, &ids[i]),
                     0);
  }
  for (int i = 0; i < NTHREADS; i++) pthread_join(th[i], NULL);
  char name[32];
  for (int t = 0; t < NTHREADS; t++)
    for (int i = 0; i < 200; i++) {
      snprintf(name, sizeof name, "Thr%d_%d", t, i);
      assert_int_equal(opr_find_gradient(name, NULL, NULL), i % 2 == 0);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(threads_record_only_their_own_calls),
      cmocka_unit_test(a_tape_belongs_to_its_thread),
      cmocka_unit_test(registry_takes_many_threads),
  };
  return cmocka_run_group_tests(tests, gt_setup, gt_teardown);
}
