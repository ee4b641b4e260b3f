#!/usr/bin/env bash
# Quick start: install what is missing, build, then run the main job:
# check every shipped spec, print their finalized definitions as JSON, and
# run the demo program (the shipped ops executed on the CPU).
set -euo pipefail
cd "$(dirname "$0")"
bash .ci/install-deps
cmake -S . -B build
cmake --build build -j"$(nproc)"
echo "== opgen check specs/*.op"
build/bin/opgen check specs/*.op
echo "== opgen dump specs/*.op"
build/bin/opgen dump specs/*.op
echo "== build/bin/opgen_demo"
build/bin/opgen_demo
