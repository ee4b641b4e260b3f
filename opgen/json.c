#include "json.h"

#include "numtext.h"
#include "source.h" /* og_utf8_seq_len */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- UTF-8 ---------------------------------------------------------- */

static size_t utf8_encode(uint32_t cp, char *out) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* ---- parser state and errors ---------------------------------------- */

typedef struct parser {
  og_arena *arena;
  const char *path;
  og_diag *diag;
  const char *text;
  size_t len, pos;
  uint32_t line;     /* of pos */
  size_t line_start; /* offset of that line's first byte */
  unsigned depth;
} parser;

/* Only whitespace can hold a newline (strings reject raw control
 * characters), so the line is tracked there and columns are offsets. */
static uint32_t col_of(const parser *p, size_t off) {
  return (uint32_t)(off - p->line_start + 1);
}

static bool fail_at(parser *p, uint32_t line, uint32_t col, const char *fmt,
                    ...) __attribute__((format(printf, 4, 5)));

static bool fail_at(parser *p, uint32_t line, uint32_t col, const char *fmt,
                    ...) {
  og_srcpos pos = {p->path, line, col, 0};
  va_list ap;
  va_start(ap, fmt);
  og_diag_vreport(p->diag, OG_SEV_ERROR, pos, fmt, ap);
  va_end(ap);
  return false;
}

#define fail_here(p, ...) \
  fail_at(p, (p)->line, col_of(p, (p)->pos), __VA_ARGS__)

/* The byte at `off` for a message: 'x', byte 0xNN or end of input. */
static const char *describe(const parser *p, size_t off, char buf[32]) {
  if (off >= p->len) return "end of input";
  unsigned char c = (unsigned char)p->text[off];
  if (c > 0x20 && c < 0x7F && c != '\'') snprintf(buf, 32, "'%c'", c);
  else snprintf(buf, 32, "byte 0x%02X", c);
  return buf;
}

/* "expected X, found Y"; at the end of input also where the unclosed
 * bracket was opened. */
static bool fail_expected(parser *p, const char *what, const og_json *open) {
  char buf[32];
  fail_here(p, "expected %s, found %s", what, describe(p, p->pos, buf));
  if (p->pos >= p->len) {
    og_srcpos pos = {p->path, open->line, open->col, 0};
    og_diag_report(p->diag, OG_SEV_NOTE, pos, "'%c' opened here",
                   open->kind == OG_JSON_ARRAY ? '[' : '{');
  }
  return false;
}

static int peek(const parser *p) {
  return p->pos < p->len ? (unsigned char)p->text[p->pos] : -1;
}

static void skip_ws(parser *p) {
  while (p->pos < p->len) {
    char c = p->text[p->pos];
    if (c == '\n') {
      p->line++;
      p->line_start = p->pos + 1;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      return;
    }
    p->pos++;
  }
}

/* A growable array of values while a container is being read; copied into
 * the arena once complete. Owned by the parse function that declares it. */
typedef struct vec {
  void *data;
  size_t count, cap;
} vec;

static void *vec_push(vec *v, size_t elem) {
  v->data = og_xgrow(v->data, &v->cap, v->count + 1, elem);
  void *slot = (char *)v->data + v->count++ * elem;
  memset(slot, 0, elem);
  return slot;
}

static void *vec_to_arena(og_arena *arena, const vec *v, size_t elem) {
  if (!v->count) return NULL;
  void *out = og_arena_array(arena, v->count, elem);
  memcpy(out, v->data, v->count * elem);
  return out;
}

/* ---- strings --------------------------------------------------------- */

static int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Four hex digits after "\u" at `off` (which points at the backslash). */
static bool read_hex4(parser *p, size_t off, uint32_t *out) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; i++) {
    size_t at = off + 2 + i;
    int h = at < p->len ? hex_value((unsigned char)p->text[at]) : -1;
    if (h < 0)
      return fail_at(p, p->line, col_of(p, off),
                     "invalid \\u escape: expected 4 hex digits");
    v = v << 4 | (uint32_t)h;
  }
  *out = v;
  return true;
}

