"""opgen.ops and the op functions as Python sees them: names (TensorFlow's
snake case), signatures, docstrings, module attributes, the listing."""
import inspect
import os
import pydoc
import re

import numpy as np
import pytest

import opgen
from opgen._ops import snake_case

SPECS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                     "specs")
P = inspect.Parameter


def spec_op_names():
    names = []
    for f in sorted(os.listdir(SPECS)):
        if f.endswith(".op"):
            with open(os.path.join(SPECS, f)) as src:
                names += re.findall(r"^op (\w+)", src.read(), re.M)
    return names


def sig(*params):
    return inspect.Signature([
        P(p, P.POSITIONAL_OR_KEYWORD) if isinstance(p, str)
        else P(p[0], P.POSITIONAL_OR_KEYWORD, default=p[1]) for p in params])


@pytest.mark.parametrize("op_name, function_name", [
    ("ZeroOut", "zero_out"), ("AddN", "add_n"), ("Conv2D", "conv2d"),
    ("BatchMatMulV2", "batch_mat_mul_v2"), ("LRN", "lrn"),
    ("TPUReplicatedInput", "tpu_replicated_input"), ("FFT2D", "fft2d"),
    ("Conv3DBackpropInputV2", "conv3d_backprop_input_v2"), ("Pad", "pad"),
    ("If", "if_"), ("Lambda", "lambda_"), ("ZeroOutInt32", "zero_out_int32"),
])
def test_snake_case_follows_tensorflows_rule(op_name, function_name):
    assert snake_case(op_name) == function_name


def test_ops_lists_every_shipped_op_under_its_snake_case_name():
    expected = sorted(snake_case(n) for n in spec_op_names())
    assert len(expected) > 20
    assert opgen.ops.__all__ == expected
    for name in expected:
        assert name in dir(opgen.ops)


def test_each_function_knows_its_op():
    for op_name in spec_op_names():
        fn = getattr(opgen.ops, snake_case(op_name))
        assert fn.op_name == op_name
        assert fn.op_def["name"] == op_name
        assert fn.__name__ == snake_case(op_name)
        assert fn.__qualname__ == snake_case(op_name)
        assert fn.__module__ == "opgen.ops"


def test_ops_is_importable_as_a_module():
    from opgen.ops import zero_out
    import opgen.ops as ops
    assert zero_out is opgen.ops.zero_out
    assert ops is opgen.ops
    assert opgen.ops.__name__ == "opgen.ops"


def test_a_missing_op_is_an_attribute_error():
    with pytest.raises(AttributeError) as e:
        opgen.ops.no_such_op
    assert str(e.value) == "module 'opgen.ops' has no attribute 'no_such_op'"
    assert not hasattr(opgen.ops, "ZeroOutt")


def test_an_op_name_instead_of_its_function_name_says_which_it_is():
    with pytest.raises(AttributeError) as e:
        opgen.ops.ZeroOut
    assert str(e.value) == ("module 'opgen.ops' has no attribute 'ZeroOut' "
                            "(op ZeroOut is zero_out)")


def test_signature_inputs_then_defaulted_attrs():
    assert inspect.signature(opgen.ops.zero_out) == sig(
        "to_zero", ("preserve_index", 0))
    assert inspect.signature(opgen.ops.pad) == sig(
        "input", "paddings", ("mode", "CONSTANT"))


def test_signature_leaves_out_inferred_attrs():
    assert inspect.signature(opgen.ops.add_n) == sig("inputs")
    assert inspect.signature(opgen.ops.example) == sig("input")
    assert inspect.signature(opgen.ops.mat_mul_like) == sig("a", "b")


def test_signature_type_attr_default_is_a_numpy_dtype():
    assert inspect.signature(opgen.ops.string_to_number) == sig(
        "string_tensor", ("out_type", np.dtype("float32")))


def test_signature_required_attrs_before_defaulted_ones():
    assert inspect.signature(opgen.ops.enum_example) == sig("e")
    assert inspect.signature(opgen.ops.min_int_example) == sig("a")
    assert inspect.signature(opgen.ops.attr_default_example) == sig(("i", 0))


def test_signature_keyword_names_get_a_trailing_underscore():
    assert inspect.signature(opgen.ops.polymorphic_single_input) == sig("in_")
    assert inspect.signature(opgen.ops.int_list_input_example) == sig("in_")


