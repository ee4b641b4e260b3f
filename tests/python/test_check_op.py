"""opgen.testing.check_op catches a kernel that breaks each of its rules:
the ops of tests/python/oplibs/check_op_lib (two correct ops, and kernels
that write into their input, depend on the thread count, or give another
shape than their shape statement, for a single output and for a list
element), Python gradients registered wrongly, and op functions whose
op_def claims fewer dtypes than they take."""
import copy
import os
import re

import numpy as np
import pytest

import opgen
from opgen.testing import CheckOpError, check_op


@pytest.fixture(scope="module")
def lib():
    path = os.path.join(os.environ.get("OPGEN_TEST_OPLIBS_DIR", ""),
                        "check_op_lib.so")
    if not os.path.exists(path):
        pytest.skip("check_op_lib.so is not built (OPGEN_TEST_OPLIBS_DIR)")
    return opgen.load_op_library(path)


def sample_2d(rng, dtype):
    """A random matrix of at least 2 x 2 elements, values in [1, 9]."""
    shape = tuple(int(d) for d in rng.integers(2, 5, 2))
    return (rng.integers(1, 10, shape).astype(dtype),), {}


def message(excinfo):
    return str(excinfo.value)


@pytest.fixture
def bad_grad(lib):
    """Registers a Python gradient fn(op, grad) for CheckTripleBadGrad for
    one test (the kernel computes x * 3)."""
    yield lambda fn: opgen.register_gradient("CheckTripleBadGrad",
                                             override=True)(fn)
    opgen._opgen.unregister_gradient("CheckTripleBadGrad")


def test_correct_op_passes_every_rule(lib):
    @opgen.register_gradient("CheckTriple", override=True)
    def _triple_grad(op, grad):
        return [grad * 3]

    report = check_op(lib.check_triple, sample=sample_2d)
    assert report["op"] == "CheckTriple" and report["attr"] == "T"
    assert report["dtypes"] == ["float", "double", "int32"]
    assert report["calls"] == 9 and report["skipped"] == {}
    assert report["refused"] == "int64"
    assert sorted(report["gradients"]) == ["double", "float"]
    assert report["gradients"]["double"] < 1e-6


def test_op_with_list_and_several_outputs_passes(lib):
    @opgen.register_gradient("CheckCopies", override=True)
    def _copies_grad(op, *grads):  # N copies, then 2 * x
        total = 2 * grads[-1]
        for g in grads[:-1]:
            total = total + g
        return [total]

    report = check_op(lib.check_copies, sample=sample_2d)
    assert report["dtypes"] == ["float", "double"] and report["calls"] == 6
    assert report["refused"] == "int64"
    assert sorted(report["gradients"]) == ["double", "float"]


def test_list_output_of_other_shape_fails_shapes_rule(lib):
    x = np.ones((3, 2), np.float64)
    with pytest.raises(CheckOpError) as e:
        check_op(lib.check_copies_wrong_shape, (x,), {"N": 3})
    assert message(e) == (
        "check_op CheckCopiesWrongShape (T=float, trial 0): shapes: output "
        "'copies'[2] has shape [4, 2], but infer_shapes gives [3, None]")


def test_failure_is_an_assertion_error():
    assert issubclass(CheckOpError, AssertionError)


def test_kernel_writing_its_input_fails_inputs_rule(lib):
    with pytest.raises(CheckOpError) as e:
        check_op(lib.check_writes_input, sample=sample_2d)
    assert re.fullmatch(
        r"check_op CheckWritesInput \(T=float, trial 0\): inputs: the call "
        r"on 1 thread modified input 'x': element \(0, 0\): "
        r"(\d+)\.0 vs (\d+)\.0 \(before vs after\)", message(e))
    before, after = re.findall(r"(\d+)\.0", message(e))[:2]
    assert int(after) == int(before) + 1


def test_kernel_depending_on_threads_fails_threads_rule(lib):
    with pytest.raises(CheckOpError) as e:
        check_op(lib.check_thread_dependent, sample=sample_2d)
    assert re.fullmatch(
        r"check_op CheckThreadDependent \(T=float, trial 0\): threads: "
        r"output 'y' differs between 1 thread and 4 threads: element "
        r"\(\d+, \d+\): \d+\.0 vs \d+\.0", message(e))


def test_kernel_with_other_shape_fails_shapes_rule(lib):
    x = np.ones((3, 2), np.float32)
    with pytest.raises(CheckOpError) as e:
        check_op(lib.check_wrong_shape, (x,))
    assert message(e) == (
        "check_op CheckWrongShape (T=float, trial 0): shapes: output 'y' "
        "has shape [4, 2], but infer_shapes gives [3, None]")


def test_wrong_python_gradient_fails_gradients_rule(lib, bad_grad):
    bad_grad(lambda op, grad: [grad * 2])
    x = np.array([1.0, 2.0], np.float32)
    with pytest.raises(CheckOpError) as e:
        check_op(lib.check_triple_bad_grad, (x,))
    assert message(e).startswith(
        "check_op CheckTripleBadGrad (T=float, trial 0): gradients: d output "
        "'y' / d input 'x': Jacobian element (0, 0) is 2.0 by the tape, ")
    assert "numerically (max abs error" in message(e)


