/* The parse and the checks of a large source on several threads. What
 * comes out is what the serial order gives: the parse's diagnostics,
 * then each op's, sorted per op (og_diag_hold), in op order.
 *
 * A source is cut into pieces at lines that begin an op; one thread
 * per CPU takes the pieces in turn, parses each alone and checks its
 * ops as they are parsed, into the piece's own memory. Where no
 * piece reports anything while parsing, the pieces' parses are the
 * parse of the whole: no token crosses a line start but a blank or a
 * comment (one left open is reported), and a piece that parses without
 * error ends between two declarations. Otherwise (a syntax error, a doc
 * comment documenting nothing, a comment open at a cut) the pieces are
 * dropped and the source parsed whole, on a thread beside the checks. */
#define _DEFAULT_SOURCE /* sysconf's _SC_NPROCESSORS_ONLN */
#include "parse.h"
#include "sema_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Sources smaller than this parse in a few milliseconds at most: not
 * worth a thread (the tests' and fuzzers' specs stay serial). */
size_t og_sema_stream_bytes = 64 * 1024;
size_t og_sema_split_bytes = 64 * 1024;
size_t og_sema_split_pieces = 0;

/* Keeps what `each` kept of op. */
static void keep(og_sema_ops *ops, const og_ast_op *op, void *result) {
  if (!result) return;
  ops->items = og_xgrow(ops->items, &ops->cap, ops->count + 1,
                        sizeof *ops->items);
  ops->items[ops->count++] = (og_sema_done){op, result};
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

/* Delivers (to diag) or drops (diag NULL) what c holds. */
static void deliver(captured *c, og_diag *diag) {
  for (size_t i = 0; i < c->count; i++) {
    og_diagnostic *d = &c->items[i];
    if (diag) og_diag_report(diag, d->severity, d->pos, "%s", d->message);
    free((char *)d->message);
  }
  free(c->items);
  *c = (captured){0};
}

/* ---- The whole source parsed on a thread, checked on this one. ---- */

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

/* Up to `max` ops not taken yet into out; 0 once the parse is done and
 * all were taken. */
static size_t take_ops(op_queue *q, size_t next, const og_ast_op **out,
                       size_t max) {
  pthread_mutex_lock(&q->lock);
  while (next == q->count && !q->done)
    pthread_cond_wait(&q->more, &q->lock);
  size_t n = q->count - next < max ? q->count - next : max;
  if (n) memcpy(out, q->ops + next, n * sizeof *out); /* ops: NULL at 0 */
  pthread_mutex_unlock(&q->lock);
  return n;
}

static void check_streamed(parse_job *j, og_sema_ops *ops, captured *c) {
  og_diag held;
  og_diag_init(&held, j->sources, capture, c);
  const og_ast_op *batch[64];
  size_t next = 0, n;
  while ((n = take_ops(&j->q, next, batch, 64)) > 0) {
    for (size_t i = 0; i < n; i++) {
      og_diag_hold(&held);
      keep(ops, batch[i], ops->each(ops->arg, batch[i], &held, ops->arena));
      og_diag_release(&held);
    }
    next += n;
  }
}

static og_ast_file *parse_streamed(parse_job *j, og_sema_ops *ops) {
  pthread_mutex_init(&j->q.lock, NULL);
  pthread_cond_init(&j->q.more, NULL);
  pthread_t thread;
  bool started = pthread_create(&thread, NULL, parse_run, j) == 0;
  if (!started) parse_run(j); /* all queued, then checked here */
  captured c = {0};
  check_streamed(j, ops, &c);
  if (started) pthread_join(thread, NULL);
  deliver(&c, j->diag);
  free(j->q.ops);
  pthread_cond_destroy(&j->q.more);
  pthread_mutex_destroy(&j->q.lock);
  return j->ast;
}

/* ---- Pieces parsed and checked on threads of their own. ---- */

typedef struct piece {
  const og_sources *sources;
  uint32_t file, begin, end;
  og_arena ast_arena;
  og_arena arena; /* the results' */
  og_sema_ops ops;
  og_diag held;
  captured diags;
  size_t problems; /* what the parse reported */
  og_ast_file *ast;
} piece;

static void count_problem(void *ctx, const og_diagnostic *d) {
  (void)d;
  ((piece *)ctx)->problems++;
}

static void check_op(void *arg, og_ast_op *op) {
  piece *p = arg;
  og_diag_hold(&p->held);
  keep(&p->ops, op, p->ops.each(p->ops.arg, op, &p->held, &p->arena));
  og_diag_release(&p->held);
}

static void *piece_run(void *arg) {
  piece *p = arg;
  og_diag parse_diag;
  og_diag_init(&parse_diag, p->sources, count_problem, p);
  og_diag_init(&p->held, p->sources, capture, &p->diags);
  p->ast = og_parse_range(&p->ast_arena, p->sources, p->file, p->begin,
                          p->end, &parse_diag, check_op, p);
  return NULL;
}

/* Whether [b, e) holds only blanks or a `//` comment. */
static bool blank_or_comment(const char *t, size_t b, size_t e) {
  while (b < e && (t[b] == ' ' || t[b] == '\t' || t[b] == '\r' ||
                   t[b] == '\f' || t[b] == '\v'))
    b++;
  return b == e || (e - b >= 2 && t[b] == '/' && t[b + 1] == '/');
}

static bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
         c == '\v';
}

/* A cut after `after` at or past `from`: the start of a line that begins
 * `op `, moved up over the blank and comment lines above it (its doc);
 * 0 if there is none. */
