/* Checks the names of a whole `gen` run before anything is written: every
 * global name once (one namespace for all files and packages), file
 * names case-insensitively, each against the reserved names; and gives
 * each op's parameters and members their mangled names. These come
 * first (og_cn_prepare), as if no global name took one, so that the
 * renders can start and the global check run beside them; the check
 * then looks them up among the global names, and og_cn_finish names
 * again the rare scope where one was taken.
 *
 * The global names are first recorded in source order, then checked
 * all at once: inserted into the hash table in the table's own order (a
 * stable sort by slot), so that its memory is swept once rather than
 * hit at random some 33,000 times for a corpus; then the problems are
 * reported in the recorded order, as if each name were checked when
 * recorded. */
#include "emit_c_internal.h"

#include "ascii.h"
#include "pages.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Who generates names, to say so in a diagnostic: one an item (op,
 * attr, input, output, file), shared by the item's names. */
typedef struct who {
  const char *item_kind; /* "attr", "input", "output"; NULL: the op's */
  const char *item;
  const og_op *op;       /* NULL: the file's */
  const og_c_file *file;
  const og_srcpos *pos; /* into the model or the og_c_file */
  bool shared;   /* shape_fn: other ops may name the same function */
  bool reported; /* an item's names after its first report stay quiet */
} who;

typedef struct claim {
  const char *name;
  const char *what; /* "the wrapper", "an enumerator", ... */
  const who *at;
} claim;

/* A recorded global name, or a report found while recording. */
typedef enum entry_kind {
  E_CLAIM,    /* a name; its reserved spelling checked */
  E_CLAIM_ANY_SPELLING, /* a file name: no identifier */
  E_REPORT,   /* why, or the collision with `first` */
} entry_kind;

typedef struct entry {
  claim c;
  const char *why; /* a reserved name, or an E_REPORT's text */
  uint64_t hash;   /* of a claim's name */
  int32_t first;   /* the earlier entry of the same name, or -1 */
  uint8_t kind;
  bool item; /* an item's name (quiet after the item's first report) */
} entry;

/* Large tables from og_pages (huge pages, no fault per 4 KiB). */
static void *table(size_t size) {
  return size >= 64 * 1024 ? og_pages_alloc(size) : og_xmalloc(size);
}

/* The hash of s, eight bytes a step (a corpus run hashes some 60,000
 * names; the value never reaches the output, only whether a name is
 * present does). *reserved: s is spelled as C and C++ reserve, as
 * og_c_reserved_spelling says ("__", or '_' and an upper-case letter
 * first), found in the same pass: in z, the top bit of each byte that
 * is '_'. */
static uint64_t name_scan(const char *s, bool *reserved) {
  size_t len = strlen(s), n = len;
  uint64_t h = 0x9E3779B97F4A7C15u ^ n, w, tail = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fu;
  uint64_t found = s[0] == '_' && s[1] >= 'A' && s[1] <= 'Z';
  uint64_t carry = 0; /* 0x80: the last byte was '_' */
#define OG_UNDERSCORES(w)                                            \
  do {                                                               \
    uint64_t x = (w) ^ 0x5f5f5f5f5f5f5f5fu;                          \
    uint64_t z = ~(((x & lo7) + lo7) | x | lo7);                     \
    found |= (z & (z >> 8)) | (carry & z);                           \
    carry = z >> 63 << 7;                                            \
  } while (0)
  const char *end = s + len;
  /* The last bytes (zero-extended, no '_' there): from the last eight
   * bytes of a long name, shifted; byte by byte for a short one. */
  if (n % 8 && len >= 8) {
    memcpy(&tail, end - 8, 8);
    tail >>= 8 * (8 - n % 8);
  } else {
    for (size_t i = 0; i < n % 8; i++)
      tail |= (uint64_t)(unsigned char)s[i] << (8 * i);
  }
#else
  uint64_t found = og_c_reserved_spelling(s);
#define OG_UNDERSCORES(w) ((void)0)
  memcpy(&tail, s + n - n % 8, n % 8);
#endif
  for (; n >= 8; s += 8, n -= 8) {
    memcpy(&w, s, 8);
    OG_UNDERSCORES(w);
    h = (h ^ w) * 0xff51afd7ed558ccdu;
    h ^= h >> 32;
  }
  OG_UNDERSCORES(tail);
#undef OG_UNDERSCORES
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53u;
  h ^= h >> 29;
  h *= 0xff51afd7ed558ccdu;
  *reserved = found != 0;
  return h ^ (h >> 32);
}

static uint64_t name_hash(const char *s) {
  bool reserved;
  return name_scan(s, &reserved);
}

/* A slot: the hash's low half, to compare before the strings, and the
 * name's number + 1 (0: empty). */
typedef struct set_entry {
  uint32_t hash, id;
} set_entry;

/* The global names: slot i from the hash's top bits, so that names
 * sorted by hash fill the table from its start to its end. */
typedef struct global_set {
  set_entry *slots;
  size_t cap;     /* a power of two */
  unsigned shift; /* 64 - log2(cap) */
  const entry *entries;
} global_set;

/* The slot of name (hash h): its own, or the empty one it would take. */
static set_entry *global_slot(const global_set *g, const char *name,
                              uint64_t h) {
  size_t i = (size_t)(h >> g->shift);
  for (; g->slots[i].id; i = (i + 1) & (g->cap - 1))
    if (g->slots[i].hash == (uint32_t)h &&
        strcmp(g->entries[g->slots[i].id - 1].c.name, name) == 0)
      break;
  return &g->slots[i];
}

