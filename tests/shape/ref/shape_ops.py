"""Evaluation of shapes, numbers and conditions (the three tables of
op-language.md, version 2). `ev` is the Evaluator of shape_ref.py."""

from shape_parse import SpecError
from shape_kinds import dtype_code, DTYPE_SIZE, static_kind

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

def _is_call(node, name):
    return node[0] == 'call' and node[1] == name


def _attr_name(node):
    if len(node[2]) != 1 or node[2][0][0] != 'name':
        raise SpecError("attr() takes one attr name")
    return node[2][0][1]


def _kind(ev, node, env):
    return static_kind(node, ev.op, ev.prog.let_kind, set(env))


def _let_call(ev, node, env):
    body, e2 = ev.let_body(node[1], node[2], env)
    return body, e2


def _is_let_name(ev, node, env):
    return node[0] == 'name' and node[1] not in env and node[1] in ev.prog.lets


def _loop(ev, n_node, var, cond, env):
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


# -- shapes ------------------------------------------------------------------

def eval_shape(ev, node, env):
    k = node[0]
    if k == 'unk':
        return None
    if k == 'list':
        return [ev.dim(e, env) for e in node[1]]
    if k == 'name':
        return _shape_name(ev, node, env)
    if k == 'index':
        return _shape_index(ev, node, env)
    if k == 'slice':
        return _slice(ev, node, env)
    if k == 'bin' and node[1] == '++':
        a = ev.shape(node[2], env)
        b = ev.shape(node[3], env)
        return None if a is None or b is None else a + b
    if k == 'tern':
        return _tern(ev, node, env, ev.shape, join_shapes)
    if k == 'comp':
        gen, st = _loop(ev, node[3], node[2], node[4], env)
        dims = [ev.dim(node[1], e2) for e2 in gen]
        return None if st['undecided'] else dims
    if k == 'fold':
        return _shape_fold(ev, node, env)
    if k == 'call':
        return _shape_call(ev, node, env)
    raise SpecError("not a shape: %s" % (node,))


def _shape_name(ev, node, env):
    n = node[1]
    if n in env:
        raise SpecError("%s is a number, not a shape" % n)
    if n in ev.prog.lets:
        if ev.prog.let_kind[n] != 'S':
            raise SpecError("%s is not a shape" % n)
        body, e2 = ev.let_body(n, [], env)
        return ev.shape(body, e2)
    t = ev.inputs.get(n)
    if t is None:
        raise SpecError("unknown name %s" % n)
    if isinstance(t, list):
        return merge_shapes([x.shape for x in t])
    return t.shape


def _shape_index(ev, node, env):
    base = node[1]
    if ev.is_list_input(base, env):
        t = ev.tensor(node, env)
        return None if t == 'unknown' else t.shape
    if _is_call(base, 'attr'):
        name = _attr_name(base)
        if ev.attr_type(name) == 'list(shape)':
            lst = ev.attr_value(name)
            i = ev.number(node[2], env)
            if i is None:
                return None
            if i < 0 or i >= len(lst):
                raise ShapeError("attr(%s)[%d]: index out of range" % (name, i))
            return lst[i]
    raise SpecError("indexing gives a number here, not a shape")


def _slice(ev, node, env):
    s = ev.shape(node[1], env)
    a = ev.number(node[2], env) if node[2] is not None else 0
    b = ev.number(node[3], env) if node[3] is not None else None
    if node[3] is not None and b is None:
        return None
    if a is None or s is None:
        return None
    return s[a:b] if b is not None else s[a:]


def _tern(ev, node, env, fn, join):
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


def _shape_fold(ev, node, env):
    f = node[1]
    gen, st = _loop(ev, node[4], node[3], node[5], env)
    shapes = [ev.shape(node[2], e2) for e2 in gen]
    if st['undecided']:
        return None
    if f == 'merge':
        return merge_shapes(shapes) if shapes else None
    if f == 'join':
        return join_shapes(shapes) if shapes else None
    if f == 'broadcast':
        return broadcast_shapes(shapes)
    raise SpecError("%s() is not a shape fold" % f)


def _shape_call(ev, node, env):
    f, args = node[1], node[2]
    if f in ev.prog.lets:
        body, e2 = ev.let_body(f, args, env)
        return ev.shape(body, e2)
    fn = _SHAPE_CALLS.get(f)
    if fn is None:
        raise SpecError("%s() is not a shape" % f)
    return fn(ev, args, env)