static size_t find_cut(const char *t, size_t len, size_t from, size_t after) {
  for (size_t i = from; i + 3 < len; i++) {
    const char *nl = memchr(t + i, '\n', len - 3 - i);
    if (!nl) return 0;
    i = (size_t)(nl - t);
    if (t[i + 1] != 'o' || t[i + 2] != 'p' || !is_blank(t[i + 3])) continue;
    size_t cut = i + 1;
    for (;;) { /* the line above: [b, cut - 1) */
      size_t b = cut - 1;
      while (b > 0 && t[b - 1] != '\n') b--;
      if (b <= after || !blank_or_comment(t, b, cut - 1)) break;
      cut = b;
    }
    if (cut > after) return cut;
  }
  return 0;
}

static size_t cpu_count(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 64 ? 64 : (size_t)n;
}

size_t og_sema_cut(const og_source *src, size_t max, uint32_t *begins) {
  if (max > 64) max = 64;
  size_t n = 0, begin = 0;
  for (size_t i = 1; i < max; i++) {
    size_t from = src->len / max * i;
    size_t cut = find_cut(src->text, src->len, from > begin ? from : begin,
                          begin);
    if (!cut) break;
    begins[n++] = (uint32_t)begin;
    begin = cut;
  }
  begins[n++] = (uint32_t)begin;
  return n;
}

/* Threads that take the next piece not taken until none is left. */
typedef struct crew {
  piece *pieces;
  size_t n;
  atomic_size_t next;
} crew;

static void *crew_run(void *arg) {
  crew *c = arg;
  for (size_t i; (i = atomic_fetch_add(&c->next, 1)) < c->n;)
    piece_run(&c->pieces[i]);
  return NULL;
}

static void run_pieces(piece *pieces, size_t n, size_t workers) {
  crew c = {.pieces = pieces, .n = n};
  atomic_init(&c.next, 0);
  pthread_t threads[64];
  size_t started = 0;
  for (size_t i = 1; i < workers && i < n && i < 64; i++)
    if (pthread_create(&threads[started], NULL, crew_run, &c) == 0) started++;
  crew_run(&c); /* this thread too */
  for (size_t i = 0; i < started; i++) pthread_join(threads[i], NULL);
}

/* Whether the pieces' parses are the whole source's. */
static bool pieces_hold(const piece *pieces, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (pieces[i].problems ||
        (i && (pieces[i].ast->package || pieces[i].ast->c_prefix)))
      return false;
  return true;
}

/* The pieces joined into the first: their ops, memory, results and
 * diagnostics; or all dropped (diag NULL). */
static og_ast_file *join_pieces(piece *pieces, size_t n, og_arena *ast_arena,
                                og_sema_ops *ops, og_diag *diag) {
  og_ast_op **tail = &pieces[0].ast->ops;
  for (size_t i = 0; i < n; i++) {
    piece *p = &pieces[i];
    if (diag) {
      while (*tail) tail = &(*tail)->next;
      if (i) *tail = p->ast->ops;
      og_arena_adopt(ast_arena, &p->ast_arena);
      og_arena_adopt(ops->arena, &p->arena);
      for (size_t k = 0; k < p->ops.count; k++)
        keep(ops, p->ops.items[k].ast, p->ops.items[k].result);
    }
    og_arena_free(&p->ast_arena);
    og_arena_free(&p->arena);
    free(p->ops.items);
    deliver(&p->diags, diag);
  }
  return pieces[0].ast;
}

/* The split parse; NULL where it does not hold (nothing kept). */
static og_ast_file *parse_split(og_arena *ast_arena,
                                const og_sources *sources, uint32_t file,
                                og_diag *diag, og_sema_ops *ops) {
  size_t len = sources->items[file]->len, max = og_sema_split_pieces;
  /* Set for tests: a thread per piece, whatever the CPUs. */
  size_t workers = max ? max : cpu_count();
  if (!max) { /* four per CPU, each of a quarter og_sema_split_bytes or more */
    max = 4 * workers;
    if (og_sema_split_bytes >= 4 && max > len / (og_sema_split_bytes / 4))
      max = len / (og_sema_split_bytes / 4);
  }
  if (max < 2 || workers < 2) return NULL;
  if (max > 64) max = 64;
  piece pieces[64];
  memset(pieces, 0, sizeof pieces);
  const og_source *src = sources->items[file];
  uint32_t begins[64];
  size_t n = og_sema_cut(src, max, begins);
  if (n < 2) return NULL;
  for (size_t i = 0; i < n; i++) {
    pieces[i].begin = begins[i];
    pieces[i].end = i + 1 < n ? begins[i + 1] : (uint32_t)src->len;
    pieces[i].sources = sources;
    pieces[i].file = file;
    pieces[i].ops = (og_sema_ops){.each = ops->each, .arg = ops->arg};
  }
  run_pieces(pieces, n, workers);
  bool hold = pieces_hold(pieces, n);
  og_ast_file *ast = join_pieces(pieces, n, ast_arena, ops, hold ? diag : NULL);
  return hold ? ast : NULL;
}

og_ast_file *og_sema_parse_each(og_arena *ast_arena,
                                const og_sources *sources, uint32_t file,
                                og_diag *diag, og_sema_ops *ops) {
  size_t len = sources->items[file]->len;
  og_ast_file *ast = NULL;
  if (len >= og_sema_split_bytes)
    ast = parse_split(ast_arena, sources, file, diag, ops);
  if (ast) return ast;
  if (len >= og_sema_stream_bytes) {
    parse_job j = {.arena = ast_arena, .sources = sources, .file = file,
                   .diag = diag};
    return parse_streamed(&j, ops);
  }
  ast = og_parse(ast_arena, sources, file, diag);
  for (const og_ast_op *op = ast->ops; op; op = op->next) {
    og_diag_hold(diag);
    keep(ops, op, ops->each(ops->arg, op, diag, ops->arena));
    og_diag_release(diag);
  }
  return ast;
}
