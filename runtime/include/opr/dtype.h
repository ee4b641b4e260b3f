/* Data types, numbered as TensorFlow numbers DataType, and the C type of
 * one element of each. */
#ifndef OPR_DTYPE_H
#define OPR_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum opr_dtype {
  OPR_DT_INVALID = 0,
#define OPR_DTYPE(ID, VALUE, NAME, ALIAS, CTYPE, N, R, Q) OPR_DT_##ID = VALUE,
#include "opr/dtypes.def"
#undef OPR_DTYPE
  OPR_DT_COUNT
} opr_dtype;

/* A set of dtypes: bit v for dtype value v. */
typedef uint64_t opr_dtype_set;
#define OPR_DTYPE_BIT(dt) ((opr_dtype_set)1 << (dt))

/* Element types without a native C equivalent. */
typedef struct opr_string {   /* owned by its tensor */
  char *data;
  size_t len;
} opr_string;
typedef struct opr_complex64 {
  float re, im;
} opr_complex64;
typedef struct opr_complex128 {
  double re, im;
} opr_complex128;
typedef struct opr_half {     /* IEEE binary16 bits */
  uint16_t bits;
} opr_half;
typedef struct opr_bfloat16 { /* the upper half of a binary32 */
  uint16_t bits;
} opr_bfloat16;
typedef struct opr_resource {
  void *handle;
} opr_resource;
typedef struct opr_variant {
  void *value;
} opr_variant;

/* Canonical name ("float"), or "invalid" for a value that is no dtype. */
const char *opr_dtype_name(opr_dtype dt);
/* Bytes per element; 0 for a value that is no dtype. */
size_t opr_dtype_size(opr_dtype dt);
bool opr_dtype_valid(opr_dtype dt);
/* Writes "{float, double, int32}" into buf (truncated to n); returns buf. */
const char *opr_dtype_set_text(opr_dtype_set set, char *buf, size_t n);

float opr_half_to_float(opr_half h);
opr_half opr_half_from_float(float f);
float opr_bfloat16_to_float(opr_bfloat16 b);
opr_bfloat16 opr_bfloat16_from_float(float f);

#ifdef __cplusplus
}
#endif

#endif