/* One scope's names (a few dozen): slot i from the hash's low bits. */
typedef struct name_set {
  set_entry *slots;
  const char **names; /* by number */
  size_t count, cap, names_cap; /* cap: a power of two, or 0 */
} name_set;

static set_entry *set_slot(const name_set *s, const char *name, uint64_t h) {
  uint32_t tag = (uint32_t)(h >> 32);
  size_t i = h & (s->cap - 1);
  for (; s->slots[i].id; i = (i + 1) & (s->cap - 1))
    if (s->slots[i].hash == tag &&
        strcmp(s->names[s->slots[i].id - 1], name) == 0)
      break;
  return &s->slots[i];
}

/* Empty slots for cap names; the names stay. */
static void set_rehash(name_set *s, size_t cap) {
  free(s->slots);
  s->slots = og_xmalloc(cap * sizeof *s->slots);
  memset(s->slots, 0, cap * sizeof *s->slots);
  s->cap = cap;
  for (size_t k = 0; k < s->count; k++) {
    uint64_t h = name_hash(s->names[k]);
    size_t j = h & (cap - 1);
    while (s->slots[j].id) j = (j + 1) & (cap - 1);
    s->slots[j] = (set_entry){(uint32_t)(h >> 32), (uint32_t)k + 1};
  }
}

static bool set_has(const name_set *s, const char *name, uint64_t h) {
  return s->cap && set_slot(s, name, h)->id;
}

/* Adds name (hash h) unless present; returns its number. */
static size_t set_add_hashed(name_set *s, const char *name, uint64_t h) {
  if (2 * (s->count + 1) > s->cap) set_rehash(s, s->cap ? 2 * s->cap : 64);
  set_entry *e = set_slot(s, name, h);
  if (e->id) return e->id - 1;
  s->names = og_xgrow(s->names, &s->names_cap, s->count + 1, sizeof *s->names);
  s->names[s->count] = name;
  *e = (set_entry){(uint32_t)(h >> 32), (uint32_t)++s->count};
  return s->count - 1;
}

static size_t set_add(name_set *s, const char *name) {
  return set_add_hashed(s, name, name_hash(name));
}

/* Empty, keeping its tables. */
static void set_clear(name_set *s) {
  if (s->cap) memset(s->slots, 0, s->cap * sizeof *s->slots);
  s->count = 0;
}

static void set_free(name_set *s) {
  free(s->slots);
  free(s->names);
  *s = (name_set){0};
}

typedef struct run {
  og_diag *diag;
  og_arena *arena; /* the whos */
  entry *entries;
  size_t count, cap;
  size_t *file_claims; /* by number in files: the file name's entry */
  size_t file_cap;
  name_set files;
  global_set global;
  bool ok;
} run;

static const who *new_who(run *r, who w) {
  who *p = og_arena_alloc(r->arena, sizeof *p);
  *p = w;
  return p;
}

/* Why a global name cannot be used, or NULL (reserved_spelling: as
 * name_scan found). */
static const char *global_problem(const char *name, bool reserved_spelling) {
  if (reserved_spelling)
    return "contains '__' or starts with '_', which C and C++ reserve";
  if (og_c_reserved(name) != OG_C_FREE)
    return "is a C or C++ keyword or a name of the standard headers";
  return NULL;
}

/* Room for `need` entries, doubling. */
static void grow(run *r, size_t need) {
  size_t cap = r->cap ? r->cap : 1024;
  while (cap < need) cap *= 2;
  entry *entries = table(cap * sizeof *entries);
  if (r->count) memcpy(entries, r->entries, r->count * sizeof *entries);
  og_pages_free(r->entries, r->cap * sizeof *entries);
  r->entries = entries;
  r->cap = cap;
}

static void append(run *r, const entry *e) {
  if (r->count == r->cap) grow(r, r->count + 1);
  r->entries[r->count++] = *e;
}

/* Adds entries[0..n) (recorded on another thread), in one copy. */
static void append_all(run *r, const entry *entries, size_t n) {
  if (r->count + n > r->cap) grow(r, r->count + n);
  if (n) memcpy(r->entries + r->count, entries, n * sizeof *entries);
  r->count += n;
}

/* Adds e; a claim's name is hashed and checked here, on the thread that
 * records it (see name_ops). */
static void record(run *r, entry e) {
  if (e.kind != E_REPORT) {
    bool reserved;
    e.hash = name_scan(e.c.name, &reserved);
    e.why = global_problem(e.c.name, reserved && e.kind == E_CLAIM);
  }
  append(r, &e);
}

/* Records a global name (spelling: checked for a reserved spelling). */
static void claim_name(run *r, claim c, bool spelling) {
  record(r, (entry){c, NULL, 0, -1,
                    spelling ? E_CLAIM : E_CLAIM_ANY_SPELLING, false});
}

/* Records a report: why, or a collision with entry `earlier`. */
static void record_report(run *r, claim c, const char *why, long earlier) {
  record(r, (entry){c, why, 0, (int32_t)earlier, E_REPORT, false});
}

static void describe(og_writer *w, const claim *c) {
  og_w_printf(w, "'%s' (%s", c->name, c->what);
  if (c->at->item_kind)
    og_w_printf(w, " of %s '%s'", c->at->item_kind, c->at->item);
  if (c->at->op) og_w_printf(w, " of op '%s'", c->at->op->name);
  else og_w_printf(w, " of '%s'", c->at->file->path);
  og_w_puts(w, ")");
}

