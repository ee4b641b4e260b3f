"""Calling an op function (opgen._opgen.Op): binding as for any Python
function, attrs converted by their types with messages naming op, attr
and rule, results by the op's outputs."""
import inspect

import numpy as np
import pytest

import opgen
from opgen import _opgen

F32 = np.float32


def test_op_knows_its_name_def_and_params():
    pad = _opgen.Op("Pad")
    assert pad.op_name == "Pad"
    assert pad.op_def["name"] == "Pad"
    assert [i["name"] for i in pad.op_def["inputs"]] == ["input", "paddings"]
    assert pad._params == (("input", "input", False, None),
                           ("paddings", "input", False, None),
                           ("mode", "attr", True, "CONSTANT"))


def test_params_are_inputs_then_required_then_defaulted_attrs():
    a = _opgen.Op("AttrDefaultExampleForAllTypes")
    names = [p[0] for p in a._params]
    assert names == ["s", "i", "f", "b", "ty", "sh", "te", "l_empty",
                     "l_int"]
    assert a._params[4][3] == np.int32
    np.testing.assert_array_equal(a._params[6][3], 5)


def test_op_def_dict_describes_args_and_attrs():
    d = _opgen.op_def("ZeroOut")
    assert d["inputs"] == [{"name": "to_zero", "type": None,
                            "type_attr": "T", "number_attr": None,
                            "type_list_attr": None, "is_ref": False}]
    t, pi = d["attrs"]
    assert t["name"] == "T" and t["type"] == "type" and t["inferred"]
    assert t["allowed"] == ["float", "double", "int32"]
    assert t["default"] == np.int32
    assert pi == {"name": "preserve_index", "type": "int", "minimum": 0,
                  "allowed": None, "default": 0, "inferred": False}
    assert "default" not in _opgen.op_def("MinIntExample")["attrs"][0]
    assert _opgen.op_def("EnumExample")["attrs"][0]["allowed"] == \
        ["apple", "orange"]
    assert d["is_stateful"] is False


def test_instance_attributes_are_writable():
    op = _opgen.Op("Example")
    op.__doc__ = "doc"
    op.__name__ = "example"
    op.__signature__ = inspect.Signature(
        [inspect.Parameter("input", inspect.Parameter.POSITIONAL_OR_KEYWORD)])
    assert op.__doc__ == "doc" and op.__name__ == "example"
    assert str(inspect.signature(op)) == "(input)"


def test_an_op_on_a_class_stays_unbound():
    class Holder:
        example = _opgen.Op("Example")

    np.testing.assert_array_equal(Holder().example([1.0]), [2.0])
    assert inspect.ismethoddescriptor(Holder.__dict__["example"])


def test_positional_and_keyword_arguments():
    x = np.arange(4, dtype=np.int32)
    zero_out = _opgen.Op("ZeroOut")
    np.testing.assert_array_equal(zero_out(x, 2), [0, 0, 2, 0])
    np.testing.assert_array_equal(zero_out(x, preserve_index=3), [0, 0, 0, 3])
    np.testing.assert_array_equal(zero_out(to_zero=x), [0, 0, 0, 0])


def test_binding_errors_are_type_errors():
    zero_out = _opgen.Op("ZeroOut")
    zero_out.__name__ = "zero_out"
    with pytest.raises(TypeError) as e:
        zero_out()
    assert str(e.value) == "zero_out() missing required argument 'to_zero'"
    with pytest.raises(TypeError) as e:
        zero_out([1], 0, 1)
    assert str(e.value) == ("zero_out() takes 2 positional arguments but 3 "
                            "were given")
    with pytest.raises(TypeError) as e:
        zero_out([1], bogus=1)
    assert str(e.value) == "zero_out() got an unexpected keyword argument " \
                           "'bogus'"
    with pytest.raises(TypeError) as e:
        zero_out([1], 0, preserve_index=1)
    assert str(e.value) == "zero_out() got multiple values for argument " \
                           "'preserve_index'"


