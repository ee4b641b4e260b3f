/* The body of fuzz_execute (libFuzzer target for the runtime's generic
 * entry points), shared with test_fuzz_regressions: arbitrary bytes
 * decoded into one opr_execute call (or, by a flag, one
 * opr_infer_shapes_by_name call) of a registered op, with fuzzed inputs,
 * dtypes, shapes, data and attrs, on a CPU context of 1 or 2 threads.
 * The ops: every shipped op (opgen_shipped_register), the shape-form ops
 * of tests/shape/forms.op (shape functions of every statement form) and
 * the ops of fuzz_ops.op (list outputs sized by attrs, with kernels).
 *
 * The harness itself stays within the API's contract, so that what the
 * fuzzer finds is a bug of the runtime: every array it passes has the
 * length it claims, every string the bytes it claims (NULL pointers are
 * passed where the API documents them as handled). Tensors are made only
 * with opr_tensor_new, opr_tensor_from_data and opr_tensor_from_strings;
 * a request the runtime must refuse (bad dtype, rank, dim, overflowing
 * size, wrong byte count) is made too, and must fail. Tensors larger than
 * 1 MiB are not made (their slot stays NULL), so that a call stays fast;
 * under the fuzzer, allocations above 32 MiB by the runtime itself (an
 * output computed from fuzzed values) fail with NULL
 * (max_allocation_size_mb, fuzz_execute.c), which the runtime must
 * report as a status.
 *
 * Checked besides "no crash, no leak, no UB": a failed call leaves every
 * output slot NULL; a successful one fills exactly *noutputs <=
 * max_outputs slots with consistent tensors (rank, element count, byte
 * size); every status has a known code and a non-empty message.
 *
 * Encoding. Bytes are read in order; past the end every read gives 0.
 * u8 is one byte, u32/u64 little-endian.
 *
 *   call    := opsel flags [nin] input* nattrs attr* outsel
 *              (nin, u8 % 6, only with flag bit 2 or an unknown op; one
 *              input per input argument; outsel only for opr_execute)
 *   opsel   := u8 k. k < 0xF0: shipped op k % N (the registered ops sorted
 *              by name, N of them); 0xF0..0xFE: an op name spelled out,
 *              u8 % 64 bytes (a shipped op's, or an unknown one); 0xFF: a
 *              NULL name.
 *   flags   := u8. bit 0: the context has 2 threads (else 1); bit 1:
 *              opr_infer_shapes_by_name instead of opr_execute; bit 2: the
 *              input count is `nin` (u8 % 6) instead of the op's own;
 *              bit 3: the inputs array is NULL (with that count); bit 4:
 *              the attrs array is NULL (with its count).
 *   input   := u8 c, then its tensors. c == 0xFF: no tensors array, count
 *              u8 % 4; c & 0x80: a list of c & 0x1F tensors; else one.
 *   tensor  := u8 how, dtype, rank, dim*, data. how % 4: 0 no tensor
 *              (NULL; in infer mode the shape alone is given), 1
 *              opr_tensor_new, 2 opr_tensor_from_data, 3
 *              opr_tensor_from_strings; how & 4: from_data gets a byte
 *              count off by u8 % 3 + 1 (must fail); how & 8 (infer mode):
 *              the tensor, if made, is passed as the input's value.
 *   dtype   := u8 d. d < 0xF0: d % 34 (0, 31, 32, 33 are no dtype); else
 *              one of -1, 63, 64, 65, 100, 1000, INT_MIN, INT_MAX.
 *   rank    := u8 r. r < 0xE0: r % 8; else one of -1, -2, 6, 7, 254, 255,
 *              300, 1024, INT_MAX (dims NULL), INT_MIN (by (r - 0xE0) % 10).
 *   dim     := u8 v (one per dimension, rank > 0). v < 0xC0: v % 6 - 1 for
 *              shapes in infer mode (-1 unknown), v % 6 elsewhere; else, by
 *              i = (v - 0xC0) % 16, one of -1, -2, INT64_MIN, INT64_MAX,
 *              INT64_MAX - 1, 2^31, 2^32 + 1, 2^40, 2^62, 3037000500
 *              (about sqrt(2^63)), 2^32, 6 (i < 12), or a u64.
 *   data    := from_data: the tensor's bytes, taken from the input
 *              (zeros past its end; bools made 0 or 1). from_strings: per
 *              element u8 l: 0xFF a NULL string of length 0, 0xFE a NULL
 *              string of length 3 (must fail), else l % 40 bytes.
 *   nattrs  := u8 % 16
 *   attr    := name kind value
 *   name    := u8 k. k < 0xF0: the op's attr k % nattrs ("x" for an op
 *              without attrs); 0xF0..0xFD: spelled out, u8 % 64 bytes;
 *              0xFE: ""; 0xFF: NULL.
 *   kind    := u8 k. k & 0xF: 0..8 that opr_attr_kind, 9: -1, 10: 100,
 *              else UNSET; k & 0x10: a list.
 *   value   := a list: u8 c. c == 0xFF: NULL items, count u8 % 4; else
 *              c % 9 elements. One element by kind:
 *              string: u8 l: 0xFF NULL of length 0, 0xFE NULL of length 3,
 *                else l % 48 bytes;
 *              int: u8 v: v < 0x80: v; v < 0xC0: 0x7F - v (-1 .. -64);
 *                else, by i = (v - 0xC0) % 16, one of INT64_MIN,
 *                INT64_MAX, INT64_MAX - 1, INT64_MIN + 1, 2^31 - 1, 2^31,
 *                2^32, 2^62, 2^61 + 1, INT32_MIN, 2^40, 10^6 (i < 12), or
 *                a u64;
 *              float: u8 v: v < 0xC0: v / 16 - 6; else, by
 *                i = (v - 0xC0) % 16, one of nan, inf, -inf, -0.0,
 *                FLT_MAX, FLT_MIN, 1e-45, 1e30 (i < 8), or u32 bits;
 *              bool: u8 & 1; type: dtype;
 *              shape: rank (may be -1), dims (as infer-mode dims);
 *              tensor: a tensor (above); func: u8 l: 0xFF NULL, else
 *                l % 32 bytes (cut at a NUL).
 *   outsel  := u8 o. 0xFF: outputs NULL, max 0; 0xFE: outputs NULL, max
 *              3; else room for o % 12 outputs.
 *
 * Seeds: tests/fuzz/corpus_execute/, written by make_execute_seeds.py
 * (which spells out valid calls in this encoding). FUZZ_EXECUTE_VERBOSE=1
 * in the environment prints each call and every status. */
