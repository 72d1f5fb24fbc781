#!/usr/bin/env bash
# Sets up, builds and runs the test suite. Tests labelled `gpu` are skipped (and listed as such)
# where no GPU is visible. ctest runs a test per core, and the test preset (CMakePresets.json) gives
# each one OpenMP thread: threads of one test waiting on another's took the suite 8.4 minutes
# instead of 7.6 on 2 cores. tests/test_cpu_threads.cpp is where several threads share a device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --preset release -j "$(nproc)" "$@"
