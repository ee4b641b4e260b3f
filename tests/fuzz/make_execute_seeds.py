#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_execute (tests/fuzz/corpus_execute/):
valid calls of the shipped ops, and a few invalid ones, in the encoding
documented at the top of fuzz_execute.c. Ops and attrs are spelled out by
name, so the seeds do not depend on the registry's order.

    python3 tests/fuzz/make_execute_seeds.py [DIR]
"""
import os
import struct
import sys

# dtype values (runtime/include/opr/dtypes.def)
FLOAT, DOUBLE, INT32, UINT8, INT16, INT8, STRING, COMPLEX64, INT64, BOOL = \
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10
HALF = 19
# opr_attr_kind
A_STRING, A_INT, A_FLOAT, A_BOOL, A_TYPE, A_SHAPE, A_TENSOR, A_FUNC = \
    1, 2, 3, 4, 5, 6, 7, 8
LIST = 0x10
# flags
TWO_THREADS, INFER = 1, 2
# tensor record "how"
NONE, NEW, DATA, STRINGS, AS_VALUE = 0, 1, 2, 3, 8

PACK = {FLOAT: "<f", DOUBLE: "<d", INT32: "<i", INT64: "<q", UINT8: "<B",
        INT16: "<h", INT8: "<b", BOOL: "<?"}


def op(name):
    b = name.encode()
    return bytes([0xF0, len(b)]) + b


def dims(ds, partial=False):
    """Small dims (0..5, or -1 in infer mode) as one byte each."""
    out = b""
    for d in ds:
        out += bytes([d + 1 if partial else d])
    return out


def rank(r):
    return bytes([r])


def tensor(how, dtype, shape, values=(), partial=False):
    out = bytes([how, dtype]) + rank(len(shape)) + dims(shape, partial)
    if how & 3 == DATA:
        for v in values:
            out += struct.pack(PACK[dtype], v)
    elif how & 3 == STRINGS:
        for s in values:
            out += bytes([len(s)]) + s
    return out


def single(t):
    return bytes([1]) + t


def listed(*ts):
    return bytes([0x80 | len(ts)]) + b"".join(ts)


def name(n):
    b = n.encode()
    return bytes([0xF0, len(b)]) + b


def attr_int(n, v):
    if 0 <= v < 0x80:
        return name(n) + bytes([A_INT, v])
    if -64 <= v < 0:
        return name(n) + bytes([A_INT, 0x7F - v])
    return name(n) + bytes([A_INT, 0xCF]) + struct.pack("<q", v)


def attr_type(n, dt):
    return name(n) + bytes([A_TYPE, dt])


def attr_string(n, s):
    return name(n) + bytes([A_STRING, len(s)]) + s


def attr_shape(n, shape):
    return name(n) + bytes([A_SHAPE]) + rank(len(shape)) + dims(shape, True)


def attr_int_list(n, vs):
    return name(n) + bytes([A_INT | LIST, len(vs)]) + bytes(v & 0xFF for v in vs)


def attr_type_list(n, dts):
    return name(n) + bytes([A_TYPE | LIST, len(dts)]) + bytes(dts)


def call(opname, inputs, attrs=(), outputs=4, flags=0, nin=None):
    """nin: the input count byte, for an unknown op (or flag bit 2)."""
    count = b"" if nin is None else bytes([nin])
    return (op(opname) + bytes([flags]) + count + b"".join(inputs) +
            bytes([len(attrs)]) + b"".join(attrs) + bytes([outputs]))


def seeds():
    f23 = tensor(DATA, FLOAT, [2, 3], [1, 2, 3, 4, 5, 6])
    yield "zero_out_int32", call("ZeroOut", [single(
        tensor(DATA, INT32, [2, 3], [1, 2, 3, 4, 5, 6]))],
        [attr_int("preserve_index", 4)])
    yield "zero_out_float_threads", call("ZeroOut", [single(f23)],
        [attr_type("T", FLOAT)], flags=TWO_THREADS)
    yield "zero_out_new_double", call("ZeroOut", [single(
        tensor(NEW, DOUBLE, [3, 2, 1]))])
    yield "zero_out_int32_only", call("ZeroOutInt32", [single(
        tensor(DATA, INT32, [4], [9, 8, 7, 6]))])
    yield "example_double", call("Example", [single(
        tensor(DATA, DOUBLE, [3], [0.5, -1, 2]))])
    yield "example_half", call("Example", [single(
        tensor(NEW, HALF, [2, 2]))])
    yield "add_one", call("AddOne", [single(
        tensor(DATA, INT32, [5], [1, 2, 3, 4, 5]))])
    yield "add_n_three", call("AddN", [listed(f23, f23, f23)],
        [attr_int("N", 3)], flags=TWO_THREADS)
    yield "add_n_int64", call("AddN", [listed(
        tensor(DATA, INT64, [2], [1, 2]), tensor(DATA, INT64, [2], [3, 4]))])
    pads = tensor(DATA, INT32, [2, 2], [1, 1, 2, 2])
    yield "pad_constant", call("Pad", [single(f23), single(pads)])
    yield "pad_reflect", call("Pad", [single(f23), single(
        tensor(DATA, INT32, [2, 2], [1, 1, 2, 2]))],
        [attr_string("mode", b"REFLECT")])
    yield "pad_symmetric_int64", call("Pad", [single(
        tensor(DATA, BOOL, [2, 2], [1, 0, 0, 1])), single(
        tensor(DATA, INT64, [2, 2], [0, 2, 1, 0]))],
        [attr_string("mode", b"SYMMETRIC"), attr_type("Tpaddings", INT64)])
    yield "string_to_number_float", call("StringToNumber", [single(
        tensor(STRINGS, STRING, [3], [b"1.5", b"-2", b"1e3"]))])
    yield "string_to_number_int32", call("StringToNumber", [single(
        tensor(STRINGS, STRING, [2], [b"17", b"x"]))],
        [attr_type("out_type", INT32)])
    yield "matmul_like_unimplemented", call("MatMulLike", [
        single(tensor(NEW, FLOAT, [2, 3])), single(tensor(NEW, FLOAT, [3, 4]))])
    yield "polymorphic_list", call("PolymorphicListExample", [listed(
        tensor(NEW, INT32, [1]), tensor(NEW, FLOAT, [2]),
        tensor(STRINGS, STRING, [1], [b"s"]))],
        [attr_type_list("T", [INT32, FLOAT, STRING])])
    yield "same_list_input", call("SameListInputExample", [listed(
        tensor(NEW, INT8, [1]), tensor(NEW, INT8, [1]))],
        [attr_int("N", 2), attr_type("T", INT8)])
    yield "multiple_ins_and_outs", call("MultipleInsAndOuts", [
        single(tensor(NEW, INT32, [])), single(tensor(NEW, FLOAT, []))])
    yield "enum_example", call("EnumExample", [],
        [attr_string("e", b"orange")])
    yield "type_list_example", call("TypeListExample", [],
        [attr_type_list("a", [INT32, FLOAT, INT32])])
    yield "min_int_example_too_small", call("MinIntExample", [],
        [attr_int("a", 1)])
    yield "all_attr_types", call("AttrDefaultExampleForAllTypes", [], [
        attr_string("s", b"bar"), attr_int("i", -3),
        name("f") + bytes([A_FLOAT, 0xC0]),  # nan
        name("b") + bytes([A_BOOL, 0]), attr_type("ty", HALF),
        attr_shape("sh", [2, -1, 3]),
        name("te") + bytes([A_TENSOR]) + tensor(DATA, INT32, [1], [5]),
        attr_int_list("l_int", [1, 2, 3])])
    yield "unknown_op", call("NoSuchOp", [], [], nin=0)
    # opr_infer_shapes_by_name
    yield "infer_matmul_like", call("MatMulLike", [
        single(tensor(NONE, FLOAT, [2, -1], partial=True)),
        single(tensor(NONE, FLOAT, [-1, 4], partial=True))], flags=INFER)
    yield "infer_add_n", call("AddN", [listed(
        tensor(NONE, FLOAT, [2, -1], partial=True),
        tensor(NONE, FLOAT, [-1, 3], partial=True))], flags=INFER)
    yield "infer_pad_values", call("Pad", [
        single(tensor(NONE, FLOAT, [2, 3], partial=True)),
        single(tensor(DATA | AS_VALUE, INT32, [2, 2], [1, 1, 2, 2],
                      partial=True))],
        flags=INFER)
    yield "infer_pad_unknown_rank", call("Pad", [
        single(bytes([NONE, FLOAT, 0xE0])),  # rank -1
        single(tensor(NONE, INT32, [3, 2], partial=True))], flags=INFER)
    yield "infer_matrix_example", call("MatrixExample", [
        single(bytes([NONE, FLOAT, 0xE0]))], flags=INFER)

    # the shape-form ops of tests/shape/forms.op (infer mode)
    def p(shape):
        return single(tensor(NONE, FLOAT, shape, partial=True))
    yield "infer_arith", call("Arith", [p([4, 6])], flags=INFER)
    yield "infer_parens", call("Parens", [p([3, -1])], flags=INFER)
    yield "infer_negation", call("Negation", [p([0])], flags=INFER)
    yield "infer_last_dims", call("LastDims", [p([1, 2, 3])], flags=INFER)
    yield "infer_broadcast", call("Broadcast", [p([2, 1, 3]), p([4, 1])],
                                  flags=INFER)
    yield "infer_broadcast_mixed", call("BroadcastMixed", [p([-1, 3])],
        [attr_shape("s", [1, 3])], flags=INFER)
    yield "infer_attr_shape", call("AttrShape", [p([])],
        [attr_shape("s", [2, -1, 5])], flags=INFER)
    yield "infer_attr_dim", call("AttrDim", [p([3])], [attr_int("k", 4)],
                                 flags=INFER)
    yield "infer_compare", call("Compare", [p([2, 3]), p([2, 4])],
                                flags=INFER)
    yield "infer_in_range", call("InRange", [p([2, 5]), p([1])], flags=INFER)
    yield "infer_same", call("Same", [p([2, -1]), p([-1, 3]), p([2, 3])],
                             flags=INFER)
    yield "infer_list_output", call("ListOutput", [p([5])],
        [attr_int("N", 3)], flags=INFER)
    yield "infer_merge_many", call("MergeMany", [p([2]), p([-1]), listed(
        tensor(NONE, FLOAT, [2], partial=True))], flags=INFER)
    yield "infer_custom", call("Custom", [p([2, 3])], [attr_int("N", 2)],
                               flags=INFER)
    yield "infer_keywords", call("Keywords", [p([2, 3]), p([2]), p([2])],
                                 flags=INFER)
    yield "infer_some_outputs", call("SomeOutputs", [p([7, 1])], flags=INFER)
    # the ops of fuzz_ops.op (kernels in fuzz_kernels.c)
    yield "fuzz_lists", call("FuzzLists", [single(tensor(DATA, INT32, [2],
        [1, 2]))], [attr_int("N", 2), attr_int("M", 3),
        attr_type_list("L", [FLOAT, STRING])], outputs=8)
    yield "fuzz_lists_preallocated", call("FuzzLists", [single(
        tensor(NEW, DOUBLE, [2, 2]))], [attr_int("N", 1)], outputs=3)
    yield "fuzz_echo", call("FuzzEcho", [listed(
        tensor(DATA, INT16, [3], [1, 2, 3]),
        tensor(STRINGS, STRING, [2], [b"ab", b""]))], outputs=2,
        flags=TWO_THREADS)
    yield "infer_fuzz_lists", call("FuzzLists", [p([2, -1])],
        [attr_int("N", 2), attr_type_list("L", [INT32])], flags=INFER)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "corpus_execute")
    os.makedirs(out, exist_ok=True)
    for n, data in seeds():
        with open(os.path.join(out, n), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