#include "execute_harness.h"

#include "forms_ops.h"
#include "fuzz_kernels.h"
#include "opr/opr.h"
#include "shipped.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  MAX_TENSOR_BYTES = 1 << 20,
  MAX_STRINGS = 4096,
  MAX_ARGS = 64,       /* input arguments decoded (op count or u8 % 6) */
  MAX_ATTRS = 16,
  MAX_OPS = 256,
};

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_execute: %s%s%s\n", what, detail ? ": " : "",
          detail ? detail : "");
  abort();
}

/* ---- the byte reader ---- */

typedef struct reader {
  const uint8_t *p;
  size_t n;
} reader;

static uint8_t u8(reader *r) {
  if (!r->n) return 0;
  r->n--;
  return *r->p++;
}

static uint64_t u64(reader *r) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)u8(r) << (8 * i);
  return v;
}

static uint32_t u32(reader *r) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) v |= (uint32_t)u8(r) << (8 * i);
  return v;
}

/* Copies up to n bytes (zeros past the end). */
static void bytes(reader *r, void *dst, size_t n) {
  size_t k = n < r->n ? n : r->n;
  if (k) memcpy(dst, r->p, k);
  if (n > k) memset((char *)dst + k, 0, n - k);
  r->p += k;
  r->n -= k;
}

/* ---- everything one call allocates, freed at its end ---- */

typedef struct pool {
  void **blocks;
  size_t nblocks, cap;
  opr_tensor **tensors;
  size_t ntensors, tcap;
} pool;

static void *grow(void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return p;
  size_t c = *cap ? *cap * 2 : 16;
  while (c < need) c *= 2;
  void *q = realloc(p, c * elem);
  if (!q) fail("out of memory", NULL);
  *cap = c;
  return q;
}

/* n zeroed bytes (at least 1), freed with the pool. */
static void *alloc(pool *pl, size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) fail("out of memory", NULL);
  pl->blocks = grow(pl->blocks, &pl->cap, pl->nblocks + 1, sizeof(void *));
  pl->blocks[pl->nblocks++] = p;
  return p;
}

