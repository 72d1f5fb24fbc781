#!/usr/bin/env bash
# Sets up, builds and runs the test suite. Tests labelled `gpu` are skipped (and listed as such)
# where no GPU is visible.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --preset release -j "$(nproc)" "$@"