def test_inferred_attrs_are_not_parameters():
    with pytest.raises(TypeError):
        _opgen.Op("ZeroOut")([1], T=np.float32)


def test_a_keyword_name_gets_a_trailing_underscore():
    pol = _opgen.Op("PolymorphicSingleInput")
    assert pol._params[0][0] == "in_"
    with pytest.raises(opgen.UnimplementedError):
        pol(in_=[1])


@pytest.mark.parametrize("value,message", [
    ("1", "expected an int, got str"),
    (1.5, "expected an int, got float"),
    (True, "expected an int, got bool"),
    (2 ** 64, "the value is out of the range of int64"),
    (None, "expected an int, got NoneType"),
])
def test_int_attr_errors_name_op_attr_and_rule(value, message):
    with pytest.raises(opgen.InvalidArgumentError) as e:
        _opgen.Op("ZeroOut")([1], preserve_index=value)
    assert str(e.value) == "ZeroOut: attr 'preserve_index': " + message


def test_numpy_ints_are_ints():
    y = _opgen.Op("ZeroOut")(np.array([1, 2], np.int32),
                             preserve_index=np.int64(1))
    np.testing.assert_array_equal(y, [0, 2])


def test_the_runtimes_attr_checks_keep_their_message():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        _opgen.Op("ZeroOut")([1], preserve_index=-1)
    assert str(e.value).startswith("ZeroOut: attr 'preserve_index'")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        _opgen.Op("EnumExample")(e="banana")
    assert "banana" in str(e.value)


def test_string_and_type_and_list_attrs_are_checked_by_type():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        _opgen.Op("EnumExample")(e=1)
    assert str(e.value) == ("EnumExample: attr 'e': expected a str or "
                            "bytes, got int")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        _opgen.Op("RestrictedTypeExample")(t="nonsense")
    assert str(e.value) == ("RestrictedTypeExample: attr 't': expected a "
                            "dtype, got 'nonsense'")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        _opgen.Op("TypeListExample")(a=np.float32)
    assert str(e.value) == ("TypeListExample: attr 'a': expected a list "
                            "(list(type)), got type")


def test_valid_attrs_reach_the_kernel_lookup():
    with pytest.raises(opgen.UnimplementedError):
        _opgen.Op("EnumExample")(e="apple")
    with pytest.raises(opgen.UnimplementedError):
        _opgen.Op("TypeListExample")(a=[np.int32, "float", np.float32])
    with pytest.raises(opgen.UnimplementedError):
        _opgen.Op("RestrictedTypeExample")(t=bool)


def test_a_list_input_takes_a_list():
    add_n = _opgen.Op("AddN")
    np.testing.assert_array_equal(add_n((np.ones(2, F32),) * 3), [3, 3])
    with pytest.raises(opgen.InvalidArgumentError) as e:
        add_n(np.ones(2, F32))
    assert str(e.value) == ("AddN: input 'inputs': expected a list of "
                            "tensors, got ndarray")


def test_one_output_is_an_array():
    assert isinstance(_opgen.Op("Example")([1.0]), np.ndarray)


def test_no_output_is_none(call_lib):
    assert call_lib["CallNothing"](np.ones(2, F32)) is None


def test_several_outputs_are_a_tuple(call_lib):
    same, plus = call_lib["CallTwo"](np.array([1, 2], np.int32))
    np.testing.assert_array_equal(same, [1, 2])
    np.testing.assert_array_equal(plus, [2, 3])


def test_a_list_output_is_a_list(call_lib):
    ys = call_lib["CallRepeat"](np.array([1.5], F32), 3)
    assert isinstance(ys, list) and len(ys) == 3
    for y in ys:
        np.testing.assert_array_equal(y, [1.5])
    assert call_lib["CallRepeat"](np.ones(1, F32), N=0) == []


def test_string_outputs_are_arrays_of_bytes(call_lib):
    out = call_lib["CallStrings"]("héllo", n=3)
    assert out.dtype == object
    assert out.tolist() == ["héllo".encode()] * 3
    assert call_lib["CallStrings"](b"\x00\xff").tolist() == [b"\x00\xff"] * 2