def _s_attr(ev, args, env):
    name = _attr_name(('call', 'attr', args))
    t = ev.attr_type(name)
    v = ev.attr_value(name)
    if t == 'shape':
        return None if v is None else list(v)
    if t == 'list(int)':
        return [to_dim(Raw(x)) for x in v]
    if t == 'tensor':
        shp = v.get('shape')
        if shp is None or any(d is None for d in shp):
            raise ShapeError("the shape of attr %s is not fully known" % name)
        return list(shp)
    raise SpecError("attr(%s) of type %s is not a shape" % (name, t))


def _s_value(ev, args, env):
    vals, t = ev.values_of(args[0], env)
    if t is None:
        return None
    if t.shape is not None and len(t.shape) != 1:
        raise ShapeError("value(): rank %d, not 1" % len(t.shape))
    if vals is None:
        if t.shape is None or t.shape[0] is None:
            return None
        return [None] * t.shape[0]
    return [to_dim(Raw(v)) for v in vals]


def _s_unknown(ev, args, env):
    n = ev.number(args[0], env)
    if n is None:
        return None
    if n < 0:
        raise ShapeError("unknown(%d): negative rank" % n)
    return [None] * n


def _s_merge(ev, args, env):
    return merge_shapes([ev.shape(a, env) for a in args])


def _s_join(ev, args, env):
    return join_shapes([ev.shape(a, env) for a in args])


def _s_broadcast(ev, args, env):
    return broadcast_shapes([ev.shape(a, env) for a in args])


def _edit(ev, args, env, extra, fn):
    s = ev.shape(args[0], env)
    i = ev.number(args[1], env)
    d = ev.dim(args[2], env) if len(args) > 2 else None
    if s is None:
        return None
    out_rank = len(s) + (1 if fn == 'insert' else -1 if fn == 'remove' else 0)
    if i is None:
        if out_rank < 0:
            raise ShapeError("remove() from a scalar")
        return [None] * out_rank
    j = axis(i, len(s), extra)
    s = list(s)
    if fn == 'set':
        s[j] = d
    elif fn == 'insert':
        s.insert(j, d)
    else:
        del s[j]
    return s


def _s_set(ev, args, env):
    return _edit(ev, args, env, 0, 'set')


def _s_insert(ev, args, env):
    return _edit(ev, args, env, 1, 'insert')


def _s_remove(ev, args, env):
    return _edit(ev, args, env, 0, 'remove')


def int_list(ev, node, env, allow_number):
    """The integers of a list(int) attr, value(x) (any rank: flattened; with
    its tensor) or (allow_number) a single number. None when not known.
    Returns (ints or None, tensor or None)."""
    node, env2 = ev.resolve(node, env)
    if _is_call(node, 'attr'):
        name = _attr_name(node)
        if ev.attr_type(name) == 'list(int)':
            return [int(x) for x in ev.attr_value(name)], None
    if _is_call(node, 'value'):
        vals, t = ev.values_of(node[2][0], env2)
        return (None if vals is None else [int(v) for v in vals]), t
    if not allow_number:
        raise SpecError("a list(int) attr or value(x) is needed here")
    v = ev.number(node, env2)
    return (None if v is None else [int(v)]), None


def _s_reduce(ev, args, env):
    s = ev.shape(args[0], env)
    keep = ev.cond(args[2], env)
    if keep is None:
        return None
    axes, t = int_list(ev, args[1], env, True)
    if t is not None and t.shape is not None and len(t.shape) > 1:
        raise ShapeError("reduce(): axes of rank %d" % len(t.shape))
    if axes is None:
        return (None if s is None else [None] * len(s)) if keep else None
    if s is None:
        return None
    marked = set(axis(a, len(s)) for a in axes)
    if keep:
        return [1 if j in marked else d for j, d in enumerate(s)]
    return [d for j, d in enumerate(s) if j not in marked]


def _s_permute(ev, args, env):
    s = ev.shape(args[0], env)
    perm, _ = int_list(ev, args[1], env, False)
    if perm is None:
        return None if s is None else [None] * len(s)
    n = len(perm)
    if s is not None and len(s) != n:
        raise ShapeError("permute(): %d entries for rank %d" % (n, len(s)))
    idx = [axis(p, n, 0, "permutation entry") for p in perm]
    if s is None:
        return [None] * n
    return [s[p] for p in idx]


def _s_concat(ev, args, env):
    tensors = ev.list_input(args[0], env)
    node, env2 = ev.resolve(args[1], env)
    ax = ev.number(node, env2)
    shapes = [t.shape for t in tensors]
    ranks = set(len(s) for s in shapes if s is not None)
    if len(ranks) > 1:
        raise ShapeError("concat(): tensors of ranks %s" % sorted(ranks))
    if not ranks:
        return None
    r = ranks.pop()
    if ax is None:
        return [None] * r
    j = axis(ax, r)
    out = []
    for q in range(r):
        ds = [None if s is None else s[q] for s in shapes]
        out.append(sum_of(ds) if q == j else merge_dims(ds))
    return out