/* \uXXXX at p->pos, and its low half when it is a high surrogate. Appends
 * the UTF-8 (or the raw byte of a \uDCxx escape) to out. */
static bool read_unicode_escape(parser *p, char *out, size_t *n) {
  size_t start = p->pos;
  uint32_t cp, low;
  if (!read_hex4(p, start, &cp)) return false;
  p->pos += 6;
  if (cp >= 0xD800 && cp <= 0xDBFF && p->pos + 1 < p->len &&
      p->text[p->pos] == '\\' && p->text[p->pos + 1] == 'u') {
    if (!read_hex4(p, p->pos, &low)) return false;
    if (low >= 0xDC00 && low <= 0xDFFF) {
      p->pos += 6;
      *n += utf8_encode(0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00),
                        out + *n);
      return true;
    }
  }
  if (cp >= 0xDC80 && cp <= 0xDCFF) { /* an escaped raw byte */
    out[(*n)++] = (char)(cp & 0xFF);
    return true;
  }
  if (cp >= 0xD800 && cp <= 0xDFFF)
    return fail_at(p, p->line, col_of(p, start),
                   "unpaired surrogate \\u%04" PRIX32 " in string", cp);
  *n += utf8_encode(cp, out + *n);
  return true;
}

static bool read_escape(parser *p, char *out, size_t *n) {
  static const char simple_in[] = "\"\\/bfnrt";
  static const char simple_out[] = "\"\\/\b\f\n\r\t";
  int c = p->pos + 1 < p->len ? (unsigned char)p->text[p->pos + 1] : -1;
  const char *hit = c > 0 ? strchr(simple_in, c) : NULL;
  if (hit) {
    out[(*n)++] = simple_out[hit - simple_in];
    p->pos += 2;
    return true;
  }
  if (c == 'u') return read_unicode_escape(p, out, n);
  char buf[32];
  return fail_here(p, "invalid escape in string: '\\' followed by %s",
                   describe(p, p->pos + 1, buf));
}

/* Where decoding can stop: the closing quote, a raw control character or
 * the end. Decoded text is never longer than the source, so this bounds
 * the buffer. */
static size_t string_extent(const parser *p, size_t from) {
  size_t i = from;
  while (i < p->len) {
    unsigned char c = (unsigned char)p->text[i];
    if (c == '"' || c < 0x20) return i;
    i += c == '\\' ? 2 : 1;
  }
  return p->len;
}

static bool parse_string(parser *p, og_bytes *out) {
  size_t open = p->pos++;
  size_t end = string_extent(p, p->pos);
  char *buf = og_arena_alloc(p->arena, end - p->pos + 1);
  size_t n = 0;
  while (p->pos < end) {
    unsigned char c = (unsigned char)p->text[p->pos];
    if (c == '\\') {
      if (!read_escape(p, buf, &n)) return false;
      continue;
    }
    size_t k = og_utf8_seq_len((const unsigned char *)p->text + p->pos,
                            p->len - p->pos);
    if (!k) return fail_here(p, "invalid UTF-8 in string");
    memcpy(buf + n, p->text + p->pos, k);
    n += k;
    p->pos += k;
  }
  if (p->pos >= p->len)
    return fail_at(p, p->line, col_of(p, open), "unterminated string");
  if (p->text[p->pos] != '"')
    return fail_here(p, "unescaped control character 0x%02X in string",
                     (unsigned char)p->text[p->pos]);
  p->pos++;
  buf[n] = '\0';
  out->ptr = buf;
  out->len = n;
  return true;
}

/* ---- numbers and literals --------------------------------------------- */

static bool is_digit_at(const parser *p, size_t i) {
  return i < p->len && p->text[i] >= '0' && p->text[i] <= '9';
}

