#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh, with the build before
# the change as device-carry/bin/dambreak_before): the one-byte neighbour list and the neighbour's
# type read with its position (bench/NOTES.md entry 6) against the build before, in one call.
#   1. the CUDA instance of every carried test (bench/device_gpu_tests.sh);
#   2. gauges.csv of DamBreak at dp 0.02 to 0.3 s: the new build on one device and on
#      --devices 0,0 against the build before, byte for byte (the change moves no bit);
#   3. DamBreak at 4.19 M particles, each build in turn, ROUNDS times (device_forces_variants.sh);
#   4. the instruments' cost every iteration (device_instruments.sh, without its tests);
#   5. the one-GPU table at 1.05, 4.19 and 49.5 M particles (device_one_gpu.sh).
# Everything under $OUT/list-bytes/, and a summary.txt there.
set -uo pipefail
source bench/device_env.sh
root=$out
out=$root/list-bytes
mkdir -p "$out"
{
  OUT=$out bash bench/device_gpu_tests.sh

  echo "== gauges.csv, DamBreak dp 0.02 to 0.3 s"
  OUT=$out bash bench/device_gauges_against_before.sh

  echo "== DamBreak 4.19 M, each build in turn"
  OUT=$out ROUNDS=${ROUNDS:-2} bash bench/device_forces_variants.sh

  echo "== instruments every iteration"
  OUT=$out SKIP_TESTS=1 bash bench/device_instruments.sh

  echo "== one GPU, three sizes"
  OUT=$out BENCH_RUNS="0.01:0.08 0.006:0.05 0.0025:0.02" bash bench/device_one_gpu.sh
} 2>&1 | tee "$out/summary.txt"