static void keep_tensor(pool *pl, opr_tensor *t) {
  pl->tensors = grow(pl->tensors, &pl->tcap, pl->ntensors + 1,
                     sizeof(opr_tensor *));
  pl->tensors[pl->ntensors++] = t;
}

static void pool_free(pool *pl) {
  for (size_t i = 0; i < pl->ntensors; i++) opr_tensor_unref(pl->tensors[i]);
  for (size_t i = 0; i < pl->nblocks; i++) free(pl->blocks[i]);
  free(pl->tensors);
  free(pl->blocks);
}

/* ---- statuses ---- */

/* FUZZ_EXECUTE_VERBOSE=1 in the environment: every status is printed
 * (to check what a seed does). */
static bool verbose;

/* Checks a status has a known code and a message, and frees it. Returns
 * whether it was OK. */
static bool consume(opr_status s) {
  if (!s) return true;
  opr_code c = opr_status_code(s);
  const char *msg = opr_status_message(s);
  if (verbose) fprintf(stderr, "  status %s: %s\n", opr_code_name(c), msg);
  if (c <= OPR_CODE_OK || c > OPR_UNAUTHENTICATED)
    fail("a status with an unknown code", msg);
  if (!msg || !msg[0]) fail("a status without a message", opr_code_name(c));
  opr_status_free(s);
  return false;
}

/* ---- values ---- */

static opr_dtype fuzz_dtype(reader *r) {
  static const int special[] = {-1, 63, 64, 65, 100, 1000, INT_MIN, INT_MAX};
  uint8_t d = u8(r);
  if (d < 0xF0) return (opr_dtype)(d % 34);
  return (opr_dtype)special[(d - 0xF0) % 8];
}

static int fuzz_rank(reader *r) {
  static const int special[] = {-1, -2, 6, 7, 254, 255, 300, 1024, INT_MAX,
                                INT_MIN};
  uint8_t v = u8(r);
  if (v < 0xE0) return v % 8;
  return special[(v - 0xE0) % 10];
}

/* Dims for `rank` (NULL where rank <= 0 or too large to hold: the
 * runtime must refuse such a rank before reading dims). `partial`: small
 * values include -1, the unknown dim. */
static int64_t *fuzz_dims(reader *r, pool *pl, int rank, bool partial) {
  static const int64_t special[] = {
      -1, -2, INT64_MIN, INT64_MAX, INT64_MAX - 1, INT64_C(1) << 31,
      (INT64_C(1) << 32) + 1, INT64_C(1) << 40, INT64_C(1) << 62,
      INT64_C(3037000500), INT64_C(1) << 32, 6};
  if (rank <= 0 || rank > 1024) return NULL;
  int64_t *dims = alloc(pl, (size_t)rank * sizeof *dims);
  for (int i = 0; i < rank; i++) {
    uint8_t v = u8(r);
    if (v < 0xC0) dims[i] = partial ? v % 6 - 1 : v % 6;
    else if ((v - 0xC0) % 16 < 12) dims[i] = special[(v - 0xC0) % 16];
    else dims[i] = (int64_t)u64(r);
  }
  return dims;
}

/* What the runtime must accept: the element count of a valid shape, or
 * -1 (no dtype, a rank outside [0, OPR_MAX_RANK], NULL dims, a negative
 * dim, or a count that overflows int64). */
static int64_t expected_count(opr_dtype dt, int rank, const int64_t *dims) {
  if (!opr_dtype_valid(dt) || rank < 0 || rank > OPR_MAX_RANK) return -1;
  if (rank > 0 && !dims) return -1;
  uint64_t n = 1;
  bool zero = false, big = false;
  for (int i = 0; i < rank; i++) {
    if (dims[i] < 0) return -1;
    if (dims[i] == 0) zero = true;
    else if (!big && n > (uint64_t)INT64_MAX / (uint64_t)dims[i]) big = true;
    else if (!big) n *= (uint64_t)dims[i];
  }
  return zero ? 0 : big ? -1 : (int64_t)n;
}

static void check_tensor(const opr_tensor *t, opr_dtype dt, int rank,
                         const int64_t *dims, int64_t count) {
  if (t->dtype != dt || t->rank != rank || t->num_elements != count ||
      t->nbytes != (size_t)count * opr_dtype_size(dt) ||
      (count > 0 && !t->data) || t->device != OPR_DEVICE_CPU)
    fail("a new tensor does not match its request", NULL);
  for (int i = 0; i < rank; i++)
    if (t->dims[i] != dims[i]) fail("a new tensor has other dims", NULL);
}

