"""opgen.testing.check_op: the checks every op should pass, in the spirit
of PyTorch's torch.library.opcheck.

For each allowed dtype of the type attr that drives the op's inputs and a
few random shapes, a call must give outputs of the shapes infer_shapes
gives, leave its inputs alone, give bit for bit the same result on one
thread and on four, and (for floating dtypes, where a gradient is
registered) have a gradient that matches the numeric one. A dtype outside
the allowed set must be refused with InvalidArgumentError naming the op
and the attr.
"""
import keyword
import re

import numpy as np

from . import _opgen

__all__ = ["check_op", "CheckOpError"]


class CheckOpError(AssertionError):
    """A rule of check_op failed; the message names the op, the dtype,
    the trial, the rule and the values."""


# The runtime's dtype names and the numpy dtypes they convert to (string:
# arrays of bytes objects; bfloat16 from ml_dtypes when installed).
_NUMPY = {"float": "float32", "double": "float64", "half": "float16",
          "int8": "int8", "int16": "int16", "int32": "int32",
          "int64": "int64", "uint8": "uint8", "uint16": "uint16",
          "uint32": "uint32", "uint64": "uint64", "bool": "bool",
          "complex64": "complex64", "complex128": "complex128",
          "string": "object"}

# Dtypes tried, in this order, as the one the op must refuse.
_REFUSAL_ORDER = ("int64", "int32", "float", "double", "int16", "int8",
                  "uint8", "uint16", "uint32", "uint64", "half",
                  "complex64", "complex128", "bool")

# Default gradient tolerances per dtype: (atol, rtol).
_GRAD_TOLERANCE = {"float": (1e-2, 1e-2), "double": (1e-6, 1e-6)}

_THREADS = (1, 4)


def _numpy_dtype(name):
    """The numpy dtype of a runtime dtype name, or None when numpy has
    none (quantized types, variant, resource; bfloat16 without
    ml_dtypes)."""
    if name == "bfloat16":
        try:
            import ml_dtypes
        except ImportError:
            return None
        return np.dtype(ml_dtypes.bfloat16)
    n = _NUMPY.get(name)
    return np.dtype(n) if n else None


def _runtime_name(dtype):
    """The runtime's name of a dtype given as a name or a numpy dtype."""
    if isinstance(dtype, str) and (dtype in _NUMPY or dtype == "bfloat16"):
        return dtype
    d = np.dtype(dtype)
    if d.name == "bfloat16":
        return "bfloat16"
    for name, numpy_name in _NUMPY.items():
        if d == np.dtype(numpy_name):
            return name
    raise ValueError("check_op: no runtime dtype for %r" % (dtype,))


class _Fail(Exception):
    """A rule's failure inside one call check; check_op adds the op, the
    dtype and the trial."""

    def __init__(self, rule, detail, error=None):
        Exception.__init__(self, rule, detail)
        self.rule = rule
        self.detail = detail
        self.error = error  # the exception behind it, if any


class _Signature:
    """The op's parameters as its function takes them: inputs in order,
    then required attrs, then attrs with defaults (inferred attrs are no
    parameters); a Python keyword gets a trailing underscore."""

    def __init__(self, op_def):
        attrs = [a for a in op_def["attrs"] if not a.get("inferred")]
        required = [a["name"] for a in attrs if "default" not in a]
        defaulted = [a["name"] for a in attrs if "default" in a]
        self.inputs = [i["name"] for i in op_def["inputs"]]
        self.names = self.inputs + required + defaulted

    @staticmethod
    def param(name):
        return name + "_" if keyword.iskeyword(name) else name

    def bind(self, op_name, args, kwargs):
        """{op_def name: value} of the arguments given."""
        if len(args) > len(self.names):
            raise TypeError("check_op: %s takes %d arguments, %d given"
                            % (op_name, len(self.names), len(args)))
        bound = dict(zip(self.names, args))
        by_param = {self.param(n): n for n in self.names}
        for key, value in kwargs.items():
            if key not in by_param:
                raise TypeError("check_op: %s has no parameter %r"
                                % (op_name, key))
            bound[by_param[key]] = value
        return bound


