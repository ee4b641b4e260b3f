"""check_op on every shipped op with a CPU kernel: for each allowed dtype
and random shapes, shapes agree with infer_shapes, inputs stay unchanged,
one and four threads agree, an unallowed dtype is refused, gradients
match the numeric ones."""
import numpy as np
import pytest

import opgen
from opgen.testing import check_op


def random_shape(rng, min_rank=0, max_rank=3, max_dim=4, min_dim=1):
    rank = int(rng.integers(min_rank, max_rank + 1))
    return tuple(int(d) for d in rng.integers(min_dim, max_dim + 1, rank))


def random_values(rng, shape, dtype):
    """Small values every dtype holds exactly (no overflow when doubled
    or summed a few times)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind == "c":
        re, im = rng.standard_normal(shape), rng.standard_normal(shape)
        return (re + 1j * im).astype(dtype)
    if dtype.kind == "f" or dtype.name == "bfloat16":
        return rng.standard_normal(shape).astype(dtype)
    low = 0 if dtype.kind == "u" else -20
    return rng.integers(low, 21, shape).astype(dtype)


def zero_out_sample(rng, dtype, preserve=True):
    x = random_values(rng, random_shape(rng), dtype or np.int32)
    if not preserve:
        return (x,), {}
    return (x,), {"preserve_index": int(rng.integers(0, x.size))}


def test_zero_out():
    report = check_op(opgen.ops.zero_out, sample=zero_out_sample)
    assert report["dtypes"] == ["float", "double", "int32"]
    assert report["refused"] == "int64"
    assert report["calls"] == 9


def test_zero_out_int32():
    report = check_op(opgen.ops.zero_out_int32,
                      sample=lambda rng, dt: zero_out_sample(rng, dt, False))
    assert report["attr"] is None and report["calls"] == 3


@pytest.mark.parametrize("fn", ["zero_out_float_int32",
                                "zero_out_real_number"])
def test_zero_out_variants(fn):
    report = check_op(getattr(opgen.ops, fn),
                      sample=lambda rng, dt: zero_out_sample(rng, dt, False))
    assert "float" in report["dtypes"] and "int32" in report["dtypes"]
    assert report["refused"] is not None


def unary_sample(rng, dtype):
    return (random_values(rng, random_shape(rng), dtype or np.int32),), {}


def test_example():
    report = check_op(opgen.ops.example, sample=unary_sample)
    for name in ("float", "double", "int32", "complex64", "uint8"):
        assert name in report["dtypes"]
    assert report["refused"] in ("bool", None)


def test_add_one():
    report = check_op(opgen.ops.add_one, sample=unary_sample)
    assert report["attr"] is None and report["calls"] == 3


def add_n_sample(rng, dtype):
    shape = random_shape(rng)
    n = int(rng.integers(1, 4))
    return ([random_values(rng, shape, dtype) for _ in range(n)],), {}


def test_add_n():
    report = check_op(opgen.ops.add_n, sample=add_n_sample)
    assert "float" in report["dtypes"] and "int64" in report["dtypes"]


def pad_sample(mode, tpaddings):
    """Random inputs of a Pad call in `mode`: REFLECT pads at most
    dim - 1 on a side, SYMMETRIC at most dim."""
    def sample(rng, dtype):
        shape = random_shape(rng, min_rank=1, min_dim=2)
        x = random_values(rng, shape, dtype)
        most = {"CONSTANT": 3, "REFLECT": 1, "SYMMETRIC": 2}[mode]
        paddings = rng.integers(0, most + 1, (len(shape), 2))
        return (x, paddings.astype(tpaddings)), {"mode": mode}
    return sample


@pytest.mark.parametrize("tpaddings", [np.int32, np.int64])
@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad(mode, tpaddings):
    report = check_op(opgen.ops.pad, sample=pad_sample(mode, tpaddings))
    assert report["attr"] == "T"
    for name in ("float", "double", "int32", "bool"):
        assert name in report["dtypes"]


def string_to_number_sample(rng, dtype):
    shape = random_shape(rng)
    ints = rng.integers(-1000, 1000, shape)
    strings = np.array([str(int(i)).encode() for i in ints.reshape(-1)],
                       dtype=object).reshape(shape)
    return (strings,), {}


def test_string_to_number():
    report = check_op(opgen.ops.string_to_number,
                      sample=string_to_number_sample)
    assert report["attr"] == "out_type"
    assert report["dtypes"] == ["float", "int32"]
    assert report["refused"] == "int64"
