"""Conditions: the third table of op-language.md (version 2)."""

from shape_parse import SpecError
from shape_kinds import dtype_code
from shape_ops import (ShapeError, merge_shapes, is_call, attr_name, kind_of,
                       loop, tern)


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
        return tern(ev, node, env, ev.cond, _join_conds)
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
    kl, kr = kind_of(ev, l, env), kind_of(ev, r, env)
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
    if is_call(node, 'attr'):
        name = attr_name(node)
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
    gen, st = loop(ev, node[4], node[3], node[5], env)
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
    name = attr_name(('call', 'attr', args))
    if ev.attr_type(name) != 'bool':
        raise SpecError("attr(%s) is not a bool" % name)
    return bool(ev.attr_value(name))


def _c_known(ev, args, env):
    a = args[0]
    if is_call(a, 'value'):
        vals, t = ev.values_of(a[2][0], env)
        return vals is not None
    kind = kind_of(ev, a, env)
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