/* Strings for from_strings; NULL when the request has too many. */
static opr_status make_strings(reader *r, pool *pl, int rank,
                               const int64_t *dims, int64_t count,
                               bool *expect_ok, opr_tensor **out) {
  size_t n = count > 0 ? (size_t)count : 0;
  const char **strs = alloc(pl, n * sizeof *strs);
  size_t *lens = alloc(pl, n * sizeof *lens);
  for (size_t i = 0; i < n; i++) {
    uint8_t l = u8(r);
    if (l >= 0xFE) {
      strs[i] = NULL;
      lens[i] = l == 0xFF ? 0 : 3;
      if (l == 0xFE) *expect_ok = false;
      continue;
    }
    lens[i] = l % 40;
    char *s = alloc(pl, lens[i]);
    bytes(r, s, lens[i]);
    strs[i] = s;
  }
  return opr_tensor_from_strings(rank, dims, strs, lens, out);
}

/* Element bytes for from_data (bools made 0 or 1). */
static void *make_data(reader *r, pool *pl, opr_dtype dt, size_t nbytes,
                       size_t room) {
  char *data = alloc(pl, room);
  bytes(r, data, room);
  if (dt == OPR_DT_BOOL)
    for (size_t i = 0; i < nbytes && i < room; i++) data[i] = data[i] & 1;
  return data;
}

typedef struct fuzz_tensor {
  opr_tensor *t; /* NULL when none was made */
  opr_shape shape; /* as decoded (partial in infer mode) */
  bool as_value;
} fuzz_tensor;

/* One tensor record (see the encoding). The tensor belongs to the pool. */
static fuzz_tensor fuzz_tensor_rec(reader *r, pool *pl, bool partial) {
  uint8_t how = u8(r);
  opr_dtype dt = fuzz_dtype(r);
  int rank = fuzz_rank(r);
  int64_t *dims = fuzz_dims(r, pl, rank, partial);
  fuzz_tensor ft = {NULL, {rank, dims}, (how & 8) != 0};
  int mode = how % 4;
  if (mode == 0) return ft;
  if (mode == 3) dt = OPR_DT_STRING;
  int64_t count = expected_count(dt, rank, dims);
  bool expect_ok = count >= 0;
  size_t size = opr_dtype_size(dt);
  if (count > 0 && (uint64_t)count > (uint64_t)MAX_TENSOR_BYTES / size)
    return ft; /* valid, but too large to make on every run */
  if (mode == 3 && count > MAX_STRINGS) return ft;
  opr_status s;
  opr_tensor *t = NULL;
  if (mode == 1) {
    s = opr_tensor_new(dt, rank, dims, &t);
  } else if (mode == 2) {
    size_t nbytes = expect_ok ? (size_t)count * size : u8(r) % 64;
    size_t given = nbytes;
    if (how & 4) {
      size_t off = u8(r) % 3 + 1;
      given = nbytes >= off && (u8(r) & 1) ? nbytes - off : nbytes + off;
      expect_ok = false;
    }
    if (dt == OPR_DT_STRING) expect_ok = false;
    void *data = make_data(r, pl, dt, nbytes, given);
    s = opr_tensor_from_data(dt, rank, dims, data, given, &t);
  } else {
    s = make_strings(r, pl, rank, dims, expect_ok ? count : 0, &expect_ok,
                     &t);
  }
  bool ok = consume(s);
  if (ok != expect_ok)
    fail(ok ? "an invalid tensor was made" : "a valid tensor was refused",
         opr_dtype_name(dt));
  if (ok != (t != NULL)) fail("a tensor constructor's result and status "
                              "disagree", NULL);
  if (t) {
    check_tensor(t, dt, rank, dims, count);
    keep_tensor(pl, t);
  }
  ft.t = t;
  return ft;
}

