"""Tensors in and out: numpy arrays without a copy where dtype and layout
allow, buffers, __dlpack__, scalars and nested lists as
tf.convert_to_tensor converts them, strings, half and bfloat16."""
import array
import gc
import sys

import numpy as np
import pytest

import opgen
from opgen import _opgen

example = _opgen.Op("Example")       # input * 2, numbertype
zero_out = _opgen.Op("ZeroOut")      # T in {float, double, int32} = int32
add_n = _opgen.Op("AddN")
string_to_number = _opgen.Op("StringToNumber")


NUMBER_DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16,
                 np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                 np.uint64, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", NUMBER_DTYPES)
def test_every_number_dtype_round_trips(dtype):
    x = np.arange(6).astype(dtype).reshape(2, 3)
    y = example(x)
    assert y.dtype == np.dtype(dtype)
    assert y.shape == (2, 3)
    np.testing.assert_array_equal(y, x * 2)


def test_an_output_shares_the_tensor_memory_and_keeps_it_alive():
    y = example(np.arange(4, dtype=np.float32))
    base = y.base
    assert type(base).__name__ == "TensorOwner"
    view = y[1:]
    del y
    gc.collect()
    np.testing.assert_array_equal(view, [2, 4, 6])
    assert view.base is not None


def test_an_output_is_writable_and_c_contiguous():
    y = example(np.ones(3, np.float32))
    assert y.flags.c_contiguous and y.flags.writeable and y.flags.aligned
    y[0] = 7
    assert y[0] == 7


def test_an_input_array_is_not_copied_and_not_kept():
    x = np.ones(1000, np.float32)
    before = sys.getrefcount(x)
    example(x)
    after = sys.getrefcount(x)
    assert after == before


def test_an_output_passed_back_in_reuses_its_tensor():
    y = example(np.ones(3, np.float32))
    owner = y.base
    before = sys.getrefcount(owner)
    z = example(y)
    after = sys.getrefcount(owner)
    np.testing.assert_array_equal(z, [4, 4, 4])
    assert after == before


def test_a_view_of_an_output_is_converted_again():
    y = example(np.arange(6, dtype=np.float32))
    np.testing.assert_array_equal(example(y[::2]), [0, 8, 16])
    np.testing.assert_array_equal(example(y.reshape(2, 3))[1], [12, 16, 20])


def test_non_contiguous_arrays_are_copied():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(example(x.T), x.T * 2)
    np.testing.assert_array_equal(example(x[:, ::2]), x[:, ::2] * 2)
    np.testing.assert_array_equal(example(x[::-1]), x[::-1] * 2)


def test_misaligned_and_byte_swapped_arrays_are_copied():
    raw = np.zeros(4 * 5 + 1, np.uint8)
    x = raw[1:].view(np.float32)
    x[:] = [1, 2, 3, 4, 5]
    assert not x.flags.aligned
    np.testing.assert_array_equal(example(x), [2, 4, 6, 8, 10])
    big = np.array([1, 2, 3], dtype=">i4")
    y = example(big)
    assert y.dtype == np.int32
    np.testing.assert_array_equal(y, [2, 4, 6])


def test_read_only_arrays_are_accepted():
    x = np.arange(3, dtype=np.float64)
    x.flags.writeable = False
    np.testing.assert_array_equal(example(x), [0, 2, 4])


def test_zero_size_and_zero_rank_tensors():
    assert example(np.zeros((0, 3), np.float32)).shape == (0, 3)
    y = example(np.float32(2.5))
    assert y.shape == () and y.dtype == np.float32 and y == 5


def test_buffers_are_viewed_without_copy():
    buf = array.array("d", [1.0, 2.0])
    np.testing.assert_array_equal(example(buf), [2.0, 4.0])
    assert example(memoryview(buf)).dtype == np.float64


class DLPackOnly:
    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


def test_dlpack_objects_are_converted():
    x = DLPackOnly(np.arange(3, dtype=np.int64))
    y = example(x)
    assert y.dtype == np.int64
    np.testing.assert_array_equal(y, [0, 2, 4])