class _Op:
    """What check_op needs to know about the op: its name and op_def, the
    type attr it checks and how that attr is set."""

    def __init__(self, op):
        if not callable(op) or not hasattr(op, "op_def") or \
                not hasattr(op, "op_name"):
            raise TypeError("check_op: %r is no op function (one with "
                            "op_name and op_def, as opgen.ops.zero_out)"
                            % (op,))
        self.fn = op
        self.name = op.op_name
        self.op_def = op.op_def
        self.sig = _Signature(self.op_def)
        self.attrs = {a["name"]: a for a in self.op_def["attrs"]}
        self.attr, self.attr_is_input = self._driving_attr()

    def _driving_attr(self):
        """The type attr of the first input that has one (set by the
        input's dtype), else the first type attr given as an argument
        (StringToNumber's out_type); (None, False) when there is none."""
        for inp in self.op_def["inputs"]:
            t = inp.get("type_attr")
            if t and self.attrs.get(t, {}).get("type") == "type":
                return t, True
        for a in self.op_def["attrs"]:
            if a["type"] == "type" and not a.get("inferred"):
                return a["name"], False
        return None, False

    def allowed(self):
        """The runtime names of the attr's allowed dtypes (when the attr
        allows any: every number type numpy has, and bool)."""
        if self.attr is None:
            return [None]
        allowed = self.attrs[self.attr].get("allowed")
        if allowed:
            return list(allowed)
        return [n for n in _NUMPY if n != "string"] + ["bfloat16"]

    def driven_inputs(self):
        """Names of the inputs whose dtype is the checked attr."""
        if not self.attr_is_input:
            return []
        return [i["name"] for i in self.op_def["inputs"]
                if i.get("type_attr") == self.attr]

    def is_list_input(self, name):
        for i in self.op_def["inputs"]:
            if i["name"] == name:
                return bool(i.get("number_attr") or i.get("type_list_attr"))
        return False

    def flatten_outputs(self, result):
        """The call's result as a flat list of arrays, one per output
        tensor (a list output gives each of its tensors)."""
        return [a for _, a in self.labelled_outputs(result)]

    def labelled_outputs(self, result):
        """(label, array) per output tensor: 'y', or 'ys'[i] for tensor i
        of list output ys."""
        outs = self.op_def["outputs"]
        if not outs:
            return []
        parts = [result] if len(outs) == 1 else list(result)
        flat = []
        for out, part in zip(outs, parts):
            if out.get("number_attr") or out.get("type_list_attr"):
                flat.extend(("'%s'[%d]" % (out["name"], i), a)
                            for i, a in enumerate(part))
            else:
                flat.append(("'%s'" % out["name"], part))
        return flat


class _Call:
    """One call's arguments, by op_def name."""

    def __init__(self, op, args, kwargs):
        self.op = op
        self.bound = op.sig.bind(op.name, tuple(args), dict(kwargs or {}))

    def copy(self):
        c = _Call.__new__(_Call)
        c.op = self.op
        c.bound = dict(self.bound)
        return c

    def run(self):
        sig = self.op.sig
        kwargs = {sig.param(n): v for n, v in self.bound.items()}
        return self.op.fn(**kwargs)

    def inputs(self):
        """(name, value) of each input given, in op_def order."""
        return [(n, self.bound[n]) for n in self.op.sig.inputs
                if n in self.bound]

    def attrs(self):
        return {n: v for n, v in self.bound.items()
                if n not in self.op.sig.inputs}

    def with_dtype(self, dtype):
        """A copy with the checked attr's inputs cast to `dtype` (a numpy
        dtype), or the attr given as `dtype`."""
        c = self.copy()
        if not self.op.attr_is_input:
            if self.op.attr is not None:
                c.bound[self.op.attr] = dtype
            return c
        for name in self.op.driven_inputs():
            if name not in c.bound:
                continue
            v = c.bound[name]
            if self.op.is_list_input(name):
                c.bound[name] = [np.asarray(x).astype(dtype) for x in v]
            else:
                c.bound[name] = np.asarray(v).astype(dtype)
        return c


def _text(v):
    """A value for a message: numpy scalars as the Python numbers they
    hold (7.0, not np.float32(7.0))."""
    item = getattr(v, "item", None)
    return repr(item() if item is not None else v)


def _describe(a):
    return "%s %s" % (np.asarray(a).dtype, tuple(np.shape(a)))


def _bits(a):
    """The elements' bytes, one row per element."""
    a = np.ascontiguousarray(a).reshape(-1)
    return a.view(np.uint8).reshape(a.size, a.dtype.itemsize)


def _is_nan(a):
    try:
        return np.isnan(a).reshape(-1)
    except TypeError:  # no NaN in this dtype
        return np.zeros(a.size, bool)


def _same_elements(a, b, nan_aware):
    """Per element (flat): whether a and b hold the same thing."""
    if a.dtype == object:
        return np.array([x == y for x, y in zip(a.reshape(-1),
                                                b.reshape(-1))], bool)
    same = (_bits(a) == _bits(b)).all(axis=1)
    if nan_aware:
        same |= _is_nan(a) & _is_nan(b)
    return same


