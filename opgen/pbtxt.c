/* Protobuf text format reader: a hand-written scanner and a recursive
 * descent parser (the format is small and regular; a generated parser would
 * buy nothing). It stops at the first error, which it reports with the
 * exact position. */
#include "pbtxt.h"

#include "ascii.h"
#include "numtext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum tok_kind {
  TK_EOF,
  TK_IDENT,
  TK_INT,
  TK_FLOAT,
  TK_STRING,
  TK_PUNCT,
  TK_ERROR, /* already reported */
} tok_kind;

typedef struct tok {
  tok_kind kind;
  char punct;
  size_t begin, end; /* byte offsets of the token text */
  uint32_t line, col;
  og_bytes str; /* STRING: decoded (arena) */
  int64_t i;
  double f;
} tok;

typedef struct parser {
  const char *text;
  size_t len, off;
  uint32_t line;
  size_t line_start; /* offset of the current line's first byte */
  og_arena *arena;
  og_diag *diag;
  const char *path; /* arena copy */
  tok cur;
  bool failed;
  int depth;
  char *scratch; /* decoded string bytes; freed at the end */
  size_t scratch_len, scratch_cap;
} parser;

static void verror(parser *p, uint32_t line, uint32_t col, uint32_t len,
                   const char *fmt, va_list ap) {
  if (p->failed) return;
  p->failed = true;
  og_srcpos pos = {p->path, line, col, len};
  og_diag_vreport(p->diag, OG_SEV_ERROR, pos, fmt, ap);
}

static void __attribute__((format(printf, 5, 6)))
error_at(parser *p, uint32_t line, uint32_t col, uint32_t len,
         const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror(p, line, col, len, fmt, ap);
  va_end(ap);
}

static void __attribute__((format(printf, 3, 4)))
error_tok(parser *p, const tok *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror(p, t->line, t->col, (uint32_t)(t->end - t->begin), fmt, ap);
  va_end(ap);
}

static uint32_t col_of(const parser *p, size_t off) {
  return (uint32_t)(off - p->line_start + 1);
}

static int peek(const parser *p, size_t ahead) {
  size_t at = p->off + ahead;
  return at < p->len ? (unsigned char)p->text[at] : -1;
}

/* Whitespace and `#` comments, counting lines. */
static void skip_space(parser *p) {
  while (p->off < p->len) {
    char c = p->text[p->off];
    if (c == '#') {
      while (p->off < p->len && p->text[p->off] != '\n') p->off++;
    } else if (c == '\n') {
      p->off++;
      p->line++;
      p->line_start = p->off;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      p->off++;
    } else {
      return;
    }
  }
}

static bool is_ident_start(int c) { return og_is_alpha(c) || c == '_'; }
static bool is_ident_char(int c) { return og_is_alnum(c) || c == '_'; }

static void start_tok(parser *p, tok *t, tok_kind kind) {
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->begin = t->end = p->off;
  t->line = p->line;
  t->col = col_of(p, p->off);
}

static void scratch_add(parser *p, char c) {
  p->scratch = og_xgrow(p->scratch, &p->scratch_cap, p->scratch_len + 1, 1);
  p->scratch[p->scratch_len++] = c;
}