static int64_t fuzz_int(reader *r) {
  static const int64_t special[] = {
      INT64_MIN,           INT64_MAX,          INT64_MAX - 1,
      INT64_MIN + 1,       INT32_MAX,          INT64_C(1) << 31,
      INT64_C(1) << 32,    INT64_C(1) << 62,   (INT64_C(1) << 61) + 1,
      INT32_MIN,           INT64_C(1) << 40,   1000000};
  uint8_t v = u8(r);
  if (v < 0x80) return v;
  if (v < 0xC0) return 0x7F - v;
  if ((v - 0xC0) % 16 < 12) return special[(v - 0xC0) % 16];
  return (int64_t)u64(r);
}

static float fuzz_float(reader *r) {
  uint8_t v = u8(r);
  if (v < 0xC0) return (float)v / 16.0f - 6.0f;
  switch ((v - 0xC0) % 16) {
  case 0: return NAN;
  case 1: return INFINITY;
  case 2: return -INFINITY;
  case 3: return -0.0f;
  case 4: return FLT_MAX;
  case 5: return FLT_MIN;
  case 6: return 1e-45f;
  case 7: return 1e30f;
  default: {
    uint32_t bits = u32(r);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
  }
  }
}

/* A byte string of u8 l bytes; NULL (length 0 or 3) for 0xFF / 0xFE. */
static opr_str fuzz_str(reader *r, pool *pl) {
  uint8_t l = u8(r);
  if (l >= 0xFE) return (opr_str){NULL, l == 0xFF ? 0 : 3};
  size_t n = l % 48;
  char *s = alloc(pl, n + 1);
  bytes(r, s, n);
  return (opr_str){s, n};
}

static const char *fuzz_func(reader *r, pool *pl) {
  uint8_t l = u8(r);
  if (l == 0xFF) return NULL;
  size_t n = l % 32;
  char *s = alloc(pl, n + 1); /* NUL-terminated by alloc */
  bytes(r, s, n);
  return s;
}

static opr_shape fuzz_shape(reader *r, pool *pl) {
  int rank = fuzz_rank(r);
  return (opr_shape){rank, fuzz_dims(r, pl, rank, true)};
}

/* One element of kind k into *dst (a field of the union or a list item). */
static void fuzz_element(reader *r, pool *pl, opr_attr_kind k, void *dst) {
  switch (k) {
  case OPR_ATTR_STRING: *(opr_str *)dst = fuzz_str(r, pl); break;
  case OPR_ATTR_INT: *(int64_t *)dst = fuzz_int(r); break;
  case OPR_ATTR_FLOAT: *(float *)dst = fuzz_float(r); break;
  case OPR_ATTR_BOOL: *(bool *)dst = u8(r) & 1; break;
  case OPR_ATTR_TYPE: *(opr_dtype *)dst = fuzz_dtype(r); break;
  case OPR_ATTR_SHAPE: *(opr_shape *)dst = fuzz_shape(r, pl); break;
  case OPR_ATTR_TENSOR:
    *(const opr_tensor **)dst = fuzz_tensor_rec(r, pl, false).t;
    break;
  case OPR_ATTR_FUNC: *(const char **)dst = fuzz_func(r, pl); break;
  default: break;
  }
}

static opr_attr_value fuzz_value(reader *r, pool *pl) {
  uint8_t k = u8(r);
  int kind = k & 0xF;
  opr_attr_value v = {.kind = kind <= 8    ? (opr_attr_kind)kind
                              : kind == 9  ? (opr_attr_kind)-1
                              : kind == 10 ? (opr_attr_kind)100
                                           : OPR_ATTR_UNSET,
                      .is_list = (k & 0x10) != 0};
  if (!v.is_list) {
    switch (v.kind) {
    case OPR_ATTR_STRING: fuzz_element(r, pl, v.kind, &v.u.s); break;
    case OPR_ATTR_INT: fuzz_element(r, pl, v.kind, &v.u.i); break;
    case OPR_ATTR_FLOAT: fuzz_element(r, pl, v.kind, &v.u.f); break;
    case OPR_ATTR_BOOL: fuzz_element(r, pl, v.kind, &v.u.b); break;
    case OPR_ATTR_TYPE: fuzz_element(r, pl, v.kind, &v.u.type); break;
    case OPR_ATTR_SHAPE: fuzz_element(r, pl, v.kind, &v.u.shape); break;
    case OPR_ATTR_TENSOR: fuzz_element(r, pl, v.kind, &v.u.tensor); break;
    case OPR_ATTR_FUNC: fuzz_element(r, pl, v.kind, &v.u.func); break;
    default: break;
    }
    return v;
  }
  uint8_t c = u8(r);
  if (c == 0xFF) {
    v.u.list.count = u8(r) % 4;
    v.u.list.items = NULL;
    return v;
  }
  size_t n = c % 9, size = opr_attr_item_size(v.kind);
  /* Items of the kind's C type; an unknown kind gets zeroed room for
   * n 16-byte items, which no reader may look at. */
  char *items = alloc(pl, n * (size ? size : 16));
  for (size_t i = 0; size && i < n; i++)
    fuzz_element(r, pl, v.kind, items + i * size);
  v.u.list.count = n;
  v.u.list.items = items;
  return v;
}

