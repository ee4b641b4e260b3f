/* Semantic analysis: shared state of the passes that turn one AST op into
 * a finalized og_op. */
#ifndef OPGEN_SEMA_INTERNAL_H
#define OPGEN_SEMA_INTERNAL_H

#include "ast.h"
#include "diag.h"
#include "model.h"
#include "strmap.h"

typedef struct og_sema_op {
  og_arena *arena; /* the model's */
  og_diag *diag;
  const og_sources *sources;
  const char *file; /* interned in the model */
  uint32_t line;    /* the op's name's (0-based): og_sema_pos starts there */
  const og_ast_op *ast;
  og_op *op;
  /* The AST item behind each attr, input and output, by index. */
  const og_ast_item **attr_items, **input_items, **output_items;
  /* An attr whose declaration was wrong: later checks that depend on it
   * stay quiet instead of piling up follow-on errors. */
  bool *attr_bad;
  /* Each kind's names to the index of its first item of that name (set
   * by og_sema_check_names): lookups in linear time overall. */
  og_strmap attr_names, input_names, output_names;
} og_sema_op;

/* Index of the attr, input or output named `name`, or -1. */
long og_sema_find_attr(const og_sema_op *s, const char *name);
long og_sema_find_input(const og_sema_op *s, const char *name);
long og_sema_find_output(const og_sema_op *s, const char *name);

og_srcpos og_sema_pos(const og_sema_op *s, og_loc loc);

/* Checks one op, reporting to d: what to keep of it (NULL: nothing),
 * allocated from `arena`. May run on any thread. */
typedef void *(*og_sema_each_fn)(void *arg, const og_ast_op *op, og_diag *d,
                                 og_arena *arena);
typedef struct og_sema_done {
  const og_ast_op *ast;
  void *result; /* what `each` kept */
} og_sema_done;
typedef struct og_sema_ops {
  og_sema_each_fn each;
  void *arg;
  og_arena *arena;     /* what the results live in (the model's) */
  og_sema_done *items; /* the results, in source order (malloc'd) */
  size_t count, cap;
} og_sema_ops;

/* Parses source `file` into ast_arena and runs ops->each on every op, as
 * if after the parse, with each op's diagnostics held and delivered
 * sorted per op, after the parse's, in source order (sema_stream.c).
 * A large source is cut into pieces at op boundaries, each parsed and
 * checked on a thread of its own; or parsed on a thread of its own
 * while this one checks the ops it completes. */
extern size_t og_sema_stream_bytes; /* the smallest source streamed */
extern size_t og_sema_split_bytes;  /* the smallest source cut */
/* How many pieces; 0: four per CPU, each of og_sema_split_bytes / 4 or
 * more, which one thread per CPU takes in turn. Set (tests): that many,
 * a thread each. */
extern size_t og_sema_split_pieces;
og_ast_file *og_sema_parse_each(og_arena *ast_arena,
                                const og_sources *sources, uint32_t file,
                                og_diag *diag, og_sema_ops *ops);
/* Where a source is cut into up to `max` pieces (at most 64) of about
 * the same size: each begins at a line that begins `op `, or at the
 * blank and `//` lines above it. Returns how many, their starts in
 * begins (the first 0). */
size_t og_sema_cut(const og_source *src, size_t max, uint32_t *begins);

/* Names (sema_names.c). */
void og_sema_check_op_name(og_sema_op *s);
void og_sema_check_names(og_sema_op *s);

/* Attrs (sema_attr.c): name, type, allowed values, minimum. */
void og_sema_attr(og_sema_op *s, size_t index);
/* Defaults, after the args have applied implied minimums. */
void og_sema_attr_default(og_sema_op *s, size_t index);
/* "{float, int32}" or "{'a', 'b'}" for messages. */
const char *og_sema_allowed_text(og_sema_op *s, const og_value *allowed);

/* Values (sema_value.c): a literal converted to an attr's type. NULL after
 * reporting an error. */
const og_value *og_sema_value(og_sema_op *s, const og_attr *attr,
                              const og_ast_value *v);
/* One value of a tensor literal's *_val field (`attr` has the field's
 * scalar kind), converted and checked against dtype dt's range. */
const og_value *og_sema_tensor_value(og_sema_op *s, const og_attr *attr,
                                     const char *what, og_dtype dt,
                                     const og_ast_value *v);
/* Whether a number fits the C type that holds it (sema_range.c): a float
 * for dt FLOAT and COMPLEX64, a double for DOUBLE and COMPLEX128, the
 * element type of integer dtypes (half_val: the 16 bits). Reports the
 * error at loc, naming `what` ("the default", "element 2 of ..."). */
bool og_sema_value_fits(og_sema_op *s, const og_attr *attr, const char *what,
                        const og_value *v, og_dtype dt, og_loc loc);
/* Short rendering of a value for messages ("int64", "'foo'", "[1, 2]"). */
const char *og_sema_value_text(og_sema_op *s, const og_value *v);
/* What an AST literal is, in words ("integer 3", "string 'a'"). */
const char *og_sema_literal_text(og_sema_op *s, const og_ast_value *v);

/* Structured literals (sema_literal.c). `what` names the value in
 * messages ("the default"). */
bool og_sema_shape_literal(og_sema_op *s, const og_attr *attr,
                           const char *what, const og_ast_value *v,
                           og_shape *out);
bool og_sema_tensor_literal(og_sema_op *s, const og_attr *attr,
                            const og_ast_value *v, og_tensor *out);
bool og_sema_func_literal(og_sema_op *s, const og_attr *attr,
                          const og_ast_value *v, const char **out);

/* Inputs and outputs (sema_args.c). */
void og_sema_arg(og_sema_op *s, bool is_input, size_t index);

/* Candidates for "did you mean" (sema_suggest.c): which sets to search. */
enum {
  OG_SG_DTYPES = 1 << 0,     /* float, double, ... */
  OG_SG_TYPESETS = 1 << 1,   /* numbertype, ... */
  OG_SG_TYPE_ATTRS = 1 << 2, /* the op's type and list(type) attrs */
  OG_SG_INT_ATTRS = 1 << 3,  /* the op's int attrs */
  OG_SG_ATTRS = 1 << 4,      /* all the op's attrs */
  OG_SG_INPUTS = 1 << 5,
  OG_SG_OUTPUTS = 1 << 6,
};
struct og_suggest;
/* Adds the candidates of `sets` to g; an op's own names only while it has
 * at most OG_SUGGEST_MAX_NAMES of that kind. */
void og_sema_suggest(const og_sema_op *s, struct og_suggest *g,
                     unsigned sets);
/* g's hint for `name` from `sets`: "; did you mean 'x'?" or "". */
const char *og_sema_hint(const og_sema_op *s, struct og_suggest *g,
                         const char *name, unsigned sets);

/* Shape statements (sema_shape.c). */
void og_sema_shapes(og_sema_op *s);

#endif