static int hex_digit(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* One escape sequence at p->off (the backslash); false after an error. */
static bool lex_escape(parser *p) {
  static const char simple_in[] = "abfnrtv\\?'\"";
  static const char simple_out[] = "\a\b\f\n\r\t\v\\?'\"";
  int c = peek(p, 1);
  const char *s = c > 0 ? strchr(simple_in, c) : NULL;
  if (s) {
    scratch_add(p, simple_out[s - simple_in]);
    p->off += 2;
    return true;
  }
  size_t n = 1;
  unsigned v = 0;
  if (c == 'x' || c == 'X') {
    for (n = 2; n < 4 && hex_digit(peek(p, n)) >= 0; n++)
      v = v * 16 + (unsigned)hex_digit(peek(p, n));
    if (n == 2) n = 0;
  } else if (c >= '0' && c <= '7') {
    for (; n < 4 && peek(p, n) >= '0' && peek(p, n) <= '7'; n++)
      v = v * 8 + (unsigned)(peek(p, n) - '0');
    if (v > 255) n = 0;
  } else {
    n = 0;
  }
  if (n == 0) {
    int shown = c >= 0x20 && c < 0x7f ? 2 : 1;
    error_at(p, p->line, col_of(p, p->off), 2,
             "invalid escape sequence '%.*s' in string", shown,
             p->text + p->off);
    return false;
  }
  scratch_add(p, (char)v);
  p->off += n;
  return true;
}

/* One quoted string, appended to the scratch buffer. */
static bool lex_one_string(parser *p) {
  char quote = p->text[p->off];
  uint32_t line = p->line, col = col_of(p, p->off);
  p->off++;
  for (;;) {
    int c = peek(p, 0);
    if (c < 0 || c == '\n') {
      error_at(p, line, col, 1, "missing terminating %c character", quote);
      return false;
    }
    if (c == quote) break;
    if (c == '\\') {
      if (!lex_escape(p)) return false;
      continue;
    }
    scratch_add(p, (char)c);
    p->off++;
  }
  p->off++;
  return true;
}

/* A string literal, and every literal directly after it (concatenated). */
static void lex_string(parser *p, tok *t) {
  start_tok(p, t, TK_STRING);
  p->scratch_len = 0;
  for (;;) {
    if (!lex_one_string(p)) {
      t->kind = TK_ERROR;
      return;
    }
    t->end = p->off;
    skip_space(p);
    int c = peek(p, 0);
    if (c != '"' && c != '\'') break;
  }
  t->str.ptr = og_arena_strndup(p->arena, p->scratch ? p->scratch : "",
                                p->scratch_len);
  t->str.len = p->scratch_len;
}

/* Digits in `base` from text[i]; returns the end; *overflow when the
 * magnitude exceeds `limit`. */
static size_t scan_uint(const parser *p, size_t i, unsigned base,
                        uint64_t limit, uint64_t *out, bool *overflow) {
  uint64_t v = 0;
  for (; i < p->len; i++) {
    int d = hex_digit((unsigned char)p->text[i]);
    if (d < 0 || (unsigned)d >= base) break;
    if (v > (limit - (unsigned)d) / base) *overflow = true;
    else v = v * base + (unsigned)d;
  }
  *out = v;
  return i;
}

/* Length of a float's text from `i` (digits, '.', exponent); *is_float
 * when it has a '.' or an exponent. */
static size_t scan_float(const parser *p, size_t i, bool *is_float) {
  const char *s = p->text;
  while (i < p->len && og_is_digit((unsigned char)s[i])) i++;
  if (i < p->len && s[i] == '.') {
    *is_float = true;
    for (i++; i < p->len && og_is_digit((unsigned char)s[i]);) i++;
  }
  if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < p->len && (s[j] == '+' || s[j] == '-')) j++;
    if (j < p->len && og_is_digit((unsigned char)s[j])) {
      *is_float = true;
      for (i = j; i < p->len && og_is_digit((unsigned char)s[i]);) i++;
    }
  }
  return i;
}

/* The integer digits_at..end (decimal, 0x hex or 0 octal, as protobuf
 * reads them). */
static void finish_int(parser *p, tok *t, size_t digits_at, size_t end,
                       bool negative) {
  const char *s = p->text + digits_at;
  bool hex = end - digits_at > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  bool octal = !hex && s[0] == '0';
  uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  uint64_t v = 0;
  bool overflow = false;
  size_t stop = scan_uint(p, digits_at + (hex ? 2 : 0), hex ? 16 : octal ? 8 : 10,
                          limit, &v, &overflow);
  t->kind = TK_ERROR;
  if (stop != end) {
    error_tok(p, t, "invalid number '%.*s'", (int)(t->end - t->begin),
              p->text + t->begin);
  } else if (overflow) {
    error_tok(p, t, "integer %.*s is out of range for a 64-bit signed integer",
              (int)(t->end - t->begin), p->text + t->begin);
  } else {
    t->kind = TK_INT;
    t->i = negative ? (int64_t)(0 - v) : (int64_t)v;
    t->f = negative ? -(double)v : (double)v;
  }
}