def _difference(a, b, nan_aware):
    """None when a and b are identical (the same dtype, shape and bits;
    with nan_aware, a NaN matches any NaN), else what differs."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return "%s vs %s" % (_describe(a), _describe(b))
    if a.dtype != object and a.tobytes() == b.tobytes():
        return None
    same = _same_elements(a, b, nan_aware)
    if same.all():
        return None
    i = int(np.argmin(same))
    index = tuple(int(j) for j in np.unravel_index(i, a.shape))
    return "element %s: %s vs %s" % (index, _text(a.reshape(-1)[i]),
                                     _text(b.reshape(-1)[i]))


def _snapshot(call):
    """Copies of the call's input arrays, to compare after the call."""
    snap = []
    for name, value in call.inputs():
        values = value if isinstance(value, (list, tuple)) else [value]
        for j, v in enumerate(values):
            if isinstance(v, np.ndarray):
                label = "'%s'" % name if values is not value else \
                    "'%s'[%d]" % (name, j)
                snap.append((label, v, v.copy()))
    return snap


def _check_unmodified(snap, when):
    for label, array, before in snap:
        diff = _difference(before, array, nan_aware=False)
        if diff is not None:
            raise _Fail("inputs", "the call %s modified input %s: %s "
                        "(before vs after)" % (when, label, diff))


def _run(call, context):
    with context:
        return call.run()


def _check_threads(op, call, flat_one, options):
    snap = _snapshot(call)
    flat_n = op.flatten_outputs(_run(call, options.contexts[1]))
    _check_unmodified(snap, "on %d threads" % _THREADS[1])
    for (label, a), b in zip(flat_one, flat_n):
        diff = _difference(a, b, nan_aware=True)
        if diff is not None:
            raise _Fail("threads", "output %s differs between %d thread "
                        "and %d threads: %s" % (label, _THREADS[0],
                                                _THREADS[1], diff))


def _input_shape(value, is_list):
    if is_list:
        return [list(np.shape(v)) for v in value]
    return list(np.shape(value))


def _inferred(op, call):
    """infer_shapes' answer for the call's input shapes, attrs and the
    values of its integer inputs."""
    shapes, values = [], {}
    bound = call.bound
    for name in op.sig.inputs:
        v = bound.get(name)
        is_list = op.is_list_input(name)
        shapes.append(_input_shape(v, is_list))
        if not is_list:
            a = np.asarray(v)
            if a.dtype in (np.int32, np.int64):
                values[name] = a
    return _opgen.infer_shapes(op.name, shapes, call.attrs(), values=values)


def _shape_mismatch(shape, inferred):
    if inferred is None:
        return False
    return len(shape) != len(inferred) or any(
        d is not None and d != s for s, d in zip(shape, inferred))


def _check_shapes(op, call, flat):
    try:
        inferred = _inferred(op, call)
    except _opgen.OpError as e:
        raise _Fail("shapes", "infer_shapes fails for inputs the kernel "
                    "takes: %s: %s" % (type(e).__name__, e))
    if len(inferred) != len(flat):
        raise _Fail("shapes", "the call gives %d output tensors, "
                    "infer_shapes %d" % (len(flat), len(inferred)))
    for (label, out), shape in zip(flat, inferred):
        actual = list(np.shape(out))
        if _shape_mismatch(actual, shape):
            raise _Fail("shapes", "output %s has shape %s, but infer_shapes "
                        "gives %s" % (label, actual, shape))


def _has_gradient(name):
    has = getattr(_opgen, "has_gradient", None)
    return has(name) if has is not None else None


def _float_sources(op, call):
    """(name, index or None) of each float32/float64 array input: the
    sources the gradient is checked for."""
    sources = []
    for name, value in call.inputs():
        if op.is_list_input(name):
            for j, v in enumerate(value):
                if np.asarray(v).dtype in (np.float32, np.float64):
                    sources.append((name, j))
        elif np.asarray(value).dtype in (np.float32, np.float64):
            sources.append((name, None))
    return sources


def _output_fn(op, call, sources, k):
    """f(*xs): output k of the call with the sources replaced by xs."""
    def f(*xs):
        c = call.copy()
        for (name, j), x in zip(sources, xs):
            if j is None:
                c.bound[name] = x
            else:
                items = list(c.bound[name])
                items[j] = x
                c.bound[name] = items
        return op.flatten_outputs(c.run())[k]
    return f


