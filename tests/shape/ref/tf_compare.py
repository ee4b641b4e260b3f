#!/usr/bin/env python3
"""Compares the reference evaluator with TensorFlow's own shape functions
on the corpus cases of ops with a statement file and on random variations
of them (input dims made unknown, changed, ranks changed, ranks unknown).

Needs a Python with TensorFlow (a scratch virtualenv: TensorFlow is no
dependency of this project and is never installed by it):

  /tmp/tfvenv/bin/python tests/shape/ref/tf_compare.py --op Pad [-n 20]

Prints each difference (inputs, values, attrs, TensorFlow's answer,
the evaluator's) and a summary; exits 1 on any difference. A difference
is a bug in the statements or in the evaluator, or a place where the
contract deliberately differs from TensorFlow."""

import argparse
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)

import case_map as cm  # noqa: E402
import run_cases as rc  # noqa: E402
from shape_ref import Program, ShapeError, parse  # noqa: E402


def tf_setup():
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')
    import tensorflow as tf
    tf.compat.v1.disable_eager_execution()
    return tf


def tf_attr(tf, v):
    k, x = next(iter(v.items()))
    if k == 'type':
        return tf.dtypes.as_dtype(x.lower().replace('dt_', ''))
    if k == 'shape':
        return None if x.get('unknown_rank') else \
            [None if d < 0 else d for d in x['dims']]
    if k == 'list':
        return [tf_attr(tf, e) for e in x]
    return x


def tf_infer(tf, opdef, flat, values, dtypes, attrs):
    """TensorFlow's output shapes (list), or 'error'."""
    g = tf.Graph()
    with g.as_default():
        tensors = []
        for i, s in enumerate(flat):
            dt = tf.dtypes.as_dtype(dtypes[i])
            if values[i] is not None:
                vals, vshape = values[i]
                tensors.append(tf.constant(vals, dtype=dt, shape=vshape))
            else:
                tensors.append(tf.compat.v1.placeholder(dt, shape=s))
        kwargs, pos = {}, 0
        for arg, n in zip(opdef['input_arg'], counts(opdef, flat, attrs)):
            kwargs[arg['name']] = tensors[pos:pos + n] if cm._is_list(arg) \
                else tensors[pos]
            pos += n
        inferred = {a['number_attr'] for a in opdef['input_arg']} | \
            {a['type_attr'] for a in opdef['input_arg']} | \
            {a['type_list_attr'] for a in opdef['input_arg']}
        declared = {x['name'] for x in opdef['attr']}
        for name, v in attrs.items():
            if name in declared and name not in inferred:
                kwargs[name] = tf_attr(tf, v)
        from tensorflow.python.framework import op_def_library
        try:
            # the op's own arg and attr names (tf.raw_ops renames a few)
            op = op_def_library._apply_op_helper(opdef['name'],
                                                 **kwargs)[2]
            out = list(op.outputs)
        except (ValueError, tf.errors.InvalidArgumentError):
            return 'error'  # TensorFlow's shape function rejected it
        except Exception as e:  # the call itself: no verdict
            return 'no verdict (%s: %s)' % (type(e).__name__,
                                            str(e).splitlines()[0][:120])
        outs = out if isinstance(out, (list, tuple)) else [out]
        flat_out = []
        for o in outs:
            for t in (o if isinstance(o, (list, tuple)) else [o]):
                r = t.shape.rank
                flat_out.append(None if r is None else
                                [d if d is not None else None
                                 for d in t.shape.as_list()])
        return flat_out


def counts(opdef, flat, attrs):
    """Tensors per input: lists share what single inputs leave."""
    lists = [a for a in opdef['input_arg'] if cm._is_list(a)]
    single = len(opdef['input_arg']) - len(lists)
    per = (len(flat) - single) // len(lists) if lists else 0
    return [per if cm._is_list(a) else 1 for a in opdef['input_arg']]


