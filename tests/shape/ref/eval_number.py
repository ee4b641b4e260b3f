"""Numbers: the second table of op-language.md (version 2)."""

from shape_parse import SpecError
from shape_kinds import dtype_code, DTYPE_SIZE
from shape_ops import (ShapeError, Raw, to_dim, check64, merge_dims,
                       join_numbers, min_numbers, max_numbers, product_of,
                       sum_of, is_call, attr_name, loop, tern, dim_of)


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
        return tern(ev, node, env, ev.number, join_numbers)
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




def _num_index(ev, node, env):
    base = node[1]
    if is_call(base, 'attr'):
        name = attr_name(base)
        t = ev.attr_type(name)
        if t == 'list(int)':
            lst = ev.attr_value(name)
            i = ev.number(node[2], env)
            if i is None:
                return None
            if i < 0 or i >= len(lst):
                raise ShapeError("attr(%s)[%d]: index out of range" % (name, i))
            return Raw(lst[i])
    if is_call(base, 'value'):
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
    gen, st = loop(ev, node[4], node[3], node[5], env)
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
    if is_call(a, 'attr'):
        name = attr_name(a)
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
    if is_call(node, 'attr'):
        return ev.attr_value(attr_name(node))
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
    name = attr_name(('call', 'attr', args))
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
