/* A small strict JSON (RFC 8259) reader and the writing helpers the dump
 * uses. The reader builds a tree in an arena and remembers where each value
 * starts, so that callers can report problems at the offending value.
 *
 * One extension keeps byte strings exact: a lone low surrogate escape
 * \uDC80..\uDCFF stands for the raw byte 0x80..0xFF (Python's
 * "surrogateescape"). og_json_write_string writes bytes that are not valid
 * UTF-8 that way, so any og_bytes survives a round trip while the output
 * stays valid UTF-8. Other unpaired surrogates are errors. */
#ifndef OPGEN_JSON_H
#define OPGEN_JSON_H

#include "arena.h"
#include "bytes.h"
#include "diag.h"
#include "numtext.h"
#include "writer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Deeper nesting is an error, not a stack overflow. */
#define OG_JSON_MAX_DEPTH 1000

typedef enum og_json_kind {
  OG_JSON_NULL,
  OG_JSON_BOOL,
  OG_JSON_NUMBER,
  OG_JSON_STRING,
  OG_JSON_ARRAY,
  OG_JSON_OBJECT,
} og_json_kind;

typedef struct og_json_number {
  bool is_integer; /* written without fraction or exponent */
  bool fits_int64; /* is_integer and within int64: `i` is exact */
  int64_t i;
  double d;         /* the value as the nearest double (always set) */
  const char *text; /* as written */
} og_json_number;

typedef struct og_json_member og_json_member;

typedef struct og_json {
  og_json_kind kind;
  uint32_t line, col; /* of the value's first byte; 1-based, col in bytes */
  union {
    bool b;
    og_json_number num;
    og_bytes str; /* decoded; NUL-terminated but may hold NULs */
    struct {
      size_t count;
      struct og_json *items;
    } arr;
    struct {
      size_t count;
      og_json_member *members; /* in document order, keys unique */
    } obj;
  } u;
} og_json;

struct og_json_member {
  og_bytes key;
  uint32_t line, col; /* of the key */
  og_json value;
};

/* Parses `len` bytes of `text` (need not be NUL-terminated) as exactly one
 * JSON value. Every node and string is allocated in `arena`, which owns
 * them. The first error is reported to `diag` at {path, line, col} and
 * NULL is returned. A leading UTF-8 byte order mark is skipped. */
const og_json *og_json_parse(og_arena *arena, const char *path,
                             const char *text, size_t len, og_diag *diag);

/* The member `key` of an object, or NULL (also when `obj` is no object). */
const og_json *og_json_get(const og_json *obj, const char *key);

/* "null", "boolean", "number", "string", "array", "object". */
const char *og_json_kind_name(og_json_kind kind);

/* A JSON string literal with quotes: '"', '\\' and control characters
 * escaped, valid UTF-8 copied, other bytes as \uDCxx (see above). */
void og_json_write_string(og_writer *w, og_bytes s);
void og_json_write_cstring(og_writer *w, const char *s);

/* Enough for any output of og_json_format_double. */
#define OG_JSON_DOUBLE_MAX OG_DOUBLE_TEXT_MAX

/* The shortest %.Ng (N = 1..17) that reads back as the same double, with
 * ".0" appended when it would otherwise look like an integer, so that the
 * reader keeps it a float ("2.0", "-0.0", "0.1", "1e-300"). `d` must be
 * finite: JSON has no spelling for inf or nan. */
void og_json_format_double(double d, char out[OG_JSON_DOUBLE_MAX]);
void og_json_write_double(og_writer *w, double d);

#endif