/* The end of the number starting at p->pos per the RFC grammar, or 0
 * after reporting what is malformed. */
static size_t scan_number(parser *p, bool *is_integer) {
  size_t i = p->pos;
  *is_integer = true;
  if (p->text[i] == '-') i++;
  if (!is_digit_at(p, i))
    return fail_here(p, "invalid number: expected a digit after '-'"), 0;
  if (p->text[i] == '0' && is_digit_at(p, i + 1))
    return fail_here(p, "invalid number: leading zeros are not allowed"), 0;
  while (is_digit_at(p, i)) i++;
  if (i < p->len && p->text[i] == '.') {
    *is_integer = false;
    if (!is_digit_at(p, ++i))
      return fail_here(p, "invalid number: expected a digit after '.'"), 0;
    while (is_digit_at(p, i)) i++;
  }
  if (i < p->len && (p->text[i] == 'e' || p->text[i] == 'E')) {
    *is_integer = false;
    i++;
    if (i < p->len && (p->text[i] == '+' || p->text[i] == '-')) i++;
    if (!is_digit_at(p, i))
      return fail_here(p, "invalid number: expected a digit in the "
                          "exponent"),
             0;
    while (is_digit_at(p, i)) i++;
  }
  return i;
}

static bool parse_number(parser *p, og_json *out) {
  bool is_integer;
  size_t end = scan_number(p, &is_integer);
  if (!end) return false;
  og_json_number *num = &out->u.num;
  num->text = og_arena_strndup(p->arena, p->text + p->pos, end - p->pos);
  num->is_integer = is_integer;
  num->d = og_strtod(num->text, NULL); /* underflow to 0 or subnormal is fine */
  if (isinf(num->d)) return fail_here(p, "number out of range: %s", num->text);
  if (is_integer) {
    errno = 0;
    long long v = strtoll(num->text, NULL, 10);
    num->fits_int64 = errno != ERANGE;
    if (num->fits_int64) num->i = v;
  }
  out->kind = OG_JSON_NUMBER;
  p->pos = end;
  return true;
}

static bool parse_literal(parser *p, og_json *out) {
  size_t end = p->pos;
  while (end < p->len && (p->text[end] == '_' ||
                          (p->text[end] >= 'a' && p->text[end] <= 'z') ||
                          (p->text[end] >= 'A' && p->text[end] <= 'Z') ||
                          (p->text[end] >= '0' && p->text[end] <= '9')))
    end++;
  size_t n = end - p->pos;
  const char *word = p->text + p->pos;
  if (n == 4 && memcmp(word, "null", 4) == 0) out->kind = OG_JSON_NULL;
  else if (n == 4 && memcmp(word, "true", 4) == 0)
    out->kind = OG_JSON_BOOL, out->u.b = true;
  else if (n == 5 && memcmp(word, "false", 5) == 0)
    out->kind = OG_JSON_BOOL, out->u.b = false;
  else
    return fail_here(p, "invalid literal '%.*s' (expected true, false or null)",
                     n > 40 ? 40 : (int)n, word);
  p->pos = end;
  return true;
}

/* ---- containers ------------------------------------------------------- */

static bool parse_value(parser *p, og_json *out);

static bool enter(parser *p) {
  if (++p->depth <= OG_JSON_MAX_DEPTH) return true;
  return fail_here(p, "nesting deeper than %d levels", OG_JSON_MAX_DEPTH);
}

/* After ',' a closing bracket means a trailing comma, which JSON lacks. */
static bool after_comma(parser *p, char close, const char *what) {
  uint32_t line = p->line, col = col_of(p, p->pos);
  p->pos++;
  skip_ws(p);
  if (peek(p) != close) return true;
  return fail_at(p, line, col, "trailing comma in %s", what);
}

static int compare_bytes(og_bytes a, og_bytes b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = memcmp(a.ptr, b.ptr, n);
  if (c) return c;
  return a.len < b.len ? -1 : a.len > b.len;
}