def test_required_attrs_come_before_defaulted_ones(call_lib):
    assert [p[0] for p in call_lib["CallEcho"]._params] == \
        ["f", "sh", "b", "l", "t"]


def test_every_attr_type_reaches_the_kernel(call_lib):
    f, b, l, sh, t = call_lib["CallEcho"](0.25, [2, None, 3], b=True,
                                          l=[5, -7], t="int64")
    assert f == 0.25 and f.dtype == F32
    assert b == True  # noqa: E712
    assert l.tolist() == [5, -7]
    assert sh.tolist() == [3, 2, -1, 3]
    assert t == 9  # DT_INT64
    assert call_lib["CallEcho"](1, None)[3].tolist() == [-1]
    assert call_lib["CallEcho"](1, ())[3].tolist() == [0]
    assert call_lib["CallEcho"](1, [1], t=np.dtype("u2"))[4] == 17


@pytest.mark.parametrize("kwargs,message", [
    ({"f": "x", "sh": []}, "attr 'f': expected a float, got str"),
    ({"f": 1, "sh": [-2]}, "attr 'sh': dim 0 is -2; dims must be >= 0 (or "
                           "-1 or None: unknown)"),
    ({"f": 1, "sh": [1.5]}, "attr 'sh': expected an int, got float"),
    ({"f": 1, "sh": 3}, "attr 'sh': expected a shape (a list of ints or "
                        "None, or None), got int"),
    ({"f": 1, "sh": [1] * 300}, "attr 'sh': a shape of rank 300 is over the "
                                "maximum rank 254"),
    ({"f": 1, "sh": [], "b": 1}, "attr 'b': expected a bool, got int"),
    ({"f": 1, "sh": [], "l": [1, "2"]}, "attr 'l': expected an int, got "
                                        "str"),
    ({"f": 1, "sh": [], "l": 5}, "attr 'l': expected a list (list(int)), "
                                 "got int"),
])
def test_attr_conversion_errors(call_lib, kwargs, message):
    with pytest.raises(opgen.InvalidArgumentError) as e:
        call_lib["CallEcho"](**kwargs)
    assert str(e.value) == "CallEcho: " + message


def test_a_huge_list_attr_is_bounded(call_lib):
    l, = call_lib["CallEcho"](1.0, [], l=list(range(200000)))[2:3]
    assert l.shape == (200000,)


def test_a_huge_count_attr_fails_cleanly(call_lib):
    with pytest.raises(opgen.OpError):
        call_lib["CallRepeat"](np.ones(1, F32), N=2 ** 62)


def test_op_of_an_unknown_name_and_bad_arguments():
    with pytest.raises(opgen.NotFoundError):
        _opgen.Op("Nope")
    with pytest.raises(TypeError):
        _opgen.Op(5)
    with pytest.raises(TypeError):
        _opgen.Op()


def test_registered_and_shipped_ops():
    shipped = _opgen.shipped_ops()
    assert "ZeroOut" in shipped and "Pad" in shipped
    assert shipped == sorted(shipped)
    assert set(shipped) <= set(_opgen.registered_ops())


def test_load_library_returns_name_path_and_ops(zero_out_lib_path):
    name, path, ops = _opgen.load_library(zero_out_lib_path)
    assert (name, ops) == ("zero_out_lib", ["LibZeroOut"])
    assert _opgen.load_library(zero_out_lib_path) == (name, path, ops)
    assert "LibZeroOut" not in _opgen.shipped_ops()
    y = _opgen.Op("LibZeroOut")(np.array([7, 8], np.int32))
    np.testing.assert_array_equal(y, [7, 0])


def test_load_library_failures_raise_the_runtimes_status(tmp_path):
    with pytest.raises(opgen.NotFoundError) as e:
        _opgen.load_library(str(tmp_path / "missing.so"))
    assert "missing.so" in str(e.value)
    with pytest.raises(TypeError):
        _opgen.load_library(5)
    with pytest.raises(ValueError):
        _opgen.load_library("a\0b")
