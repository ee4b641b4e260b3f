"""_opgen.infer_shapes: an op's shape function on partial shapes (None for
an unknown dim or rank), for graph builders."""
import numpy as np
import pytest

import opgen
from opgen import _opgen

infer = _opgen.infer_shapes


def test_known_shapes_give_known_outputs():
    assert infer("Example", [[4, 5]]) == [[4, 5]]
    assert infer("ZeroOut", [[]]) == [[]]


def test_unknown_dims_and_ranks_stay_unknown():
    assert infer("Example", [[None, 3]]) == [[None, 3]]
    assert infer("Example", [None]) == [None]
    assert infer("Pad", [None, None]) == [None]


def test_the_package_exports_it():
    assert opgen.infer_shapes is infer


def test_a_value_dependent_shape_reads_the_values():
    paddings = np.array([[1, 2], [0, 1]], np.int32)
    assert infer("Pad", [[2, 3], [2, 2]]) == [[None, None]]
    assert infer("Pad", [[2, 3], [2, 2]],
                 values={"paddings": paddings}) == [[5, 4]]
    assert infer("Pad", [[2, None], [2, 2]], {"mode": "REFLECT"},
                 values={"paddings": paddings}) == [[5, None]]
    assert infer("Pad", [[2, 3], [2, 2]],
                 values={"paddings": [[1, 1], [1, 1]]}) == [[4, 5]]


def test_a_list_input_takes_a_list_of_shapes():
    assert infer("AddN", [[[2, None], [None, 3]]]) == [[2, 3]]
    assert infer("AddN", [[None, [4]]]) == [[4]]


def test_an_op_without_inputs_or_outputs():
    assert infer("EnumExample", [], {"e": "apple"}) == []


def test_the_runtimes_shape_errors_are_invalid_arguments():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("Pad", [[2, 3], [3, 2]])
    assert str(e.value) == ("Pad: rank(input) == dim(paddings, 0) does not "
                            "hold (2 vs 3)")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("AddN", [[[2], [3]]])
    assert str(e.value).startswith("AddN: ")


@pytest.mark.parametrize("dim,shown", [
    (float("nan"), "nan"), (-3, "-3"), (2 ** 70, str(2 ** 70)),
    (1.0, "1.0"), (True, "True"), ("2", "'2'"),
])
def test_a_bad_dim_is_named(dim, shown):
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("Pad", [[2, dim], [2, 2]])
    assert str(e.value) == ("Pad: input 'input': dim 1 is %s; a dim is an "
                            "int >= 0 or None" % shown)


def test_minus_one_is_an_unknown_dim_too():
    assert infer("Example", [[-1, 2]]) == [[None, 2]]


def test_bad_structure_is_named():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("Pad", [[2]])
    assert str(e.value) == "Pad: takes 2 input arguments, got 1 shapes"
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("Pad", "xy")
    assert str(e.value) == ("Pad: shapes must be a list, one entry per "
                            "input argument, not str")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("Pad", [3, [2, 2]])
    assert str(e.value) == ("Pad: input 'input': a shape is a list of dims "
                            "or None, not int")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("AddN", [[2, 3]])
    assert str(e.value) == ("AddN: input 'inputs': a shape is a list of "
                            "dims or None, not int")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("Example", [[1] * 300])
    assert str(e.value) == ("Example: input 'input': a shape of rank 300 is "
                            "over the maximum rank 254")


def test_bad_attrs_and_values_are_named():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("Pad", [[2, 3], [2, 2]], {"bogus": 1})
    assert str(e.value) == "Pad: no attr named 'bogus'"
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("Pad", [[2, 3], [2, 2]], {"mode": 3})
    assert str(e.value) == ("Pad: attr 'mode': expected a str or bytes, "
                            "got int")
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("Pad", [[2, 3], [2, 2]], values={"x": 1})
    assert str(e.value) == "Pad: values: no input named 'x'"
    with pytest.raises(opgen.InvalidArgumentError) as e:
        infer("Pad", [[2, 3], [2, 2]], values={"paddings": {}})
    assert str(e.value) == ("Pad: input 'paddings': cannot convert dict to "
                            "a tensor")
    with pytest.raises(opgen.InvalidArgumentError):
        infer("Pad", [[2, 3], [2, 2]], attrs=[1])


def test_an_unknown_op_is_not_found():
    with pytest.raises(opgen.NotFoundError) as e:
        infer("Nope", [])
    assert str(e.value) == "no op named 'Nope' is registered"


def test_a_huge_list_of_shapes_is_handled():
    assert infer("AddN", [[[3]] * 100000]) == [[3]]


def test_shapes_of_a_list_output(call_lib):
    assert infer("CallRepeat", [[2, None]], {"N": 3}) == [None] * 3
