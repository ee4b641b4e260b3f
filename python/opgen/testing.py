"""Testing helpers for op authors, as tf.test and torch.library offer:

    from opgen import testing
    testing.check_op(lib.zero_out, sample=...)      # the op's contract
    testing.compute_gradient(f, xs)                 # tape vs numeric Jacobians
    testing.compute_gradient_error(f, xs)           # their largest difference

See docs/python.md, "Testing an op" and "Gradients".
"""
from ._check_op import CheckOpError, check_op
from ._gradient_check import compute_gradient, compute_gradient_error

__all__ = ["check_op", "CheckOpError", "compute_gradient",
           "compute_gradient_error"]
