#!/usr/bin/env python3
"""Compare `opgen dump` of an imported OpList with the OpList, field by field.

By hand only (it needs TensorFlow's protobuf modules, which the tests never
install): docs/import-tf.md shows how to dump a live registry.

    compare_oplist.py tf-ops.pbtxt dump.json

Internal (`_`) and namespaced (`Ns>Name`) ops are left out, as import-tf
leaves them out. Allowed values compare after dropping repeats, since a .op
set keeps a value once (op-language.md); floats compare as float32, the
precision an OpDef holds. Exit status 1 when any op differs.
"""
import json
import struct
import sys

from google.protobuf import text_format
from tensorflow.core.framework import op_def_pb2, types_pb2
from tensorflow.python.framework import tensor_util

OP_FLAGS = ("summary", "description", "is_stateful", "is_commutative",
            "is_aggregate", "allows_uninitialized_input",
            "is_distributed_communication")
ARG_FIELDS = ("name", "type", "type_attr", "number_attr", "type_list_attr",
              "is_ref", "description")
ATTR_FIELDS = ("name", "type", "has_minimum", "minimum", "description")
LIST_FIELD = {"string": "s", "int": "i", "float": "f", "bool": "b",
              "type": "type", "shape": "shape", "tensor": "tensor",
              "func": "func"}


def dtype(t):
    return types_pb2.DataType.Name(t)[3:].lower() if t else ""


def f32(x):
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def shape(p):
    if p.unknown_rank:
        return {"unknown_rank": True}
    return {"dims": [d.size for d in p.dim]}


def tensor(t):
    a = tensor_util.MakeNdarray(t)
    values = [v.decode() if isinstance(v, bytes) else v
              for v in a.reshape(-1).tolist()]
    return {"dtype": dtype(t.dtype), "shape": list(a.shape), "values": values}


def scalar(kind, v):
    return {"string": lambda: v.decode() if isinstance(v, bytes) else v,
            "float": lambda: f32(v), "type": lambda: dtype(v),
            "shape": lambda: shape(v), "tensor": lambda: tensor(v),
            "func": lambda: v.name}.get(kind, lambda: v)()


def value(v, kind):
    """An AttrValue as the dump writes it; kind is the attr's type."""
    which = v.WhichOneof("value")
    if which == "list":
        item = kind[5:-1] if kind.startswith("list(") else kind
        return [scalar(item, x) for x in getattr(v.list, LIST_FIELD[item])]
    return scalar(kind, getattr(v, which))


def dumped(v, kind):
    """The dump's value, floats narrowed to float32 like the OpDef's."""
    if kind == "float":
        return f32(v)
    if kind == "list(float)":
        return [f32(x) for x in v]
    return v


def attr_diffs(x, y):
    diffs = [f"attr.{x.name}.{f}" for f in ATTR_FIELDS
             if getattr(x, f) != y[f]]
    allowed = None
    if x.HasField("allowed_values"):
        allowed = list(dict.fromkeys(value(x.allowed_values, x.type)))
    if allowed != y["allowed_values"]:
        diffs.append(f"attr.{x.name}.allowed_values")
    default = value(x.default_value, x.type) \
        if x.HasField("default_value") else None
    want = y["default_value"]
    if default != (None if want is None else dumped(want, x.type)):
        diffs.append(f"attr.{x.name}.default_value")
    return diffs


def op_diffs(op, j):
    diffs = [f for f in OP_FLAGS if getattr(op, f) != j.get(f, False)]
    for key in ("input_arg", "output_arg", "attr"):
        if len(getattr(op, key)) != len(j[key]):
            diffs.append(key)
    if diffs:
        return diffs
    for key in ("input_arg", "output_arg"):
        for x, y in zip(getattr(op, key), j[key]):
            got = tuple(dtype(x.type) if f == "type" else getattr(x, f)
                        for f in ARG_FIELDS)
            if got != tuple(y[f] for f in ARG_FIELDS):
                diffs.append(f"{key}.{x.name}")
    for x, y in zip(op.attr, j["attr"]):
        diffs += attr_diffs(x, y)
    dep = j["deprecation"]
    if op.HasField("deprecation") != (dep is not None) or dep and (
            dep["version"], dep["explanation"]) != (
            op.deprecation.version, op.deprecation.explanation):
        diffs.append("deprecation")
    return diffs


def main(pbtxt, dump):
    oplist = op_def_pb2.OpList()
    with open(pbtxt, encoding="utf-8") as f:
        text_format.Parse(f.read(), oplist)
    with open(dump, encoding="utf-8") as f:
        ops = {o["name"]: o for o in json.load(f)["ops"]}
    public = [op for op in oplist.op
              if not op.name.startswith("_") and ">" not in op.name]
    differ = 0
    for op in public:
        diffs = ["missing"] if op.name not in ops \
            else op_diffs(op, ops[op.name])
        if diffs:
            differ += 1
            print(f"{op.name}: {', '.join(diffs)}")
    print(f"{len(public)} public ops, {len(public) - differ} equal, "
          f"{differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
