#!/usr/bin/env python3
"""Runs TensorFlow's shape test cases through the reference evaluator.

For every op of shape_cases.json with a statement file
tests/shape/tf/<Op>.shape, evaluates every case and prints each
disagreement, then a summary. Exit status 1 on any disagreement (or a
statement file with a spec error), 2 on a usage or setup error.

  run_cases.py [--op NAME] [-v] [--opgen PATH] [--corpus DIR] [--dir DIR]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # others run it from this tree, read-only
sys.path.insert(0, HERE)
REPO = os.path.normpath(os.path.join(HERE, '..', '..', '..'))


def _default(rel):
    """rel under the current directory (a repository root, e.g. another
    worktree) when it exists there, else under this script's tree."""
    return rel if os.path.exists(rel) else os.path.join(REPO, rel)

from shape_ref import Program, ShapeError, SpecError, parse  # noqa: E402
import case_map as cm  # noqa: E402


def load_ops(opgen, pbtxt):
    """name -> OpDef JSON, from opgen import-tf and opgen dump."""
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([opgen, 'import-tf', pbtxt, '-o', tmp],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("opgen import-tf failed:\n" + r.stderr[-2000:])
        files = [os.path.join(tmp, f) for f in sorted(os.listdir(tmp))]
        r = subprocess.run([opgen, 'dump'] + files, capture_output=True,
                           text=True)
        if r.returncode != 0:
            sys.exit("opgen dump failed:\n" + r.stderr[-2000:])
    return {o['name']: o for o in json.loads(r.stdout)['ops']}


def run_case(prog, opdef, case):
    """(agrees, got text, message)."""
    c, flat = cm.build_case(opdef, case)
    try:
        outs = prog.run(c)
    except ShapeError as e:
        return case['kind'] == 'error', 'error', str(e)
    except SpecError as e:
        return False, 'spec error', str(e)
    got = cm.flatten(opdef, outs)
    text = ';'.join(cm.fmt_shape(s) for s in got)
    if case['kind'] == 'error':
        return False, text, ''
    return cm.outputs_agree(case['outputs'], got, flat), text, ''


def describe(case):
    s = "inputs %s" % case['inputs']
    if case.get('input_tensors'):
        vals = ["%d=%s" % (i, t['values'])
                for i, t in enumerate(case['input_tensors']) if t]
        s += " values " + ' '.join(vals)
    if case['attrs']:
        s += " attrs " + json.dumps(case['attrs'], sort_keys=True)
    return s


def run_op(name, text, opdef, cases, verbose, out):
    """Returns (cases agreeing, cases run, disagreement lines)."""
    try:
        prog = Program(parse(text), cm.op_info(opdef))
    except SpecError as e:
        out.append("%s: spec error: %s" % (name, e))
        return 0, len(cases), 1
    ok = bad = 0
    for case in cases:
        if (name, case['line']) in cm.CONTRADICTORY:
            if verbose:
                print("%s line %d: left out (its input value contradicts "
                      "the input's shape)" % (name, case['line']))
            continue
        agrees, got, msg = run_case(prog, opdef, case)
        want = case.get('outputs') if case['kind'] == 'ok' else 'error'
        if agrees:
            ok += 1
            if verbose:
                print("%s line %d: ok (%s)" % (name, case['line'], got))
            continue
        bad += 1
        out.append("%s line %d: %s: expected %s, got %s%s"
                   % (name, case['line'], describe(case), want, got,
                      " (%s)" % msg if msg else ''))
    return ok, ok + bad, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--op', help='run only this op')
    ap.add_argument('-v', '--verbose', action='store_true')
    ap.add_argument('--opgen', default=os.environ.get(
        'OPGEN_BIN', _default(os.path.join('build', 'bin', 'opgen'))))
    ap.add_argument('--corpus', default=_default(os.path.join(
        '..', 'shared', 'corpus')))
    ap.add_argument('--dir', default=_default(os.path.join(
        'tests', 'shape', 'tf')),
                    help='directory of the <Op>.shape statement files '
                    '(default: tests/shape/tf of the current directory, '
                    'else of this script\'s tree)')
    a = ap.parse_args()
    cases_path = os.path.join(a.corpus, 'tf-tests', 'shape_cases.json')
    if not os.path.exists(cases_path):
        print("no corpus at %s: skipped" % a.corpus)
        sys.exit(77)  # CTest's skip code (tests/CMakeLists.txt)
    if not os.access(a.opgen, os.X_OK):
        sys.exit("no opgen at %s (build it, or pass --opgen)" % a.opgen)
    print("statements: %s" % os.path.abspath(a.dir))
    cases = json.load(open(cases_path))['ops']
    ops = load_ops(a.opgen, os.path.join(a.corpus, 'tf-ops.pbtxt'))
    names = [a.op] if a.op else sorted(cases)
    n_files = n_clean = n_ok = n_total = 0
    lines = []
    for name in names:
        path = os.path.join(a.dir, name + '.shape')
        if not os.path.exists(path):
            continue
        n_files += 1
        if name in cm.UNRUNNABLE:
            print("%s: cases not run: %s" % (name, cm.UNRUNNABLE[name]))
            continue
        if name not in ops:
            lines.append("%s: not in the imported ops" % name)
            continue
        ok, total, bad = run_op(name, open(path).read(), ops[name],
                                cases.get(name, []), a.verbose, lines)
        n_ok += ok
        n_total += total
        n_clean += bad == 0
    for f in sorted(os.listdir(a.dir)) if not a.op else []:
        if f.endswith('.shape') and f[:-6] not in cases:
            print("note: %s: no such op among the cases" % f)
    for line in lines:
        print(line)
    skipped = sorted((op, ln) for (op, ln) in cm.CONTRADICTORY
                     if op in names and
                     os.path.exists(os.path.join(a.dir, op + '.shape')))
    if skipped:
        print("left out (an input value contradicts that input's shape): "
              + ', '.join("%s line %d" % c for c in skipped))
    print("summary: %d ops with a statement file, %d with every case "
          "agreeing; %d/%d cases agree (%d contradictory cases left out)"
          % (n_files, n_clean, n_ok, n_total, len(skipped)))
    return 1 if lines else 0


if __name__ == '__main__':
    sys.exit(main())