static void report(run *r, const claim *c, const claim *earlier,
                   const char *why) {
  r->ok = false;
  og_writer t;
  og_writer_init(&t);
  describe(&t, c);
  if (earlier) {
    og_w_puts(&t, " collides with ");
    describe(&t, earlier);
    og_w_puts(&t, "; rename one of them");
  } else {
    og_w_printf(&t, " %s", why);
  }
  og_diag_report(r->diag, OG_SEV_ERROR, *c->at->pos, "%s", t.buf);
  if (earlier) {
    t.len = 0;
    describe(&t, earlier);
    og_diag_report(r->diag, OG_SEV_NOTE, *earlier->at->pos,
                   "%s is generated here", t.buf);
  }
  og_writer_free(&t);
}

/* A name to insert: its hash and entry (the name copied: the entries
 * are read in table order, at random, only where a hash matches). */
typedef struct to_insert {
  uint64_t hash;
  const char *name;
  size_t entry;
} to_insert;

/* The names free of reserved ones, stably sorted by their hash's top
 * `bits` bits (a counting sort: the order of equal names stays). */
static to_insert *sorted_names(run *r, unsigned bits, size_t *n) {
  enum { RADIX = 11 };
  unsigned b = bits < RADIX ? bits : RADIX;
  size_t *start = calloc((size_t)1 << b, sizeof *start);
  to_insert *in = table(r->count * sizeof *in);
  to_insert *out = table(r->count * sizeof *out);
  if (!start) abort();
  size_t k = 0;
  for (size_t i = 0; i < r->count; i++) {
    const entry *e = &r->entries[i];
    if (e->kind != E_REPORT && !e->why)
      in[k++] = (to_insert){e->hash, e->c.name, i};
  }
  for (size_t i = 0; i < k; i++) start[in[i].hash >> (64 - b)]++;
  for (size_t v = 0, sum = 0; v < ((size_t)1 << b); v++) {
    size_t c = start[v];
    start[v] = sum;
    sum += c;
  }
  for (size_t i = 0; i < k; i++) out[start[in[i].hash >> (64 - b)]++] = in[i];
  free(start);
  og_pages_free(in, r->count * sizeof *in);
  *n = k;
  return out;
}

/* Fills the global table; sets each entry's `first`. */
static void dedup(run *r) {
  global_set *g = &r->global;
  unsigned bits = 6;
  /* At most two thirds full: 33,000 corpus names in 512 KiB. */
  while (((size_t)1 << bits) < r->count + r->count / 2 + 2) bits++;
  g->cap = (size_t)1 << bits;
  g->shift = 64 - bits;
  g->entries = r->entries;
  g->slots = table(g->cap * sizeof *g->slots);
  memset(g->slots, 0, g->cap * sizeof *g->slots);
  size_t n;
  to_insert *order = sorted_names(r, bits, &n);
  for (size_t k = 0; k < n; k++) {
    set_entry *s = global_slot(g, order[k].name, order[k].hash);
    if (s->id) r->entries[order[k].entry].first = (int32_t)(s->id - 1);
    else *s = (set_entry){(uint32_t)order[k].hash, (uint32_t)order[k].entry + 1};
  }
  og_pages_free(order, r->count * sizeof *order);
}

/* Reports in recorded order what dedup found. */
static void report_all(run *r) {
  for (size_t i = 0; i < r->count; i++) {
    const entry *e = &r->entries[i];
    const claim *earlier = e->first >= 0 ? &r->entries[e->first].c : NULL;
    if (e->kind == E_REPORT) {
      report(r, &e->c, earlier, e->why);
      continue;
    }
    if (!e->why && (!earlier || (e->c.at->shared && earlier->at->shared)))
      continue;
    who *at = (who *)e->c.at; /* the run's own */
    if (e->item && at->reported) continue; /* quiet */
    if (e->item) at->reported = true;
    report(r, &e->c, e->why ? NULL : earlier, e->why);
  }
}

static bool global_has(const global_set *g, const char *name, uint64_t h) {
  return global_slot(g, name, h)->id != 0;
}

/* The names of one op, attr, input, output or file: after its first
 * problem, the item's other names are recorded without a report (they
 * share the name that clashed, and one rename fixes all). */
typedef struct item_ctx {
  run *r;
  const who *at;
} item_ctx;

static item_ctx new_item(run *r, who w) {
  return (item_ctx){r, new_who(r, w)};
}

static void item_name(item_ctx *it, const char *what, const char *name) {
  record(it->r, (entry){{name, what, it->at}, NULL, 0, -1, E_CLAIM, true});
}

static bool has_items(const og_attr *a) {
  const og_value *v = a->default_value;
  return v && v->kind == OG_VAL_LIST && v->u.list.count > 0;
}

static void tensor_names(item_ctx *it, const og_c_file *f, const char *t) {
  item_name(it, "a default tensor", t);
  item_name(it, "a default tensor's dims", og_cn_tensor_dims(f, t));
  item_name(it, "a default tensor's data", og_cn_tensor_data(f, t));
}

