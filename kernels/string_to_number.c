/* StringToNumber: each string as a float or an int32. A string is taken
 * when strtof / strtol (base 10) would read all of it, surrounding ASCII
 * whitespace allowed (as TensorFlow's safe_strto* allow it); otherwise the
 * call fails naming the element. Independent of the host's locale:
 * int32 is parsed here, float by strtof in the C locale of this thread
 * only (uselocale). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* newlocale, uselocale */
#endif

#include "kernels.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum s2n_result {
  S2N_OK,
  S2N_INVALID,
  S2N_RANGE,  /* int32 overflow */
  S2N_NOMEM,
} s2n_result;

static bool is_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

/* [*b, *e) without surrounding whitespace. */
static void trim(const char **b, const char **e) {
  while (*b < *e && is_space(**b)) (*b)++;
  while (*e > *b && is_space((*e)[-1])) (*e)--;
}

static s2n_result parse_int32(const char *s, size_t len, int32_t *out) {
  if (len == 0) return S2N_INVALID;
  const char *b = s, *e = s + len;
  trim(&b, &e);
  bool neg = b < e && *b == '-';
  if (b < e && (*b == '-' || *b == '+')) b++;
  if (b == e) return S2N_INVALID;
  int64_t v = 0;
  bool range = false;
  for (; b < e; b++) {
    if (*b < '0' || *b > '9') return S2N_INVALID;
    v = v * 10 + (*b - '0');
    if (v > (int64_t)INT32_MAX + 1) { /* keep reading: a bad digit wins */
      range = true;
      v = (int64_t)INT32_MAX + 1;
    }
  }
  if (range || (!neg && v > INT32_MAX)) return S2N_RANGE;
  *out = (int32_t)(neg ? -v : v);
  return S2N_OK;
}

/* Under the C locale (see s2n_float). Overflow gives +-inf and underflow
 * 0 or a subnormal, as strtof gives them. */
static s2n_result parse_float(const char *s, size_t len, float *out) {
  if (len == 0) return S2N_INVALID;
  const char *b = s, *e = s + len;
  trim(&b, &e);
  size_t n = (size_t)(e - b);
  if (n == 0 || memchr(b, '\0', n)) return S2N_INVALID;
  char small[64], *buf = n < sizeof small ? small : malloc(n + 1);
  if (!buf) return S2N_NOMEM;
  memcpy(buf, b, n);
  buf[n] = '\0';
  char *end;
  *out = strtof(buf, &end);
  s2n_result r = end == buf + n ? S2N_OK : S2N_INVALID;
  if (buf != small) free(buf);
  return r;
}

#define s2n_parse(s, len, out) \
  _Generic((out), float *: parse_float, int32_t *: parse_int32)(s, len, out)

/* INVALID_ARGUMENT naming element i and its text (escaped, cut at 64
 * bytes). */
static opr_status s2n_error(const opr_kernel_ctx *k, int64_t i,
                            const opr_string *str, s2n_result r,
                            opr_dtype type) {
  if (r == S2N_NOMEM)
    return opr_error(OPR_RESOURCE_EXHAUSTED, "%s: out of memory reading "
                     "element %lld", k->call->op->name, (long long)i);
  char text[64 * 4 + 8];
  size_t pos = 0, n = str->len < 64 ? str->len : 64;
  for (size_t j = 0; j < n; j++) {
    unsigned char c = (unsigned char)str->data[j];
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') text[pos++] = (char)c;
    else pos += (size_t)snprintf(text + pos, sizeof text - pos, "\\x%02x", c);
  }
  snprintf(text + pos, sizeof text - pos, "%s", str->len > n ? "..." : "");
  return opr_error(OPR_INVALID_ARGUMENT, "%s: element %lld ('%s') %s %s",
                   k->call->op->name, (long long)i, text,
                   r == S2N_RANGE ? "is out of range for" : "is not a valid",
                   opr_dtype_name(type));
}

/* The C locale for this thread while a kernel parses floats. */
typedef struct c_scope {
  locale_t c, old;
} c_scope;

static c_scope enter_c(void) {
  c_scope s = {newlocale(LC_ALL_MASK, "C", (locale_t)0), (locale_t)0};
  if (s.c) s.old = uselocale(s.c);
  return s;
}

static void leave_c(c_scope s) {
  if (!s.c) return;
  uselocale(s.old);
  freelocale(s.c);
}

#define S2N_KERNEL(ID, CT)                                                 \
  static opr_status s2n_##ID(opr_kernel_ctx *k) {                          \
    const opr_tensor *in = demo_string_to_number_input_string_tensor(k);   \
    opr_tensor *out;                                                       \
    opr_status s =                                                         \
        demo_string_to_number_alloc_output(k, in->rank, in->dims, &out);   \
    if (s) return s;                                                       \
    const opr_string *str = in->data;                                      \
    CT *o = out->data;                                                     \
    c_scope scope = enter_c();                                             \
    for (int64_t i = 0; i < in->num_elements && !s; i++) {                 \
      s2n_result r = s2n_parse(str[i].data, str[i].len, &o[i]);            \
      if (r) s = s2n_error(k, i, &str[i], r, OPR_DT_##ID);                 \
    }                                                                      \
    leave_c(scope);                                                        \
    return s;                                                              \
  }
DEMO_STRING_TO_NUMBER_OUT_TYPE_TYPES(S2N_KERNEL)
#undef S2N_KERNEL

opr_status kern_register_string_to_number(void) {
  opr_status s = OPR_OK;
#define S2N_REGISTER(ID, CT)                                             \
  if (!s)                                                                \
    s = demo_string_to_number_register_kernel(                           \
        &(demo_string_to_number_kernel_def){                                 \
            .fn = s2n_##ID, .device = OPR_DEVICE_CPU,                    \
            .out_type = OPR_DTYPE_BIT(OPR_DT_##ID), .label = "CPU, " #ID});
  DEMO_STRING_TO_NUMBER_OUT_TYPE_TYPES(S2N_REGISTER)
#undef S2N_REGISTER
  return s;
}
