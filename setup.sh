#!/usr/bin/env bash
# Quick start: install what the build needs and is missing, build, then run
# the main job and print a short summary: check every shipped spec,
# generate their C (compared with the committed generated/), and run the
# demo program (the shipped ops executed on the CPU). CI installs more
# (.ci/install-deps: C++ compilers, clang, valgrind) and runs .ci/run.
set -euo pipefail
cd "$(dirname "$0")"

# The build: CMake, a C compiler and the C library's headers (gcc only
# recommends them), flex, bison, and CMocka (the test suite is configured
# with the rest; building it needs nothing more); Python's headers and
# venv for the Python package (python/).
packages=(cmake make gcc libc6-dev flex bison libcmocka-dev
          python3 python3-dev python3-venv)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# .venv/ (numpy, pytest, ml-dtypes, scikit-build-core from PyPI), which
# the build uses for the extension and the tests: without it (no network),
# everything but the Python package still builds.
bash .ci/python-env || echo "== no .venv: the Python package is not built"

echo "== building in build/ (log: build/setup.log)"
mkdir -p build
if ! { cmake -S . -B build && cmake --build build -j"$(nproc)"; } \
    >build/setup.log 2>&1; then
  tail -n 40 build/setup.log
  echo "setup: the build failed; its whole output is in build/setup.log" >&2
  exit 1
fi

opgen=build/bin/opgen
specs=(specs/*.op)
"$opgen" check "${specs[@]}"
ops=$("$opgen" dump "${specs[@]}" | grep -c '^ *"file": ')
echo "== opgen check specs/*.op: ${#specs[@]} specs, $ops ops: OK"

out=build/quickstart
rm -rf "$out"
"$opgen" gen -o "$out" "${specs[@]}"
files=$(find "$out" -type f | wc -l)
if diff -rq -x README.md -x ops.json generated "$out" >/dev/null; then
  same="identical to generated/"
else
  same="different from generated/ (see: diff -r generated $out)"
fi
echo "== opgen gen -o $out specs/*.op: $files files, $same"

echo "== build/bin/opgen_demo (the shipped ops on the CPU)"
build/bin/opgen_demo

if [ -f build/python/opgen/__init__.py ]; then
  echo "== .venv/bin/python3: the same ops from Python (build/python)"
  PYTHONPATH=build/python .venv/bin/python3 -c '
import numpy as np, opgen
x = np.array([[1, 2], [3, 4]], np.float32)
print("  opgen.ops.zero_out(x, preserve_index=3)  =", opgen.ops.zero_out(x, preserve_index=3).tolist())
with opgen.GradientTape() as tape:
    y = opgen.ops.example(x)
print("  gradient of example(x) with respect to x =", tape.gradient(y, x).tolist())'
fi
