#!/usr/bin/env bash
# Sets up, builds and runs DamBreak at a coarse resolution for 0.5 s of simulated time, on CUDA
# when a GPU is visible and on the CPU otherwise. Output: output/dambreak/DamBreak.pvd (ParaView).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh dambreak  # the program alone: the tests' 60-odd targets wait for test.sh
./build/src/dambreak --dp 0.04 --t-end 0.5 --output-every 0.05 --output-dir output/dambreak "$@"
