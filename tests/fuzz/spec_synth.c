/* spec_synth: the structure of a spec set (files, packages, ops, items,
 * shape statements) and the names that make generated C collide. Each
 * op is built as a list of item texts first (so that IO types can add
 * the attrs they need), then written out. */
#include "spec_synth.h"

#include "spec_synth_attr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPS 48

typedef struct synth {
  fz_rng *r;
  fz_spec_set *set;
  char *op_names[MAX_OPS]; /* every file's, for uniqueness */
  size_t nops;
  const char *package; /* of the file being written, or NULL */
  const char *packages[FZ_MAX_FILES];
  fz_op *file_ops[MAX_OPS];
  size_t nfile_ops;
  unsigned fresh;
} synth;

static bool op_has_name(const fz_op *op, const char *n) {
  for (size_t i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, n) == 0) return true;
  for (size_t i = 0; i < op->nins; i++)
    if (strcmp(op->ins[i].name, n) == 0) return true;
  for (size_t i = 0; i < op->nouts; i++)
    if (strcmp(op->outs[i].name, n) == 0) return true;
  return false;
}

/* A name some item of `op` already has, and whether it is a list. */
static const char *some_name(synth *s, const fz_op *op, bool *list) {
  size_t n = op->nattrs + op->nins + op->nouts;
  if (n == 0) return NULL;
  size_t i = fz_pick(s->r, (uint32_t)n);
  if (i < op->nattrs) {
    *list = op->attrs[i].list || op->attrs[i].role == FZ_TYPE_LIST;
    return op->attrs[i].name;
  }
  i -= op->nattrs;
  const fz_io *io = i < op->nins ? &op->ins[i] : &op->outs[i - op->nins];
  *list = io->list;
  return io->name;
}

static char *long_name(void) {
  char *n = fz_xalloc(4101);
  memset(n, 'a', 4100);
  return n;
}

/* A candidate name derived from the op's other names: another case of
 * one, or its `_count`. */