def test_signature_defaults_of_every_attr_type():
    params = inspect.signature(
        opgen.ops.attr_default_example_for_all_types).parameters
    assert list(params) == ["s", "i", "f", "b", "ty", "sh", "te", "l_empty",
                            "l_int"]
    assert params["s"].default == "foo"
    assert params["i"].default == 0
    assert params["f"].default == 1.0
    assert params["b"].default is True
    assert params["ty"].default == np.dtype("int32")
    assert list(params["sh"].default) == [1, 2]
    assert params["te"].default.dtype == np.int32
    assert params["te"].default.tolist() == 5
    assert list(params["l_empty"].default) == []
    assert list(params["l_int"].default) == [2, 3, 5, 7]


def test_docstring_of_zero_out():
    assert opgen.ops.zero_out.__doc__ == """\
Zeroes all elements of a tensor but one.

Args:
  to_zero: A tensor of type T, one of float, double, int32.
  preserve_index: An int >= 0. Defaults to 0.

Returns:
  zeroed: A tensor of type T.
"""


def test_docstring_lists_allowed_types_once_in_runtime_order():
    # realnumbertype and bool, in the order of the runtime's dtype codes;
    # the output says its type attr only.
    assert opgen.ops.pad.__doc__.splitlines()[2:6] == [
        "Args:",
        "  input: A tensor of type T, one of float, double, int32, uint8, "
        "int16, int8,",
        "    int64, bool, bfloat16, uint16, half, uint32, uint64.",
        "  paddings: A tensor of type Tpaddings, one of int32, int64.",
    ]
    assert opgen.ops.pad.__doc__.endswith(
        "Returns:\n  output: A tensor of type T.\n")


def test_docstring_of_a_string_attr_with_allowed_values():
    assert ("  mode: A string, one of 'CONSTANT', 'REFLECT', 'SYMMETRIC'. "
            "Defaults to\n    'CONSTANT'.\n") in opgen.ops.pad.__doc__


def test_docstring_of_a_list_input_and_its_length_attr():
    doc = opgen.ops.min_length_int_list_example.__doc__
    assert doc == """\
A list of at least two int32 tensors.

Args:
  in_: A list of N tensors of type int32.

Returns:
  out: A tensor of type int32.
"""


def test_docstring_of_a_type_list_input():
    doc = opgen.ops.list_type_restriction_example.__doc__
    assert "  in_: A list of tensors, their types the list T.\n" in doc


def test_docstring_of_a_type_attr_with_a_default():
    doc = opgen.ops.string_to_number.__doc__
    assert ("  out_type: A dtype, one of float, int32. Defaults to float.\n"
            in doc)
    assert "  output: A tensor of type out_type.\n" in doc


def test_docstring_of_required_attrs():
    assert "  a: An int >= 2.\n" in opgen.ops.min_int_example.__doc__
    assert "  e: A string, one of 'apple', 'orange'.\n" in \
        opgen.ops.enum_example.__doc__
    assert ("  a: A list of dtypes (at least 3), one of float, int32.\n"
            in opgen.ops.type_list_example.__doc__)


def test_docstring_of_several_outputs_and_of_none():
    doc = opgen.ops.multiple_ins_and_outs.__doc__
    assert doc.endswith("""\
Returns:
  A tuple (a, b):
  a: A tensor of type string.
  b: A tensor of type int32.
""")
    assert opgen.ops.built_in_types_example.__doc__.endswith(
        "Returns:\n  None.\n")


def test_help_shows_signature_and_docstring():
    text = opgen.ops.zero_out.__doc__
    assert inspect.getdoc(opgen.ops.zero_out) == text.rstrip("\n")
    assert str(inspect.signature(opgen.ops.zero_out)) == \
        "(to_zero, preserve_index=0)"


def test_pydoc_renders_an_op_as_a_function():
    text = pydoc.render_doc(opgen.ops.zero_out, renderer=pydoc.plaintext)
    assert ("\nzero_out(to_zero, preserve_index=0)\n"
            "    Zeroes all elements of a tensor but one.\n") in text


def test_functions_are_the_same_object_each_time():
    assert opgen.ops.zero_out is opgen.ops.zero_out


def test_a_function_calls_its_op():
    x = np.array([[1, 2], [3, 4]], dtype=np.float32)
    np.testing.assert_array_equal(opgen.ops.zero_out(x, preserve_index=3),
                                  [[0, 0], [0, 4]])
    np.testing.assert_array_equal(opgen.ops.example(x), x * 2)


def test_get_include_is_the_runtimes_headers():
    include = opgen.get_include()
    assert os.path.isfile(os.path.join(include, "opr", "opr.h"))
    assert os.path.isfile(os.path.join(include, "opr", "library.h"))
