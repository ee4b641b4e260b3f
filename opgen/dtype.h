/* Data types and type-set shortcuts as the generator sees them. */
#ifndef OPGEN_DTYPE_H
#define OPGEN_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum og_dtype {
  OG_DT_INVALID = 0,
#define OPR_DTYPE(ID, VALUE, NAME, ALIAS, CTYPE, N, R, Q) OG_DT_##ID = VALUE,
#include "opr/dtypes.def"
#undef OPR_DTYPE
  OG_DT_COUNT
} og_dtype;

/* A set of dtypes, bit v for dtype value v. */
typedef uint64_t og_dtype_set;

#define OG_DTYPE_BIT(dt) ((og_dtype_set)1 << (dt))

/* Canonical name ("float"), or NULL for a value that is not a dtype. */
const char *og_dtype_name(og_dtype dt);
/* Enum spelling without "DT_" ("FLOAT"), or NULL. */
const char *og_dtype_enum_id(og_dtype dt);
/* The C type of one tensor element ("float", "opr_half"), or NULL. */
const char *og_dtype_ctype(og_dtype dt);
/* Accepts the canonical name, the alias and the DT_ spelling. */
og_dtype og_dtype_lookup(const char *name, size_t len);
/* TensorFlow's "<name>_ref" / "DT_<ID>_REF" spellings: the base dtype, or
 * OG_DT_INVALID. Used to reject them with a helpful message. */
og_dtype og_dtype_lookup_ref(const char *name, size_t len);

typedef enum og_typeset {
  OG_TS_NONE = 0,
  OG_TS_NUMBER,
  OG_TS_REALNUMBER,
  OG_TS_QUANTIZED,
} og_typeset;

/* "numbertype", "numerictype", "realnumbertype", "realnumerictype",
 * "quantizedtype"; OG_TS_NONE for anything else. */
og_typeset og_typeset_lookup(const char *name, size_t len);
og_dtype_set og_typeset_members(og_typeset ts);

#endif