static void default_names(item_ctx *it, const og_c_file *f, const og_op *op,
                          const og_attr *a) {
  const og_value *v = a->default_value;
  if (!v) return;
  item_name(it, "the default", og_cn_attr(f, op, a, OG_CN_DEFAULT_VALUE));
  if (has_items(a)) {
    item_name(it, "the default list", og_cn_attr(f, op, a, OG_CN_DEFAULT));
    for (size_t i = 0; i < v->u.list.count; i++)
      if (a->type.kind == OG_ATTR_SHAPE)
        item_name(it, "a default's dims",
                  og_cn_default_item(f, op, a, false, i));
      else if (a->type.kind == OG_ATTR_TENSOR)
        tensor_names(it, f, og_cn_default_item(f, op, a, true, i));
  }
  if (!a->type.is_list && a->type.kind == OG_ATTR_SHAPE)
    item_name(it, "the default's dims",
              og_cn_attr(f, op, a, OG_CN_DEFAULT_DIMS));
  if (!a->type.is_list && a->type.kind == OG_ATTR_TENSOR)
    tensor_names(it, f, og_cn_attr(f, op, a, OG_CN_DEFAULT_TENSOR));
  og_bytes text;
  if (og_c_long_default_text(a, &text))
    item_name(it, "the default's text", og_cn_attr(f, op, a, OG_CN_DEFAULT_TEXT));
}

static void attr_names(run *r, const og_c_file *f, const og_op *op,
                       const og_attr *a, const char *index) {
  item_ctx it = new_item(r, (who){.item_kind = "attr", .item = a->name,
                                  .op = op, .file = f, .pos = &a->pos});
  if (og_c_attr_is_enum(a)) {
    item_name(&it, "the enum", og_cn_attr(f, op, a, OG_CN_ENUM));
    const char **enumerators = og_c_enumerators(f, op, a);
    for (size_t i = 0; i < a->allowed->u.list.count; i++)
      item_name(&it, "an enumerator", enumerators[i]);
  }
  if (a->allowed && a->type.kind == OG_ATTR_STRING)
    item_name(&it, "the allowed values", og_cn_attr(f, op, a, OG_CN_ALLOWED));
  default_names(&it, f, op, a);
  if (a->type.kind == OG_ATTR_TYPE && !a->type.is_list)
    item_name(&it, "the types macro", og_cn_attr(f, op, a, OG_CN_TYPES));
  item_name(&it, "the accessor", og_cn_attr(f, op, a, OG_CN_ACCESSOR));
  if (a->type.is_list)
    item_name(&it, "the count accessor",
              og_cn_attr(f, op, a, OG_CN_ACCESSOR_COUNT));
  item_name(&it, "the index constant", index);
}

static void arg_names(run *r, const og_c_file *f, const og_op *op,
                      const og_arg *arg, bool input, const char *index) {
  item_ctx it = new_item(r, (who){.item_kind = input ? "input" : "output",
                                  .item = arg->name, .op = op, .file = f,
                                  .pos = &arg->pos});
  bool list = og_c_arg_is_list(arg);
  item_name(&it, "the index constant", index);
  if (input) {
    item_name(&it, "the accessor", og_cn_arg(f, op, arg, OG_CN_INPUT));
    if (list)
      item_name(&it, "the count accessor",
                og_cn_arg(f, op, arg, OG_CN_INPUT_COUNT));
    return;
  }
  if (list)
    item_name(&it, "the count accessor",
              og_cn_arg(f, op, arg, OG_CN_OUTPUT_COUNT));
  item_name(&it, "the allocator", og_cn_arg(f, op, arg, OG_CN_ALLOC));
}

static void shape_fn_name(run *r, const og_c_file *f, const og_op *op) {
  claim c = {op->shape_fn, "the shape_fn",
             new_who(r, (who){.op = op, .file = f, .pos = &op->shape_fn_pos,
                              .shared = true})};
  if (og_c_in_runtime_namespace(op->shape_fn))
    record_report(r, c, "is in the runtime's namespace (opr_, OPR_)", -1);
  else
    claim_name(r, c, true);
}

/* Whether op has the og_cn_op name `p` (op_names claims it, and
 * og_cn_prepare computes it for the renders). */
static bool op_has_part(const og_c_file *f, const og_op *op, int p) {
  if ((p == OG_CN_ATTRS || p == OG_CN_ATTRS_DEFAULT) &&
      !og_c_has_attrs_struct(op))
    return false;
  if (p == OG_CN_SHAPE && (op->shape_fn || !op->nshape_rules)) return false;
  /* Wrappers of one runtime call share no body (emit_c_source.c). */
  if (p == OG_CN_CALL && og_c_has_exec_fast_path(op)) return false;
  if (p == OG_CN_SHAPE_VALUES && !og_c_shape_has_values(f, op)) return false;
  return !((p == OG_CN_INPUT_DEFS && !op->ninputs) ||
           (p == OG_CN_OUTPUT_DEFS && !op->noutputs) ||
           (p == OG_CN_ATTR_DEFS && !op->nattrs));
}

/* The op's names, from its cache slot (og_cn_prepare filled it: only
 * read here, as the renders may run meanwhile). */
