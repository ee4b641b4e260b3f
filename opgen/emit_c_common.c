/* Naming and spelling rules shared by the C emitters. */
#define _GNU_SOURCE /* strchrnul, where the C library has it */
#include "emit_c_internal.h"

#include "ascii.h"
#include "source.h" /* og_utf8_seq_len */
#include "version.h"

#include <stdint.h>
#include <string.h>

/* An open-addressing table from an op's address to its slot: its C name
 * and, once asked for, its wrapper parameters. */
typedef struct op_slot {
  const og_op *op;
  const char *name;
  size_t name_len;
  og_cn_scoped scoped; /* set by og_cn_check_run */
  const char **indexes[3]; /* og_cn_indexes, kept by og_cn_check_run */
  const char *parts[OG_CN_OP_PARTS]; /* og_cn_op, the same */
  og_c_params params;
  bool has_params;
} op_slot;

struct og_c_cache {
  op_slot *slots;
  size_t mask; /* slots: a power of two, at least twice the ops */
};

static size_t slot_hash(const og_op *op, size_t mask) {
  uint64_t h = (uint64_t)(uintptr_t)op * 0x9E3779B97F4A7C15u; /* Fibonacci */
  return (size_t)(h >> 32) & mask;
}

static op_slot *find_slot(const og_c_file *f, const og_op *op) {
  const struct og_c_cache *c = f->cache;
  if (!c) return NULL;
  for (size_t i = slot_hash(op, c->mask);; i = (i + 1) & c->mask)
    if (c->slots[i].op == op || !c->slots[i].op)
      return c->slots[i].op ? &c->slots[i] : NULL;
}

void og_c_cache_init(og_c_file *f) {
  struct og_c_cache *c = og_arena_alloc(f->arena, sizeof *c);
  size_t n = 16;
  while (n < 2 * f->nops) n *= 2;
  c->slots = og_arena_array(f->arena, n, sizeof *c->slots);
  c->mask = n - 1;
  for (size_t k = 0; k < f->nops; k++) {
    size_t i = slot_hash(f->ops[k], c->mask);
    while (c->slots[i].op && c->slots[i].op != f->ops[k]) i = (i + 1) & c->mask;
    c->slots[i].op = f->ops[k];
    c->slots[i].name = og_c_compute_op_name(f, f->ops[k]);
    c->slots[i].name_len = strlen(c->slots[i].name);
  }
  f->cache = c;
}

const char *og_c_op_name(const og_c_file *f, const og_op *op) {
  const op_slot *s = find_slot(f, op);
  return s ? s->name : og_c_compute_op_name(f, op);
}

const char *og_c_op_name_len(const og_c_file *f, const og_op *op,
                             size_t *len) {
  const op_slot *s = find_slot(f, op);
  if (s) {
    *len = s->name_len;
    return s->name;
  }
  const char *name = og_c_compute_op_name(f, op);
  *len = strlen(name);
  return name;
}

void og_c_cache_set_scoped(const og_c_file *f, const og_op *op,
                           const og_cn_scoped *n) {
  op_slot *s = find_slot(f, op);
  if (s) s->scoped = *n, s->has_params = false; /* made from them */
}

void og_c_cache_set_indexes(const og_c_file *f, const og_op *op,
                            og_cn_index_kind kind, const char **names) {
  op_slot *s = find_slot(f, op);
  if (s) s->indexes[kind] = names;
}

const char **og_c_cached_indexes(const og_c_file *f, const og_op *op,
                                 og_cn_index_kind kind) {
  const op_slot *s = find_slot(f, op);
  return s ? s->indexes[kind] : NULL;
}

void og_c_cache_set_op_part(const og_c_file *f, const og_op *op,
                            og_cn_op_part part, const char *name) {
  op_slot *s = find_slot(f, op);
  if (s) s->parts[part] = name;
}

const char *og_c_cached_op_part(const og_c_file *f, const og_op *op,
                                og_cn_op_part part) {
  const op_slot *s = find_slot(f, op);
  return s ? s->parts[part] : NULL;
}

const og_cn_scoped *og_c_scoped(const og_c_file *f, const og_op *op) {
  return &find_slot(f, op)->scoped;
}

bool og_c_attr_required(const og_attr *a) {
  return !a->inferred && !a->default_value;
}

