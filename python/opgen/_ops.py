"""Ops as Python functions: opgen.ops (the shipped ops) and
load_op_library (ops of a library loaded at run time).

Each op is an opgen._opgen.Op, the C function object that makes the call;
this module only names it, gives it a signature and a docstring, and
gathers the functions into module-like objects.
"""
import inspect
import keyword
import os
import sys
import textwrap
import threading
import types

from . import _opgen


def snake_case(op_name):
    """The function name of an op, as TensorFlow's generated Python
    wrappers name it: an underscore before an upper-case letter that
    follows a lower-case one or precedes one (ZeroOut -> zero_out, AddN ->
    add_n, Conv2D -> conv2d, BatchMatMulV2 -> batch_mat_mul_v2); a Python
    keyword gets a trailing underscore."""
    out = []
    last = len(op_name) - 1
    for i, c in enumerate(op_name):
        if c.isupper() and i > 0 and (
                op_name[i - 1].islower()
                or (i < last and op_name[i + 1].islower())):
            out.append("_")
        out.append(c.lower())
    name = "".join(out)
    return name + "_" if keyword.iskeyword(name) else name


# numpy's names of the dtypes whose runtime name differs (type attr
# defaults read back as numpy dtypes; docstrings use the runtime's names).
_RUNTIME_DTYPE_NAMES = {"float32": "float", "float64": "double",
                        "float16": "half", "object": "string",
                        "bytes": "string"}


def _dtype_name(value):
    name = getattr(value, "name", None) or str(value)
    return _RUNTIME_DTYPE_NAMES.get(name, name)


def _python_value(attr_type, value):
    """How a default reads in a docstring."""
    if attr_type == "type":
        return _dtype_name(value)
    if attr_type == "list(type)":
        return "[" + ", ".join(_dtype_name(v) for v in value) + "]"
    return repr(value)


_ATTR_WORDS = {"int": ("an int", "ints"), "float": ("a float", "floats"),
               "bool": ("a bool", "bools"), "string": ("a string", "strings"),
               "type": ("a dtype", "dtypes"),
               "shape": ("a shape (a list of ints, None where unknown)",
                         "shapes"),
               "tensor": ("a tensor", "tensors"),
               "func": ("a function name", "function names")}


def _attr_doc(attr):
    """'An int >= 0. Defaults to 0.' and the like."""
    kind = attr["type"]
    minimum = attr.get("minimum")
    if kind.startswith("list(") and kind.endswith(")"):
        inner = kind[5:-1]
        text = "a list of " + _ATTR_WORDS.get(inner, (inner, inner + "s"))[1]
        if minimum is not None:
            text += " (at least %d)" % minimum
    else:
        text = _ATTR_WORDS.get(kind, ("a " + kind, ""))[0]
        if minimum is not None:
            text += " >= %d" % minimum
    allowed = attr.get("allowed")
    if allowed:
        if "string" in kind:
            text += ", one of " + ", ".join(repr(a) for a in allowed)
        else:
            text += ", one of " + ", ".join(allowed)
    text = text[0].upper() + text[1:] + "."
    if "default" in attr:
        text += " Defaults to %s." % _python_value(kind, attr["default"])
    return text


def _arg_doc(arg, attrs, allowed_types=True):
    """'A tensor of type T, one of float, double, int32.' and the like
    (the types an attr allows are told once, at the input)."""
    if arg.get("type_list_attr"):
        text = "A list of tensors, their types the list %s" % (
            arg["type_list_attr"])
    else:
        if arg.get("type"):
            of_type, allowed = "of type " + arg["type"], None
        else:
            attr = attrs.get(arg.get("type_attr"), {})
            of_type = "of type " + arg["type_attr"]
            allowed = attr.get("allowed") if allowed_types else None
        number = arg.get("number_attr")
        text = ("A list of %s tensors %s" % (number, of_type) if number
                else "A tensor " + of_type)
        if allowed:
            text += ", one of " + ", ".join(allowed)
    if arg.get("is_ref"):
        text += " (a reference)"
    return text + "."


def _entry(name, doc):
    """One entry of Args or Returns, wrapped at 79 columns."""
    return textwrap.fill("%s: %s" % (name, doc), 79, initial_indent="  ",
                         subsequent_indent="    ", break_long_words=False,
                         break_on_hyphens=False)