def test_failing_python_gradient_fails_gradients_rule(lib, bad_grad):
    @bad_grad
    def _broken_grad(op, grad):
        raise ValueError("broken gradient")

    x = np.array([1.0, 2.0], np.float64)
    with pytest.raises(CheckOpError) as e:
        check_op(lib.check_triple_bad_grad, (x,), dtypes=["double"])
    assert message(e).startswith(
        "check_op CheckTripleBadGrad (T=double, trial 0): gradients: the "
        "gradient of output 'y' fails: ")
    assert "broken gradient" in message(e)


def test_gradients_rule_can_be_turned_off(lib, bad_grad):
    bad_grad(lambda op, grad: [grad * 2])
    x = np.array([1.0, 2.0], np.float32)
    report = check_op(lib.check_triple_bad_grad, (x,),
                      check_gradients=False)
    assert report["dtypes"] == ["float", "double"]
    assert report["gradients"] == {}
    report = check_op(lib.check_triple_bad_grad, (np.ones(600, np.float32),))
    assert report["gradients"] == {}  # over gradient_max_elements


class Narrowed:
    """An op function whose op_def claims attr T allows only `allowed`;
    `refuse` (optional) replaces the op's refusal of a dtype."""

    def __init__(self, op, allowed, refuse=None):
        self.op, self.refuse = op, refuse
        self.op_name = op.op_name
        self.op_def = copy.deepcopy(op.op_def)
        for attr in self.op_def["attrs"]:
            if attr["name"] == "T":
                attr["allowed"] = list(allowed)

    def __call__(self, *args, **kwargs):
        x = np.asarray(args[0] if args else kwargs["x"])
        if self.refuse and x.dtype != np.float32:
            raise self.refuse
        return self.op(*args, **kwargs)


def test_accepted_unallowed_dtype_fails_refusal_rule(lib):
    # CheckTriple takes int32, which the claimed set leaves out.
    op = Narrowed(lib.check_triple, ["float", "double", "int64"])
    with pytest.raises(CheckOpError) as e:
        check_op(op, sample=sample_2d, dtypes=["float"])
    assert message(e) == (
        "check_op CheckTriple (T=int32): refusal: dtype int32 is not allowed "
        "for attr T, but the call succeeds")


def test_refusal_of_the_wrong_kind_fails_refusal_rule(lib):
    op = Narrowed(lib.check_triple, ["float"], refuse=ValueError("no"))
    with pytest.raises(CheckOpError) as e:
        check_op(op, sample=sample_2d)
    assert message(e) == (
        "check_op CheckTriple (T=int64): refusal: dtype int64 (not allowed "
        "for attr T) raises ValueError, not InvalidArgumentError: no")


def test_refusal_not_naming_the_attr_fails_refusal_rule(lib):
    refuse = opgen.InvalidArgumentError("CheckTriple: bad input")
    op = Narrowed(lib.check_triple, ["float"], refuse=refuse)
    with pytest.raises(CheckOpError) as e:
        check_op(op, sample=sample_2d)
    assert message(e) == (
        "check_op CheckTriple (T=int64): refusal: dtype int64 is refused, "
        "but the message does not name op CheckTriple and attr T: "
        "'CheckTriple: bad input'")


def test_without_sample_the_args_are_cast_to_each_dtype(lib):
    report = check_op(lib.check_triple, ([[1, 2], [3, 4]],),
                      check_gradients=False)
    assert report["dtypes"] == ["float", "double", "int32"]
    assert report["calls"] == 3 and report["gradients"] == {}


def test_dtypes_narrows_the_dtypes_checked(lib):
    report = check_op(lib.check_triple, sample=sample_2d,
                      dtypes=[np.float64, "int32"], trials=2)
    assert report["dtypes"] == ["double", "int32"] and report["calls"] == 4


def test_dtypes_outside_the_allowed_set_is_an_error(lib):
    with pytest.raises(ValueError, match="CheckTriple: attr T does not "
                       "allow int64"):
        check_op(lib.check_triple, sample=sample_2d, dtypes=[np.int64])


def test_arguments_are_checked(lib):
    with pytest.raises(TypeError, match="check_op: <built-in function len> "
                       "is no op function"):
        check_op(len)
    with pytest.raises(ValueError, match="trials must be at least 1, not 0"):
        check_op(lib.check_triple, sample=sample_2d, trials=0)


def test_op_without_kernels_fails():
    # The guide's MatrixExample is a signature with a shape statement and
    # no kernel: every dtype is skipped, and that is a failure.
    with pytest.raises(CheckOpError) as e:
        check_op(opgen.ops.matrix_example, (np.ones((2, 3)),))
    assert message(e) == (
        "check_op MatrixExample: no dtype could be checked ({'float': 'no "
        "CPU kernel', 'double': 'no CPU kernel', 'int32': 'no CPU kernel'})")


def test_same_seed_same_trials(lib):
    seen = []

    def sample(rng, dtype):
        args, kwargs = sample_2d(rng, dtype)
        seen.append(args[0].shape)
        return args, kwargs

    check_op(lib.check_triple, sample=sample, seed=7, dtypes=["float"])
    first = list(seen)
    seen.clear()
    check_op(lib.check_triple, sample=sample, seed=7, dtypes=["float"])
    assert seen == first and len(first) == 3