def test_outputs_have_dlpack():
    y = example(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(np.from_dlpack(y), [0, 2, 4])


class BadDLPack:
    def __dlpack__(self, **kwargs):
        raise RuntimeError("boom")

    def __dlpack_device__(self):
        return (1, 0)


def test_a_failing_dlpack_is_an_invalid_argument():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        example(BadDLPack())
    assert str(e.value).startswith("Example: input 'input': cannot convert "
                                   "it through __dlpack__: ")
    assert "boom" in str(e.value)


def test_python_scalars_and_lists_take_tensorflows_default_types():
    assert example(1).dtype == np.int32
    assert example(2 ** 40).dtype == np.int64
    assert example(1.5).dtype == np.float32
    assert example([1.5, 2]).dtype == np.float32
    assert example([[1, 2], [3, 4]]).dtype == np.int32
    assert example(1 + 2j).dtype == np.complex128


def test_the_type_attrs_default_is_preferred():
    y = zero_out([[1, 2], [3, 4]])
    assert y.dtype == np.int32
    np.testing.assert_array_equal(y, [[1, 0], [0, 0]])
    assert zero_out([1.5, 2.5]).dtype == np.float32


def test_an_earlier_input_guides_the_type_of_a_literal():
    y = add_n([np.ones(2, np.float64), [1, 2]])
    assert y.dtype == np.float64
    np.testing.assert_array_equal(y, [2, 3])
    y = add_n([[1, 2], np.ones(2, np.float64)])
    assert y.dtype == np.float64


def test_a_literal_that_does_not_fit_a_fixed_type_is_refused():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        add_n([np.ones(2, np.int32), [1.5, 2]])
    assert str(e.value) == ("AddN: input 'inputs': cannot convert float "
                            "values to a tensor of type int32")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        add_n([np.ones(1, np.int8), [300]])
    assert str(e.value) == ("AddN: input 'inputs': a value is out of range "
                            "of int8")


def test_an_int_beyond_64_bits_is_out_of_range():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        example([2 ** 64])
    assert str(e.value) == ("Example: input 'input': a value is out of "
                            "range of int64")
    assert example([2 ** 63]).dtype == np.uint64


def test_a_list_of_strings_and_numbers_names_the_number():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        string_to_number([b"1", 2.5])
    assert str(e.value) == ("StringToNumber: input 'string_tensor': cannot "
                            "convert float to a tensor")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        example([1, "2"])
    assert str(e.value) == ("Example: input 'input': cannot convert int to "
                            "a tensor")


def test_ragged_lists_are_an_invalid_argument():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        example([[1, 2], [3]])
    assert str(e.value).startswith("Example: input 'input': cannot convert "
                                   "it to a tensor: ")


class BadLen:
    def __len__(self):
        raise ValueError("no length")

    def __getitem__(self, i):
        raise ValueError("no items")


@pytest.mark.parametrize("bad", [None, {}, object(), BadLen(), {1, 2},
                                 [None], [object()], lambda: 0])
def test_unconvertible_objects_raise_invalid_argument(bad):
    with pytest.raises(opgen.InvalidArgumentError) as e:
        example(bad)
    assert str(e.value).startswith("Example: input 'input': ")


def test_an_unsupported_array_dtype_is_named():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        example(np.array(["2020-01-01"], dtype="datetime64[D]"))
    assert str(e.value) == ("Example: input 'input': cannot convert an "
                            "array of dtype datetime64[D] to a tensor")


def test_strings_in_and_out():
    y = string_to_number([b"1.5", "2", np.bytes_(b"-3")])
    np.testing.assert_array_equal(y, [1.5, 2, -3])
    assert string_to_number(np.array(["4", "5"])).tolist() == [4, 5]
    assert string_to_number(b"7", out_type=np.int32).dtype == np.int32


def test_a_string_element_of_another_type_is_named():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        string_to_number(np.array([b"1", 2], dtype=object))
    assert str(e.value) == ("StringToNumber: input 'string_tensor': "
                            "cannot convert int to a tensor (of strings)")


def test_a_str_that_is_no_utf8_is_refused():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        string_to_number(["\udc80"])
    assert str(e.value) == ("StringToNumber: input 'string_tensor': a str "
                            "cannot be encoded as UTF-8")


class BadRepr:
    def __repr__(self):
        return "\udc80"


def test_a_repr_that_is_no_utf8_does_not_break_messages():
    with pytest.raises(opgen.InvalidArgumentError):
        _opgen.as_dtype(BadRepr())


def test_half_maps_to_float16():
    y = example(np.array([1.5], np.float16))
    assert y.dtype == np.float16 and y[0] == 3


def test_bfloat16_maps_to_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.array([1.5, -2], dtype=ml_dtypes.bfloat16)
    y = example(x)
    assert y.dtype == np.dtype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(y.astype(np.float32), [3, -4])
    assert _opgen.as_dtype("bfloat16") == np.dtype(ml_dtypes.bfloat16)


def test_as_dtype_reads_names_scalar_types_and_dtypes():
    assert _opgen.as_dtype("float") == np.float32
    assert _opgen.as_dtype("float32") == np.float32
    assert _opgen.as_dtype("DT_INT64") == np.int64
    assert _opgen.as_dtype(np.float16) == np.float16
    assert _opgen.as_dtype(np.dtype("u2")) == np.uint16
    assert _opgen.as_dtype("string") == np.dtype(object)
    assert _opgen.dtype_name(np.complex64) == "complex64"
    with pytest.raises(opgen.InvalidArgumentError) as e:
        _opgen.as_dtype("nope")
    assert str(e.value) == "cannot interpret 'nope' as a dtype"


def test_huge_lists_are_bounded_by_their_own_size():
    y = example(list(range(100000)))
    assert y.shape == (100000,) and y.dtype == np.int32 and y[-1] == 199998


def test_large_arrays_round_trip_without_copy_of_the_output():
    x = np.ones((512, 1024), np.float32)
    y = example(x)
    assert y.base is not None and y.sum() == 2 * x.size


def test_without_ml_dtypes_bfloat16_has_no_numpy_dtype():
    import subprocess
    code = ("import sys; sys.modules['ml_dtypes'] = None\n"
            "import opgen\n"
            "try:\n"
            "    opgen._opgen.as_dtype('bfloat16')\n"
            "except opgen.InvalidArgumentError as e:\n"
            "    print(e)\n"
            "print(opgen._opgen.dtype_name('bfloat16'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "dtype bfloat16 has no numpy dtype (install ml_dtypes)", "bfloat16"]


@pytest.mark.parametrize("value", [
    [1.5, 2], (1, 2), [1, 2 ** 40], [2 ** 40, 1.0], [-(2 ** 31)], [2 ** 31],
    [float("nan"), float("inf")], [0.1],
])
def test_flat_lists_convert_as_nested_lists_do(value):
    # A flat list takes a shortcut; [value] goes the general way.
    flat, nested = example(value), example([value])[0]
    assert flat.dtype == nested.dtype
    np.testing.assert_array_equal(flat, nested)


def _outcome(f, *args):
    try:
        y = f(*args)
    except opgen.InvalidArgumentError as e:
        return "error", str(e).replace("element 1", "element ?")
    return y.dtype, y.ravel().tolist()


@pytest.mark.parametrize("value", [[1, 2], [1.5], [2 ** 40], [1, 2.5]])
def test_flat_lists_follow_a_preferred_or_strict_hint(value):
    # ZeroOut prefers int32; AddN's first array fixes the type strictly.
    assert _outcome(zero_out, value) == _outcome(zero_out, [value])
    for dtype in (np.float32, np.float64, np.int32, np.int64, np.int8):
        first = np.zeros(len(value), dtype)
        assert _outcome(add_n, [first, value]) == \
            _outcome(add_n, [first[None], [value]])
