"""Maps TensorFlow's shape test cases (corpus tf-tests/shape_cases.json,
format in the corpus README) onto an op as `opgen dump` describes it, and
checks results against the expected outputs."""

import re

from shape_ops import BadAttr
from shape_ref import Case, OpInfo
from shape_kinds import CANONICAL, dtype_code

# The six cases whose input value contradicts that input's shape (corpus
# README): a caller cannot pass such a value.
CONTRADICTORY = {
    ('ConcatV2', 939), ('Reshape', 1012), ('Reshape', 1014),
    ('SpaceToBatchND', 1552), ('SparseSegmentMeanGrad', 400),
    ('Transpose', 1106),
}
# Ops whose cases cannot be run (corpus README).
UNRUNNABLE = {'Const': "its cases carry no tensor value (corpus README)"}


def _is_list(arg):
    return bool(arg['number_attr'] or arg['type_list_attr'])


def op_info(opdef):
    return OpInfo(opdef['name'],
                  [(a['name'], _is_list(a)) for a in opdef['input_arg']],
                  [(a['name'], _is_list(a)) for a in opdef['output_arg']],
                  [(a['name'], a['type']) for a in opdef['attr']])


def parse_shape(text):
    text = text.strip()
    if text == '?':
        return None
    if not (text.startswith('[') and text.endswith(']')):
        raise ValueError("bad shape %r" % text)
    body = text[1:-1].strip()
    if not body:
        return []
    return [None if d.strip() == '?' else int(d) for d in body.split(',')]


def _split_top(text, sep):
    out, depth, cur = [], 0, ''
    for ch in text:
        if ch == '[':
            depth += 1
        elif ch == ']':
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += ch
    out.append(cur)
    return out


def _norm_shape(v):
    if v is None or v.get('unknown_rank'):
        return None
    return [None if d < 0 else d for d in v.get('dims', [])]


def _elem(t, v):
    """One case attr value of declared type t, or a BadAttr."""
    key = {'int': 'i', 'bool': 'b', 'string': 's', 'type': 'type',
           'shape': 'shape', 'tensor': 'tensor', 'float': 'f'}.get(t)
    if key is None or key not in v:
        return BadAttr("a value of another type than %s" % t)
    x = v[key]
    if t == 'type':
        return CANONICAL[dtype_code(x)]
    if t == 'shape':
        return _norm_shape(x)
    if t == 'tensor':
        shp = x.get('shape')
        dims = shp.get('dims', shp) if isinstance(shp, dict) else shp
        return {'shape': dims, 'values': x.get('values')}
    return x


def attr_value(t, v):
    if t.startswith('list('):
        inner = t[5:-1]
        if 'list' not in v:
            return BadAttr("a value that is not a list")
        lst = v['list']
        if isinstance(lst, dict):
            key = {'int': 'i', 'bool': 'b', 'string': 's', 'type': 'type',
                   'shape': 'shape', 'float': 'f'}[inner]
            lst = [{key: e} for e in lst.get(key, [])]
        out = [_elem(inner, e) for e in lst]
        bad = [e for e in out if isinstance(e, BadAttr)]
        return bad[0] if bad else out
    return _elem(t, v)


def default_value(t, d):
    if d is None:
        return None
    if t == 'shape':
        return _norm_shape(d)
    if t == 'list(shape)':
        return [_norm_shape(x) for x in d]
    if t == 'tensor':
        return {'shape': d.get('shape'), 'values': d.get('values')}
    return d


def build_case(opdef, case):
    """(Case, flat input shapes) for one case of op `opdef`."""
    flat = [parse_shape(s) for s in _split_top(case['inputs'], ';')] \
        if case['inputs'] else []
    tens = case.get('input_tensors') or []
    args = case['input_args'] or [{'list': False}] * len(opdef['input_arg'])
    shapes, values, attrs = {}, {}, {}
    for a in opdef['attr']:
        if a['default_value'] is not None:
            attrs[a['name']] = default_value(a['type'], a['default_value'])
    pos = 0
    for arg, ca in zip(opdef['input_arg'], args):
        n = ca.get('count', 1) if ca.get('list') else 1
        idx = range(pos, pos + n)
        vals = [_tensor_value(tens, i) for i in idx]
        if _is_list(arg):
            shapes[arg['name']] = [flat[i] for i in idx]
            values[arg['name']] = vals
        else:
            shapes[arg['name']] = flat[pos]
            values[arg['name']] = vals[0]
        _infer_attrs(arg, ca, n, attrs)
        pos += n
    types = {a['name']: a['type'] for a in opdef['attr']}
    for name, v in case['attrs'].items():
        if name in types:
            attrs[name] = attr_value(types[name], v)
    counts = {}
    for arg in opdef['output_arg']:
        if arg['number_attr']:
            counts[arg['name']] = attrs.get(arg['number_attr'])
        elif arg['type_list_attr']:
            lst = attrs.get(arg['type_list_attr'])
            counts[arg['name']] = None if lst is None else len(lst)
    return Case(shapes, values, attrs, counts), flat


def _tensor_value(tens, i):
    t = tens[i] if i < len(tens) else None
    if not t:
        return None
    shape = list(t['shape'])
    # The extraction writes some shapes nested ([[2, 2]] for a 2 x 2).
    if len(shape) == 1 and isinstance(shape[0], list):
        shape = list(shape[0])
    return (list(t['values']), shape)


def _infer_attrs(arg, ca, n, attrs):
    dts = [CANONICAL[dtype_code(d)] for d in ca.get('dtypes', [])]
    if arg['number_attr']:
        attrs[arg['number_attr']] = n
    if arg['type_list_attr'] and dts:
        attrs[arg['type_list_attr']] = dts
    if arg['type_attr'] and dts:
        attrs[arg['type_attr']] = dts[0]


# -- expected outputs ----------------------------------------------------------

def _dim_ok(alt, got, flat):
    alt = alt.strip()
    if alt == '?':
        return got is None
    m = re.fullmatch(r'd(\d+)_(\d+)', alt)
    if m:
        s = flat[int(m.group(1))]
        want = None if s is None else s[int(m.group(2))]
        return got == want
    return got == int(alt)


def _shape_ok(spec, got, flat):
    spec = spec.strip()
    m = re.fullmatch(r'in(\d+)', spec)
    if m:
        return got == flat[int(m.group(1))]
    if spec == '?':
        return got is None
    if not (spec.startswith('[') and spec.endswith(']')):
        return False  # not a form the README describes
    if got is None:
        return False
    dims = spec[1:-1].split(',') if spec[1:-1].strip() else []
    if len(dims) != len(got):
        return False
    return all(any(_dim_ok(a, g, flat) for a in d.split('|'))
               for d, g in zip(dims, got))


def outputs_agree(expected, got, flat):
    """expected: the case's `outputs` text; got: flat list of shapes."""
    specs = _split_top(expected, ';')
    if len(specs) != len(got):
        return False
    return all(any(_shape_ok(alt, g, flat) for alt in _split_top(s, '|'))
               for s, g in zip(specs, got))


def flatten(opdef, outs):
    flat = []
    for arg in opdef['output_arg']:
        v = outs[arg['name']]
        if _is_list(arg):
            flat.extend(v)
        else:
            flat.append(v)
    return flat


def fmt_shape(s):
    if s is None:
        return '?'
    return '[' + ','.join('?' if d is None else str(d) for d in s) + ']'
