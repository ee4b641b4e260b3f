/* A reader for protobuf text format, as TensorFlow writes ops.pbtxt:
 * `name { ... }` (or `name: { ... }`, `<...>`), scalars `name: value`
 * (strings with C escapes, adjacent strings concatenated; integers; floats
 * including inf/nan; identifiers such as DT_FLOAT or true), repeated lists
 * `name: [a, b]`, and `#` comments. It builds a schema-less tree; what the
 * fields mean is the caller's business (see tf_import.c). */
#ifndef OPGEN_PBTXT_H
#define OPGEN_PBTXT_H

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "source.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Messages nested deeper than this are rejected (a guard against stack
 * exhaustion on hostile input, far beyond any real OpList). */
#define OG_PB_MAX_DEPTH 200

typedef enum og_pb_kind {
  OG_PB_MESSAGE,
  OG_PB_STRING, /* str: the decoded bytes */
  OG_PB_INT,    /* i (and f = (double)i); str: the token text */
  OG_PB_FLOAT,  /* f; str: the token text */
  OG_PB_IDENT,  /* str: the identifier (DT_FLOAT, true, inf, ...) */
} og_pb_kind;

typedef struct og_pb_node og_pb_node;

/* One field occurrence. A list `name: [a, b]` becomes two sibling nodes
 * named `name`, as if written `name: a name: b`. */
struct og_pb_node {
  const char *name; /* field name; "" for the root */
  og_srcpos pos;    /* of the field name */
  og_pb_kind kind;
  og_srcpos value_pos; /* of the value (the '{' of a message) */
  og_bytes str;
  int64_t i;
  double f;
  og_pb_node *fields; /* MESSAGE: its fields in order */
  size_t nfields;
  og_pb_node *next; /* next field of the enclosing message */
};

/* Parses `len` bytes of `text`. Returns the root message (all memory in
 * `arena`, including a copy of `path` that the positions point to), or
 * NULL after reporting the first error to `diag`. */
og_pb_node *og_pbtxt_parse(og_arena *arena, const char *path,
                           const char *text, size_t len, og_diag *diag);

/* The value as a double: INT, FLOAT, or the identifiers inf, infinity, nan
 * (any case). False for anything else. */
bool og_pb_float(const og_pb_node *n, double *out);

/* "message", "string", "integer", "number", "identifier 'x'": for error
 * messages about a value of the wrong kind. Returns `buf`. */
const char *og_pb_describe(const og_pb_node *n, char *buf, size_t size);

#endif