def _jacobian_failure(label, source, t, n, err, atol, rtol):
    bad = err > atol + rtol * np.abs(n)
    if not bad.any():
        return None
    at = tuple(int(i) for i in np.argwhere(bad)[0])
    return _Fail("gradients", "d output %s / d input %s: Jacobian element "
                 "%s is %s by the tape, %s numerically (max abs error %g; "
                 "atol %g, rtol %g)" % (label, source, at, _text(t[at]),
                                        _text(n[at]), float(err.max()),
                                        atol, rtol))


def _check_gradients(op, call, flat, atol, rtol):
    """The largest Jacobian error over the float outputs, or None when
    the op has no gradient."""
    from ._gradient_check import compute_gradient
    sources = _float_sources(op, call)
    xs = [np.asarray(call.bound[n] if j is None else call.bound[n][j])
          for n, j in sources]
    worst = 0.0
    for k, (label, out) in enumerate(flat):
        if np.asarray(out).dtype not in (np.float32, np.float64):
            continue
        try:
            theoretical, numerical = compute_gradient(
                _output_fn(op, call, sources, k), xs)
        except _opgen.NotFoundError as e:
            if "no gradient" in str(e) and not _has_gradient(op.name):
                return None
            raise _Fail("gradients", "the gradient of output %s fails: "
                        "%s: %s" % (label, type(e).__name__, e), e)
        except Exception as e:  # a gradient function's own failure
            raise _Fail("gradients", "the gradient of output %s fails: "
                        "%s: %s" % (label, type(e).__name__, e), e)
        for (name, j), t, n in zip(sources, theoretical, numerical):
            t, n = np.asarray(t, np.float64), np.asarray(n, np.float64)
            err = np.abs(t - n)
            worst = max(worst, float(err.max()) if err.size else 0.0)
            source = "'%s'" % name if j is None else "'%s'[%d]" % (name, j)
            failure = _jacobian_failure(label, source, t, n, err, atol,
                                        rtol)
            if failure:
                raise failure
    return worst


class _Options:
    """check_op's settings, as the rules read them, and the contexts the
    calls run on (one thread, several)."""

    def __init__(self, atol, rtol, check_gradients, gradient_max_elements):
        self.contexts = [_opgen.Context(threads=n) for n in _THREADS]
        self.atol, self.rtol = atol, rtol
        self.check_gradients = check_gradients
        self.gradient_max_elements = gradient_max_elements

    def tolerance(self, dtype_name):
        atol, rtol = _GRAD_TOLERANCE[dtype_name]
        return (atol if self.atol is None else self.atol,
                rtol if self.rtol is None else self.rtol)

    def gradient_checked(self, op, call, dtype_name):
        """Whether the gradients rule applies to this call: a float32 or
        float64 dtype, an op with a gradient, float inputs of at most
        gradient_max_elements elements in all (the numeric Jacobian
        makes two calls per element)."""
        if not self.check_gradients or dtype_name not in _GRAD_TOLERANCE:
            return False
        sources = _float_sources(op, call)
        size = sum(int(np.size(call.bound[n] if j is None
                               else call.bound[n][j])) for n, j in sources)
        return (bool(sources) and size <= self.gradient_max_elements
                and _has_gradient(op.name) is not False)


def _check_call(op, call, dtype_name, options):
    """Every per-call rule on one call; returns the gradient error (None
    when not checked)."""
    snap = _snapshot(call)
    try:
        flat = op.labelled_outputs(_run(call, options.contexts[0]))
    except _opgen.OpError as e:
        raise _Fail("call", "the call fails: %s: %s"
                    % (type(e).__name__, e), e)
    _check_unmodified(snap, "on %d thread" % _THREADS[0])
    _check_shapes(op, call, flat)
    _check_threads(op, call, flat, options)
    if options.gradient_checked(op, call, dtype_name):
        return _check_gradients(op, call, flat,
                                *options.tolerance(dtype_name))
    return None


def _refusal_dtype(op, allowed):
    """A dtype outside the allowed set that numpy can make, or None."""
    if op.attr is None or not op.attrs[op.attr].get("allowed"):
        return None
    for name in _REFUSAL_ORDER:
        if name not in allowed and _numpy_dtype(name) is not None:
            return name
    return None


