"""OpError and its subclasses: one per status code, TensorFlow's names,
the runtime's exact message."""
import numpy as np
import pytest

import opgen
from opgen import _opgen

CODES = [
    (1, "CANCELLED", "CancelledError"),
    (2, "UNKNOWN", "UnknownError"),
    (3, "INVALID_ARGUMENT", "InvalidArgumentError"),
    (4, "DEADLINE_EXCEEDED", "DeadlineExceededError"),
    (5, "NOT_FOUND", "NotFoundError"),
    (6, "ALREADY_EXISTS", "AlreadyExistsError"),
    (7, "PERMISSION_DENIED", "PermissionDeniedError"),
    (8, "RESOURCE_EXHAUSTED", "ResourceExhaustedError"),
    (9, "FAILED_PRECONDITION", "FailedPreconditionError"),
    (10, "ABORTED", "AbortedError"),
    (11, "OUT_OF_RANGE", "OutOfRangeError"),
    (12, "UNIMPLEMENTED", "UnimplementedError"),
    (13, "INTERNAL", "InternalError"),
    (14, "UNAVAILABLE", "UnavailableError"),
    (15, "DATA_LOSS", "DataLossError"),
    (16, "UNAUTHENTICATED", "UnauthenticatedError"),
]


@pytest.mark.parametrize("code,code_name,class_name", CODES)
def test_one_subclass_per_code_with_its_code(code, code_name, class_name):
    cls = getattr(_opgen, class_name)
    assert issubclass(cls, _opgen.OpError)
    assert cls.code == code
    assert cls.code_name == code_name
    assert cls.__name__ == class_name
    assert cls.__module__ == "opgen"


def test_op_error_is_an_exception():
    assert issubclass(_opgen.OpError, Exception)


def test_the_package_exports_every_error_class():
    for _, _, class_name in CODES:
        assert getattr(opgen, class_name) is getattr(_opgen, class_name)
    assert opgen.OpError is _opgen.OpError


def test_a_bad_call_raises_the_runtimes_message():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        opgen.ops.zero_out(np.array([1, 2], np.int32), preserve_index=5)
    assert e.value.code == 3
    assert e.value.code_name == "INVALID_ARGUMENT"
    assert str(e.value) == e.value.message
    assert e.value.message.startswith("ZeroOut: ")
    assert "preserve_index" in e.value.message


def test_an_op_without_a_kernel_is_unimplemented():
    with pytest.raises(opgen.UnimplementedError) as e:
        _opgen.Op("MyGeneralUnaryOp")(np.ones(2, np.float32))
    assert e.value.code == 12
    assert "MyGeneralUnaryOp" in str(e.value)


def test_an_unknown_op_is_not_found():
    with pytest.raises(opgen.NotFoundError) as e:
        _opgen.Op("NoSuchOp")
    assert str(e.value) == "no op named 'NoSuchOp' is registered"


def test_an_unconvertible_input_names_op_and_input():
    with pytest.raises(opgen.InvalidArgumentError) as e:
        opgen.ops.zero_out({})
    assert str(e.value) == \
        "ZeroOut: input 'to_zero': cannot convert dict to a tensor"


def test_errors_can_be_raised_and_caught_by_users():
    with pytest.raises(opgen.OpError) as e:
        raise opgen.NotFoundError("mine")
    assert e.value.message == "mine"
    assert e.value.code == 5


def test_a_gpu_context_without_a_device_fails_cleanly():
    try:
        ctx = opgen.Context(device="GPU")
    except opgen.FailedPreconditionError as e:
        assert "opr_context_new" in str(e)
    else:  # a machine with a GPU
        assert ctx.device == "GPU"


def test_a_second_init_of_the_extension_has_every_error_class():
    """Importing the extension again after removing it from sys.modules
    runs its init a second time: the new module gets the same classes."""
    import subprocess
    import sys
    code = ("import importlib, sys\n"
            "import opgen._opgen as first\n"
            "del sys.modules['opgen._opgen']\n"
            "second = importlib.import_module('opgen._opgen')\n"
            "assert second is not first\n"
            "print([n for n in dir(first) if n.endswith('Error') and\n"
            "       getattr(second, n, None) is not getattr(first, n)])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "[]\n"
