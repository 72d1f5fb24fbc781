#!/usr/bin/env bash
# Runs on a two-GPU machine (nvidia-h100-x2) over device-carry/, with the build before the change
# as device-carry/bin/dambreak_before: a device's dt minimum stored into the other devices' slots
# by a kernel (peer stores) instead of a peer copy. The multi-device CUDA tests, gauges.csv against
# the build before (DBC, on 0, 0,0 and 0,1), then DamBreak output off on two GPUs (0,1), the builds
# in turn AB_ROUNDS times. $OUT/results.tgz.
set -uo pipefail
source bench/device_env.sh
work_in minimum-stores
for test in test_multi_device test_device_faults test_failures test_restart test_exchange; do
  timeout 120 "$bin/$test" --gtest_filter='*Cuda*:*Gpu*' > "$work/$test.log" 2>&1
  echo "$test: exit $? $(grep -E '^\[  (PASSED|FAILED) ' "$work/$test.log" | tr '\n' ' ')"
done
timeout 150 bash bench/device_gauges_against_before.sh > "$work/gauges-dbc.txt" 2>&1
grep gauges "$work/gauges-dbc.txt"
for round in $(seq "${AB_ROUNDS:-2}"); do
  for exe in dambreak_before dambreak; do
    BENCH_EXE=$exe BENCH_NAME=round$round-$exe-devices0-1 BENCH_OPTIONS="--devices 0,1" \
      BENCH_RUNS="${BENCH_RUNS:-0.01:0.08 0.006:0.05}" timeout 120 bash bench/device_one_gpu.sh \
      > "$work/ab.txt" 2>&1
    grep -E "\| mips|outside" "$work/ab.txt" | sed "s/^/$exe: /"
  done
done
timeout 60 "$bin"/dambreak --backend cuda --devices 0,1 --dp 0.006 --t-end 0.02 --no-output \
  --trace "$work/trace_devices0-1.json" --trace-iterations 40:60 --output-dir "$work/trace" \
  > "$work/trace.log" 2>&1
echo "trace: exit $?"
tar czf "$R/results.tgz" -C "$work" .
