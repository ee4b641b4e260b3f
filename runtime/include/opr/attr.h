/* Attr values of every attr type, as the runtime passes them around. */
#ifndef OPR_ATTR_H
#define OPR_ATTR_H

#include "opr/dtype.h"
#include "opr/tensor.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum opr_attr_kind {
  OPR_ATTR_UNSET = 0, /* an attr the caller did not give */
  OPR_ATTR_STRING,
  OPR_ATTR_INT,
  OPR_ATTR_FLOAT,
  OPR_ATTR_BOOL,
  OPR_ATTR_TYPE,
  OPR_ATTR_SHAPE,
  OPR_ATTR_TENSOR,
  OPR_ATTR_FUNC,
} opr_attr_kind;

typedef struct opr_attr_type {
  opr_attr_kind kind;
  bool is_list;
} opr_attr_type;

/* "int", "list(type)", ... */
const char *opr_attr_type_name(opr_attr_type t);

/* A borrowed byte string. */
typedef struct opr_str {
  const char *ptr;
  size_t len;
} opr_str;

/* A possibly partial shape: rank -1 is unknown, a dim -1 is unknown. */
typedef struct opr_shape {
  int rank;
  const int64_t *dims;
} opr_shape;

/* An attr value. Lists hold `count` items of the element's C type:
 * opr_str, int64_t, float, bool, opr_dtype, opr_shape,
 * const opr_tensor *, or const char * (func names). Values are borrowed:
 * whoever builds one keeps the memory alive for the call. */
typedef struct opr_attr_value {
  opr_attr_kind kind;
  bool is_list;
  union {
    opr_str s;
    int64_t i;
    float f;
    bool b;
    opr_dtype type;
    opr_shape shape;
    const opr_tensor *tensor;
    const char *func;
    struct {
      size_t count;
      const void *items;
    } list;
  } u;
} opr_attr_value;

/* The size of one list item of `kind` (its C type above); 0 for UNSET. */
size_t opr_attr_item_size(opr_attr_kind kind);

/* Value constructors, for generated wrappers and hand-written calls. A
 * NULL string, func or tensor is "not given" (the default applies).
 * Written in the C that C++ also accepts (no designated initializers):
 * this header is included from C++. */
static inline opr_attr_value opr_attr_cstring(opr_attr_kind kind,
                                              const char *s) {
  opr_attr_value v = {OPR_ATTR_UNSET, false, {{NULL, 0}}};
  if (!s) return v;
  v.kind = kind;
  if (kind == OPR_ATTR_FUNC) {
    v.u.func = s;
  } else {
    size_t n = 0;
    while (s[n]) n++;
    v.u.s.ptr = s;
    v.u.s.len = n;
  }
  return v;
}

static inline opr_attr_value opr_attr_tensor(const opr_tensor *t) {
  opr_attr_value v = {t ? OPR_ATTR_TENSOR : OPR_ATTR_UNSET, false,
                      {{NULL, 0}}};
  v.u.tensor = t;
  return v;
}

static inline opr_attr_value opr_attr_list(opr_attr_kind kind,
                                           const void *items, size_t count) {
  opr_attr_value v = {kind, true, {{NULL, 0}}};
  v.u.list.count = count;
  v.u.list.items = items;
  return v;
}

/* An attr given by name, for the generic entry point. */
typedef struct opr_named_attr {
  const char *name;
  opr_attr_value value;
} opr_named_attr;

#ifdef __cplusplus
}
#endif

#endif