bool og_c_attr_optional(const og_attr *a) {
  return !a->inferred && a->default_value;
}

bool og_c_has_attrs_struct(const og_op *op) {
  for (size_t i = 0; i < op->nattrs; i++)
    if (og_c_attr_optional(&op->attrs[i])) return true;
  return false;
}

bool og_c_attr_is_enum(const og_attr *a) {
  return a->type.kind == OG_ATTR_STRING && !a->type.is_list && a->allowed;
}

static const char *scalar_ctype(og_attr_kind k) {
  switch (k) {
  case OG_ATTR_STRING: return "const char *";
  case OG_ATTR_INT: return "int64_t";
  case OG_ATTR_FLOAT: return "float";
  case OG_ATTR_BOOL: return "bool";
  case OG_ATTR_TYPE: return "opr_dtype";
  case OG_ATTR_SHAPE: return "opr_shape";
  case OG_ATTR_TENSOR: return "const opr_tensor *";
  case OG_ATTR_FUNC: return "const char *";
  }
  return "void *";
}

const char *og_c_attr_ctype(const og_c_file *f, const og_op *op,
                            const og_attr *a) {
  if (og_c_attr_is_enum(a))
    return og_cn_attr(f, op, a, OG_CN_ENUM);
  if (a->type.is_list && a->type.kind == OG_ATTR_STRING) return "opr_str";
  return scalar_ctype(a->type.kind);
}

const char *og_c_attr_kind(og_attr_kind k) {
  static const char *const names[] = {
      [OG_ATTR_STRING] = "OPR_ATTR_STRING", [OG_ATTR_INT] = "OPR_ATTR_INT",
      [OG_ATTR_FLOAT] = "OPR_ATTR_FLOAT",   [OG_ATTR_BOOL] = "OPR_ATTR_BOOL",
      [OG_ATTR_TYPE] = "OPR_ATTR_TYPE",     [OG_ATTR_SHAPE] = "OPR_ATTR_SHAPE",
      [OG_ATTR_TENSOR] = "OPR_ATTR_TENSOR", [OG_ATTR_FUNC] = "OPR_ATTR_FUNC",
  };
  return names[k];
}

bool og_c_arg_is_list(const og_arg *arg) {
  return arg->number_attr[0] || arg->type_list_attr[0];
}

int og_c_attr_index(const og_op *op, const char *name) {
  const og_attr *a = name[0] ? og_op_find_attr(op, name) : NULL; /* hashed */
  return a ? (int)(a - op->attrs) : -1;
}

/* Bytes a C string literal can hold as they are: printable ASCII and
 * well-formed UTF-8 (compilers refuse other bytes in a source file's
 * literals: clang's -Winvalid-source-encoding). Returns how many, or 0. */
static size_t plain_in_string(const char *s, size_t i, size_t len) {
  unsigned char c = (unsigned char)s[i];
  if (c >= 0x80) return og_utf8_seq_len((const unsigned char *)s + i, len - i);
  return c >= 0x20 && c != 0x7f && c != '"' && c != '\\' &&
         !(c == '?' && i > 0 && s[i - 1] == '?'); /* no trigraphs */
}

/* Whether one of x's bytes is 0. */
static uint64_t zero_byte(uint64_t x) {
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  return (x - ones) & ~x & highs;
}

/* Whether one of x's bytes is not printable ASCII, or is '"', '\\' or
 * '?' (exact: each test finds whether a byte is such). */
static bool bad_in_word(uint64_t x) {
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  return (x & highs) | ((x - ones * 0x20) & ~x & highs) |
         zero_byte(x ^ (ones * 0x7f)) | zero_byte(x ^ (ones * '"')) |
         zero_byte(x ^ (ones * '\\')) | zero_byte(x ^ (ones * '?'));
}

/* Printable ASCII with nothing to escape (no '?' either: trigraphs);
 * eight bytes a step, the last eight overlapping (names are quoted some
 * 20,000 times a corpus run). */
static bool plain_ascii(const char *s, size_t len) {
  uint64_t x;
  if (len >= 8) {
    for (size_t i = 0; i + 8 < len; i += 8) {
      memcpy(&x, s + i, 8);
      if (bad_in_word(x)) return false;
    }
    memcpy(&x, s + len - 8, 8);
    return !bad_in_word(x);
  }
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '?')
      return false;
  }
  return true;
}