_SHAPE_CALLS = {
    'attr': _s_attr, 'value': _s_value, 'unknown': _s_unknown,
    'merge': _s_merge, 'join': _s_join, 'broadcast': _s_broadcast,
    'set': _s_set, 'insert': _s_insert, 'remove': _s_remove,
    'reduce': _s_reduce, 'permute': _s_permute, 'concat': _s_concat,
}


# -- numbers -----------------------------------------------------------------

def eval_number(ev, node, env):
    k = node[0]
    if k == 'int':
        return Raw(node[1])
    if k == 'unk':
        return None
    if k == 'name':
        n = node[1]
        if n in env:
            return env[n]
        if n in ev.prog.lets:
            if ev.prog.let_kind[n] != 'D':
                raise SpecError("%s is not a number" % n)
            body, e2 = ev.let_body(n, [], env)
            return ev.number(body, e2)
        raise SpecError("%s is not a number" % n)
    if k == 'neg':
        v = ev.number(node[1], env)
        if v is None:
            return None
        return Raw(-v) if node[1][0] == 'int' else check64(-int(v))
    if k == 'bin':
        return _arith(ev, node, env)
    if k == 'index':
        return _num_index(ev, node, env)
    if k == 'tern':
        return _tern(ev, node, env, ev.number, join_numbers)
    if k == 'fold':
        return _num_fold(ev, node, env)
    if k == 'call':
        f, args = node[1], node[2]
        if f in ev.prog.lets:
            body, e2 = ev.let_body(f, args, env)
            return ev.number(body, e2)
        fn = _NUM_CALLS.get(f)
        if fn is None:
            raise SpecError("%s() is not a number" % f)
        return fn(ev, args, env)
    raise SpecError("not a number: %s" % (node,))


