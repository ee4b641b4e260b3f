/* Built by test_emit_literals against the C generated from the spec it
 * writes (lit_ops.c, lit_ops.h, lit_kernels.h) and lit_texts.h (the
 * spec's number texts): reads every default back through the runtime's
 * tables and the header's defaults macro, and prints each mismatch.
 * Exit status: the number of mismatches (0: all exact). */
#include "lit_kernels.h"
#include "lit_ops.h"
#include "lit_texts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;

#define CHECK(c)                                               \
  do {                                                         \
    if (!(c)) {                                                \
      printf("%s:%d: FAIL: %s\n", __FILE__, __LINE__, #c);     \
      fails++;                                                 \
    }                                                          \
  } while (0)

enum { LONG_LEN = 5000 };

/* The same texts as the test wrote into the spec. */
static char *long_text(size_t len, char tag) {
  static const char pattern[] = "ab'\"\\?\n?\?=\x01";
  char *s = malloc(len + 1);
  for (size_t i = 0; i < len; i++) s[i] = pattern[i % (sizeof pattern - 1)];
  s[0] = tag;
  s[len] = 0;
  return s;
}

static char *repeat(char c, size_t n) {
  char *s = malloc(n + 1);
  memset(s, c, n);
  s[n] = 0;
  return s;
}

static const opr_attr_value *dflt(const opr_op_def *op, const char *name) {
  for (size_t i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) return op->attrs[i].default_value;
  printf("FAIL: no attr %.40s\n", name);
  exit(100);
}

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static uint64_t dbits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

static bool same_float(float got, const char *text) {
  float want = (float)strtod(text, NULL);
  if (fbits(got) == fbits(want)) return true;
  printf("float %s: got %a (0x%08x), want %a (0x%08x)\n", text, (double)got,
         (unsigned)fbits(got), (double)want, (unsigned)fbits(want));
  return false;
}

static bool same_str(opr_str got, const char *want) {
  return got.len == strlen(want) && memcmp(got.ptr, want, got.len) == 0;
}

static void check_floats(const opr_op_def *op) {
  char name[16];
  for (size_t i = 0; i < sizeof float_texts / sizeof *float_texts; i++) {
    snprintf(name, sizeof name, "f%zu", i);
    CHECK(same_float(dflt(op, name)->u.f, float_texts[i]));
    CHECK(same_float(((const float *)dflt(op, "lf")->u.list.items)[i],
                     float_texts[i]));
    CHECK(same_float(((const float *)dflt(op, "tf")->u.tensor->data)[i],
                     float_texts[i]));
  }
  const float *special = dflt(op, "lf_special")->u.list.items;
  CHECK(fbits(dflt(op, "f_inf")->u.f) == 0x7f800000u && fbits(special[0]) == 0x7f800000u);
  CHECK(fbits(dflt(op, "f_ninf")->u.f) == 0xff800000u && fbits(special[1]) == 0xff800000u);
  CHECK(isnan(dflt(op, "f_nan")->u.f) && !signbit(dflt(op, "f_nan")->u.f));
  CHECK(isnan(special[2]) && !signbit(special[2]));
  const double *d = dflt(op, "td")->u.tensor->data;
  for (size_t i = 0; i < sizeof double_texts / sizeof *double_texts; i++)
    CHECK(dbits(d[i]) == dbits(strtod(double_texts[i], NULL)));
  const opr_complex64 *c64 = dflt(op, "tc64")->u.tensor->data;
  CHECK(same_float(c64->re, "3.40282347e+38") && fbits(c64->im) == 0x80000000u);
  const opr_complex128 *c128 = dflt(op, "tc128")->u.tensor->data;
  CHECK(dbits(c128->re) == dbits(1e300) && dbits(c128->im) == dbits(-0.0));
  lit_extremes_attrs a = LIT_EXTREMES_ATTRS_DEFAULT; /* the header's copy */
  CHECK(same_float(a.f0, float_texts[0]) && same_float(a.f4, float_texts[4]));
  CHECK(fbits(a.f_ninf) == 0xff800000u && isnan(a.f_nan));
}

static void check_ints(const opr_op_def *op) {
  char name[16];
  for (size_t i = 0; i < sizeof int_texts / sizeof *int_texts; i++) {
    int64_t want = strtoll(int_texts[i], NULL, 10);
    snprintf(name, sizeof name, "i%zu", i);
    CHECK(dflt(op, name)->u.i == want);
    CHECK(((const int64_t *)dflt(op, "li")->u.list.items)[i] == want);
    CHECK(((const int64_t *)dflt(op, "ti64")->u.tensor->data)[i] == want);
  }
  CHECK(dflt(op, "m")->u.i == INT64_MIN);
  for (size_t i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, "m") == 0)
      CHECK(op->attrs[i].has_minimum && op->attrs[i].minimum == INT64_MIN);
  CHECK(dflt(op, "sh")->u.shape.dims[0] == INT64_MAX);
  const int32_t *i32 = dflt(op, "ti32")->u.tensor->data;
  const uint32_t *u32 = dflt(op, "tu32")->u.tensor->data;
  const uint64_t *u64 = dflt(op, "tu64")->u.tensor->data;
  const int16_t *i16 = dflt(op, "ti16")->u.tensor->data;
  const uint16_t *u16 = dflt(op, "tu16")->u.tensor->data;
  const int8_t *i8 = dflt(op, "ti8")->u.tensor->data;
  const uint8_t *u8 = dflt(op, "tu8")->u.tensor->data;
  const opr_half *h = dflt(op, "th")->u.tensor->data;
  const opr_bfloat16 *b = dflt(op, "tb")->u.tensor->data;
  CHECK(i32[0] == INT32_MIN && i32[1] == INT32_MAX);
  CHECK(u32[0] == 0 && u32[1] == UINT32_MAX);
  CHECK(u64[0] == 0 && u64[1] == (uint64_t)INT64_MAX);
  CHECK(i16[0] == INT16_MIN && i16[1] == INT16_MAX);
  CHECK(u16[0] == 0 && u16[1] == UINT16_MAX);
  CHECK(i8[0] == INT8_MIN && i8[1] == INT8_MAX);
  CHECK(u8[0] == 0 && u8[1] == UINT8_MAX);
  CHECK(h[0].bits == 0 && h[1].bits == 0xffff);
  CHECK(b[0].bits == 0xffff && b[1].bits == 0);
  lit_extremes_attrs a = LIT_EXTREMES_ATTRS_DEFAULT;
  CHECK(a.i0 == INT64_MIN && a.i1 == INT64_MAX && a.m == INT64_MIN);
}

