"""Op functions as Python sees them: opgen.ops and load_op_library."""
import types

from . import _opgen

ops = types.ModuleType("opgen.ops")


def load_op_library(path):
    raise NotImplementedError("load_op_library: not yet")