bool og_c_string_plain(const char *s, size_t len) {
  return len <= 62 && plain_ascii(s, len);
}

void og_c_string(og_writer *w, const char *s, size_t len) {
  char q[64];
  if (og_c_string_plain(s, len)) { /* names: one write */
    q[0] = '"';
    memcpy(q + 1, s, len);
    q[len + 1] = '"';
    og_w_write(w, q, len + 2);
    return;
  }
  if (!og_c_string_fits(len)) {
    og_c_long_string(w, s, len);
    return;
  }
  og_w_puts(w, "\"");
  for (size_t i = 0; i < len;) {
    size_t run = i;
    for (size_t n; run < len && (n = plain_in_string(s, run, len));) run += n;
    if (run > i) og_w_write(w, s + i, run - i);
    if (run == len) break;
    unsigned char c = (unsigned char)s[run];
    if (c == '"' || c == '\\') og_w_printf(w, "\\%c", c);
    else if (c == '\n') og_w_puts(w, "\\n");
    else if (c == '?') og_w_puts(w, "\\?");
    else og_w_printf(w, "\\%03o", c);
    i = run + 1;
  }
  og_w_puts(w, "\"");
}

/* Writes one comment line (after `pad` spaces), escaping a comment
 * terminator. */
/* Eight bytes a step (doc comments are most of a header's text): true if
 * one of x's bytes is '*', '/' or '?', the bytes that begin a pair
 * og_c_comment_text must split. */
static uint64_t comment_bytes(uint64_t x) {
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  uint64_t a = x ^ (ones * '*'), b = x ^ (ones * '/'), c = x ^ (ones * '?');
  return (((a - ones) & ~a) | ((b - ones) & ~b) | ((c - ones) & ~c)) & highs;
}

static bool has_comment_byte(uint64_t x) { return comment_bytes(x) != 0; }

/* The first i' >= i below end where p[i'] is '*', '/' or '?', or end. */
static size_t next_comment_byte(const char *p, size_t i, size_t end) {
  for (uint64_t x; i + 8 <= end; i += 8) {
    memcpy(&x, p + i, 8);
    if (!has_comment_byte(x)) continue;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* The lowest flagged byte is exact (a borrow runs only upwards). */
    return i + (size_t)__builtin_ctzll(comment_bytes(x)) / 8;
#else
    break;
#endif
  }
  while (i < end && p[i] != '*' && p[i] != '/' && p[i] != '?') i++;
  return i;
}

/* og_c_comment_text's bytes at d (room: 2n, a space at most after each
 * byte); returns their end. */
static char *comment_put(char *d, const char *p, size_t n) {
  size_t start = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    i = next_comment_byte(p, i, n - 1);
    if (i + 1 >= n) break;
    bool closes = p[i] == '*' && p[i + 1] == '/';
    bool opens = p[i] == '/' && p[i + 1] == '*'; /* -Wcomment */
    bool trigraph = p[i] == '?' && p[i + 1] == '?';
    if (!closes && !opens && !trigraph) continue;
    d = og_w_put(d, p + start, i + 1 - start);
    *d++ = ' '; /* "* /", "/ *", "? ?" */
    start = i + 1;
  }
  return og_w_put(d, p + start, n - start);
}

void og_c_comment_text(og_writer *w, const char *p, size_t n) {
  if (!n) return;
  if (og_has_newline(p, n)) { /* lines indented as og_w_write does */
    og_writer t;
    og_writer_init(&t);
    og_w_close(&t, comment_put(og_w_open(&t, 2 * n), p, n));
    og_w_write(w, t.buf, t.len);
    og_writer_free(&t);
    return;
  }
  og_w_close(w, comment_put(og_w_open(w, 2 * n), p, n));
}

/* " * text\n" after `pad` spaces, composed in place: a header's doc
 * comments are some 40,000 such lines. */
static void doc_line(og_writer *w, size_t pad, const char *p, size_t n) {
  char *d = og_w_open(w, 3 + pad + 2 * n + 1);
  if (n) {
    d = og_w_put_spaces(og_w_put(d, " * ", 3), pad);
    d = comment_put(d, p, n);
  } else { /* the pad as og_w_spaces wrote it */
    d = og_w_put_spaces(og_w_put(d, " *", 2), pad);
  }
  *d++ = '\n';
  og_w_close(w, d);
}

