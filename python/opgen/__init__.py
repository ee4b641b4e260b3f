"""opgen: load, call, test and differentiate opgen ops from Python.

    import opgen
    y = opgen.ops.zero_out([[1, 2], [3, 4]])
    lib = opgen.load_op_library("build/lib/zero_out_lib.so")
"""
from . import _opgen

# The extension's public names: OpError and its subclasses, Context,
# infer_shapes, GradientTape, register_gradient, ... (whatever it defines).
globals().update({k: v for k, v in vars(_opgen).items()
                  if not k.startswith("_")})

from ._ops import ops, load_op_library  # noqa: E402
