/* A fixed pool of worker threads serving a FIFO of jobs. A job is a range
 * cut into equal blocks that threads claim with one atomic increment, so
 * the block boundaries (and thus the results) do not depend on which
 * thread runs what, and the thread that posted the job keeps claiming
 * blocks itself instead of waiting for a worker. Jobs live on their
 * caller's stack; `active` counts the workers holding one, and the caller
 * returns only when that is zero and every block is done. */
#include "threadpool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct opr_job {
  opr_block_fn fn;
  void *arg;
  int64_t total, block, nblocks;
  atomic_int_fast64_t next; /* next block to claim */
  /* Guarded by the pool's mutex. */
  int64_t done;
  int active;
  bool queued;
  struct opr_job *next_job;
  pthread_cond_t finished;
} opr_job;

struct opr_threadpool {
  pthread_mutex_t mu;
  pthread_cond_t work; /* a job was posted, or stop */
  opr_job *head, *tail;
  bool stop;
  int nworkers;
  pthread_t workers[];
};

/* Claims and runs blocks until none is left; returns how many it ran. */
static int64_t run_blocks(opr_job *j) {
  int64_t ran = 0;
  for (;;) {
    int64_t b = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed);
    if (b >= j->nblocks) return ran;
    int64_t begin = b * j->block;
    int64_t end = j->total - begin > j->block ? begin + j->block : j->total;
    j->fn(j->arg, begin, end);
    ran++;
  }
}

/* Takes j off the queue if it is still there. Under the mutex. */
static void unqueue(opr_threadpool *p, opr_job *j) {
  if (!j->queued) return;
  opr_job **link = &p->head, *prev = NULL;
  while (*link != j) {
    prev = *link;
    link = &(*link)->next_job;
  }
  *link = j->next_job;
  if (p->tail == j) p->tail = prev;
  j->queued = false;
}

/* Records `ran` blocks of j done by a thread that is through with it.
 * Under the mutex. */
static void job_release(opr_threadpool *p, opr_job *j, int64_t ran,
                        bool worker) {
  unqueue(p, j); /* nothing left to claim */
  j->done += ran;
  if (worker) j->active--;
  if (worker && j->done == j->nblocks && j->active == 0)
    pthread_cond_signal(&j->finished);
}

static void *worker_main(void *arg) {
  opr_threadpool *p = arg;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->head && !p->stop) pthread_cond_wait(&p->work, &p->mu);
    if (!p->head) break; /* stopping, and nothing left */
    opr_job *j = p->head;
    j->active++;
    pthread_mutex_unlock(&p->mu);
    int64_t ran = run_blocks(j);
    pthread_mutex_lock(&p->mu);
    job_release(p, j, ran, true);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* Stops and joins the first n workers. */
static void stop_workers(opr_threadpool *p, int n) {
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < n; i++) pthread_join(p->workers[i], NULL);
}

opr_status opr_threadpool_new(int parallelism, opr_threadpool **out) {
  *out = NULL;
  int n = parallelism > 1 ? parallelism - 1 : 0;
  opr_threadpool *p = calloc(1, sizeof *p + (size_t)n * sizeof(pthread_t));
  if (!p)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "opr_context_new: out of "
                     "memory for a pool of %d threads", parallelism);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  for (int i = 0; i < n; i++) {
    int err = pthread_create(&p->workers[i], NULL, worker_main, p);
    if (err) {
      stop_workers(p, i);
      p->nworkers = 0;
      opr_threadpool_free(p);
      return opr_error(OPR_RESOURCE_EXHAUSTED, "opr_context_new: cannot "
                       "start worker thread %d of %d (error %d)", i + 1, n,
                       err);
    }
  }
  p->nworkers = n;
  *out = p;
  return OPR_OK;
}

void opr_threadpool_free(opr_threadpool *p) {
  if (!p) return;
  if (p->nworkers) stop_workers(p, p->nworkers);
  pthread_cond_destroy(&p->work);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

int opr_threadpool_parallelism(const opr_threadpool *p) {
  return p ? p->nworkers + 1 : 1;
}

/* Queues j and wakes as many workers as it has blocks for them. */
static void post(opr_threadpool *p, opr_job *j) {
  pthread_mutex_lock(&p->mu);
  j->queued = true;
  if (p->tail) p->tail->next_job = j;
  else p->head = j;
  p->tail = j;
  int64_t wake = j->nblocks - 1 < p->nworkers ? j->nblocks - 1 : p->nworkers;
  for (int64_t i = 0; i < wake; i++) pthread_cond_signal(&p->work);
  pthread_mutex_unlock(&p->mu);
}

void opr_threadpool_run(opr_threadpool *p, int64_t total, int64_t block,
                        opr_block_fn fn, void *arg) {
  if (total <= 0) return;
  if (block <= 0 || block > total) block = total;
  int64_t nblocks = total / block + (total % block != 0);
  if (!p || p->nworkers == 0 || nblocks == 1) {
    /* Same blocks as the pool would run, in order. */
    for (int64_t begin = 0; begin < total; begin += block)
      fn(arg, begin, total - begin > block ? begin + block : total);
    return;
  }
  opr_job j = {.fn = fn, .arg = arg, .total = total, .block = block,
               .nblocks = nblocks};
  atomic_init(&j.next, 0);
  pthread_cond_init(&j.finished, NULL);
  post(p, &j);
  int64_t ran = run_blocks(&j);
  pthread_mutex_lock(&p->mu);
  job_release(p, &j, ran, false);
  while (j.done < j.nblocks || j.active > 0)
    pthread_cond_wait(&j.finished, &p->mu);
  pthread_mutex_unlock(&p->mu);
  pthread_cond_destroy(&j.finished);
}

int opr_threadpool_default_size(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}