/* `-inf`, `-nan`: the only identifiers a sign may precede. */
static void lex_negative_ident(parser *p, tok *t) {
  size_t i = p->off + 1;
  while (i < p->len && is_ident_char((unsigned char)p->text[i])) i++;
  const char *word = p->text + p->off + 1;
  size_t n = i - p->off - 1;
  p->off = t->end = i;
  if (og_ascii_ieq(word, n, "inf") || og_ascii_ieq(word, n, "infinity")) {
    t->kind = TK_FLOAT;
    t->f = -INFINITY;
  } else if (og_ascii_ieq(word, n, "nan")) {
    t->kind = TK_FLOAT;
    t->f = -NAN;
  } else {
    error_tok(p, t, "'-' must be followed by a number, not '%.*s'", (int)n,
              word);
    t->kind = TK_ERROR;
  }
}

/* The end of the number's own text from `at`: hex digits, or a decimal
 * integer or float; *valid when it holds at least one digit. */
static size_t scan_number(const parser *p, size_t at, bool *is_float,
                          bool *valid) {
  const char *s = p->text;
  if (s[at] == '0' && at + 1 < p->len && (s[at + 1] == 'x' || s[at + 1] == 'X')) {
    size_t end = at + 2;
    while (end < p->len && hex_digit((unsigned char)s[end]) >= 0) end++;
    *valid = end > at + 2;
    return end;
  }
  *valid = og_is_digit((unsigned char)s[at]) ||
           (s[at] == '.' && at + 1 < p->len &&
            og_is_digit((unsigned char)s[at + 1]));
  size_t end = scan_float(p, at, is_float);
  if (*valid && end < p->len && (s[end] == 'f' || s[end] == 'F')) {
    *is_float = true; /* 1.5f: C's float suffix, which protobuf accepts */
    end++;
  }
  return end;
}

static void lex_number(parser *p, tok *t) {
  start_tok(p, t, TK_INT);
  bool negative = p->text[p->off] == '-';
  if (negative && is_ident_start(peek(p, 1))) {
    lex_negative_ident(p, t);
    return;
  }
  size_t at = p->off + (negative ? 1 : 0);
  bool is_float = false, valid = false;
  size_t end = scan_number(p, at, &is_float, &valid);
  size_t stop = end; /* `12abc` is one bad token, not two good ones */
  while (stop < p->len && is_ident_char((unsigned char)p->text[stop])) stop++;
  p->off = t->end = stop;
  if (!valid || stop != end) {
    error_tok(p, t, "invalid number '%.*s'", (int)(stop - t->begin),
              p->text + t->begin);
    t->kind = TK_ERROR;
  } else if (is_float) {
    size_t n = end - at;
    if (p->text[end - 1] == 'f' || p->text[end - 1] == 'F') n--;
    char *copy = og_arena_strndup(p->arena, p->text + at, n);
    double f = og_strtod(copy, NULL);
    t->kind = TK_FLOAT;
    t->f = negative ? -f : f;
  } else {
    finish_int(p, t, at, end, negative);
  }
}

static void lex_stray(parser *p, tok *t) {
  start_tok(p, t, TK_ERROR);
  unsigned char c = (unsigned char)p->text[p->off];
  t->end = p->off + 1;
  if (c < 0x20 || c == 0x7f)
    error_tok(p, t, "stray control character 0x%02x", c);
  else if (c >= 0x80)
    error_tok(p, t, "stray byte 0x%02x outside a string", c);
  else
    error_tok(p, t, "unexpected character '%c'", c);
  p->off++;
}

static void lex(parser *p, tok *t) {
  skip_space(p);
  int c = peek(p, 0);
  if (c < 0) {
    start_tok(p, t, TK_EOF);
  } else if (is_ident_start(c)) {
    start_tok(p, t, TK_IDENT);
    while (p->off < p->len && is_ident_char((unsigned char)p->text[p->off]))
      p->off++;
    t->end = p->off;
  } else if (og_is_digit(c) || (c == '.' && og_is_digit(peek(p, 1))) ||
             (c == '-' && (og_is_digit(peek(p, 1)) || peek(p, 1) == '.' ||
                           is_ident_start(peek(p, 1))))) {
    lex_number(p, t);
  } else if (c == '"' || c == '\'') {
    lex_string(p, t);
  } else if (c && strchr("{}<>[]:,;", c)) {
    start_tok(p, t, TK_PUNCT);
    t->punct = (char)c;
    t->end = ++p->off;
  } else {
    lex_stray(p, t);
  }
}