void og_c_comment(og_writer *w, const char *text) {
  size_t n = strlen(text);
  if (n <= 70 && !memchr(text, '\n', n)) {
    og_w_puts(w, "/* ");
    og_c_comment_text(w, text, n);
    og_w_line(w, " */");
    return;
  }
  og_w_line(w, "/*");
  og_c_doc_lines(w, text);
  og_w_line(w, " */");
}

enum { DOC_WIDTH = 76 };

/* Bytes before p's first '\n' or its end. */
static size_t line_len(const char *p) {
#ifdef __GLIBC__
  return (size_t)(strchrnul(p, '\n') - p);
#else
  return strcspn(p, "\n");
#endif
}

/* Lines longer than DOC_WIDTH wrap at a space; continuations are indented
 * two more than the line they continue. */
void og_c_doc_lines(og_writer *w, const char *text) {
  const char *p = text;
  while (*p) {
    size_t n = line_len(p), min = 0, pad = 0;
    while (p[min] == ' ') min++;
    while (pad + n > DOC_WIDTH) {
      size_t cut = DOC_WIDTH - pad;
      while (cut > min && p[cut] != ' ') cut--;
      if (cut <= min) break; /* one long word: leave it whole */
      doc_line(w, pad, p, cut);
      pad = pad ? pad : min + 2;
      p += cut + 1;
      n -= cut + 1;
      min = 0;
    }
    doc_line(w, pad, p, n);
    p += n;
    if (*p) p++;
  }
}

/* Two bits a line, the later lines a level in; composed in place. */
void og_c_dtype_set(og_writer *w, og_dtype_set set) {
  if (!set) {
    og_w_puts(w, "0");
    return;
  }
  const char *id[OG_DT_COUNT];
  size_t len[OG_DT_COUNT], n = 0, room = 0;
  og_w_indent(w);
  size_t width = og_w_pad_width(w);
  for (int dt = 1; dt < OG_DT_COUNT; dt++) {
    if (!(set & OG_DTYPE_BIT(dt))) continue;
    id[n] = og_dtype_enum_id((og_dtype)dt);
    len[n] = strlen(id[n]);
    room += len[n++] + 30 + width;
  }
  char *d = og_w_open(w, room);
  for (size_t i = 0; i < n; i++) {
    if (i % 2) d = og_w_put(d, " | ", 3);
    else if (i) d = og_w_pad(w, og_w_put(d, " |\n", 3));
    d = og_w_put(d, "OPR_DTYPE_BIT(OPR_DT_", 21);
    d = og_w_put(og_w_put(d, id[i], len[i]), ")", 1);
  }
  og_w_close(w, d);
  og_w_dedent(w);
}

void og_c_banner(og_writer *w, const og_c_file *f, const char *what) {
  og_w_line(w, "/* %s", what);
  og_w_line(w, " *");
  og_w_line(w, " * Generated by opgen %s from %s. Do not edit: change the spec",
            OPGEN_VERSION, f->spec);
  og_w_line(w, " * and regenerate. */");
}

static void add_param(const og_c_file *f, og_c_params *p, size_t *cap,
                      const char *decl, const char *name) {
  if (p->count == *cap) {
    size_t n = *cap ? *cap * 2 : 8;
    const char **decls = og_arena_array(f->arena, n, sizeof *decls);
    const char **names = og_arena_array(f->arena, n, sizeof *names);
    if (p->count) {
      memcpy(decls, p->decls, p->count * sizeof *decls);
      memcpy(names, p->names, p->count * sizeof *names);
    }
    p->decls = decls, p->names = names, *cap = n;
  }
  p->decls[p->count] = decl;
  p->names[p->count++] = name;
}

/* A list parameter is a pointer and a count. */
static void add_list_param(const og_c_file *f, og_c_params *p, size_t *cap,
                           const char *elem, const char *name,
                           const char *count) {
  add_param(f, p, cap, og_arena_printf(f->arena, "%s*%s", elem, name), name);
  add_param(f, p, cap, og_arena_printf(f->arena, "size_t %s", count), count);
}

