#!/usr/bin/env bash
# Runs on a two-GPU machine (device kind nvidia-h100-x2) over device-carry/, with the build before
# the change as device-carry/bin/dambreak_before: a boundary between devices moves only where the
# gap is larger than what a slice there cost at its last move (src/multi_device/load_balancer.h),
# so that it settles instead of going back and forth. The multi-device CUDA tests on the two
# GPUs; DamBreak, output off, on --devices 0,1 at 1.05 M and 4.19 M particles, both builds in
# turn, AB_ROUNDS rounds (default 2): mips, the loop outside the kernels, the slice moves
# (load_balance.csv). Everything in $OUT/results.tgz.
set -uo pipefail
source bench/device_env.sh
work_in balancer-settles
for test in test_multi_device test_device_faults; do
  "$bin/$test" --gtest_filter='*Cuda*:*Gpu*' > "$work/$test.log" 2>&1
  echo "$test: exit $? $(grep -E '^\[  (PASSED|FAILED) ' "$work/$test.log" | tr '\n' ' ')"
done
for round in $(seq "${AB_ROUNDS:-2}"); do
  for exe in dambreak_before dambreak; do
    BENCH_EXE=$exe BENCH_NAME=r$round-$exe BENCH_OPTIONS="--devices 0,1" \
      BENCH_RUNS="${BENCH_RUNS:-0.01:0.08 0.006:0.05}" bash bench/device_one_gpu.sh \
      > "$work/r$round-$exe.txt" 2>&1
    grep -E "\| mips|outside" "$work/r$round-$exe.txt" | sed "s/^/r$round $exe: /"
    for csv in "$work/r$round-$exe"/dambreak_dp*/load_balance.csv; do
      echo "r$round $exe $(basename "$(dirname "$csv")"): $(python3 bench/slice_moves.py "$csv")"
    done
  done
done
tar czf "$R/results.tgz" -C "$work" .
