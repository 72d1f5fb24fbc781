#!/usr/bin/env bash
# Configures and builds the release preset (CPU back end, plus CUDA when nvcc is found).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release -G Ninja >/dev/null
cmake --build --preset release -j "$(nproc)"
