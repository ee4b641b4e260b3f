"""The Python snippets of TensorFlow's "Create an op" guide, translated to
opgen: using ZeroOut from Python, its test (zero_out_op_test.py), and its
gradient registered in Python and checked."""
import numpy as np
import pytest

import opgen
from opgen import _opgen
from opgen.testing import compute_gradient_error


@pytest.fixture
def zero_out_module(zero_out_lib_path):
    # zero_out_module = tf.load_op_library('./zero_out.so')
    return opgen.load_op_library(zero_out_lib_path)


def test_using_the_op_in_python(zero_out_module):
    # print(zero_out_module.zero_out([[1, 2], [3, 4]]).numpy())
    # -> array([[1, 0], [0, 0]], dtype=int32)
    result = zero_out_module.lib_zero_out([[1, 2], [3, 4]])
    assert result.dtype == np.int32
    np.testing.assert_array_equal(result, [[1, 0], [0, 0]])


def test_zero_out(zero_out_module):
    # zero_out_op_test.py: ZeroOutTest.testZeroOut
    result = zero_out_module.lib_zero_out([5, 4, 3, 2, 1])
    np.testing.assert_array_equal(result, [5, 0, 0, 0, 0])


def test_zero_out_shipped():
    result = opgen.ops.zero_out([[1, 2], [3, 4]])
    assert result.dtype == np.int32
    np.testing.assert_array_equal(result, [[1, 0], [0, 0]])


def _zero_out_grad(op, grad):
    """The gradients for `zero_out`, as the guide writes them.

    Args:
      op: The `zero_out` operation that we are differentiating, which we
        can use to find the inputs and outputs of the original op.
      grad: Gradient with respect to the output of the `zero_out` op.

    Returns:
      Gradients with respect to the input of `zero_out`.
    """
    to_zero = op.inputs[0]
    shape = np.shape(to_zero)
    index = np.zeros_like(shape)
    first_grad = np.reshape(grad, [-1])[0]
    # sparse_ops.sparse_to_dense([index], shape, first_grad, 0)
    to_zero_grad = np.zeros(shape, dtype=grad.dtype)
    to_zero_grad[tuple(index)] = first_grad
    return [to_zero_grad]  # List of one Tensor, since we have one input


@pytest.fixture
def lib_zero_out_gradient(zero_out_module):
    # @ops.RegisterGradient("ZeroOut") in the guide; the library's op is
    # LibZeroOut.
    opgen.register_gradient("LibZeroOut")(_zero_out_grad)
    yield
    _opgen.unregister_gradient("LibZeroOut")


def test_zero_out_gradient_registered_in_python(zero_out_module,
                                                lib_zero_out_gradient):
    x = np.array([[1, 2], [3, 4]], dtype=np.int32)
    with opgen.GradientTape() as tape:
        y = zero_out_module.lib_zero_out(x)
    dx = tape.gradient(y, x, output_gradients=[[5, 6], [7, 8]])
    assert dx.dtype == np.int32
    np.testing.assert_array_equal(dx, [[5, 0], [0, 0]])


def test_zero_out_gradient_of_ones(zero_out_module, lib_zero_out_gradient):
    x = np.array([5, 4, 3, 2, 1], dtype=np.int32)
    with opgen.GradientTape() as tape:
        y = zero_out_module.lib_zero_out(x)
    np.testing.assert_array_equal(tape.gradient(y, [x])[0], [1, 0, 0, 0, 0])


def test_zero_out_gradient_without_registration_is_not_found(
        zero_out_module):
    if _opgen.has_gradient("LibZeroOut"):
        pytest.skip("LibZeroOut has a gradient")
    x = np.array([1, 2], dtype=np.int32)
    with opgen.GradientTape() as tape:
        y = zero_out_module.lib_zero_out(x)
    with pytest.raises(opgen.NotFoundError) as e:
        tape.gradient(y, x)
    assert str(e.value) == "no gradient is registered for op 'LibZeroOut'"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_guide_gradient_passes_the_numeric_check(dtype):
    # The guide's gradient for the float ZeroOut (preserve_index 0, the
    # element it keeps), in place of the shipped C gradient for the test.
    _opgen.register_gradient("ZeroOut", _zero_out_grad, override=True)
    try:
        x = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=dtype)
        assert compute_gradient_error(opgen.ops.zero_out, [x]) < 1e-2
    finally:
        _opgen.unregister_gradient("ZeroOut")


def test_shipped_zero_out_c_gradient_passes_the_numeric_check():
    x = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float64)
    error = compute_gradient_error(
        lambda a: opgen.ops.zero_out(a, preserve_index=3), [x])
    assert error < 1e-6