def _arith(ev, node, env):
    op = node[1]
    if op not in ('+', '-', '*', '/', '%'):
        raise SpecError("%s is not a number operator" % op)
    a = ev.number(node[2], env)
    b = ev.number(node[3], env)
    if op == '*':
        if a == 0 or b == 0:
            return 0
        if a == 1:
            return None if b is None else int(b)
        if b == 1:
            return None if a is None else int(a)
        return None if a is None or b is None else check64(a * b)
    if op in ('/', '%'):
        if b is not None and b <= 0:
            raise ShapeError("division by %d" % b)
        if a is None or b is None:
            return None
        if op == '%':
            return int(a % b)
        if a % b != 0:
            raise ShapeError("%d is not divisible by %d" % (a, b))
        return int(a // b)
    if a is None or b is None:
        return None
    return check64(a + b if op == '+' else a - b)


def dim_of(s, i):
    if s is None or i is None:
        return None
    return s[axis(i, len(s))]


def _num_index(ev, node, env):
    base = node[1]
    if _is_call(base, 'attr'):
        name = _attr_name(base)
        t = ev.attr_type(name)
        if t == 'list(int)':
            lst = ev.attr_value(name)
            i = ev.number(node[2], env)
            if i is None:
                return None
            if i < 0 or i >= len(lst):
                raise ShapeError("attr(%s)[%d]: index out of range" % (name, i))
            return Raw(lst[i])
    if _is_call(base, 'value'):
        vals, t = ev.values_of(base[2][0], env)
        i = ev.number(node[2], env)
        if i is None:
            return None
        if i < 0:
            raise ShapeError("value()[%d]: negative index" % i)
        if vals is None:
            return None
        if i >= len(vals):
            raise ShapeError("value()[%d]: only %d values" % (i, len(vals)))
        return Raw(vals[i])
    if ev.is_list_input(base, env):
        raise SpecError("%s[i] is a shape, not a number" % base[1])
    s = ev.shape(base, env)
    return dim_of(s, ev.number(node[2], env))


def _num_fold(ev, node, env):
    f = node[1]
    if f not in ('sum', 'product', 'min', 'max', 'merge', 'join'):
        raise SpecError("%s() is not a number fold" % f)
    gen, st = _loop(ev, node[4], node[3], node[5], env)
    vals = []
    for e2 in gen:
        v = ev.number(node[2], e2)
        if f == 'merge':
            vals = [merge_dims(vals + [to_dim(v)])]
            continue
        if f == 'product' and v == 0:
            return 0
        vals.append(v)
    if st['undecided']:
        return None
    if f == 'sum':
        return sum_of(vals)
    if f == 'product':
        return product_of(vals)
    if f == 'min':
        return min_numbers(vals)
    if f == 'max':
        return max_numbers(vals)
    if f == 'merge':
        return vals[0] if vals else None
    return join_numbers(vals) if vals else None


def _n_dim(ev, args, env):
    t = ev.tensor(args[0], env)
    if t == 'unknown':
        ev.number(args[1], env)
        return None
    s = ev.shape(args[0], env) if t is None else t.shape
    return dim_of(s, ev.number(args[1], env))


def _n_rank(ev, args, env):
    s = ev.shape(args[0], env)
    return None if s is None else len(s)


def _n_length(ev, args, env):
    a = args[0]
    if _is_call(a, 'attr'):
        name = _attr_name(a)
        if not ev.attr_type(name).startswith('list('):
            raise SpecError("length() of attr %s, not a list" % name)
        return len(ev.attr_value(name))
    return len(ev.list_input(a, env))


def _n_size_of(ev, args, env):
    a = args[0]
    name = a[2][0][1] if a[0] == 'call' else a[1]
    v = ev.attr_value(name)
    return DTYPE_SIZE[dtype_code(v)]


def _n_ceil_div(ev, args, env):
    a = ev.number(args[0], env)
    b = ev.number(args[1], env)
    if b is not None and b <= 0:
        raise ShapeError("ceil_div by %d" % b)
    if a is None or b is None:
        return None
    return int(-(-a // b))


def _n_merge(ev, args, env):
    return merge_dims([ev.dim(a, env) for a in args])


def _n_join(ev, args, env):
    return join_numbers([ev.number(a, env) for a in args])


def _n_min(ev, args, env):
    return min_numbers([ev.number(a, env) for a in args])


def _n_max(ev, args, env):
    return max_numbers([ev.number(a, env) for a in args])


def _n_product(ev, args, env):
    s = ev.shape(args[0], env)
    return None if s is None else product_of(s)


def _n_sum(ev, args, env):
    tensors = ev.list_input(args[0], env)
    i = ev.number(args[1], env)
    ds = [dim_of(t.shape, i) for t in tensors]
    return sum_of(ds)


def _padding(ev, node, env):
    if node[0] == 'str':
        return node[1]
    if _is_call(node, 'attr'):
        return ev.attr_value(_attr_name(node))
    if node[0] == 'name' and ev.op.attrs.get(node[1]) == 'string':
        return ev.attr_value(node[1])
    raise SpecError("window(): padding must be a string attr or literal")


def _n_window(ev, args, env):
    d = ev.number(args[0], env)
    size = ev.number(args[1], env)
    stride = ev.number(args[2], env)
    dil = ev.number(args[3], env)
    pad = _padding(ev, args[4], env)
    if stride is not None and stride < 1:
        raise ShapeError("window(): stride %d" % stride)
    if dil is not None and dil < 1:
        raise ShapeError("window(): dilation %d" % dil)
    if pad == 'SAME':
        return _n_ceil_div_vals(d, stride)
    if pad != 'VALID':
        raise ShapeError("window(): padding %r" % pad)
    if size is None or dil is None:
        return None
    w = check64((size - 1) * dil + 1)
    if d is None:
        return None
    if d < w:
        raise ShapeError("window(): dim %d smaller than the window %d" % (d, w))
    if stride is None:
        return None
    return int((d - w) // stride + 1)


def _n_ceil_div_vals(a, b):
    if a is None or b is None:
        return None
    return int(-(-a // b))


def _n_attr(ev, args, env):
    name = _attr_name(('call', 'attr', args))
    t = ev.attr_type(name)
    if t != 'int':
        raise SpecError("attr(%s) of type %s is not a number" % (name, t))
    return Raw(ev.attr_value(name))


def _n_value(ev, args, env):
    vals, t = ev.values_of(args[0], env)
    if vals is None:
        return None
    if len(vals) != 1:
        raise ShapeError("value() as a number: %d values" % len(vals))
    return Raw(vals[0])


_NUM_CALLS = {
    'dim': _n_dim, 'rank': _n_rank, 'length': _n_length,
    'size_of': _n_size_of, 'ceil_div': _n_ceil_div, 'merge': _n_merge,
    'join': _n_join, 'min': _n_min, 'max': _n_max, 'product': _n_product,
    'sum': _n_sum, 'window': _n_window, 'attr': _n_attr, 'value': _n_value,
}


# -- conditions --------------------------------------------------------------

def _join_conds(vals):
    return vals[0] if all(v == vals[0] for v in vals) else None


def eval_cond(ev, node, env):
    k = node[0]
    if k == 'bin':
        op = node[1]
        if op == '&&':
            a = ev.cond(node[2], env)
            if a is False:
                return False
            b = ev.cond(node[3], env)
            return False if b is False else (True if a and b else None)
        if op == '||':
            a = ev.cond(node[2], env)
            if a is True:
                return True
            b = ev.cond(node[3], env)
            return True if b is True else (False if a is False and b is False
                                           else None)
        return _compare(ev, node, env)
    if k == 'not':
        c = ev.cond(node[1], env)
        return None if c is None else not c
    if k == 'in':
        v = ev.number(node[1], env)
        a = ev.number(node[2], env)
        b = ev.number(node[3], env)
        if v is None or a is None or b is None:
            return None
        return a <= v <= b
    if k == 'tern':
        return _tern(ev, node, env, ev.cond, _join_conds)
    if k == 'name':
        n = node[1]
        if n in ev.prog.lets and n not in env:
            if ev.prog.let_kind[n] != 'C':
                raise SpecError("%s is not a condition" % n)
            body, e2 = ev.let_body(n, [], env)
            return ev.cond(body, e2)
        raise SpecError("%s is not a condition" % n)
    if k == 'fold':
        return _cond_fold(ev, node, env)
    if k == 'call':
        f, args = node[1], node[2]
        if f in ev.prog.lets:
            body, e2 = ev.let_body(f, args, env)
            return ev.cond(body, e2)
        fn = _COND_CALLS.get(f)
        if fn is None:
            raise SpecError("%s() is not a condition" % f)
        return fn(ev, args, env)
    raise SpecError("not a condition: %s" % (node,))


def _compare(ev, node, env):
    op, l, r = node[1], node[2], node[3]
    kl, kr = _kind(ev, l, env), _kind(ev, r, env)
    if 'str' in (kl, kr) or 'type' in (kl, kr):
        if op not in ('==', '!='):
            raise SpecError("strings and types compare with == and != only")
        a, b = _plain(ev, l, env), _plain(ev, r, env)
        return (a == b) if op == '==' else (a != b)
    a = ev.number(l, env)
    b = ev.number(r, env)
    if a is None or b is None:
        return None
    return {'==': a == b, '!=': a != b, '<': a < b, '<=': a <= b,
            '>': a > b, '>=': a >= b}[op]


def _plain(ev, node, env):
    """A string or a dtype (as its enum value) for == and !=."""
    if node[0] == 'str':
        return node[1]
    if node[0] == 'name' and dtype_code(node[1]) is not None:
        return dtype_code(node[1])
    if _is_call(node, 'attr'):
        name = _attr_name(node)
        v = ev.attr_value(name)
        if ev.attr_type(name) == 'type':
            return dtype_code(v)
        return v
    raise SpecError("cannot compare %s with a string or type" % (node,))


def _cond_fold(ev, node, env):
    f = node[1]
    if f not in ('all', 'any'):
        raise SpecError("%s() is not a condition fold" % f)
    decisive = f == 'any'
    gen, st = _loop(ev, node[4], node[3], node[5], env)
    undecided = False
    for e2 in gen:
        c = ev.cond(node[2], e2)
        if c is decisive:
            return decisive
        if c is None:
            undecided = True
    if undecided or st['undecided']:
        return None
    return not decisive


def _c_attr(ev, args, env):
    name = _attr_name(('call', 'attr', args))
    if ev.attr_type(name) != 'bool':
        raise SpecError("attr(%s) is not a bool" % name)
    return bool(ev.attr_value(name))


def _c_known(ev, args, env):
    a = args[0]
    if _is_call(a, 'value'):
        vals, t = ev.values_of(a[2][0], env)
        return vals is not None
    kind = _kind(ev, a, env)
    if kind == 'D':
        return ev.number(a, env) is not None
    if kind in ('S', 'SD'):
        s = ev.shape(a, env)
        return s is not None and all(d is not None for d in s)
    raise SpecError("known() of a %s" % kind)


def _c_same(ev, args, env):
    shapes = [ev.shape(a, env) for a in args]
    try:
        merge_shapes(shapes)
        return True
    except ShapeError:
        return False


def _c_bit(ev, args, env):
    n = ev.number(args[0], env)
    i = ev.number(args[1], env)
    if i is not None and not 0 <= i < 64:
        raise ShapeError("bit(): position %d" % i)
    if n is None or i is None:
        return None
    return bool((int(n) >> int(i)) & 1)


_COND_CALLS = {'attr': _c_attr, 'known': _c_known, 'same': _c_same,
               'bit': _c_bit}
