"""Shapes: the first table of op-language.md (version 2)."""

from shape_parse import SpecError
from shape_ops import (ShapeError, Raw, to_dim, axis, merge_dims,
                       merge_shapes, join_shapes, broadcast_shapes, sum_of,
                       is_call, attr_name, loop, tern)


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
        return tern(ev, node, env, ev.shape, join_shapes)
    if k == 'comp':
        gen, st = loop(ev, node[3], node[2], node[4], env)
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
    if is_call(base, 'attr'):
        name = attr_name(base)
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




def _shape_fold(ev, node, env):
    f = node[1]
    gen, st = loop(ev, node[4], node[3], node[5], env)
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
    name = attr_name(('call', 'attr', args))
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
    if is_call(node, 'attr'):
        name = attr_name(node)
        if ev.attr_type(name) == 'list(int)':
            return [int(x) for x in ev.attr_value(name)], None
    if is_call(node, 'value'):
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
    if r == 0:  # TensorFlow's ConcatV2: scalars never concatenate
        raise ShapeError("concat(): the tensors are scalars")
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
