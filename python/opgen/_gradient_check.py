"""Numeric gradient checks, as tf.test.compute_gradient and
tf.test.compute_gradient_error do: the Jacobian the tape computes (the
registered gradients) against one from central differences."""
import numpy as np

from . import _opgen

__all__ = ["compute_gradient", "compute_gradient_error"]


def _default_delta(dtype):
    if dtype == np.float64:
        return 1e-6
    if dtype.name == "bfloat16":  # 8 bits of mantissa: 1e-3 is below it
        return 1e-2
    return 1e-3  # float32, float16


def _check_inputs(xs):
    if isinstance(xs, np.ndarray) or not isinstance(xs, (list, tuple)):
        raise TypeError("compute_gradient: xs must be a list or tuple of "
                        "arrays, not %s" % type(xs).__name__)
    arrays = [np.array(x) for x in xs]  # copies: the check perturbs them
    for i, x in enumerate(arrays):
        if x.dtype.kind != "f" and x.dtype.name != "bfloat16":
            raise TypeError("compute_gradient: xs[%d] is %s; the numeric "
                            "Jacobian needs a real floating-point input "
                            "(check the gradient of other types directly)"
                            % (i, x.dtype))
    return arrays


def _theoretical(f, xs):
    """Row r of Jacobian i: the gradient of output element r with respect
    to xs[i], from the tape with a one-hot output gradient."""
    with _opgen.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = f(*xs)
    y_arr = np.asarray(y)
    jacobians = [np.zeros((y_arr.size, x.size), dtype=np.float64)
                 for x in xs]
    one_hot = np.zeros(y_arr.shape, dtype=y_arr.dtype)
    flat = one_hot.reshape(-1)
    for r in range(y_arr.size):
        flat[r] = 1
        grads = tape.gradient(y, list(xs), output_gradients=one_hot)
        flat[r] = 0
        for jac, g in zip(jacobians, grads):
            if g is not None:
                jac[r, :] = np.asarray(g, dtype=np.float64).reshape(-1)
    return y_arr, jacobians


def _moved(flat, kept, d):
    """An element of flat moved by +d and -d: f's inputs, and the step
    they are apart once rounded to the dtype (in float64)."""
    up = (kept + flat.dtype.type(d)).astype(flat.dtype)
    down = (kept - flat.dtype.type(d)).astype(flat.dtype)
    step = float(up) - float(down)
    if step == 0:
        raise ValueError("compute_gradient: delta %g is below the "
                         "resolution of %s at %r" % (d, flat.dtype,
                                                     float(kept)))
    return up, down, step


def _numerical(f, xs, y_size, delta):
    """Column c of Jacobian i: (f(x + d e_c) - f(x - d e_c)) / 2d, with
    element c of xs[i] moved and the others kept; 2d is the distance of
    the two moved values as the dtype holds them (float16 rounds 1e-3)."""
    jacobians = []
    for x in xs:
        jac = np.zeros((y_size, x.size), dtype=np.float64)
        d = _default_delta(x.dtype) if delta is None else delta
        flat = x.reshape(-1)  # a view: moving it moves x
        for c in range(x.size):
            kept = flat[c].copy()
            up, down, step = _moved(flat, kept, d)
            flat[c] = up
            y_up = np.asarray(f(*xs), dtype=np.float64).reshape(-1)
            flat[c] = down
            y_down = np.asarray(f(*xs), dtype=np.float64).reshape(-1)
            flat[c] = kept
            jac[:, c] = (y_up - y_down) / step
        jacobians.append(jac)
    return jacobians


def compute_gradient(f, xs, delta=None):
    """The theoretical and numerical Jacobians of f at xs.

    f(*xs) returns one array y; xs is a list of floating-point arrays
    (copied: f sees copies). Returns (theoretical, numerical): one 2-D
    float64 array per x, of shape (y.size, x.size) as in TensorFlow 2's
    tf.test.compute_gradient. Theoretical comes from GradientTape with a
    one-hot output gradient per element of y (zeros where x does not reach
    y); numerical from central differences with step delta (default 1e-3
    for float32 and float16, 1e-2 for bfloat16, 1e-6 for float64), divided
    by the distance of the two moved values as x's dtype holds them.
    """
    xs = _check_inputs(xs)
    y, theoretical = _theoretical(f, xs)
    numerical = _numerical(f, xs, y.size, delta)
    return theoretical, numerical


def compute_gradient_error(f, xs, delta=None):
    """The largest absolute difference between the theoretical and the
    numerical Jacobians of f at xs (0.0 when they are empty)."""
    theoretical, numerical = compute_gradient(f, xs, delta)
    error = 0.0
    for t, n in zip(theoretical, numerical):
        if t.size:
            error = max(error, float(np.max(np.abs(t - n))))
    return error
