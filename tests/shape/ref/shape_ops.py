"""What the three evaluators share: values (Raw, dims), axes, merging,
joining and broadcasting, arithmetic limits, and helpers on nodes.
`ev` is the Evaluator of shape_ref.py."""

from shape_parse import SpecError
from shape_kinds import static_kind

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


class ShapeError(Exception):
    """The op's error for one case."""


class BadAttr:
    """A case attr whose value does not have the attr's type."""

    def __init__(self, msg):
        self.msg = msg


class Raw(int):
    """An integer taken directly from a literal, an attr or an input value
    (op-language.md, "Numbers"): a -1 becoming a dim is the unknown dim.
    Arithmetic on a Raw gives a plain int (computed)."""


def to_dim(v):
    """A number where it becomes a dim of a shape."""
    if v is None:
        return None
    if v < 0:
        if v == -1 and isinstance(v, Raw):
            return None
        raise ShapeError("negative dim %d" % v)
    return int(v)


def check64(v):
    if v is not None and not INT64_MIN <= v <= INT64_MAX:
        raise ShapeError("arithmetic overflows 64 bits")
    return v


def axis(i, rank, extra=0, what="axis"):
    """Axis i of a known rank: [-rank-extra, rank+extra) counted from the
    end when negative; out of range is an error."""
    lo, hi = -rank - extra, rank + extra
    if i < lo or i >= hi:
        raise ShapeError("%s %d out of range for rank %d" % (what, i, rank))
    return i + rank + extra if i < 0 else i


# -- shape operations -------------------------------------------------------

def merge_dims(dims):
    out = None
    for d in dims:
        if d is None:
            continue
        if out is not None and out != d:
            raise ShapeError("dims %d and %d do not merge" % (out, d))
        out = d
    return out


def merge_shapes(shapes):
    out = None
    for s in shapes:
        if s is None:
            continue
        if out is None:
            out = list(s)
            continue
        if len(out) != len(s):
            raise ShapeError("ranks %d and %d do not merge" % (len(out), len(s)))
        out = [merge_dims([a, b]) for a, b in zip(out, s)]
    return out


def join_shapes(shapes):
    if not shapes or any(s is None for s in shapes):
        return None
    r = len(shapes[0])
    if any(len(s) != r for s in shapes):
        return None
    out = []
    for j in range(r):
        ds = [s[j] for s in shapes]
        out.append(ds[0] if ds[0] is not None and all(d == ds[0] for d in ds)
                   else None)
    return out


def _bcast_dim(x, y):
    if x is None or y is None:
        if x is not None and x > 1:
            return x
        if y is not None and y > 1:
            return y
        if x == 1:
            return y
        if y == 1:
            return x
        return None
    if x == 1:
        return y
    if y == 1 or x == y:
        return x
    raise ShapeError("dims %d and %d do not broadcast" % (x, y))


def broadcast2(a, b):
    if a is None or b is None:
        return None
    r = max(len(a), len(b))
    a = [1] * (r - len(a)) + list(a)
    b = [1] * (r - len(b)) + list(b)
    return [_bcast_dim(x, y) for x, y in zip(a, b)]


def broadcast_shapes(shapes):
    out = []
    unknown = False
    for s in shapes:
        if s is None:
            unknown = True
            continue
        out = broadcast2(out, s)
    return None if unknown else out


def join_numbers(vals):
    if vals and vals[0] is not None and all(v == vals[0] for v in vals):
        return vals[0] if all(isinstance(v, Raw) for v in vals) \
            else int(vals[0])
    return None


def min_numbers(vals):
    if not vals:
        raise ShapeError("min() of no elements")
    known = [v for v in vals if v is not None]
    if len(known) == len(vals):
        return int(min(known))
    if known and min(known) == 0:
        return 0
    return None


def max_numbers(vals):
    if not vals:
        raise ShapeError("max() of no elements")
    if any(v is None for v in vals):
        return None
    return int(max(vals))


def product_of(vals):
    if any(v == 0 for v in vals if v is not None):
        return 0
    if any(v is None for v in vals):
        return None
    p = 1
    for v in vals:
        p = check64(p * v)
    return p


def sum_of(vals):
    if any(v is None for v in vals):
        return None
    return check64(sum(int(v) for v in vals))


# -- helpers on nodes --------------------------------------------------------

def is_call(node, name):
    return node[0] == 'call' and node[1] == name


def attr_name(node):
    if len(node[2]) != 1 or node[2][0][0] != 'name':
        raise SpecError("attr() takes one attr name")
    return node[2][0][1]


def kind_of(ev, node, env):
    return static_kind(node, ev.op, ev.prog.let_kind, set(env))






def loop(ev, n_node, var, cond, env):
    """The k kept by a comprehension: yields (k, env) for each kept k; sets
    state['undecided'] when N is unknown or an `if` is undecided."""
    state = {'undecided': False}
    n = ev.number(n_node, env)

    def gen():
        if n is None:
            state['undecided'] = True
            return
        if n < 0:
            raise ShapeError("a comprehension over %d elements" % n)
        for k in range(n):
            e2 = dict(env)
            e2[var] = k
            if cond is not None:
                c = ev.cond(cond, e2)
                if c is None:
                    state['undecided'] = True
                    continue
                if c is False:
                    continue
            yield e2
    return gen(), state

def tern(ev, node, env, fn, join):
    c = ev.cond(node[1], env)
    if c is True:
        return fn(node[2], env)
    if c is False:
        return fn(node[3], env)
    vals, err = [], None
    for br in (node[2], node[3]):
        try:
            vals.append(fn(br, env))
        except ShapeError as e:
            err = err or e
    if not vals:
        raise err
    return vals[0] if len(vals) == 1 else join(vals)

def dim_of(s, i):
    if s is None or i is None:
        return None
    return s[axis(i, len(s))]