static void op_names(run *r, const og_c_file *f, const og_op *op) {
  static const char *const what[OG_CN_OP_PARTS] = {
      "the wrapper", "the attrs struct", "the attrs default macro",
      "the op table", "the op state", "the check", "the shape function",
      "the shape values struct",
      "the input table", "the output table", "the attr table",
      "the kernel struct", "the kernel registration",
      "the caller-owned wrapper", "the wrappers' body"};
  item_ctx it = new_item(r, (who){.op = op, .file = f, .pos = &op->pos});
  for (int p = 0; p < OG_CN_OP_PARTS; p++)
    if (op_has_part(f, op, p))
      item_name(&it, what[p], og_cn_op(f, op, (og_cn_op_part)p));
  if (op->shape_fn) shape_fn_name(r, f, op);
  else if (op->nshape_rules)
    for (size_t i = 0; i < op->nshape_lets; i++) {
      const og_shape_let *let = &op->shape_lets[i];
      claim c = {og_cn_shape_let(f, op, let), "the function",
                 new_who(r, (who){.item_kind = "let", .item = let->name,
                                  .op = op, .file = f, .pos = &let->pos})};
      claim_name(r, c, true);
    }
  const char **ix[3];
  for (int k = 0; k < 3; k++) ix[k] = og_cn_indexes(f, op, (og_cn_index_kind)k);
  const char **attr_ix = ix[OG_CN_ATTR_INDEXES];
  const char **in_ix = ix[OG_CN_INPUT_INDEXES];
  const char **out_ix = ix[OG_CN_OUTPUT_INDEXES];
  for (size_t i = 0; i < op->nattrs; i++)
    attr_names(r, f, op, &op->attrs[i], attr_ix[i]);
  for (size_t i = 0; i < op->ninputs; i++)
    arg_names(r, f, op, &op->inputs[i], true, in_ix[i]);
  for (size_t i = 0; i < op->noutputs; i++)
    arg_names(r, f, op, &op->outputs[i], false, out_ix[i]);
}

/* About as many global names as ops[0..n) will claim. */
static size_t estimate_names(const og_op *const *ops, size_t n) {
  size_t names = 8;
  /* Over, not under: a table that grows rehashes every name (a corpus
   * run claims some 27 names an op). */
  for (size_t i = 0; i < n; i++) {
    const og_op *op = ops[i];
    names += 14 + 3 * (op->ninputs + op->noutputs) + 4 * op->nattrs;
    for (size_t k = 0; k < op->nattrs; k++) {
      const og_attr *a = &op->attrs[k];
      names += og_c_attr_is_enum(a) ? a->allowed->u.list.count : 0;
    }
  }
  return names;
}

/* The later ops of a file, named on a thread of their own: into their
 * own run and a copy of the file with its own arena, both merged into
 * the caller's after (the names and entries are the same as if named
 * in one go; each op's cache slot is written by one thread). */
typedef struct half {
  run r;
  og_arena whos, names;
  og_c_file f; /* kept till the run ends: the whos point at it */
  const og_op *const *ops;
  size_t n;
} half;

static void *name_half(void *arg) {
  half *h = arg;
  for (size_t i = 0; i < h->n; i++) op_names(&h->r, &h->f, h->ops[i]);
  return NULL;
}

/* Ops enough for two threads: starting one costs some 50 us. */
size_t og_cn_split_ops = 256;

static void name_ops(run *r, const og_c_file *f, const og_op *const *ops,
                     size_t n) {
  size_t k = n / 2;
  if (n < og_cn_split_ops || n < 2) {
    for (size_t i = 0; i < n; i++) op_names(r, f, ops[i]);
    return;
  }
  half *h = og_arena_alloc(r->arena, sizeof *h);
  og_arena_init(&h->whos);
  og_arena_init(&h->names);
  h->r = (run){.arena = &h->whos};
  h->r.cap = estimate_names(ops + k, n - k); /* sized once, as the caller's */
  h->r.entries = table(h->r.cap * sizeof *h->r.entries);
  h->f = *f;
  h->f.arena = &h->names;
  h->ops = ops + k;
  h->n = n - k;
  pthread_t thread;
  bool started = pthread_create(&thread, NULL, name_half, h) == 0;
  for (size_t i = 0; i < k; i++) op_names(r, f, ops[i]);
  if (started) pthread_join(thread, NULL);
  else name_half(h);
  append_all(r, h->r.entries, h->r.count);
  og_pages_free(h->r.entries, h->r.cap * sizeof *h->r.entries);
  og_arena_adopt(r->arena, &h->whos);
  og_arena_adopt(f->arena, &h->names);
}

/* The package itself: the runtime's prefix, or one that makes every name
 * reserved. False when the file's names need not be looked at. */
static bool check_package(run *r, const og_c_file *f) {
  const char *p = f->prefix;
  bool opr = strlen(p) >= 3 && og_ascii_ieq(p, 3, "opr") &&
             (!p[3] || p[3] == '_');
  bool reserved = p[0] == '_' || p[strlen(p) - 1] == '_' || strstr(p, "__");
  if (!opr && !reserved) return true;
  claim c = {og_cn_file(f, OG_CN_REGISTER_OPS), "the register function",
             new_who(r, (who){.file = f, .pos = &f->package_pos})};
  const char *stmt = f->c_prefix ? "c_prefix" : "package";
  record_report(r, c,
         og_arena_printf(f->arena,
                         opr ? "is in the runtime's namespace (opr_, OPR_); "
                               "choose another %s"
                             : "contains '__' or starts with '_', which C "
                               "and C++ reserve; choose another %s",
                         stmt),
         -1);
  return false;
}

