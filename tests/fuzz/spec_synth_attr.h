/* spec_synth: the op being built, and attr types with their minimums
 * and defaults. */
#ifndef OPGEN_FUZZ_SPEC_SYNTH_ATTR_H
#define OPGEN_FUZZ_SPEC_SYNTH_ATTR_H

#include "spec_synth_internal.h"

enum {
  FZ_STRING, FZ_INT, FZ_FLOAT, FZ_BOOL, FZ_TYPE, FZ_SHAPE, FZ_TENSOR,
  FZ_FUNC
};

/* What an attr's role needs to know of it. */
typedef enum fz_role { FZ_FREE, FZ_NUMBER, FZ_TYPE_ROLE, FZ_TYPE_LIST } fz_role;

typedef struct fz_attr {
  char *name;
  fz_role role;
  int kind;
  bool list, is_enum;
} fz_attr;

/* Each writes the ATTR_TYPE (with any minimum) into `ty` and a valid
 * default, or nothing, into `def`. */
void fz_attr_free(fz_rng *r, fz_attr *a, fz_buf *ty, fz_buf *def);
void fz_attr_number(fz_rng *r, fz_buf *ty, fz_buf *def);
void fz_attr_type(fz_rng *r, fz_buf *ty, fz_buf *def);
void fz_attr_type_list(fz_rng *r, fz_buf *ty, fz_buf *def);

#define FZ_MAX_ATTRS 12
#define FZ_MAX_IO 4

typedef struct fz_io {
  char *name;
  bool list;
  bool ints; /* of int32 or int64 (each tensor): value() reads it */
} fz_io;

/* An op being built: its items' names and texts. */
typedef struct fz_op {
  char *name;
  fz_attr attrs[FZ_MAX_ATTRS];
  size_t nattrs;
  fz_io ins[FZ_MAX_IO], outs[FZ_MAX_IO];
  size_t nins, nouts;
  fz_buf attr_text, in_text, out_text;
} fz_op;

/* The op's shape items (spec_synth_shape.c): none, a `shape_fn` (its
 * name added to set->shape_fns) or statements of the core forms. */
struct fz_spec_set;
void fz_put_shape(fz_rng *r, const fz_op *op, struct fz_spec_set *set,
                  fz_buf *b);

#endif
