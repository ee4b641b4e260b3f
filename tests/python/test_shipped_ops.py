"""check_op on every shipped op with a CPU kernel: for each allowed dtype
and random shapes, shapes agree with infer_shapes, inputs stay unchanged,
one and four threads agree, an unallowed dtype is refused, gradients
match the numeric ones.

Every other trial is large (over 256 KiB of data, where the kernels start
to shard their work over the context's threads), so that the threads rule
compares one thread with several; the small ones are where the gradients
are checked."""
import numpy as np
import pytest

import opgen
from opgen.testing import check_op


TRIALS = 4

# Dims of a large shape of each rank: over 270,000 elements (bytes of
# int8, the smallest dtype; 262,144 is where the kernels start sharding).
LARGE_DIMS = {1: (300000, 330000), 2: (520, 620), 3: (70, 80)}


def random_shape(rng, large=False, min_rank=0, max_rank=3, min_dim=1):
    """A random shape: small (dims up to 4), or large."""
    if large:
        rank = int(rng.integers(max(min_rank, 1), max_rank + 1))
        low, high = LARGE_DIMS[rank]
        return tuple(int(d) for d in rng.integers(low, high, rank))
    rank = int(rng.integers(min_rank, max_rank + 1))
    return tuple(int(d) for d in rng.integers(min_dim, 5, rank))


def alternating(sample):
    """sample(rng, dtype, large) called with large every other time."""
    count = [0]

    def alternate(rng, dtype):
        count[0] += 1
        return sample(rng, dtype, count[0] % 2 == 0)
    return alternate


def check(fn, sample):
    return check_op(fn, sample=alternating(sample), trials=TRIALS)


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


def zero_out_sample(rng, dtype, large, preserve=True):
    x = random_values(rng, random_shape(rng, large), dtype or np.int32)
    if not preserve:
        return (x,), {}
    return (x,), {"preserve_index": int(rng.integers(0, x.size))}


def test_zero_out():
    report = check(opgen.ops.zero_out, zero_out_sample)
    assert report["dtypes"] == ["float", "double", "int32"]
    assert report["refused"] == "int64"
    assert report["calls"] == 3 * TRIALS
    assert sorted(report["gradients"]) == ["double", "float"]


def test_zero_out_int32():
    report = check(opgen.ops.zero_out_int32,
                   lambda rng, dt, large: zero_out_sample(rng, dt, large,
                                                          False))
    assert report["attr"] is None and report["calls"] == TRIALS


@pytest.mark.parametrize("fn", ["zero_out_float_int32",
                                "zero_out_real_number"])
def test_zero_out_variants(fn):
    report = check(getattr(opgen.ops, fn),
                   lambda rng, dt, large: zero_out_sample(rng, dt, large,
                                                          False))
    assert "float" in report["dtypes"] and "int32" in report["dtypes"]
    assert report["refused"] is not None


def unary_sample(rng, dtype, large):
    shape = random_shape(rng, large)
    return (random_values(rng, shape, dtype or np.int32),), {}


def test_example():
    report = check(opgen.ops.example, unary_sample)
    for name in ("float", "double", "half", "int32", "int64", "uint8",
                 "complex64", "complex128"):
        assert name in report["dtypes"]
    assert report["refused"] == "bool"
    assert sorted(report["gradients"]) == ["double", "float"]
    assert report["skipped"]["qint8"] == "no numpy dtype"


def test_add_one():
    report = check(opgen.ops.add_one, unary_sample)
    assert report["attr"] is None and report["calls"] == TRIALS


def add_n_sample(rng, dtype, large):
    shape = random_shape(rng, large)
    n = int(rng.integers(1, 4))
    return ([random_values(rng, shape, dtype) for _ in range(n)],), {}


def test_add_n():
    report = check(opgen.ops.add_n, add_n_sample)
    assert "float" in report["dtypes"] and "int64" in report["dtypes"]
    assert report["refused"] == "bool"
    assert sorted(report["gradients"]) == ["double", "float"]


def pad_sample(mode, tpaddings):
    """Random inputs of a Pad call in `mode`: REFLECT pads at most
    dim - 1 on a side, SYMMETRIC at most dim."""
    def sample(rng, dtype, large):
        shape = random_shape(rng, large, min_rank=1, min_dim=2)
        x = random_values(rng, shape, dtype)
        most = {"CONSTANT": 3, "REFLECT": 1, "SYMMETRIC": 2}[mode]
        paddings = rng.integers(0, most + 1, (len(shape), 2))
        return (x, paddings.astype(tpaddings)), {"mode": mode}
    return sample


@pytest.mark.parametrize("tpaddings", [np.int32, np.int64])
@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad(mode, tpaddings):
    report = check(opgen.ops.pad, pad_sample(mode, tpaddings))
    assert report["attr"] == "T"
    for name in ("float", "double", "int32", "bool", "half"):
        assert name in report["dtypes"]
    assert report["refused"] == "complex64"
    assert sorted(report["gradients"]) == ["double", "float"]


def string_to_number_sample(rng, dtype):
    """Small shapes only: the kernel runs on one thread."""
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