static void file_names(run *r, const og_c_file *f) {
  static const og_cn_file_part files[] = {OG_CN_OPS_H, OG_CN_OPS_C,
                                          OG_CN_KERNELS_H};
  const who *at = new_who(r, (who){.file = f, .pos = &f->package_pos});
  for (size_t k = 0; k < 3; k++) {
    claim c = {og_cn_file(f, files[k]), "an output file", at};
    /* Folded: x_ops.h and X_ops.h are one file on some file systems. */
    char *folded = og_arena_strdup(f->arena, c.name);
    for (char *p = folded; *p; p++) *p = (char)og_to_lower((unsigned char)*p);
    size_t before = r->files.count;
    size_t id = set_add(&r->files, folded);
    if (id != before) {
      record_report(r, c, NULL, (long)r->file_claims[id]);
      return; /* its guards would only say so again */
    }
    r->file_claims = og_xgrow(r->file_claims, &r->file_cap, id + 1,
                              sizeof *r->file_claims);
    r->file_claims[id] = r->count;
    claim_name(r, c, false); /* no identifier has a '.': cannot fail */
  }
  item_ctx it = {r, at};
  item_name(&it, "the include guard", og_cn_file(f, OG_CN_OPS_H_GUARD));
  item_name(&it, "the include guard", og_cn_file(f, OG_CN_KERNELS_H_GUARD));
}

static int by_position(const void *a, const void *b) {
  const og_op *x = *(const og_op *const *)a, *y = *(const og_op *const *)b;
  if (x->pos.line != y->pos.line) return x->pos.line < y->pos.line ? -1 : 1;
  return x->pos.col < y->pos.col ? -1 : x->pos.col > y->pos.col;
}

static void check_file(run *r, const og_c_file *f) {
  file_names(r, f);
  if (!check_package(r, f)) return;
  claim c = {og_cn_file(f, OG_CN_REGISTER_OPS), "the register function",
             new_who(r, (who){.file = f, .pos = &f->package_pos})};
  claim_name(r, c, true);
  /* In source order, so that a clash is reported at the later name. */
  const og_op **ops = og_arena_array(f->arena, f->nops + 1, sizeof *ops);
  memcpy(ops, f->ops, f->nops * sizeof *ops);
  qsort(ops, f->nops, sizeof *ops, by_position);
  name_ops(r, f, ops, f->nops);
}

/* One scope (a function's parameters and locals, a struct's members):
 * each spec name keeps its spelling unless that is a keyword, macro or
 * typedef, in the runtime's namespace, a global name of the run or taken
 * in the scope; then it gets '_', else "_2", "_3", ... */
/* The names scopes chose before the run's global names were known (see
 * og_cn_prepare), with their hashes, to look up there later. */
typedef struct chosen {
  struct chosen_name {
    const char *name;
    uint64_t hash;
  } *items;
  size_t count, cap;
} chosen;

/* Room for cap names (from og_pages: sized once, see chosen_size). */
static void chosen_reserve(chosen *c, size_t cap) {
  struct chosen_name *items = table(cap * sizeof *items);
  if (c->count) memcpy(items, c->items, c->count * sizeof *items);
  og_pages_free(c->items, c->cap * sizeof *c->items);
  c->items = items;
  c->cap = cap;
}

static void chosen_add(chosen *c, const char *name, uint64_t h) {
  if (c->count == c->cap) chosen_reserve(c, c->cap ? 2 * c->cap : 64);
  c->items[c->count++] = (struct chosen_name){name, h};
}

/* At least as many scoped names as ops [from, to) of f take. */
static size_t chosen_size(const og_c_file *f, size_t from, size_t to) {
  size_t n = 1;
  for (size_t i = from; i < to; i++) {
    const og_op *op = f->ops[i];
    n += 3 * (op->ninputs + op->noutputs + op->nattrs);
  }
  return n;
}

typedef struct scope {
  const og_c_file *f;
  const global_set *global; /* NULL: not known yet; chosen names go */
  chosen *chosen;           /* here */
  name_set names;
  og_diag *diag; /* NULL: a problem only sets `ok` (see scope_names) */
  bool params;   /* also each op's wrapper parameters */
  bool ok;
} scope;

/* No runtime name ends in '_': a mangled name is outside its namespace.
 * h: name's hash, for both sets (and the caller's set_add). */
static bool taken(const scope *s, const char *name, uint64_t h,
                  bool mangled) {
  return og_c_reserved(name) == OG_C_BREAKING ||
         (!mangled && og_c_in_runtime_namespace(name)) ||
         (s->global && global_has(s->global, name, h)) ||
         set_has(&s->names, name, h);
}

/* *reserved: the name taken is spelled as C++ reserves (name_scan). */
static const char *scope_take(scope *s, const char *name, bool *reserved) {
  size_t len = strlen(name);
  const char *sep = len && name[len - 1] == '_' ? "" : "_";
  const char *cand = name;
  uint64_t h = name_scan(cand, reserved);
  for (size_t k = 1; taken(s, cand, h, cand != name); k++) {
    cand = k == 1 && sep[0] ? og_arena_printf(s->f->arena, "%s_", name)
           : og_arena_printf(s->f->arena, "%s%s%zu", name, sep, k < 2 ? 2 : k);
    h = name_scan(cand, reserved);
  }
  set_add_hashed(&s->names, cand, h);
  if (!s->global) chosen_add(s->chosen, cand, h);
  return cand;
}

/* A spec name in the scope, reported at `pos` if no mangling can make
 * it a name C++ allows ("__"). */
