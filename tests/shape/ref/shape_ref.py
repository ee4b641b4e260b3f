"""Reference evaluator of the version-2 shape language.

Follows /work/shared/op-language.md, "The full expression language
(version 2)", literally. Values:
  number     int, or None (unknown); an int "taken directly" from a
             literal, attr or input value is a Raw (an int subclass) so
             that a -1 becoming a dim reads as the unknown dim
  shape      list of dims (int or None), or None (unknown rank)
  condition  True, False or None (undecided)
Errors of a case are ShapeError; errors of the statements, SpecError.

Usage:
  op = OpInfo(...)                       # inputs, outputs, attrs
  prog = Program(parse(text), op)        # checks names and kinds
  outs = prog.run(case)                  # Case: shapes, values, attrs
"""

from shape_parse import SpecError, parse  # noqa: F401 (re-exported)
from shape_kinds import DTYPES, DTYPE_SIZE, Checker
import shape_ops as so
from shape_ops import ShapeError, Raw, to_dim
from eval_shape import eval_shape
from eval_number import eval_number
from eval_cond import eval_cond


class OpInfo:
    """What the statements may name: inputs (name -> is_list), outputs
    (name -> is_list), attrs (name -> type string, e.g. 'list(int)')."""

    def __init__(self, name, inputs, outputs, attrs):
        self.name = name
        self.inputs = dict(inputs)
        self.outputs = dict(outputs)
        self.attrs = dict(attrs)


class Case:
    """One case: per input, a shape (or a list of shapes for a list input)
    and values (list of ints, or None; per tensor for a list input);
    attrs by name (missing: no value); output counts for list outputs."""

    def __init__(self, shapes, values, attrs, out_counts):
        self.shapes = shapes
        self.values = values
        self.attrs = attrs
        self.out_counts = out_counts


class _Missing:
    pass


MISSING = _Missing()


class Tensor:
    """An input tensor as the statements see it."""

    def __init__(self, shape, values, vshape):
        self.values = values
        if values is not None:
            if vshape is None:
                vshape = [len(values)]
            try:
                shape = so.merge_shapes([shape, list(vshape)])
            except ShapeError as e:
                raise ShapeError("input values contradict the input's "
                                 "shape: %s" % e)
        self.shape = shape


class Program:
    def __init__(self, stmts, op):
        self.op = op
        self.stmts = stmts
        self.lets = {}
        self.let_kind = {}
        Checker(op, stmts, self.lets, self.let_kind).check()

    # -- running one case
    def run(self, case):
        """Output shapes: name -> shape, or name -> [shapes] for a list
        output. Raises ShapeError."""
        ev = Evaluator(self, case)
        return ev.run()


class Evaluator:
    def __init__(self, prog, case):
        self.prog = prog
        self.op = prog.op
        self.case = case
        self.inputs = {}
        for name, is_list in self.op.inputs.items():
            shp = case.shapes.get(name)
            val = case.values.get(name)
            if is_list:
                shp = shp if shp is not None else []
                vals = val if val is not None else [None] * len(shp)
                self.inputs[name] = [Tensor(s, v[0] if v else None,
                                            v[1] if v else None)
                                     for s, v in zip(shp, vals)]
            else:
                self.inputs[name] = Tensor(shp, val[0] if val else None,
                                           val[1] if val else None)

    def run(self):
        outs = {}
        env = {}
        for st in self.prog.stmts:
            kind = st[0]
            if kind == 'require':
                if self.cond(st[1], env) is False:
                    raise ShapeError("line %d: requirement failed" % st[-1])
            elif kind == 'shape':
                outs[st[1]] = self.output(st, env)
        result = {}
        for name, is_list in self.op.outputs.items():
            if is_list:
                n = self.out_count(name)
                result[name] = outs.get(name, [None] * n)
            else:
                result[name] = outs.get(name)
        return result

    def out_count(self, name):
        n = self.case.out_counts.get(name)
        if n is None:
            raise ShapeError("the length of list output %s is not known"
                             % name)
        return n

    def output(self, st, env):
        _, name, var, expr, line = st
        if not self.op.outputs[name]:
            return self.shape(expr, env)
        n = self.out_count(name)
        if var is None:
            s = self.shape(expr, env)
            return [None if s is None else list(s) for _ in range(n)]
        res = []
        for i in range(n):
            e2 = dict(env)
            e2[var] = i
            res.append(self.shape(expr, e2))
        return res

    # -- attrs
    def attr_value(self, name):
        if name not in self.op.attrs:
            raise SpecError("%s is not an attr" % name)
        v = self.case.attrs.get(name, MISSING)
        if v is MISSING:
            raise ShapeError("attr %s has no value" % name)
        if isinstance(v, so.BadAttr):
            raise ShapeError("attr %s: %s" % (name, v.msg))
        return v

    def attr_type(self, name):
        return self.op.attrs[name]

    # -- input helpers
    def tensor(self, node, env):
        """The Tensor a name (or list[i]) stands for, or None if the node
        is not an input reference."""
        if node[0] == 'name' and node[1] in self.inputs \
                and node[1] not in env and node[1] not in self.prog.lets:
            t = self.inputs[node[1]]
            if isinstance(t, list):
                return None
            return t
        if node[0] == 'index' and self.is_list_input(node[1], env):
            lst = self.inputs[node[1][1]]
            i = self.number(node[2], env)
            if i is None:
                return 'unknown'
            if i < 0 or i >= len(lst):
                raise ShapeError("%s[%d]: no such tensor (the list has %d)"
                                 % (node[1][1], i, len(lst)))
            return lst[i]
        return None

    def is_list_input(self, node, env):
        return node[0] == 'name' and node[1] not in env \
            and node[1] not in self.prog.lets \
            and self.op.inputs.get(node[1]) is True

    def list_input(self, node, env):
        if not self.is_list_input(node, env):
            raise SpecError("%s is not a list input" % (node,))
        return self.inputs[node[1]]

    def values_of(self, node, env):
        """(values or None, Tensor) for `x` in value(x)."""
        t = self.tensor(node, env)
        if t == 'unknown':
            return None, None
        if t is None:
            raise SpecError("value() of something that is not an input")
        return t.values, t

    # -- let
    def let_body(self, name, args, env):
        params, body = self.prog.lets[name]
        e2 = {}  # a let sees its parameters only (and inputs, attrs, lets)
        if params:
            if len(args) != len(params):
                raise SpecError("%s takes %d arguments" % (name, len(params)))
            for p, a in zip(params, args):
                v = self.number(a, env)
                e2[p] = None if v is None else int(v)
        return body, e2

    def resolve(self, node, env):
        """A parameterless let name replaced by its definition (for the
        places that read integers as written)."""
        while node[0] == 'name' and node[1] not in env \
                and node[1] in self.prog.lets \
                and self.prog.lets[node[1]][0] is None:
            node = self.prog.lets[node[1]][1]
            env = {}
        return node, env

    # -- evaluation by kind
    def shape(self, node, env):
        return eval_shape(self, node, env)

    def number(self, node, env):
        return eval_number(self, node, env)

    def cond(self, node, env):
        return eval_cond(self, node, env)

    def dim(self, node, env):
        return to_dim(self.number(node, env))


__all__ = ['OpInfo', 'Case', 'Program', 'ShapeError', 'SpecError', 'parse',
           'Raw', 'DTYPES', 'DTYPE_SIZE']