def _check_refusal(op, call, name):
    """The call with the checked attr set to dtype `name` must fail with
    InvalidArgumentError naming the op and the attr."""
    bad = call.with_dtype(_numpy_dtype(name))
    try:
        bad.run()
    except _opgen.InvalidArgumentError as e:
        msg = str(e)
        names_attr = re.search(r"\battr '?%s'?(?![\w])" % re.escape(op.attr),
                               msg)
        if op.name not in msg or not names_attr:
            raise _Fail("refusal", "dtype %s is refused, but the message "
                        "does not name op %s and attr %s: %r"
                        % (name, op.name, op.attr, msg), e)
        return
    except Exception as e:  # the wrong kind of refusal is the failure
        raise _Fail("refusal", "dtype %s (not allowed for attr %s) "
                    "raises %s, not InvalidArgumentError: %s"
                    % (name, op.attr, type(e).__name__, e), e)
    raise _Fail("refusal", "dtype %s is not allowed for attr %s, but the "
                "call succeeds" % (name, op.attr))


def _fail(op, dtype_name, trial, f):
    where = "%s=%s" % (op.attr, dtype_name) if op.attr else "no type attr"
    trial_text = ", trial %d" % trial if trial is not None else ""
    return CheckOpError("check_op %s (%s%s): %s: %s"
                        % (op.name, where, trial_text, f.rule, f.detail))


def _dtypes_to_check(op, dtypes):
    """The runtime names of the dtypes to check: `dtypes` (which the attr
    must allow), else every allowed one."""
    if dtypes is None or op.attr is None:
        return op.allowed()
    names = [_runtime_name(d) for d in dtypes]
    allowed = op.attrs[op.attr].get("allowed")
    outside = [n for n in names if allowed and n not in allowed]
    if outside:
        raise ValueError("check_op: %s: attr %s does not allow %s"
                         % (op.name, op.attr, ", ".join(outside)))
    return names


def _no_kernel(e):
    return isinstance(e, _opgen.UnimplementedError) and \
        "no kernel" in str(e)


def check_op(op, args=(), kwargs=None, *, sample=None, dtypes=None,
             trials=3, seed=0, atol=None, rtol=None, check_gradients=True,
             gradient_max_elements=512):
    """Checks an op function (opgen.ops.zero_out, lib.my_op) the way
    torch.library.opcheck checks a PyTorch op: for every allowed dtype of
    the type attr that drives its inputs (`dtypes` narrows them) and
    `trials` calls with arguments from sample(rng, dtype) -> (args,
    kwargs) (without `sample`: `args` and `kwargs` cast to each dtype,
    one call), the output shapes are infer_shapes', the inputs stay
    unchanged, one and four threads agree bit for bit, and registered
    gradients match numeric ones (float32/float64, within atol + rtol *
    |numeric|); then a dtype outside the allowed set must be refused
    with InvalidArgumentError naming the op and the attr.

    Raises CheckOpError (an AssertionError) naming the op, dtype, trial,
    rule and values on the first failure; returns a dict of what ran.
    See docs/python.md, "Testing an op"."""
    op = _Op(op)
    if trials < 1:
        raise ValueError("check_op: trials must be at least 1, not %r"
                         % (trials,))
    options = _Options(atol, rtol, check_gradients, gradient_max_elements)
    rng = np.random.default_rng(seed)
    report = {"op": op.name, "attr": op.attr, "dtypes": [], "skipped": {},
              "calls": 0, "refused": None, "gradients": {}}
    last_call = None
    for name in _dtypes_to_check(op, dtypes):
        dtype = _numpy_dtype(name) if name is not None else None
        if name is not None and dtype is None:
            report["skipped"][name] = "no numpy dtype"
            continue
        calls = [_Call(op, *sample(rng, dtype)) for _ in range(trials)] \
            if sample is not None else [_Call(op, args, kwargs)]
        if dtype is not None:
            calls = [c.with_dtype(dtype) for c in calls]
        if _check_dtype(op, name, calls, options, report):
            last_call = calls[-1]
    if last_call is None:
        raise CheckOpError("check_op %s: no dtype could be checked (%s)"
                           % (op.name, report["skipped"]))
    refusal = _refusal_dtype(op, op.allowed())
    if refusal is not None:
        try:
            _check_refusal(op, last_call, refusal)
        except _Fail as f:
            raise _fail(op, refusal, None, f) from f.error
        report["refused"] = refusal
    return report


def _check_dtype(op, name, calls, options, report):
    """The calls of one dtype; False when it was skipped (no kernel)."""
    for trial, call in enumerate(calls):
        try:
            err = _check_call(op, call, name, options)
        except _Fail as f:
            if trial == 0 and f.rule == "call" and _no_kernel(f.error):
                report["skipped"][name] = "no CPU kernel"
                return False
            raise _fail(op, name, trial, f) from f.error
        report["calls"] += 1
        if err is not None:
            report["gradients"][name] = max(err, report["gradients"].get(
                name, 0.0))
    if name is not None:
        report["dtypes"].append(name)
    return True