def op_docstring(op_def, params):
    """The docstring of an op: its summary, then Args (each parameter: an
    input's type, an attr's type, minimum, allowed values and default) and
    Returns (each output)."""
    attrs = {a["name"]: a for a in op_def["attrs"]}
    inputs = {a["name"]: a for a in op_def["inputs"]}
    lines = [op_def.get("summary") or op_def["name"] + ".", ""]
    if params:
        lines.append("Args:")
    for pname, kind, _has_default, _default in params:
        name = pname[:-1] if pname not in attrs and pname not in inputs \
            and pname.endswith("_") else pname
        doc = (_arg_doc(inputs[name], attrs) if kind == "input"
               else _attr_doc(attrs[name]))
        lines.append(_entry(pname, doc))
    if params:
        lines.append("")
    lines.append("Returns:")
    outputs = op_def["outputs"]
    if not outputs:
        lines.append("  None.")
    elif len(outputs) > 1:
        lines.append("  A tuple (%s):" % ", ".join(o["name"] for o in outputs))
    for out in outputs:
        lines.append(_entry(out["name"], _arg_doc(out, attrs, False)))
    return "\n".join(lines) + "\n"


def op_signature(params):
    """inspect.Signature of an op from its C function's _params: inputs,
    then required attrs, then attrs with defaults, each positional or
    keyword."""
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return inspect.Signature([
        inspect.Parameter(name, kind, default=default if has_default
                          else inspect.Parameter.empty)
        for name, _role, has_default, default in params])


def make_op_function(op_name, module_name):
    """The Python function of a registered op: an opgen._opgen.Op with its
    name, signature and docstring."""
    fn = _opgen.Op(op_name)
    name = snake_case(op_name)
    fn.__name__ = name
    fn.__qualname__ = name
    fn.__module__ = module_name
    params = tuple(fn._params)
    fn.__signature__ = op_signature(params)
    fn.__doc__ = op_docstring(fn.op_def, params)
    return fn


class OpLibrary(types.ModuleType):
    """A set of ops as a module: attributes are the op functions (snake
    case). opgen.ops is one; load_op_library returns one per library."""

    def __init__(self, name, doc, op_names, path=None):
        super().__init__(name, doc)
        functions = [make_op_function(op, name) for op in op_names]
        for fn in functions:
            setattr(self, fn.__name__, fn)
        self.__all__ = sorted(fn.__name__ for fn in functions)
        if path is not None:
            self.__file__ = path

    def __getattr__(self, attr):
        # Only reached for a missing attribute; says which name an op
        # given by its op name goes under.
        msg = "module %r has no attribute %r" % (self.__name__, attr)
        if not attr.startswith("__") and snake_case(attr) in self.__all__:
            msg += " (op %s is %s)" % (attr, snake_case(attr))
        raise AttributeError(msg)

    def __repr__(self):
        where = getattr(self, "__file__", None)
        return "<op library %r%s>" % (
            self.__name__, " from %r" % where if where else "")


def _shipped_ops():
    mod = OpLibrary("opgen.ops", "The ops that ship with opgen.",
                    _opgen.shipped_ops())
    sys.modules.setdefault("opgen.ops", mod)
    return mod


ops = _shipped_ops()

_libraries_lock = threading.Lock()
_libraries_by_path = {}  # realpath -> OpLibrary
_libraries_by_name = {}  # the runtime's library name -> OpLibrary


def load_op_library(path):
    """Loads the op library at `path` (as tf.load_op_library does) and
    returns a module whose functions are its ops, in snake case. Loading
    the same library again (the same file, or a library of the same name)
    returns the same object. A library that fails to load raises the
    runtime's error (opgen.NotFoundError, opgen.InvalidArgumentError,
    ...) with its message."""
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    with _libraries_lock:
        real = os.path.realpath(path) if "/" in path else None
        lib = _libraries_by_path.get(real)
        if lib is not None:
            return lib
        name, loaded_path, op_names = _opgen.load_library(path)
        lib = _libraries_by_name.get(name)
        if lib is None:
            lib = OpLibrary(name, "The ops of op library %s." % name,
                            op_names, loaded_path)
            _libraries_by_name[name] = lib
        if real is not None:
            _libraries_by_path[real] = lib
        return lib