static int compare_members(const void *a, const void *b) {
  const og_json_member *x = *(const og_json_member *const *)a;
  const og_json_member *y = *(const og_json_member *const *)b;
  int c = compare_bytes(x->key, y->key);
  if (c) return c;
  return x < y ? -1 : x > y; /* document order among equal keys */
}

/* Sorting makes this O(n log n): an object may be large. */
static bool check_unique_keys(parser *p, og_json_member *m, size_t n) {
  if (n < 2) return true;
  const og_json_member **sorted = og_xmalloc(n * sizeof *sorted);
  for (size_t i = 0; i < n; i++) sorted[i] = &m[i];
  qsort(sorted, n, sizeof *sorted, compare_members);
  const og_json_member *dup = NULL;
  for (size_t i = 1; i < n && !dup; i++)
    if (compare_bytes(sorted[i - 1]->key, sorted[i]->key) == 0)
      dup = sorted[i];
  free(sorted);
  if (!dup) return true;
  return fail_at(p, dup->line, dup->col, "duplicate key \"%s\" in object",
                 dup->key.ptr);
}

static bool parse_member(parser *p, og_json_member *m, og_json *obj) {
  if (peek(p) != '"') return fail_expected(p, "a string key in object", obj);
  m->line = p->line;
  m->col = col_of(p, p->pos);
  if (!parse_string(p, &m->key)) return false;
  skip_ws(p);
  if (peek(p) != ':') return fail_expected(p, "':' after object key", obj);
  p->pos++;
  return parse_value(p, &m->value);
}

/* How a container reads one element into a fresh slot of its vec. */
typedef bool (*element_fn)(parser *p, void *slot, og_json *container);

static bool array_element(parser *p, void *slot, og_json *array) {
  (void)array;
  return parse_value(p, slot);
}

static bool object_element(parser *p, void *slot, og_json *object) {
  return parse_member(p, slot, object);
}

/* The elements of `container` from its opening bracket at p->pos through
 * `close`, separated by commas (`what` names the container in messages,
 * `expected` what may follow an element). Pushed onto `v`, which the
 * caller frees. */
static bool parse_elements(parser *p, og_json *container, char close,
                           const char *what, const char *expected, vec *v,
                           size_t elem, element_fn one) {
  p->pos++;
  skip_ws(p);
  if (peek(p) == close) {
    p->pos++;
    return true;
  }
  for (;;) {
    if (!one(p, vec_push(v, elem), container)) return false;
    skip_ws(p);
    if (peek(p) == close) {
      p->pos++;
      return true;
    }
    if (peek(p) != ',') return fail_expected(p, expected, container);
    if (!after_comma(p, close, what)) return false;
  }
}

static bool parse_array(parser *p, og_json *out) {
  if (!enter(p)) return false;
  out->kind = OG_JSON_ARRAY;
  vec items = {0};
  bool ok = parse_elements(p, out, ']', "array",
                           "',' or ']' after array element", &items,
                           sizeof(og_json), array_element);
  if (ok) {
    out->u.arr.count = items.count;
    out->u.arr.items = vec_to_arena(p->arena, &items, sizeof(og_json));
  }
  free(items.data);
  p->depth--;
  return ok;
}

static bool parse_object(parser *p, og_json *out) {
  if (!enter(p)) return false;
  out->kind = OG_JSON_OBJECT;
  vec members = {0};
  bool ok = parse_elements(p, out, '}', "object",
                           "',' or '}' after object member", &members,
                           sizeof(og_json_member), object_element);
  if (ok) {
    out->u.obj.count = members.count;
    out->u.obj.members =
        vec_to_arena(p->arena, &members, sizeof(og_json_member));
    ok = check_unique_keys(p, out->u.obj.members, out->u.obj.count);
  }
  free(members.data);
  p->depth--;
  return ok;
}