/* ---- the call ---- */

static const opr_op_def *ops[MAX_OPS];
static size_t nops;
static opr_context *contexts[2];

void fz_execute_init(void) {
  if (nops) return;
  const char *v = getenv("FUZZ_EXECUTE_VERBOSE");
  verbose = v && v[0] == '1';
  if (!consume(opgen_shipped_register()) ||
      !consume(shape_forms_register_ops()) ||
      !consume(fuzz_kernels_register()))
    fail("registration failed", NULL);
  nops = opr_list_ops(ops, MAX_OPS);
  if (nops == 0 || nops > MAX_OPS) fail("unexpected op count", NULL);
  for (int i = 0; i < 2; i++) {
    opr_context_options o = {.device = OPR_DEVICE_CPU, .threads = i + 1};
    if (!consume(opr_context_new(&o, &contexts[i])))
      fail("no context", NULL);
  }
}

/* What the call answered, for the caller. */
static void record(fz_execute_result *res, bool infer, const char *name,
                   opr_status s) {
  res->infer = infer;
  snprintf(res->op, sizeof res->op, "%s", name ? name : "(null)");
  res->code = s ? opr_status_code(s) : OPR_CODE_OK;
  snprintf(res->message, sizeof res->message, "%s",
           s ? opr_status_message(s) : "");
}

static const char *fuzz_op_name(reader *r, pool *pl, const opr_op_def **op) {
  uint8_t k = u8(r);
  *op = NULL;
  if (k < 0xF0) {
    *op = ops[k % nops];
    return (*op)->name;
  }
  if (k == 0xFF) return NULL;
  size_t n = u8(r) % 64;
  char *name = alloc(pl, n + 1);
  bytes(r, name, n);
  *op = opr_find_op(name); /* NUL-terminated by alloc; maybe unknown */
  return name;
}

static const char *fuzz_attr_name(reader *r, pool *pl, const opr_op_def *op) {
  uint8_t k = u8(r);
  if (k < 0xF0) return op && op->nattrs ? op->attrs[k % op->nattrs].name : "x";
  if (k == 0xFE) return "";
  if (k == 0xFF) return NULL;
  size_t n = u8(r) % 64;
  char *name = alloc(pl, n + 1);
  bytes(r, name, n);
  return name;
}

typedef struct decoded_input {
  const opr_tensor **tensors; /* NULL for "no array" */
  opr_shape *shapes;
  const opr_tensor **values;
  size_t count;
} decoded_input;

static decoded_input fuzz_input(reader *r, pool *pl, bool infer) {
  decoded_input in = {0};
  uint8_t c = u8(r);
  if (c == 0xFF) {
    in.count = u8(r) % 4;
    return in;
  }
  in.count = c & 0x80 ? c & 0x1F : 1;
  in.tensors = alloc(pl, in.count * sizeof *in.tensors);
  in.shapes = alloc(pl, in.count * sizeof *in.shapes);
  in.values = alloc(pl, in.count * sizeof *in.values);
  for (size_t i = 0; i < in.count; i++) {
    fuzz_tensor ft = fuzz_tensor_rec(r, pl, infer);
    in.tensors[i] = ft.t;
    in.shapes[i] = ft.shape;
    in.values[i] = ft.as_value ? ft.t : NULL;
  }
  return in;
}

