#!/usr/bin/env bash
# Configures and builds the release preset (CPU back end, plus CUDA when nvcc is found): every
# target, or only those named (bash scripts/build.sh dambreak), which is all a first run needs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release -G Ninja >/dev/null
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build --preset release -j "$(nproc)" "${targets[@]}"
