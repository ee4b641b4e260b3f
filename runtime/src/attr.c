/* Attr type names, as the .op language spells them; list item sizes. */
#include "opr/attr.h"

const char *opr_attr_type_name(opr_attr_type t) {
  static const char *const scalar[] = {
      [OPR_ATTR_UNSET] = "unset", [OPR_ATTR_STRING] = "string",
      [OPR_ATTR_INT] = "int",     [OPR_ATTR_FLOAT] = "float",
      [OPR_ATTR_BOOL] = "bool",   [OPR_ATTR_TYPE] = "type",
      [OPR_ATTR_SHAPE] = "shape", [OPR_ATTR_TENSOR] = "tensor",
      [OPR_ATTR_FUNC] = "func",
  };
  static const char *const list[] = {
      [OPR_ATTR_UNSET] = "unset",         [OPR_ATTR_STRING] = "list(string)",
      [OPR_ATTR_INT] = "list(int)",       [OPR_ATTR_FLOAT] = "list(float)",
      [OPR_ATTR_BOOL] = "list(bool)",     [OPR_ATTR_TYPE] = "list(type)",
      [OPR_ATTR_SHAPE] = "list(shape)",   [OPR_ATTR_TENSOR] = "list(tensor)",
      [OPR_ATTR_FUNC] = "list(func)",
  };
  if ((unsigned)t.kind >= sizeof scalar / sizeof scalar[0]) return "invalid";
  return t.is_list ? list[t.kind] : scalar[t.kind];
}

size_t opr_attr_item_size(opr_attr_kind kind) {
  switch (kind) {
  case OPR_ATTR_STRING: return sizeof(opr_str);
  case OPR_ATTR_INT: return sizeof(int64_t);
  case OPR_ATTR_FLOAT: return sizeof(float);
  case OPR_ATTR_BOOL: return sizeof(bool);
  case OPR_ATTR_TYPE: return sizeof(opr_dtype);
  case OPR_ATTR_SHAPE: return sizeof(opr_shape);
  case OPR_ATTR_TENSOR: return sizeof(const opr_tensor *);
  case OPR_ATTR_FUNC: return sizeof(const char *);
  case OPR_ATTR_UNSET: break;
  }
  return 0;
}