static void run_execute(opr_context *ctx, const char *name,
                        const opr_input *inputs, size_t ninputs,
                        const opr_named_attr *attrs, size_t nattrs,
                        reader *r, pool *pl, fz_execute_result *res) {
  uint8_t o = u8(r);
  size_t max = o >= 0xFE ? (o == 0xFF ? 0 : 3) : o % 12;
  opr_tensor **outs = o >= 0xFE ? NULL : alloc(pl, max * sizeof *outs);
  size_t n = 12345;
  opr_status s = opr_execute(ctx, name, inputs, ninputs, attrs, nattrs, outs,
                             max, &n);
  if (verbose)
    fprintf(stderr, "opr_execute(%s, %zu inputs, %zu attrs, room %zu)%s\n",
            name ? name : "NULL", ninputs, nattrs, max, s ? "" : ": OK");
  record(res, false, name, s);
  bool ok = consume(s);
  if (!ok && n != 0) fail("a failed call reports outputs", NULL);
  if (n > max) fail("more outputs than room", NULL);
  for (size_t i = 0; outs && i < max; i++) {
    opr_tensor *t = outs[i];
    if (i >= n) {
      if (t) fail("a slot past the outputs is set", ok ? "ok" : "failed");
      continue;
    }
    if (!t) fail("an output slot is NULL after success", name);
    int64_t count = expected_count(t->dtype, t->rank, t->dims);
    if (count < 0) fail("an output tensor is inconsistent", name);
    check_tensor(t, t->dtype, t->rank, t->dims, count);
    opr_tensor_unref(t);
  }
}

static void run_infer(const char *name, const decoded_input *din,
                      size_t ninputs, bool null_inputs,
                      const opr_named_attr *attrs, size_t nattrs, pool *pl,
                      fz_execute_result *res) {
  opr_shape_input *in =
      null_inputs ? NULL : alloc(pl, ninputs * sizeof *in);
  for (size_t i = 0; in && i < ninputs; i++)
    in[i] = (opr_shape_input){din[i].shapes, din[i].values, din[i].count};
  opr_inferred_shapes out = {NULL, 0};
  opr_status s = opr_infer_shapes_by_name(name, in, ninputs, attrs, nattrs,
                                          &out);
  if (verbose)
    fprintf(stderr, "opr_infer_shapes_by_name(%s, %zu inputs)%s\n",
            name ? name : "NULL", ninputs, s ? "" : ": OK");
  record(res, true, name, s);
  bool ok = consume(s);
  if (!ok && (out.shapes || out.count))
    fail("a failed inference returns shapes", name);
  for (size_t i = 0; i < out.count; i++) {
    opr_shape sh = out.shapes[i];
    if (sh.rank < -1 || sh.rank > OPR_MAX_RANK || (sh.rank > 0 && !sh.dims))
      fail("an inferred shape is invalid", name);
    for (int d = 0; d < sh.rank; d++)
      if (sh.dims[d] < -1) fail("an inferred dim is below -1", name);
  }
  opr_inferred_shapes_free(&out);
}

void fz_execute_one(const uint8_t *data, size_t size,
                    fz_execute_result *res) {
  fz_execute_result ignored;
  if (!res) res = &ignored;
  fz_execute_init();
  reader r = {data, size};
  pool pl = {0};
  const opr_op_def *op;
  const char *name = fuzz_op_name(&r, &pl, &op);
  uint8_t flags = u8(&r);
  bool infer = flags & 2;
  size_t ninputs = op ? op->ninputs : 0;
  if ((flags & 4) || !op) ninputs = u8(&r) % 6;
  if (ninputs > MAX_ARGS) ninputs = MAX_ARGS;
  decoded_input din[MAX_ARGS];
  opr_input *inputs = alloc(&pl, ninputs * sizeof *inputs);
  for (size_t i = 0; i < ninputs; i++) {
    din[i] = fuzz_input(&r, &pl, infer);
    inputs[i] = (opr_input){din[i].tensors, din[i].count};
  }
  size_t nattrs = u8(&r) % MAX_ATTRS;
  opr_named_attr *attrs = alloc(&pl, nattrs * sizeof *attrs);
  for (size_t i = 0; i < nattrs; i++) {
    attrs[i].name = fuzz_attr_name(&r, &pl, op);
    attrs[i].value = fuzz_value(&r, &pl);
  }
  const opr_named_attr *attr_arg = flags & 16 ? NULL : attrs;
  if (infer)
    run_infer(name, din, ninputs, flags & 8, attr_arg, nattrs, &pl, res);
  else
    run_execute(contexts[flags & 1], name, flags & 8 ? NULL : inputs,
                ninputs, attr_arg, nattrs, &r, &pl, res);
  pool_free(&pl);
}
