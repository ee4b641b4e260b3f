/* The parts of the OpList importer shared by its files: the field tables
 * each message is checked against, the walker that checks them
 * (tf_import_fields.c), and the value readers (tf_import_values.c). */
#ifndef OPGEN_TF_IMPORT_INTERNAL_H
#define OPGEN_TF_IMPORT_INTERNAL_H

#include "tf_import.h"

#include "pbtxt.h"

typedef enum fkind { F_MSG, F_STR, F_INT, F_FLOAT, F_BOOL, F_DTYPE } fkind;

typedef struct field_spec {
  const char *name;
  fkind kind;
  bool repeated;
  /* true: a real field the op model has no place for (an error);
   * DROPPED: one skipped with one summary warning (full types). */
  unsigned char unsupported;
} field_spec;
enum { DROPPED = 2 };

/* A field's value, converted per its spec. */
typedef struct fval {
  const og_pb_node *node;
  og_bytes s;
  int64_t i;
  double f;
  bool b;
  og_dtype dt;
} fval;

enum { MAX_SPECS = 24 };

/* Walks the fields of one message, remembering each field's first use. */
typedef struct walker {
  const char *type; /* "OpDef", for messages */
  const field_spec *specs;
  size_t nspecs;
  const og_pb_node *seen[MAX_SPECS];
} walker;

/* Fields skipped in the whole file: reported once at the end. */
enum { MAX_UNKNOWN_SHOWN = 8 };
typedef struct skipped_fields {
  const char *names[MAX_UNKNOWN_SHOWN]; /* "ArgDef.foo", distinct */
  size_t nnames, uses;
  bool more; /* distinct names past the shown ones */
  og_srcpos first;
  size_t dropped; /* experimental_full_type fields */
  og_srcpos first_dropped;
} skipped_fields;

typedef struct imp {
  og_model *m;
  og_arena *a; /* the model's arena */
  og_diag *diag;
  const char *path;    /* model arena copy, for positions in the model */
  const char *package; /* model arena */
  bool verbose;        /* list skipped ops by name */
  skipped_fields skip;
} imp;

#define WALKER(TYPE, SPECS) {TYPE, SPECS, sizeof SPECS / sizeof *SPECS, {0}}

#define EACH_FIELD(c, w, f, msg)                                             \
  for (const og_pb_node *f = og_tfi_known(c, w, (msg)->fields); f;          \
       f = og_tfi_known(c, w, f->next))

/* An error at `pos`; returns false. */
bool og_tfi_fail(imp *c, og_srcpos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A name not yet checked, as messages may show it (name_rules.h). */
const char *og_tfi_shown(imp *c, const char *name);
/* A position that lives as long as the model. */
og_srcpos og_tfi_model_pos(const imp *c, og_srcpos pos);
/* Checks the value of `n` against spec `s` and converts it into *v. */
bool og_tfi_convert(imp *c, const walker *w, const field_spec *s,
                    const og_pb_node *n, fval *v);
/* `n` or the first field after it that the walk reads: unknown fields
 * (from a newer TensorFlow) and dropped ones are counted and passed. */
const og_pb_node *og_tfi_known(imp *c, const walker *w, const og_pb_node *n);
/* The spec index of field `n` with its value in *v, or -1 after an
 * error. */
int og_tfi_next_field(imp *c, walker *w, const og_pb_node *n, fval *v);
/* A NUL-terminated copy for the model; names and docs may not hold NULs. */
bool og_tfi_cstr(imp *c, const fval *v, const char **out);
size_t og_tfi_count_fields(const og_pb_node *msg, const char *name);

/* An AttrValue that must hold one value of type `t`; `what` names it in
 * messages ("default_value of attr 'x'"). NULL after an error. */
og_value *og_tfi_attr_value(imp *c, const og_pb_node *msg, og_attr_type t,
                            const char *what);

#endif