static const char *with_space(const og_c_file *f, const char *type) {
  size_t n = strlen(type);
  return n && (type[n - 1] == '*' || type[n - 1] == ' ')
             ? type
             : og_arena_printf(f->arena, "%s ", type);
}

const char *og_c_list_elem(const og_c_file *f, const char *type) {
  type = with_space(f, type);
  return strncmp(type, "const ", 6) == 0
             ? og_arena_printf(f->arena, "%sconst ", type)
             : og_arena_printf(f->arena, "const %s", type);
}

static og_c_params compute_params(const og_c_file *f, const og_op *op);

og_c_params og_c_wrapper_params(const og_c_file *f, const og_op *op) {
  op_slot *s = find_slot(f, op);
  if (!s) return compute_params(f, op);
  if (!s->has_params) s->params = compute_params(f, op), s->has_params = true;
  return s->params;
}

static og_c_params compute_params(const og_c_file *f, const og_op *op) {
  const og_cn_scoped *n = og_c_scoped(f, op);
  og_c_params p = {0};
  size_t cap = 0;
  add_param(f, &p, &cap, "opr_context *ctx", "ctx");
  for (size_t i = 0; i < op->ninputs; i++) {
    if (og_c_arg_is_list(&op->inputs[i]))
      add_list_param(f, &p, &cap, "const opr_tensor *const ", n->in[i],
                     n->in_count[i]);
    else
      add_param(f, &p, &cap,
                og_arena_printf(f->arena, "const opr_tensor *%s", n->in[i]),
                n->in[i]);
  }
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    if (!og_c_attr_required(a)) continue;
    const char *type = with_space(f, og_c_attr_ctype(f, op, a));
    if (a->type.is_list)
      add_list_param(f, &p, &cap, og_c_list_elem(f, type), n->param[i],
                     n->param_count[i]);
    else
      add_param(f, &p, &cap,
                og_arena_printf(f->arena, "%s%s", type, n->param[i]),
                n->param[i]);
  }
  if (og_c_has_attrs_struct(op))
    add_param(f, &p, &cap,
              og_arena_printf(f->arena, "const %s *attrs",
                              og_cn_op(f, op, OG_CN_ATTRS)),
              "attrs");
  for (size_t i = 0; i < op->noutputs; i++) {
    if (og_c_arg_is_list(&op->outputs[i]))
      add_list_param(f, &p, &cap, "opr_tensor *", n->out[i], n->out_count[i]);
    else
      add_param(f, &p, &cap,
                og_arena_printf(f->arena, "opr_tensor **%s", n->out[i]),
                n->out[i]);
  }
  return p;
}

/* Composed in place (og_w_open): three signatures an op, each of many
 * pieces. */
void og_c_signature(og_writer *w, const char *ret, const char *name,
                    const og_c_params *p, const char *end) {
  enum { KEPT = 32 }; /* lengths kept for the second pass (most ops) */
  size_t lens[KEPT];
  size_t lret = strlen(ret), lname = strlen(name), lend = strlen(end);
  size_t head = lret + 1 + lname + 1, len = head + lend + 1, decls = 0;
  for (size_t i = 0; i < p->count; i++) {
    size_t n = strlen(p->decls[i]);
    if (i < KEPT) lens[i] = n;
    decls += n;
  }
  len += decls + 2 * p->count;
  /* Fits: one line. Short name: align under '('. Long: indent 4. */
  bool one_line = len <= 80, aligned = head <= 40;
  size_t hang = aligned ? head : 4, width = og_w_pad_width(w);
  char *d = og_w_open(w, len + p->count * (width + hang + 1) + 1);
  d = og_w_put(d, ret, lret);
  *d++ = ' ';
  d = og_w_put(d, name, lname);
  *d++ = '(';
  for (size_t i = 0; i < p->count; i++) {
    if (!one_line && (i || !aligned)) {
      if (i) *d++ = ',';
      *d++ = '\n';
      d = og_w_put_spaces(og_w_pad(w, d), hang);
    } else if (i) {
      d = og_w_put(d, ", ", 2);
    }
    d = og_w_put(d, p->decls[i], i < KEPT ? lens[i] : strlen(p->decls[i]));
  }
  *d++ = ')';
  d = og_w_put(d, end, lend);
  *d++ = '\n';
  og_w_close(w, d);
}