static void advance(parser *p) {
  if (!p->failed) lex(p, &p->cur);
  if (p->failed) p->cur.kind = TK_ERROR;
}

static bool at_punct(const parser *p, char c) {
  return p->cur.kind == TK_PUNCT && p->cur.punct == c;
}

/* What the current token is, in words, for "found ..." messages. */
static const char *describe(const parser *p, char *buf, size_t size) {
  const tok *t = &p->cur;
  int n = (int)(t->end - t->begin);
  if (n > 40) n = 40;
  switch (t->kind) {
  case TK_EOF: return "end of input";
  case TK_IDENT:
    snprintf(buf, size, "identifier '%.*s'", n, p->text + t->begin);
    return buf;
  case TK_INT:
  case TK_FLOAT:
    snprintf(buf, size, "number '%.*s'", n, p->text + t->begin);
    return buf;
  case TK_STRING: return "string literal";
  case TK_PUNCT: snprintf(buf, size, "'%c'", t->punct); return buf;
  case TK_ERROR: break;
  }
  return "invalid input";
}

static og_srcpos tok_pos(const parser *p, const tok *t) {
  og_srcpos pos = {p->path, t->line, t->col, (uint32_t)(t->end - t->begin)};
  return pos;
}

static og_pb_node *new_node(parser *p, const char *name, og_srcpos pos) {
  og_pb_node *n = og_arena_alloc(p->arena, sizeof *n);
  n->name = name;
  n->pos = pos;
  return n;
}

typedef struct field_list {
  og_pb_node *msg;
  og_pb_node **tail;
} field_list;

static void append(field_list *fl, og_pb_node *n) {
  *fl->tail = n;
  fl->tail = &n->next;
  fl->msg->nfields++;
}

static void parse_fields(parser *p, og_pb_node *msg, char closer);

/* A message value; the current token is its '{' or '<'. */
static void parse_message(parser *p, og_pb_node *n) {
  n->kind = OG_PB_MESSAGE;
  n->value_pos = tok_pos(p, &p->cur);
  char closer = p->cur.punct == '{' ? '}' : '>';
  if (++p->depth > OG_PB_MAX_DEPTH) {
    error_tok(p, &p->cur, "messages nested too deeply (more than %d levels)",
              OG_PB_MAX_DEPTH);
    return;
  }
  advance(p);
  parse_fields(p, n, closer);
  p->depth--;
}

/* A scalar or message value for field `n`. */
static void parse_value(parser *p, og_pb_node *n) {
  char buf[96];
  tok *t = &p->cur;
  n->value_pos = tok_pos(p, t);
  switch (t->kind) {
  case TK_PUNCT:
    if (t->punct == '{' || t->punct == '<') {
      parse_message(p, n);
      return;
    }
    break;
  case TK_STRING: n->kind = OG_PB_STRING; n->str = t->str; break;
  case TK_INT: n->kind = OG_PB_INT; break;
  case TK_FLOAT: n->kind = OG_PB_FLOAT; break;
  case TK_IDENT: n->kind = OG_PB_IDENT; break;
  case TK_EOF:
  case TK_ERROR: break;
  }
  if (t->kind == TK_PUNCT || t->kind == TK_EOF) {
    error_tok(p, t, "expected a value for field '%s', found %s", n->name,
              describe(p, buf, sizeof buf));
    return;
  }
  if (t->kind != TK_STRING) {
    n->str.ptr = og_arena_strndup(p->arena, p->text + t->begin,
                                  t->end - t->begin);
    n->str.len = t->end - t->begin;
  }
  n->i = t->i;
  n->f = t->f;
  advance(p);
}

/* `[v, v, ...]` after `name:`: one sibling node per element. */
static void parse_list(parser *p, field_list *fl, const char *name,
                       og_srcpos name_pos) {
  char buf[96];
  tok open = p->cur;
  advance(p);
  if (at_punct(p, ']')) {
    advance(p);
    return;
  }
  while (!p->failed) {
    og_pb_node *n = new_node(p, name, name_pos);
    parse_value(p, n);
    if (p->failed) return;
    append(fl, n);
    if (at_punct(p, ',')) {
      advance(p);
    } else if (at_punct(p, ']')) {
      advance(p);
      return;
    } else if (p->cur.kind == TK_EOF) {
      error_tok(p, &p->cur, "expected ']' to close the list of '%s' opened "
                "at %u:%u", name, open.line, open.col);
    } else {
      error_tok(p, &p->cur, "expected ',' or ']' in the list of '%s', found %s",
                name, describe(p, buf, sizeof buf));
    }
  }
}

