#!/usr/bin/env python3
"""Self-test of the reference evaluator: one check per rule of the
contract (op-language.md, version 2). Run: python3 test_shape_ref.py"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from shape_ref import Case, OpInfo, Program, ShapeError, SpecError, parse  # noqa

OP = OpInfo('T', [('x', False), ('y', False), ('v', False), ('l', True)],
            [('out', False), ('outs', True)],
            [('n', 'int'), ('m', 'int'), ('ints', 'list(int)'), ('b', 'bool'),
             ('s', 'string'), ('t', 'type'), ('sh', 'shape'),
             ('shs', 'list(shape)'), ('none', 'int')])
ERR = 'error'
FAILS = []


def run(stmts, x=None, y=None, v=None, vals=None, l=(), attrs=None,
        out='out'):
    a = {'n': -1, 'm': 2, 'ints': [1, -1, 0], 'b': True, 's': 'NHWC',
         't': 'int32', 'sh': [2, None], 'shs': [[1], None]}
    a.update(attrs or {})
    c = Case({'x': x, 'y': y, 'v': v, 'l': list(l)},
             {'v': (vals, v) if vals is not None else None,
              'l': [None] * len(l)}, a, {'outs': 2})
    try:
        return Program(parse(stmts), OP).run(c)[out]
    except ShapeError:
        return ERR


def check(name, stmts, want, **kw):
    try:
        got = run(stmts, **kw)
    except SpecError as e:
        got = 'spec: %s' % e
    if want == 'spec' and str(got).startswith('spec'):
        return
    if got != want:
        FAILS.append("%s: %s -> %r, want %r" % (name, stmts, got, want))


def spec_error(name, stmts):
    try:
        Program(parse(stmts), OP)
    except SpecError:
        return
    FAILS.append("%s: no spec error for %s" % (name, stmts))


# numbers: -1 taken directly is the unknown dim; computed -1 is an error
check('literal -1', 'shape out = [-1, -(1), 3];', [None, None, 3])
check('attr -1', 'shape out = [attr(n)];', [None])
check('-attr', 'shape out = [-attr(m)];', ERR)
check('computed -1', 'shape out = [dim(x, 0) - 6];', ERR, x=[5])
check('computed ok', 'shape out = [dim(x, 0) - 4];', [1], x=[5])
check('attr list elem', 'shape out = [attr(ints)[1]];', [None])
check('value elem', 'shape out = [value(v)[0], value(v)[1]];', [None, 4],
      v=[2], vals=[-1, 4])
check('let keeps direct', 'let a = attr(n); shape out = [a];', [None])
check('param computed', 'let f(p) = p; shape out = [f(-1)];', ERR)
check('ternary direct', 'shape out = [attr(b) ? -1 : 2];', [None])
check('undecided ternary direct', 'shape out = [dim(x,0) == 1 ? -1 : -1];',
      [None], x=[None])
check('negative intermediate', 'shape out = [attr(n) + rank(x)];', [1],
      x=[3, 3])
check('-2 as dim', 'shape out = [attr(n) - 1];', ERR)
check('overflow', 'shape out = [9223372036854775807 + 1];', ERR)
# multiplication, division
check('0 * ?', 'shape out = [0 * dim(x, 0), dim(x, 0) * 1, 2 * ?];',
      [0, None, None], x=[None])
check('exact div', 'shape out = [dim(x, 0) / 2];', ERR, x=[5])
check('div by 0', 'shape out = [dim(x, 0) / 0];', ERR, x=[None])
check('mod', 'shape out = [(0 - 1) % 4, ceil_div(7, 2), ceil_div(0-7, 2)];',
      ERR)
check('mod ok', 'shape out = [(0 - 1) % 4, ceil_div(7, 2)];', [3, 4])
check('min', 'shape out = [min(0, ?), min(2, ?), max(1, ?), min(3, 1)];',
      [0, None, None, 1])
check('merge num', 'shape out = [merge(dim(x, 0), 3)];', [3], x=[None])
check('merge num err', 'shape out = [merge(dim(x, 0), 3)];', ERR, x=[2])
check('join num', 'shape out = [join(3, 3), join(3, 4)];', [3, None])
# axes
check('axis neg', 'shape out = [dim(x, -1)];', [4], x=[3, 4])
check('axis out', 'shape out = [dim(x, 2)];', ERR, x=[3, 4])
check('axis unknown rank', 'shape out = [dim(x, 7)];', [None])
check('set unknown pos', 'shape out = set(x, dim(y, 0), 1);',
      [None, None], x=[3, 4], y=[None])
check('insert end', 'shape out = insert(x, -1, 7);', [3, 4, 7], x=[3, 4])
check('insert out', 'shape out = insert(x, 3, 7);', ERR, x=[3, 4])
check('remove', 'shape out = remove(x, 0);', [4], x=[3, 4])
# slices and ++
check('slice', 'shape out = x[1:] ++ x[:-2] ++ x[3:1];', [4, 5, 3], x=[3, 4, 5])
check('slice rank1', 'shape out = x[:-2];', [], x=[3])
check('slice unknown', 'shape out = x[1:];', None)
check('slice unknown bound', 'shape out = x[dim(y, 0):];', None,
      x=[1], y=[None])
check('++ unknown', 'shape out = x ++ [1];', None)
# merge / join / broadcast
check('merge shapes', 'shape out = merge(x, [?, 3]);', [2, 3], x=[2, None])
check('merge ranks', 'shape out = merge(x, [3]);', ERR, x=[2, None])
check('join shapes', 'shape out = join(x, [2, 4]);', [2, None], x=[2, 3])
check('join ranks', 'shape out = join(x, [2]);', None, x=[2, 3])
check('broadcast', 'shape out = broadcast(x, y);', [5, None, 3],
      x=[5, 1, None], y=[None, 3])
check('broadcast err', 'shape out = broadcast(x, y);', ERR, x=[2], y=[3])
check('broadcast ?', 'shape out = broadcast(x, y);', None, x=[2])
# conditions, laziness
check('and lazy', 'require !(rank(x) == 1 && dim(x, 5) == 1); shape out = x;',
      [1, 2], x=[1, 2])
check('and undecided evaluates right',
      'require dim(y, 0) == 1 && dim(x, 5) == 1; shape out = [];', ERR,
      x=[1], y=[None])
check('or lazy', 'require rank(x) == 2 || dim(x, 5) == 1; shape out = [];',
      [], x=[1, 2])
check('ternary lazy', 'shape out = rank(x) == 1 ? [dim(x, 0)] : [dim(x, 1)];',
      [7], x=[7])
check('undecided ternary drops error',
      'shape out = dim(y, 0) == 1 ? [dim(x, 5)] : [dim(x, 0)];', [7],
      x=[7], y=[None])
check('undecided ternary joins',
      'shape out = dim(y, 0) == 1 ? [3, 4] : [3, 5];', [3, None],
      x=[7], y=[None])
check('undecided ternary both fail',
      'shape out = dim(y, 0) == 1 ? [dim(x, 5)] : [dim(x, 6)];', ERR,
      x=[7], y=[None])
check('require undecided passes', 'require dim(x, 0) == 2; shape out = x;',
      None)
check('in', 'require rank(x) in [2, 3]; shape out = [];', ERR, x=[1])
check('string attr', 'shape out = attr(s) == "NHWC" ? [1] : [2];', [1])
check('type attr', 'shape out = attr(t) == int32 ? [1] : [2];', [1])
check('type attr DT', 'shape out = attr(t) != DT_FLOAT ? [1] : [2];', [1])
check('bit', 'shape out = [bit(5, 0) ? 1 : 0, bit(5, 1) ? 1 : 0, '
      'bit(0 - 1, 63) ? 1 : 0];', [1, 0, 1])
check('bit range', 'require bit(5, 64); shape out = [];', ERR)
check('known', 'shape out = [known(x) ? 1 : 0, known(dim(x, 0)) ? 1 : 0, '
      'known(value(v)) ? 1 : 0];', [0, 1, 1], x=[2, None], v=[1], vals=[-1])
check('same', 'require !same(x, [3]); shape out = [];', [], x=[2])
check('no attr value', 'shape out = [attr(none)];', ERR)
# input values
check('value shape', 'shape out = value(v);', [None, 3], v=[2], vals=[-1, 3])
check('value -2', 'shape out = value(v);', ERR, v=[2], vals=[-2, 3])
check('value unknown', 'shape out = value(v);', [None, None], v=[2])
check('value rank', 'shape out = value(v);', ERR, v=[2, 2])
check('value number', 'shape out = [value(v) + 1];', [5], v=[], vals=[4])
check('value number count', 'shape out = [value(v)];', ERR, v=[2],
      vals=[4, 5])
check('value index neg', 'shape out = [value(v)[0 - 1]];', ERR, v=[2])
check('value index past', 'shape out = [value(v)[2]];', ERR, v=[2],
      vals=[1, 2])
check('values carry shape', 'shape out = v;', [2], vals=[1, 2])
check('let value shape', 'let q = value(v); shape out = [q[-1], q[0]];',
      [3, None], v=[2], vals=[-1, 3])
# comprehensions and folds
check('comp', 'shape out = [dim(x, k) * 2 for k < rank(x)];', [2, 4],
      x=[1, 2])
check('comp if', 'shape out = [dim(x, k) for k < rank(x) if dim(x, k) != 1];',
      [2], x=[1, 2])
check('comp if undecided', 'shape out = [dim(x, k) for k < rank(x) '
      'if dim(x, k) != 1];', None, x=[None, 2])
check('comp if undecided still errs',
      'shape out = [dim(x, k + 5) for k < rank(x) if dim(x, k) != 1];', ERR,
      x=[None, 2])
check('comp N unknown', 'shape out = [1 for k < rank(x)];', None)
check('comp N negative', 'shape out = [1 for k < 0 - 1];', ERR)
check('comp lazy body', 'shape out = [dim(x, k) for k < 5 if k < rank(x)];',
      [3], x=[3])
check('folds empty', 'shape out = [sum(1 for k < 0), product(1 for k < 0)]'
      ' ++ merge(x for k < 0);', None)
check('folds empty2', 'shape out = [sum(1 for k < 0), product(1 for k < 0)]'
      ' ++ broadcast(x for k < 0);', [0, 1])
check('min empty', 'shape out = [min(1 for k < 0)];', ERR)
check('product 0 stops', 'shape out = [product((k == 0 ? 0 : dim(x, 9)) '
      'for k < 2)];', [0], x=[1])
check('all of none', 'require all(false_ for k < 0); shape out = [];', 'spec')
check('all false', 'require all(dim(x, k) == 1 for k < rank(x)); '
      'shape out = [];', ERR, x=[None, 2])
check('all undecided', 'require all(dim(x, k) == 1 for k < rank(x)); '
      'shape out = [];', [], x=[None, 1])
check('any true stops', 'require any(k == 0 || dim(x, 9) == 1 for k < 2); '
      'shape out = [];', [], x=[1])
check('nested', 'shape out = [sum(dim(x, j) for j < k + 1) for k < rank(x)];',
      [1, 3, 6], x=[1, 2, 3])
check('fold merge', 'shape out = [merge(dim(x, k) for k < rank(x))];', [2],
      x=[None, 2])
check('fold merge err', 'shape out = [merge(dim(x, k) for k < rank(x))];',
      ERR, x=[3, 2])
check('shape fold', 'shape out = broadcast(x[k:] for k < rank(x));', [1, 3],
      x=[1, 3])
# list inputs and outputs
check('list merge', 'shape out = l;', [2, 3], l=[[2, None], [None, 3]])
check('list index', 'shape out = l[1];', [None, 3], l=[[2, None], [None, 3]])
check('list index past', 'shape out = l[2];', ERR, l=[[2], [3]])
check('length', 'shape out = [length(l), length(attr(ints))];', [2, 3],
      l=[[2], [3]])
check('sum list', 'shape out = [sum(l, 0)];', [5], l=[[2], [3]])
check('concat', 'shape out = concat(l, 0 - 1);', [2, 7],
      l=[[2, 3], [None, 4]])
check('concat axis unknown', 'shape out = concat(l, dim(x, 0));',
      [None, None], l=[[2, 3], None], x=[None])
check('concat axis out', 'shape out = concat(l, 2);', ERR, l=[[2, 3], None])
check('concat of scalars', 'shape out = concat(l, dim(x, 0));', ERR,
      l=[[], None])
check('list output all', 'shape outs = [1];', [[1], [1]], out='outs')
check('list output i', 'shape outs[i] = [rank(l[i])];', [[1], [2]],
      l=[[5], [5, 6]], out='outs')
# attrs
check('shape attr', 'shape out = attr(sh) ++ [attr(sh)[0]];', [2, None, 2])
check('list(int) attr as dims', 'shape out = attr(ints);', [1, None, 0])
check('list(shape) attr', 'shape out = attr(shs)[0] ++ [rank(attr(shs)[1])];',
      [1, None])
check('attr index past', 'shape out = [attr(ints)[3]];', ERR)
check('size_of', 'shape out = [size_of(t), size_of(attr(t))];', [4, 4])
check('size_of string', 'shape out = [size_of(t)];', [0],
      attrs={'t': 'string'})
# reduce, permute, window
check('reduce', 'shape out = reduce(x, attr(ints), attr(b));', [1, 3, 1],
      x=[2, 3, 4], attrs={'ints': [0, -1, 2]})
check('reduce drop', 'shape out = reduce(x, value(v), false_b);', 'spec')
check('reduce drop2', 'shape out = reduce(x, value(v), !attr(b));', [3],
      x=[2, 3, 4], v=[2], vals=[0, -1])
check('reduce unknown axes', 'shape out = reduce(x, value(v), attr(b));',
      [None, None], x=[2, 3], v=[2])
check('reduce unknown axes drop', 'shape out = reduce(x, value(v), !attr(b));',
      None, x=[2, 3], v=[2])
check('reduce axis out', 'shape out = reduce(x, 2, attr(b));', ERR, x=[2, 3])
check('reduce rank 2 axes', 'shape out = reduce(x, value(v), attr(b));', ERR,
      x=[2, 3], v=[1, 1])
check('permute', 'shape out = permute(x, attr(ints));', [4, 3, 2],
      x=[2, 3, 4], attrs={'ints': [2, 1, 0]})
check('permute neg', 'shape out = permute(x, attr(ints));', [4, 3, 2],
      x=[2, 3, 4], attrs={'ints': [-1, 1, 0]})
check('permute len', 'shape out = permute(x, attr(ints));', ERR,
      x=[2, 3], attrs={'ints': [2, 1, 0]})
check('permute unknown rank', 'shape out = permute(x, attr(ints));',
      [None, None, None], attrs={'ints': [2, 1, 0]})
check('permute out', 'shape out = permute(x, attr(ints));', ERR,
      attrs={'ints': [3, 1, 0]})
check('permute perm unknown', 'shape out = permute(x, value(v));',
      [None, None], x=[2, 3], v=[2])
check('window', 'shape out = [window(10, 3, 2, 1, "VALID"), '
      'window(10, 3, 2, 1, "SAME"), window(10, 3, 1, 2, "VALID")];',
      [4, 5, 6])
check('window small', 'shape out = [window(2, 3, 1, 1, "VALID")];', ERR)
check('window explicit', 'shape out = [window(2, 3, 1, 1, "EXPLICIT")];', ERR)
check('window stride', 'shape out = [window(?, 3, 0, 1, "SAME")];', ERR)
check('product', 'shape out = [product(x), product(y)];', [0, None],
      x=[None, 0], y=[None, 2])
check('unknown(n)', 'shape out = unknown(2) ++ unknown(rank(x));', None)
check('unknown neg', 'shape out = unknown(0 - 1);', ERR)
check('require keeps shape', 'require rank(x) == 2; shape out = x;', None)
# syntax
check('ternary chain', 'shape out = [rank(x) == 1 ? 1 : rank(x) == 2 ? 2 : 3];',
      [2], x=[1, 1])
check('? operand', 'shape out = [rank(x) == 1 ? ? : 1];', [None], x=[1])
check('minus is an operator', 'shape out = [dim(x, 0)-1, dim(x,-1)];', [4, 5],
      x=[5])
check('precedence', 'shape out = [1 + 2 * 3, (1 + 2) * 3, 7 - 2 - 1];',
      [7, 9, 4])
check('comments', 'shape out = /* c */ [1]; // d', [1])
# spec errors
spec_error('let reuse', 'let a = 1; let a = 2;')
spec_error('let input', 'let x = 1;')
spec_error('let form', 'let dim = 1;')
spec_error('let dtype', 'let int32 = 1;')
spec_error('use before let', 'shape out = [a]; let a = 1;')
spec_error('use before let call', 'shape out = [f(1)]; let f(p) = p;')
spec_error('arg count', 'let f(p) = p; shape out = [f(1, 2)];')
spec_error('bare ?', 'let a = ?;')
spec_error('shadow', 'shape out = [k for k < 2 if any(k == 1 for k < 2)];')
spec_error('shadow input', 'shape out = [1 for x < 2];')
spec_error('two statements', 'shape out = x; shape out = y;')
spec_error('chain', 'require 1 < 2 == 3;')
spec_error('unknown name', 'shape out = z;')
spec_error('number as shape', 'shape out = 3;')
spec_error('shape as number', 'shape out = [x];')
spec_error('number as condition', 'require dim(x, 0);')
spec_error('condition as number', 'shape out = [rank(x) == 1];')
spec_error('string vs number', 'require attr(s) == 3;')
spec_error('type vs string', 'require attr(t) == "int32";')
spec_error('arity', 'shape out = [dim(x)];')
spec_error('bool attr as number', 'shape out = [attr(b)];')
spec_error('let kind', 'let a = rank(x); shape out = a;')
spec_error('fold body kind', 'require all(dim(x, k) for k < 2);')
spec_error('unknown form', 'shape out = [frob(x)];')
spec_error('no such attr', 'shape out = [attr(zz)];')
spec_error('list output index on single', 'shape out[i] = [1];')

if __name__ == '__main__':
    for f in FAILS:
        print(f)
    print("%d failures" % len(FAILS))
    sys.exit(1 if FAILS else 0)