static const char *scope_name(scope *s, const char *name, const char *what,
                              const og_op *op, og_srcpos pos) {
  bool reserved;
  const char *id = scope_take(s, name, &reserved);
  if (reserved) {
    if (s->diag)
      og_diag_report(s->diag, OG_SEV_ERROR, pos,
                     "'%s' (%s of op '%s') contains '__', which C++ "
                     "reserves; rename it",
                     id, what, op->name);
    s->ok = false;
  }
  return id;
}

static const char *scope_count(scope *s, const char *name, const char *what,
                               const og_op *op, og_srcpos pos) {
  return scope_name(s, og_arena_printf(s->f->arena, "%s_count", name), what,
                    op, pos);
}

static void scope_reset(scope *s, const char *const *fixed, size_t n) {
  if (s->names.cap > 256) set_free(&s->names); /* else cleared in place */
  else set_clear(&s->names);
  for (size_t i = 0; i < n; i++) set_add(&s->names, fixed[i]);
}

static const char **names_for(const og_c_file *f, size_t n) {
  return og_arena_array(f->arena, n ? n : 1, sizeof(const char *));
}

/* The wrapper: its fixed parameters and locals first. */
static void wrapper_scope(scope *s, const og_op *op, og_cn_scoped *n) {
  static const char *const fixed[] = {"ctx", "attrs", "op_defaults",
                                      "op_inputs", "op_attrs", "op_outputs",
                                      "op_call", "into"};
  scope_reset(s, fixed, sizeof fixed / sizeof *fixed);
  for (size_t i = 0; i < op->ninputs; i++) {
    const og_arg *a = &op->inputs[i];
    n->in[i] = scope_name(s, a->name, "a parameter", op, a->pos);
    if (og_c_arg_is_list(a))
      n->in_count[i] = scope_count(s, a->name, "a parameter", op, a->pos);
  }
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    if (!og_c_attr_required(a)) continue;
    n->param[i] = scope_name(s, a->name, "a parameter", op, a->pos);
    if (a->type.is_list)
      n->param_count[i] = scope_count(s, a->name, "a parameter", op, a->pos);
  }
  for (size_t i = 0; i < op->noutputs; i++) {
    const og_arg *a = &op->outputs[i];
    n->out[i] = scope_name(s, a->name, "a parameter", op, a->pos);
    if (og_c_arg_is_list(a))
      n->out_count[i] = scope_count(s, a->name, "a parameter", op, a->pos);
  }
}

static void member_scopes(scope *s, const og_op *op, og_cn_scoped *n) {
  scope_reset(s, NULL, 0);
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    if (!og_c_attr_optional(a)) continue;
    n->field[i] = scope_name(s, a->name, "an attrs-struct member", op, a->pos);
    if (a->type.is_list)
      n->field_count[i] =
          scope_count(s, a->name, "an attrs-struct member", op, a->pos);
  }
  static const char *const kernel[] = {"fn", "device", "priority", "label",
                                       "host_memory"};
  scope_reset(s, kernel, sizeof kernel / sizeof *kernel);
  for (size_t i = 0; i < op->nattrs; i++) {
    const og_attr *a = &op->attrs[i];
    if (a->type.kind == OG_ATTR_TYPE && !a->type.is_list)
      n->kernel_type[i] =
          scope_name(s, a->name, "a kernel-struct member", op, a->pos);
  }
  scope_reset(s, NULL, 0);
  for (size_t i = 0; i < op->ninputs; i++)
    n->host_in[i] = scope_name(s, op->inputs[i].name, "a host_memory member",
                               op, op->inputs[i].pos);
  for (size_t i = 0; i < op->noutputs; i++)
    n->host_out[i] = scope_name(s, op->outputs[i].name,
                                "a host_memory member", op,
                                op->outputs[i].pos);
}

/* The names the renders ask an op's cache slot for, but its scoped
 * names: computed once, here, before the renders and the check start
 * (both then only read them). */
static void cache_op_names(const og_c_file *f, const og_op *op) {
  for (int p = 0; p < OG_CN_OP_PARTS; p++)
    if (op_has_part(f, op, p))
      og_c_cache_set_op_part(f, op, (og_cn_op_part)p,
                             og_cn_op(f, op, (og_cn_op_part)p));
  for (int k = 0; k < 3; k++)
    og_c_cache_set_indexes(f, op, (og_cn_index_kind)k,
                           og_cn_indexes(f, op, (og_cn_index_kind)k));
}

/* The scoped names of ops [from, to) of f (without the global names:
 * also the op's other names for the cache). */
static void scope_ops(scope *s, size_t from, size_t to) {
  const og_c_file *f = s->f;
  for (size_t i = from; i < to; i++) {
    const og_op *op = f->ops[i];
    if (!s->global) cache_op_names(f, op);
    og_cn_scoped n;
    n.in = names_for(f, op->ninputs), n.in_count = names_for(f, op->ninputs);
    n.out = names_for(f, op->noutputs);
    n.out_count = names_for(f, op->noutputs);
    n.param = names_for(f, op->nattrs);
    n.param_count = names_for(f, op->nattrs);
    n.field = names_for(f, op->nattrs);
    n.field_count = names_for(f, op->nattrs);
    n.kernel_type = names_for(f, op->nattrs);
    n.host_in = names_for(f, op->ninputs);
    n.host_out = names_for(f, op->noutputs);
    wrapper_scope(s, op, &n);
    member_scopes(s, op, &n);
    og_c_cache_set_scoped(f, op, &n);
    if (s->params) og_c_wrapper_params(f, op);
  }
  set_free(&s->names);
}

