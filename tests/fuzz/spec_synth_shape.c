/* spec_synth: an op's shape items: none, a shape_fn, the core forms or
 * version 2 (spec_synth_v2.c). */
#include "spec_synth.h"
#include "spec_synth_attr.h"
#include "spec_synth_v2.h"

#include <stdlib.h>
#include <string.h>

static const char *some_input(fz_rng *r, const fz_op *op) {
  return op->ins[fz_pick(r, (uint32_t)op->nins)].name;
}

static const char *list_input(fz_rng *r, const fz_op *op) {
  for (size_t i = 0; i < op->nins; i++)
    if (op->ins[i].list && fz_pick(r, 2)) return op->ins[i].name;
  return NULL;
}

/* A non-list attr of `kind`. */
static const char *attr_of(fz_rng *r, const fz_op *op, int kind) {
  for (size_t i = 0; i < op->nattrs; i++) {
    const fz_attr *a = &op->attrs[i];
    if (a->kind == kind && !a->list && !a->is_enum && fz_pick(r, 2))
      return a->name;
  }
  return NULL;
}

static void add_shape_fn(fz_spec_set *set, const char *name) {
  for (size_t i = 0; i < set->nshape_fns; i++)
    if (strcmp(set->shape_fns[i], name) == 0) return;
  char **fns = realloc(set->shape_fns, (set->nshape_fns + 1) * sizeof *fns);
  if (!fns) abort();
  set->shape_fns = fns;
  set->shape_fns[set->nshape_fns++] = fz_strdup(name);
}

static void put_require(fz_rng *r, const fz_op *op, fz_buf *b) {
  const char *x = some_input(r, op), *y = some_input(r, op);
  switch (fz_pick(r, 5)) {
  case 0: fz_printf(b, "  require rank(%s) == 1;\n", x); break;
  case 1: fz_printf(b, "  require rank(%s) in [1, 3];\n", x); break;
  case 2: fz_printf(b, "  require rank(%s) >= 2;\n", x); break;
  case 3: fz_printf(b, "  require dim(%s, 0) == dim(%s, -1);\n", x, y); break;
  default: fz_printf(b, "  require same(%s, %s);\n", x, y); break;
  }
}

/* The right-hand side of `shape OUT = ...;`. */
static void put_shape_expr(fz_rng *r, const fz_op *op, fz_buf *b) {
  const char *x = op->nins ? some_input(r, op) : NULL;
  const char *y = op->nins ? some_input(r, op) : NULL, *a;
  switch (fz_pick(r, 9)) {
  case 0: if (x) { fz_puts(b, x); return; } break;
  case 1: if (x) { fz_printf(b, "[dim(%s, 0), 3]", x); return; } break;
  case 2:
    if ((a = list_input(r, op))) { fz_printf(b, "merge(%s)", a); return; }
    break;
  case 3: if (x) { fz_printf(b, "broadcast(%s, %s)", x, y); return; } break;
  case 4: fz_puts(b, "[]"); return;
  case 5:
    if ((a = attr_of(r, op, FZ_SHAPE))) { fz_printf(b, "attr(%s)", a); return; }
    break;
  case 6: if (x) { fz_printf(b, "[dim(%s, 0) * dim(%s, 1)]", x, x); return; } break;
  case 7:
    if (x && (a = attr_of(r, op, FZ_INT))) {
      fz_printf(b, "[attr(%s), rank(%s) * 2]", a, x);
      return;
    }
    break;
  default: break;
  }
  fz_puts(b, "?");
}

void fz_put_shape(fz_rng *r, const fz_op *op, fz_spec_set *set, fz_buf *b) {
  /* 0: none, 1: shape_fn, 2: the core forms, 3 to 5: version 2. */
  uint32_t mode = fz_pick(r, 6);
  if (mode == 0) return;
  if (mode >= 3) {
    fz_put_shape_v2(r, op, b);
    return;
  }
  if (mode == 1) {
    const char *name = fz_pool_shape_fn(r);
    add_shape_fn(set, name);
    fz_printf(b, "  shape_fn %s;\n", name);
    return;
  }
  uint32_t nreq = op->nins ? fz_pick(r, 3) : 0;
  for (uint32_t i = 0; i < nreq; i++) put_require(r, op, b);
  for (size_t i = 0; i < op->nouts; i++) {
    if (fz_one_in(r, 3)) continue;
    fz_printf(b, "  shape %s = ", op->outs[i].name);
    put_shape_expr(r, op, b);
    fz_puts(b, ";\n");
  }
}