static void check_strings(const opr_op_def *op) {
  char *s = long_text(LONG_LEN, 's'), *enum_a = long_text(LONG_LEN, 'A');
  char *at_limit = long_text(4095, 'L'), *past_limit = long_text(4096, 'P');
  char *fn = repeat('f', LONG_LEN), *doc = repeat('d', LONG_LEN);
  char *input = repeat('i', LONG_LEN);
  CHECK(same_str(dflt(op, "s_long")->u.s, s));
  CHECK(same_str(dflt(op, "s_4095")->u.s, at_limit));
  CHECK(same_str(dflt(op, "s_4096")->u.s, past_limit));
  const opr_str *ls = dflt(op, "ls_long")->u.list.items;
  CHECK(same_str(ls[0], s) && same_str(ls[1], "x"));
  CHECK(same_str(dflt(op, "e_long")->u.s, enum_a));
  for (size_t i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, "e_long") == 0)
      CHECK(op->attrs[i].nallowed_strings == 2 &&
            same_str(op->attrs[i].allowed_strings[0], enum_a));
  const opr_string *ts = dflt(op, "ts_long")->u.tensor->data;
  CHECK(ts->len == LONG_LEN && memcmp(ts->data, s, LONG_LEN) == 0);
  CHECK(strcmp(dflt(op, "fn_long")->u.func, fn) == 0);
  CHECK(strcmp(op->summary, doc) == 0);
  CHECK(op->ninputs == 1 && strcmp(op->inputs[0].name, input) == 0);
  lit_extremes_attrs a = LIT_EXTREMES_ATTRS_DEFAULT;
  CHECK(strcmp(a.s_long, s) == 0 && strcmp(a.fn_long, fn) == 0);
  CHECK(strcmp(a.s_4096, past_limit) == 0);
  free(s), free(enum_a), free(at_limit), free(past_limit), free(fn), free(doc);
  free(input);
}

static void check_long_op(void) {
  char *name = repeat('q', LONG_LEN + 1), *tattr = repeat('t', LONG_LEN);
  name[0] = 'Q';
  const opr_op_def *op = opr_find_op(name);
  CHECK(op != NULL);
  if (op) CHECK(op->nattrs == 1 && strcmp(op->attrs[0].name, tattr) == 0);
  free(name), free(tattr);
}

int main(void) {
  if (lit_register_ops() != OPR_OK) {
    printf("FAIL: lit_register_ops\n");
    return 100;
  }
  const opr_op_def *op = opr_find_op("Extremes");
  if (!op) {
    printf("FAIL: Extremes not registered\n");
    return 100;
  }
  check_floats(op);
  check_ints(op);
  check_strings(op);
  check_long_op();
  return fails;
}