static char *derived_name(synth *s, const fz_op *op, bool upper_ok) {
  bool list = false;
  const char *base = some_name(s, op, &list);
  if (!base) return NULL;
  fz_buf b = {0};
  if (list && fz_pick(s->r, 2)) {
    fz_printf(&b, "%s_count", base);
  } else {
    fz_puts(&b, base);
    bool up = upper_ok && fz_pick(s->r, 2);
    for (char *p = b.p; *p; p++)
      if (up && *p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
      else if (!up && *p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
  }
  return b.p;
}

static bool io_legal(const char *n) {
  if (!(n[0] >= 'a' && n[0] <= 'z')) return false;
  for (const char *p = n; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
      return false;
  return true;
}

/* A name for a new attr (upper_ok) or input/output, unused in `op`. */
static char *item_name(synth *s, const fz_op *op, bool attr) {
  for (int tries = 0; tries < 4; tries++) {
    char *n = NULL;
    switch (fz_hazard(s->r, FZ_H_NAMES) ? fz_pick(s->r, 6) : 7) {
    case 0: case 1: case 2:
      n = fz_strdup(attr ? fz_pool_attr_name(s->r) : fz_pool_io_name(s->r));
      break;
    case 3: case 4: n = derived_name(s, op, attr); break;
    case 5: if (fz_one_in(s->r, 40)) n = long_name(); break;
    default: break;
    }
    if (!n) {
      fz_buf b = {0};
      fz_printf(&b, "%s%u", attr ? "a" : "x", s->fresh++);
      n = b.p;
    }
    bool ok = !op_has_name(op, n) && (attr ? !fz_is_dtype_name(n) : io_legal(n));
    if (ok) return n;
    free(n);
  }
  fz_buf b = {0};
  fz_printf(&b, "%s%u", attr ? "z" : "v", s->fresh++);
  return b.p;
}

static void put_doc(synth *s, fz_buf *b, uint32_t one_in) {
  if (!fz_one_in(s->r, one_in)) return;
  uint32_t lines = 1 + fz_pick(s->r, 3);
  for (uint32_t i = 0; i < lines; i++) {
    fz_puts(b, "  ///");
    if (!fz_one_in(s->r, 4)) {
      fz_puts(b, " ");
      fz_hostile_doc(s->r, b);
    }
    fz_puts(b, "\n");
  }
}

static fz_attr *add_attr(synth *s, fz_op *op, fz_role role) {
  if (op->nattrs == FZ_MAX_ATTRS) return NULL;
  fz_attr *a = &op->attrs[op->nattrs];
  memset(a, 0, sizeof *a);
  a->name = item_name(s, op, true);
  a->role = role;
  op->nattrs++;
  fz_buf ty = {0}, def = {0};
  switch (role) {
  case FZ_FREE: fz_attr_free(s->r, a, &ty, &def); break;
  case FZ_NUMBER: a->kind = FZ_INT; fz_attr_number(s->r, &ty, &def); break;
  case FZ_TYPE_ROLE: a->kind = FZ_TYPE; fz_attr_type(s->r, &ty, &def); break;
  default:
    a->kind = FZ_TYPE;
    a->list = true;
    fz_attr_type_list(s->r, &ty, &def);
    break;
  }
  put_doc(s, &op->attr_text, 4);
  fz_printf(&op->attr_text, "  attr %s: %s%s%s;\n", a->name, ty.p,
            def.len ? " = " : "", def.len ? def.p : "");
  free(ty.p);
  free(def.p);
  return a;
}

/* An attr of `role` to reference: an existing one or a new one. */
static const char *role_attr(synth *s, fz_op *op, fz_role role) {
  for (size_t i = 0; i < op->nattrs; i++)
    if (op->attrs[i].role == role && fz_pick(s->r, 2))
      return op->attrs[i].name;
  fz_attr *a = add_attr(s, op, role);
  return a ? a->name : NULL;
}

/* An IO type of any form; sets *list. NULL when no attr fits any more. */
static char *io_type(synth *s, fz_op *op, bool *list) {
  fz_buf b = {0};
  const char *t = NULL, *n = NULL;
  *list = false;
  switch (fz_pick(s->r, 5)) {
  case 0: fz_puts(&b, fz_dtype_name(s->r)); break;
  case 1:
    if ((t = role_attr(s, op, FZ_TYPE_ROLE))) fz_puts(&b, t);
    break;
  case 2:
    *list = true;
    if ((t = role_attr(s, op, FZ_TYPE_LIST))) fz_puts(&b, t);
    break;
  case 3:
    *list = true;
    if ((n = role_attr(s, op, FZ_NUMBER)) &&
        (t = fz_pick(s->r, 2) ? fz_dtype_name(s->r)
                              : role_attr(s, op, FZ_TYPE_ROLE)))
      fz_printf(&b, "%s * %s", n, t);
    break;
  default: {
    static const char *const plain[] = {"resource", "float", "int32", "int64"};
    fz_puts(&b, plain[fz_pick(s->r, 4)]);
    break;
  }
  }
  if (!b.p) {
    *list = false;
    fz_puts(&b, "int32");
  }
  if (fz_one_in(s->r, 5)) {
    fz_buf ref = {0};
    fz_printf(&ref, "Ref(%s)", b.p);
    free(b.p);
    return ref.p;
  }
  return b.p;
}

static void add_io(synth *s, fz_op *op, bool input) {
  fz_io *io = input ? &op->ins[op->nins] : &op->outs[op->nouts];
  io->name = item_name(s, op, false);
  if (input) op->nins++;
  else op->nouts++;
  char *ty = io_type(s, op, &io->list);
  const char *elem = strrchr(ty, ' ') ? strrchr(ty, ' ') + 1 : ty;
  io->ints = strcmp(elem, "int32") == 0 || strcmp(elem, "int64") == 0;
  fz_buf *b = input ? &op->in_text : &op->out_text;
  put_doc(s, b, 4);
  fz_printf(b, "  %s %s: %s;\n", input ? "input" : "output", io->name, ty);
  free(ty);
}

/* An op name from a strategy: a pool, the runtime's names (package opr),
 * another op's helper names, another op's name in capitals, or fresh. */
static char *op_name_candidate(synth *s) {
  fz_buf b = {0};
  fz_op *other = s->nfile_ops ? s->file_ops[fz_pick(s->r, (uint32_t)s->nfile_ops)] : NULL;
  char camel[128];
  bool list;
  const char *n;
  switch (fz_hazard(s->r, FZ_H_NAMES) ? fz_pick(s->r, 7) : 9) {
  case 0: case 1: fz_puts(&b, fz_pool_op_name(s->r)); break;
  case 2:
    if (s->package && strcmp(s->package, "opr") == 0)
      fz_puts(&b, fz_pool_runtime_op(s->r));
    break;
  case 3: case 4:
    if (other) fz_printf(&b, "%s%s", other->name, fz_pool_helper_suffix(s->r));
    break;
  case 5:
    if (other && (n = some_name(s, other, &list))) {
      static const char *const kinds[] = {"Input", "Attr", "Alloc", ""};
      fz_camel_case(n, camel, sizeof camel);
      fz_printf(&b, "%s%s%s", other->name, kinds[fz_pick(s->r, 4)], camel);
    }
    break;
  case 6:
    if (other) {
      fz_puts(&b, other->name);
      for (char *p = b.p; *p; p++)
        if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
    }
    break;
  default: break;
  }
  if (!b.p) fz_printf(&b, "Op%u", s->fresh++);
  return b.p;
}

static bool op_name_taken(const synth *s, const char *n) {
  for (size_t i = 0; i < s->nops; i++)
    if (strcmp(s->op_names[i], n) == 0) return true;
  return false;
}

static bool op_legal(const char *n) {
  if (!(n[0] >= 'A' && n[0] <= 'Z')) return false;
  for (const char *p = n; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9')))
      return false;
  return true;
}

static char *op_name(synth *s, const char *forced) {
  char *n = forced && !op_name_taken(s, forced) ? fz_strdup(forced) : NULL;
  for (int tries = 0; tries < 4 && !n; tries++) {
    n = op_name_candidate(s);
    if (op_name_taken(s, n) || !op_legal(n)) {
      free(n);
      n = NULL;
    }
  }
  if (!n) {
    fz_buf b = {0};
    fz_printf(&b, "Fresh%u", s->fresh++);
    n = b.p;
  }
  s->op_names[s->nops++] = n;
  return n;
}

static void put_flags(synth *s, fz_buf *b) {
  static const char *const flags[] = {
      "stateful", "commutative", "aggregate", "allows_uninitialized_input",
      "distributed_communication"};
  for (int i = 0; i < 5; i++)
    if (fz_one_in(s->r, 5)) fz_printf(b, "  %s;\n", flags[i]);
  if (fz_one_in(s->r, 6)) {
    static const char *const versions[] = {"1", "7", "0", "2147483647"};
    fz_printf(b, "  deprecated %s '", versions[fz_pick(s->r, 4)]);
    fz_hostile_string(s->r, b);
    fz_puts(b, "';\n");
  }
}

static void free_op(fz_op *op) {
  for (size_t i = 0; i < op->nattrs; i++) free(op->attrs[i].name);
  for (size_t i = 0; i < op->nins; i++) free(op->ins[i].name);
  for (size_t i = 0; i < op->nouts; i++) free(op->outs[i].name);
  free(op->attr_text.p);
  free(op->in_text.p);
  free(op->out_text.p);
  free(op);
}

/* One op, written to `b`; kept in s->file_ops for later ops' names. */
static void write_op(synth *s, fz_buf *b, const char *forced) {
  fz_op *op = fz_xalloc(sizeof *op);
  op->name = op_name(s, forced);
  uint32_t nattrs = fz_pick(s->r, 5), nins = fz_pick(s->r, FZ_MAX_IO);
  uint32_t nouts = fz_pick(s->r, FZ_MAX_IO);
  for (uint32_t i = 0; i < nattrs; i++) add_attr(s, op, FZ_FREE);
  for (uint32_t i = 0; i < nins; i++) add_io(s, op, true);
  for (uint32_t i = 0; i < nouts; i++) add_io(s, op, false);
  put_doc(s, b, 2);
  fz_printf(b, "op %s {\n", op->name);
  bool ins_first = fz_one_in(s->r, 4);
  if (ins_first) fz_puts(b, op->in_text.p ? op->in_text.p : "");
  fz_puts(b, op->attr_text.p ? op->attr_text.p : "");
  if (!ins_first) fz_puts(b, op->in_text.p ? op->in_text.p : "");
  fz_puts(b, op->out_text.p ? op->out_text.p : "");
  put_flags(s, b);
  fz_put_shape(s->r, op, s->set, b);
  fz_puts(b, "}\n\n");
  if (s->nfile_ops < MAX_OPS) s->file_ops[s->nfile_ops++] = op;
  else free_op(op);
}

static const char *const file_names[] = {
    "ops.op", "int.op", "opr.op", "new.op", "1abc.op", "a-b.op",
    "kernels.op", "demo.op", "main.op", "x.op", "class.op", "ops_ops.op",
};

static bool file_taken(const fz_spec_set *set, const char *n) {
  for (size_t i = 0; i < set->nfiles; i++)
    if (strcmp(set->files[i].name, n) == 0) return true;
  return false;
}

static void file_name(synth *s, char *out, size_t cap) {
  const char *n = file_names[fz_pick(s->r, sizeof file_names / sizeof *file_names)];
  if (!fz_hazard(s->r, FZ_H_FILES) || file_taken(s->set, n)) snprintf(out, cap, "f%zu.op", s->set->nfiles);
  else snprintf(out, cap, "%s", n);
}

/* One file: a comment, maybe a package, ops; `forced` names its first
 * op. */
static void write_file(synth *s, const char *name, const char *package,
                       const char *forced) {
  fz_spec_file *f = &s->set->files[s->set->nfiles++];
  snprintf(f->name, sizeof f->name, "%s", name);
  fz_buf b = {0};
  fz_puts(&b, "// Synthesized by tests/fuzz/spec_synth.c.\n");
  if (package) fz_printf(&b, "package %s;\n\n", package);
  s->package = package;
  s->packages[s->set->nfiles - 1] = package;
  for (size_t i = 0; i < s->nfile_ops; i++) free_op(s->file_ops[i]);
  s->nfile_ops = 0;
  uint32_t nops = 1 + fz_pick(s->r, 4);
  for (uint32_t i = 0; i < nops && s->nops < MAX_OPS; i++)
    write_op(s, &b, i == 0 ? forced : NULL);
  f->text = b.p;
  f->len = b.len;
}

/* The set's shape: two files whose C names meet (packages `a` and `a_b`
 * with ops BFoo and Foo; stems x.y and x_y, x and X), package `opr`, or
 * free. */
static void write_set(synth *s) {
  char name[32];
  const char *pkg;
  switch (fz_hazard(s->r, FZ_H_FILES) ? fz_pick(s->r, 8) : 7) {
  case 0:
    write_file(s, "a.op", "a", "BFoo");
    write_file(s, "a_b.op", "a_b", "Foo");
    return;
  case 1:
    write_file(s, "x.y.op", fz_pick(s->r, 2) ? NULL : "xy1", NULL);
    write_file(s, "x_y.op", NULL, NULL);
    return;
  case 2:
    write_file(s, "x.op", fz_pick(s->r, 2) ? NULL : "lower", NULL);
    write_file(s, "X.op", "upper", NULL);
    return;
  case 3:
    write_file(s, "opr.op", "opr", NULL);
    break;
  default: break;
  }
  uint32_t n = 1 + fz_pick(s->r, FZ_MAX_FILES);
  while (s->set->nfiles < n) {
    file_name(s, name, sizeof name);
    pkg = fz_pick(s->r, 2) ? fz_pool_package(s->r) : NULL;
    /* Two files with one prefix are an error of gen: now and then. */
    for (size_t i = 0; pkg && i < s->set->nfiles; i++)
      if (s->packages[i] && strcmp(s->packages[i], pkg) == 0 &&
          !fz_one_in(s->r, 8))
        pkg = NULL;
    write_file(s, name, pkg, NULL);
  }
}

static uint64_t hash_bytes(const uint8_t *data, size_t size) {
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3u;
  return h ? h : 1;
}

void fz_synth(const uint8_t *data, size_t size, fz_spec_set *out) {
  memset(out, 0, sizeof *out);
  fz_rng r = {.data = data, .size = size, .state = hash_bytes(data, size)};
  r.level = 1 + fz_pick(&r, 4);
  r.classes = fz_pick(&r, 1u << FZ_H_CLASSES);
  synth s = {0};
  s.r = &r;
  s.set = out;
  write_set(&s);
  for (size_t i = 0; i < s.nfile_ops; i++) free_op(s.file_ops[i]);
  for (size_t i = 0; i < s.nops; i++) free(s.op_names[i]);
}

void fz_seed_bytes(uint64_t seed, uint8_t *buf, size_t size) {
  uint64_t x = seed;
  for (size_t i = 0; i < size; i++) {
    x += 0x9E3779B97F4A7C15u; /* splitmix64 */
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    buf[i] = (uint8_t)((z ^ (z >> 31)) >> 56);
  }
}

void fz_spec_set_free(fz_spec_set *s) {
  for (size_t i = 0; i < s->nfiles; i++) free(s->files[i].text);
  for (size_t i = 0; i < s->nshape_fns; i++) free(s->shape_fns[i]);
  free(s->shape_fns);
  memset(s, 0, sizeof *s);
}

void fz_spec_set_print(FILE *f, const fz_spec_set *s) {
  for (size_t i = 0; i < s->nfiles; i++)
    fprintf(f, "---- %s ----\n%s", s->files[i].name, s->files[i].text);
}