/* One field; the current token is its name. */
static void parse_field(parser *p, field_list *fl) {
  char buf[96];
  tok name_tok = p->cur;
  const char *name = og_arena_strndup(p->arena, p->text + name_tok.begin,
                                      name_tok.end - name_tok.begin);
  og_srcpos name_pos = tok_pos(p, &name_tok);
  advance(p);
  bool colon = at_punct(p, ':');
  if (colon) advance(p);
  if (colon && at_punct(p, '[')) {
    parse_list(p, fl, name, name_pos);
    return;
  }
  if (!colon && !at_punct(p, '{') && !at_punct(p, '<')) {
    error_tok(p, &p->cur, "expected ':' or '{' after field name '%s', found %s",
              name, describe(p, buf, sizeof buf));
    return;
  }
  og_pb_node *n = new_node(p, name, name_pos);
  parse_value(p, n);
  if (!p->failed) append(fl, n);
}

/* Fields up to `closer` (0: end of input) of message `msg`. */
static void parse_fields(parser *p, og_pb_node *msg, char closer) {
  char buf[96];
  field_list fl = {msg, &msg->fields};
  while (!p->failed) {
    if (closer && at_punct(p, closer)) {
      advance(p);
      return;
    }
    if (p->cur.kind == TK_EOF) {
      if (closer)
        error_tok(p, &p->cur, "expected '%c' to close '%s' opened at %u:%u",
                  closer, msg->name, msg->pos.line, msg->pos.col);
      return;
    }
    if (p->cur.kind != TK_IDENT) {
      if (!closer && (at_punct(p, '}') || at_punct(p, '>')))
        error_tok(p, &p->cur, "unmatched '%c'", p->cur.punct);
      else if (closer)
        error_tok(p, &p->cur, "expected a field name or '%c', found %s",
                  closer, describe(p, buf, sizeof buf));
      else
        error_tok(p, &p->cur, "expected a field name, found %s",
                  describe(p, buf, sizeof buf));
      return;
    }
    parse_field(p, &fl);
    if (at_punct(p, ',') || at_punct(p, ';')) advance(p);
  }
}

og_pb_node *og_pbtxt_parse(og_arena *arena, const char *path,
                           const char *text, size_t len, og_diag *diag) {
  parser p = {.text = text, .len = len, .line = 1, .arena = arena,
              .diag = diag};
  p.path = og_arena_strdup(arena, path ? path : "<input>");
  og_srcpos start = {p.path, 1, 1, 0};
  og_pb_node *root = new_node(&p, "", start);
  root->kind = OG_PB_MESSAGE;
  root->value_pos = start;
  advance(&p);
  parse_fields(&p, root, 0);
  free(p.scratch);
  return p.failed ? NULL : root;
}

bool og_pb_float(const og_pb_node *n, double *out) {
  if (n->kind == OG_PB_INT || n->kind == OG_PB_FLOAT) {
    *out = n->f;
    return true;
  }
  if (n->kind != OG_PB_IDENT) return false;
  if (og_ascii_ieq(n->str.ptr, n->str.len, "inf") ||
      og_ascii_ieq(n->str.ptr, n->str.len, "infinity")) {
    *out = INFINITY;
    return true;
  }
  if (og_ascii_ieq(n->str.ptr, n->str.len, "nan")) {
    *out = NAN;
    return true;
  }
  return false;
}

const char *og_pb_describe(const og_pb_node *n, char *buf, size_t size) {
  switch (n->kind) {
  case OG_PB_MESSAGE: return "a message";
  case OG_PB_STRING: return "a string";
  case OG_PB_INT: snprintf(buf, size, "integer %s", n->str.ptr); return buf;
  case OG_PB_FLOAT: snprintf(buf, size, "number %s", n->str.ptr); return buf;
  case OG_PB_IDENT: snprintf(buf, size, "'%s'", n->str.ptr); return buf;
  }
  return "a value";
}
