"""The cost of calling an op from Python (BENCHMARKS.md, "Python calls"):
opgen.ops.example(x) on a one-element float32 array, beside numpy doing
the same work and a plain Python call.

    PYTHONPATH=build-bench/python .venv/bin/python3 tests/bench/bench_python.py [--quick]

Each round runs a batch of calls of every row in turn; a row's figure is
its best batch (ns per call), so that a busy machine slows the rows alike
and some batches run without being preempted. Goal: opgen.ops.example(x)
in at most 1 us.
"""
import argparse
import os
import platform
import sys
import timeit

import numpy as np

import opgen

GOAL_NS = 1000.0


def noop(x):
    return x


def rows():
    """(label, statement, its globals): the measured calls."""
    x = np.ones(1, dtype=np.float32)
    example = opgen.ops.example
    g = {"x": x, "example": example, "np": np, "noop": noop,
         "zero_out": opgen.ops.zero_out, "xl": [1.0], "xs": 1.0}
    return [
        ("opgen.ops.example(x)", "example(x)", g),
        ("opgen.ops.example(input=x)", "example(input=x)", g),
        ("opgen.ops.zero_out(x)", "zero_out(x)", g),
        ("opgen.ops.example([1.0]) (list in)", "example(xl)", g),
        ("opgen.ops.example(1.0) (scalar in)", "example(xs)", g),
        ("numpy: x * 2", "x * 2", g),
        ("numpy: np.multiply(x, 2)", "np.multiply(x, 2)", g),
        ("numpy: np.add(x, x)", "np.add(x, x)", g),
        ("Python: a function returning x", "noop(x)", g),
    ]


def measure(table, rounds, number):
    timers = [(label, timeit.Timer(stmt, globals=g))
              for label, stmt, g in table]
    best = {label: float("inf") for label, _ in timers}
    for _ in range(rounds):
        for label, t in timers:
            ns = t.timeit(number) / number * 1e9
            best[label] = min(best[label], ns)
    return best


def machine():
    load = " ".join("%.2f" % v for v in os.getloadavg())
    return ("%s, %d CPUs, load average %s; Python %s, numpy %s; opgen from %s"
            % (platform.machine(), os.cpu_count() or 0, load,
               platform.python_version(), np.__version__,
               os.path.dirname(opgen.__file__)))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="fewer rounds (a check that it runs)")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--number", type=int, default=20000,
                    help="calls per batch (default 20000)")
    args = ap.parse_args(argv)
    rounds = args.rounds or (5 if args.quick else 51)
    table = rows()
    print("opgen Python calls: one-element float32 tensor")
    print("  before: " + machine())
    best = measure(table, rounds, args.number)
    print("  after:  " + machine())
    print("  best batch of %d calls, %d rounds; ns per call"
          % (args.number, rounds))
    for label, _, _ in table:
        line = "  %-40s %8.1f ns/call" % (label, best[label])
        if label == table[0][0]:
            line += "   goal <= %.0f ns: %.2fx of goal" % (
                GOAL_NS, best[label] / GOAL_NS)
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