static bool parse_value(parser *p, og_json *out) {
  skip_ws(p);
  out->line = p->line;
  out->col = col_of(p, p->pos);
  int c = peek(p);
  if (c == '{') return parse_object(p, out);
  if (c == '[') return parse_array(p, out);
  if (c == '"') {
    out->kind = OG_JSON_STRING;
    return parse_string(p, &out->u.str);
  }
  if (c == '-' || (c >= '0' && c <= '9')) return parse_number(p, out);
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
    return parse_literal(p, out);
  char buf[32];
  return fail_here(p, "expected a JSON value, found %s",
                   describe(p, p->pos, buf));
}

const og_json *og_json_parse(og_arena *arena, const char *path,
                             const char *text, size_t len, og_diag *diag) {
  parser p = {arena, path, diag, text, len, 0, 1, 0, 0};
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
    p.pos = p.line_start = 3;
  og_json *root = og_arena_alloc(arena, sizeof *root);
  if (!parse_value(&p, root)) return NULL;
  skip_ws(&p);
  if (p.pos < p.len) {
    char buf[32];
    fail_here(&p, "unexpected %s after the JSON value",
              describe(&p, p.pos, buf));
    return NULL;
  }
  return root;
}

const og_json *og_json_get(const og_json *obj, const char *key) {
  if (!obj || obj->kind != OG_JSON_OBJECT) return NULL;
  size_t n = strlen(key);
  for (size_t i = 0; i < obj->u.obj.count; i++) {
    const og_json_member *m = &obj->u.obj.members[i];
    if (m->key.len == n && memcmp(m->key.ptr, key, n) == 0) return &m->value;
  }
  return NULL;
}

const char *og_json_kind_name(og_json_kind kind) {
  switch (kind) {
  case OG_JSON_NULL: return "null";
  case OG_JSON_BOOL: return "boolean";
  case OG_JSON_NUMBER: return "number";
  case OG_JSON_STRING: return "string";
  case OG_JSON_ARRAY: return "array";
  case OG_JSON_OBJECT: return "object";
  }
  return "value";
}

/* ---- writing ------------------------------------------------------------ */

static void write_escape(og_writer *w, unsigned char c) {
  static const char short_in[] = "\"\\\b\f\n\r\t", short_out[] = "\"\\bfnrt";
  const char *hit = c ? memchr(short_in, c, sizeof short_in - 1) : NULL;
  if (hit) og_w_printf(w, "\\%c", short_out[hit - short_in]);
  else if (c < 0x80) og_w_printf(w, "\\u%04x", c);
  else og_w_printf(w, "\\udc%02x", c); /* a byte that is not UTF-8 */
}

void og_json_write_string(og_writer *w, og_bytes s) {
  const unsigned char *b = (const unsigned char *)s.ptr;
  size_t run = 0; /* start of the bytes copied as they are */
  og_w_write(w, "\"", 1);
  for (size_t i = 0; i < s.len;) {
    size_t k = og_utf8_seq_len(b + i, s.len - i);
    if (k && b[i] >= 0x20 && b[i] != '"' && b[i] != '\\') {
      i += k;
      continue;
    }
    og_w_write(w, s.ptr + run, i - run);
    write_escape(w, b[i]);
    run = ++i;
  }
  og_w_write(w, s.ptr + run, s.len - run);
  og_w_write(w, "\"", 1);
}

void og_json_write_cstring(og_writer *w, const char *s) {
  og_bytes b = {s ? s : "", s ? strlen(s) : 0};
  og_json_write_string(w, b);
}

/* The plain form up to 16 digits, like JavaScript's for moderate
 * magnitudes ("100.0", not "1e+02"). */
void og_json_format_double(double d, char out[OG_JSON_DOUBLE_MAX]) {
  og_format_double(d, 16, out);
}

void og_json_write_double(og_writer *w, double d) {
  char buf[OG_JSON_DOUBLE_MAX];
  og_json_format_double(d, buf);
  og_w_puts(w, buf);
}
