"""opgen: load, call, test and differentiate opgen ops from Python.

    import opgen
    y = opgen.ops.zero_out([[1, 2], [3, 4]])          # the shipped ops
    lib = opgen.load_op_library("build/lib/zero_out_lib.so")
    lib.lib_zero_out([5, 6])

docs/python.md has the whole story.
"""
import os as _os

from . import _opgen

# What the extension defines for users: OpError and one subclass per
# status code, Context, infer_shapes, GradientTape, register_gradient.
# Only the names it has are taken.
_EXPORTED = ("OpError", "Context", "infer_shapes", "GradientTape",
             "register_gradient")


def _exported(name, value):
    if name in _EXPORTED:
        return True
    error = getattr(_opgen, "OpError", None)
    return (error is not None and isinstance(value, type)
            and issubclass(value, error))


globals().update({k: v for k, v in vars(_opgen).items() if _exported(k, v)})

from ._ops import ops, load_op_library  # noqa: E402
from . import testing  # noqa: E402,F401

_HERE = _os.path.dirname(_os.path.abspath(__file__))


def get_include():
    """The directory of the runtime's headers (opr/opr.h, ...), for
    building op libraries against the installed package; the source tree's
    runtime/include when opgen runs from a build tree."""
    installed = _os.path.join(_HERE, "include")
    if _os.path.isdir(installed):
        return installed
    # A build tree's staging package links to python/opgen/*.py.
    source = _os.path.dirname(_os.path.realpath(__file__))
    return _os.path.join(_os.path.dirname(_os.path.dirname(source)),
                         "runtime", "include")
