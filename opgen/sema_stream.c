/* The parse of a large source on a thread of its own, while this one
 * checks each op the parse completes: the two took turns before, on a
 * machine with cores to spare. What comes out is the same: the parse's
 * diagnostics go to the run's og_diag as they come (only the parse
 * reports there meanwhile); each op's are captured, sorted per op as
 * og_diag_hold sorts them, and delivered after the parse's, in op
 * order, as the serial order had them. */
#include "parse.h"
#include "sema_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Sources smaller than this parse in a few milliseconds at most: not
 * worth a thread (the tests' and fuzzers' specs stay serial). */
size_t og_sema_stream_bytes = 64 * 1024;

/* The ops the parse has completed so far. */
typedef struct op_queue {
  pthread_mutex_t lock;
  pthread_cond_t more;
  const og_ast_op **ops;
  size_t count, cap;
  bool done;
} op_queue;

static void queue_op(void *arg, og_ast_op *op) {
  op_queue *q = arg;
  pthread_mutex_lock(&q->lock);
  q->ops = og_xgrow(q->ops, &q->cap, q->count + 1, sizeof *q->ops);
  q->ops[q->count++] = op;
  pthread_cond_signal(&q->more);
  pthread_mutex_unlock(&q->lock);
}

typedef struct parse_job {
  og_arena *arena;
  const og_sources *sources;
  uint32_t file;
  og_diag *diag;
  op_queue q;
  og_ast_file *ast;
} parse_job;

static void *parse_run(void *arg) {
  parse_job *j = arg;
  j->ast = og_parse_each(j->arena, j->sources, j->file, j->diag, queue_op,
                         &j->q);
  pthread_mutex_lock(&j->q.lock);
  j->q.done = true;
  pthread_cond_signal(&j->q.more);
  pthread_mutex_unlock(&j->q.lock);
  return NULL;
}

/* Diagnostics captured for delivery later. */
typedef struct captured {
  og_diagnostic *items;
  size_t count, cap;
} captured;

static void capture(void *ctx, const og_diagnostic *d) {
  captured *c = ctx;
  c->items = og_xgrow(c->items, &c->cap, c->count + 1, sizeof *c->items);
  size_t n = strlen(d->message) + 1;
  c->items[c->count] = *d;
  c->items[c->count++].message = memcpy(og_xmalloc(n), d->message, n);
}

/* Up to `max` ops not taken yet into out; 0 once the parse is done and
 * all were taken. */
static size_t take_ops(op_queue *q, size_t next, const og_ast_op **out,
                       size_t max) {
  pthread_mutex_lock(&q->lock);
  while (next == q->count && !q->done)
    pthread_cond_wait(&q->more, &q->lock);
  size_t n = q->count - next < max ? q->count - next : max;
  memcpy(out, q->ops + next, n * sizeof *out);
  pthread_mutex_unlock(&q->lock);
  return n;
}

static void check_streamed(parse_job *j, og_sema_each_fn each, void *arg,
                           captured *c) {
  og_diag held;
  og_diag_init(&held, j->sources, capture, c);
  const og_ast_op *batch[64];
  size_t next = 0, n;
  while ((n = take_ops(&j->q, next, batch, 64)) > 0) {
    for (size_t i = 0; i < n; i++) {
      og_diag_hold(&held);
      each(arg, batch[i], &held);
      og_diag_release(&held);
    }
    next += n;
  }
}

static og_ast_file *parse_streamed(parse_job *j, og_sema_each_fn each,
                                   void *arg) {
  pthread_mutex_init(&j->q.lock, NULL);
  pthread_cond_init(&j->q.more, NULL);
  pthread_t thread;
  bool started = pthread_create(&thread, NULL, parse_run, j) == 0;
  if (!started) parse_run(j); /* all queued, then checked here */
  captured c = {0};
  check_streamed(j, each, arg, &c);
  if (started) pthread_join(thread, NULL);
  for (size_t i = 0; i < c.count; i++) {
    og_diagnostic *d = &c.items[i];
    og_diag_report(j->diag, d->severity, d->pos, "%s", d->message);
    free((char *)d->message);
  }
  free(c.items);
  free(j->q.ops);
  pthread_cond_destroy(&j->q.more);
  pthread_mutex_destroy(&j->q.lock);
  return j->ast;
}

og_ast_file *og_sema_parse_each(og_arena *ast_arena,
                                const og_sources *sources, uint32_t file,
                                og_diag *diag, og_sema_each_fn each,
                                void *arg) {
  if (sources->items[file]->len >= og_sema_stream_bytes) {
    parse_job j = {.arena = ast_arena, .sources = sources, .file = file,
                   .diag = diag};
    return parse_streamed(&j, each, arg);
  }
  og_ast_file *ast = og_parse(ast_arena, sources, file, diag);
  for (const og_ast_op *op = ast->ops; op; op = op->next) {
    og_diag_hold(diag);
    each(arg, op, diag);
    og_diag_release(diag);
  }
  return ast;
}