def variant(rng, case):
    """A copy of the case with input shapes changed where no value is
    given, values changed or dropped where one is."""
    c = json.loads(json.dumps(case))
    shapes = cm._split_top(c['inputs'], ';') if c['inputs'] else []
    tens = c.get('input_tensors') or []
    out = []
    for i, s in enumerate(shapes):
        if i < len(tens) and tens[i]:
            r = rng.random()
            if r < 0.2:
                tens[i] = None  # the value not known, its shape kept
            elif r < 0.6 and tens[i]['values']:
                vals = tens[i]['values']
                vals[rng.randrange(len(vals))] = rng.randint(-2, 4)
            out.append(s)
            continue
        shp = cm.parse_shape(s)
        r = rng.random()
        if r < 0.15:
            shp = None
        elif shp is None:
            shp = [rng.choice([None, 1, 2, 3]) for _ in range(rng.randint(0, 4))]
        elif r < 0.5:
            shp = [None if rng.random() < 0.5 else d for d in shp]
        elif r < 0.8:
            shp = [rng.choice([d, 0, 1, 2, 3]) for d in shp]
        elif r < 0.9 and shp:
            shp = shp[:-1]
        else:
            shp = shp + [rng.choice([1, 2, 3])]
        out.append(cm.fmt_shape(shp))
    c['inputs'] = ';'.join(out)
    return c


def evaluate(prog, opdef, case):
    c, flat = cm.build_case(opdef, case)
    try:
        return cm.flatten(opdef, prog.run(c)), flat
    except ShapeError:
        return 'error', flat


def arg_dtype(opdef, arg):
    """A dtype the input may take: its fixed type, else its type attr's
    default or first allowed type, else float."""
    if arg['type']:
        return arg['type']
    for a in opdef['attr']:
        if a['name'] == arg['type_attr']:
            return a['default_value'] or (a['allowed_values'] or
                                          ['float'])[0]
    return 'float'


def dtypes_of(opdef, case, nflat):
    dts = []
    for ca in case['input_args'] or []:
        dts += ca.get('dtypes', [])
    if len(dts) != nflat:
        dts = []
        for arg, n in zip(opdef['input_arg'], counts(opdef, [0] * nflat, {})):
            dts += [arg_dtype(opdef, arg)] * n
    tens = case.get('input_tensors') or []
    out = []
    for i in range(nflat):
        d = dts[i] if i < len(dts) else 'float'
        if i < len(tens) and tens[i]:
            d = tens[i]['dtype']
        out.append(d.lower().replace('dt_', ''))
    return out


def fmt(x):
    if isinstance(x, str):
        return x
    return ';'.join(cm.fmt_shape(s) for s in x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--op', action='append', help='op (repeatable)')
    ap.add_argument('-n', type=int, default=10, help='variations per case')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--opgen', default=os.environ.get(
        'OPGEN_BIN', rc._default(os.path.join('build', 'bin', 'opgen'))))
    ap.add_argument('--corpus', default=rc._default(os.path.join(
        '..', 'shared', 'corpus')))
    ap.add_argument('--dir', default=rc._default(os.path.join(
        'tests', 'shape', 'tf')))
    a = ap.parse_args()
    tf = tf_setup()
    cases = json.load(open(os.path.join(
        a.corpus, 'tf-tests', 'shape_cases.json')))['ops']
    ops = rc.load_ops(a.opgen, os.path.join(a.corpus, 'tf-ops.pbtxt'))
    rng = random.Random(a.seed)
    runs = diffs = 0
    for name in a.op or sorted(cases):
        path = os.path.join(a.dir, name + '.shape')
        if not os.path.exists(path) or name in cm.UNRUNNABLE:
            continue
        prog = Program(parse(open(path).read()), cm.op_info(ops[name]))
        for case in cases[name]:
            if (name, case['line']) in cm.CONTRADICTORY:
                continue
            for k in range(a.n + 1):
                v = case if k == 0 else variant(rng, case)
                ours, flat = evaluate(prog, ops[name], v)
                dts = dtypes_of(ops[name], v, len(flat))
                vals = [None] * len(flat)
                for i, t in enumerate(v.get('input_tensors') or []):
                    if t:
                        vals[i] = (t['values'], t['shape'])
                theirs = tf_infer(tf, ops[name], flat, vals, dts, v['attrs'])
                runs += 1
                if theirs != ours:
                    diffs += 1
                    print("%s line %d%s: %s: TensorFlow %s, evaluator %s"
                          % (name, case['line'], '' if k == 0 else
                             ' (variation)', rc.describe(v), fmt(theirs),
                             fmt(ours)))
    print("tf_compare: %d runs, %d differences" % (runs, diffs))
    return 1 if diffs else 0


if __name__ == '__main__':
    sys.exit(main())