/* The later half of a file's ops, on a thread of its own, with a copy of
 * the file that has its own arena; without reports (on a problem the
 * caller names them again, reporting, after its own half). */
typedef struct scope_half {
  scope s;
  og_c_file f;
  og_arena names;
  size_t from, to;
} scope_half;

static void *scope_half_run(void *arg) {
  scope_half *h = arg;
  scope_ops(&h->s, h->from, h->to);
  return NULL;
}

/* Scopes f's ops; `global` NULL: before the global names are known,
 * the names chosen into chosen[0] and [1] (one a half). */
static bool scope_names(og_c_file *f, const global_set *global,
                        bool params, og_diag *diag, chosen *chosen) {
  scope s = {.f = f, .global = global, .chosen = chosen, .diag = diag,
             .params = params, .ok = true};
  size_t n = f->nops, k = n < og_cn_split_ops || n < 2 ? n : n / 2;
  if (chosen) {
    chosen_reserve(&chosen[0], chosen_size(f, 0, k));
    chosen_reserve(&chosen[1], chosen_size(f, k, n));
  }
  scope_half h = {.f = *f, .from = k, .to = n};
  og_arena_init(&h.names);
  h.f.arena = &h.names;
  h.s = (scope){.f = &h.f, .global = global,
                .chosen = chosen ? chosen + 1 : NULL,
                .params = params, .ok = true};
  pthread_t thread;
  bool started = k < n && pthread_create(&thread, NULL, scope_half_run, &h) == 0;
  scope_ops(&s, 0, k);
  if (started) pthread_join(thread, NULL);
  else scope_half_run(&h);
  og_arena_adopt(f->arena, &h.names); /* kept either way: cache slots */
  if (!h.s.ok && diag) scope_ops(&s, k, n); /* point into it */
  return s.ok && h.s.ok;
}

/* A file's scopes as og_cn_prepare named them. */
typedef struct file_scopes {
  chosen chosen[2];
  bool reserved; /* a scoped name is spelled as C++ reserves */
  bool taken;    /* a global name of the run is among the chosen */
} file_scopes;

struct og_cn_run {
  og_c_file *files;
  size_t n;
  bool params;
  file_scopes *scopes; /* by file */
  run r;
  og_arena whos;
};

og_cn_run *og_cn_prepare(og_c_file *files, size_t n, bool params) {
  og_cn_run *c = og_xmalloc(sizeof *c);
  *c = (og_cn_run){.files = files, .n = n, .params = params};
  c->scopes = og_xmalloc((n ? n : 1) * sizeof *c->scopes);
  for (size_t i = 0; i < n; i++) {
    file_scopes *fs = &c->scopes[i];
    *fs = (file_scopes){0};
    fs->reserved = !scope_names(&files[i], NULL, params, NULL, fs->chosen);
  }
  return c;
}

/* Whether a name of `c` is a global name of the run. */
static bool any_taken(const global_set *g, const chosen *c) {
  for (size_t i = 0; i < c->count; i++)
    if (global_has(g, c->items[i].name, c->items[i].hash)) return true;
  return false;
}

bool og_cn_check(og_cn_run *c, og_diag *diag) {
  og_arena_init(&c->whos);
  run *r = &c->r;
  *r = (run){.diag = diag, .arena = &c->whos, .ok = true};
  /* Sized once: growing tables touch fresh memory. */
  size_t estimate = 64;
  for (size_t i = 0; i < c->n; i++)
    estimate += estimate_names(c->files[i].ops, c->files[i].nops);
  r->cap = estimate;
  r->entries = table(r->cap * sizeof *r->entries);
  for (size_t i = 0; i < c->n; i++) check_file(r, &c->files[i]);
  dedup(r);
  report_all(r);
  for (size_t i = 0; i < c->n; i++) {
    file_scopes *fs = &c->scopes[i];
    fs->taken = any_taken(&r->global, &fs->chosen[0]) ||
                any_taken(&r->global, &fs->chosen[1]);
  }
  return r->ok;
}

bool og_cn_finish(og_cn_run *c, og_diag *diag, bool *renamed) {
  run *r = &c->r;
  *renamed = false;
  for (size_t i = 0; i < c->n; i++) {
    file_scopes *fs = &c->scopes[i];
    /* Named anew with the global names, reporting (the same names
     * unless `taken`). */
    if (fs->taken || fs->reserved)
      r->ok = scope_names(&c->files[i], &r->global, c->params, diag, NULL) &&
              r->ok;
    *renamed = *renamed || fs->taken;
    for (int k = 0; k < 2; k++)
      og_pages_free(fs->chosen[k].items,
                    fs->chosen[k].cap * sizeof *fs->chosen[k].items);
  }
  bool ok = r->ok;
  og_pages_free(r->global.slots, r->global.cap * sizeof *r->global.slots);
  set_free(&r->files);
  og_pages_free(r->entries, r->cap * sizeof *r->entries);
  free(r->file_claims);
  og_arena_free(&c->whos);
  free(c->scopes);
  free(c);
  return ok;
}

bool og_cn_check_run(og_c_file *files, size_t n, bool params,
                     og_diag *diag) {
  og_cn_run *c = og_cn_prepare(files, n, params);
  bool ok = og_cn_check(c, diag);
  bool renamed;
  return og_cn_finish(c, diag, &renamed) && ok;
}
