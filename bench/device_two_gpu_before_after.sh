#!/usr/bin/env bash
# Runs on a two-GPU machine (device kind nvidia-h100-x2) over device-carry/, with the build before
# a change to the multi-device loop as device-carry/bin/dambreak_before (bench/device_first_split.sh
# and others name the change and call this). The multi-device CUDA tests on the two GPUs; DamBreak,
# output off, on --devices 0,1 at BENCH_RUNS (default 1.05 M and 4.19 M particles, about 1000
# iterations), both builds in turn, AB_ROUNDS rounds (default 2): mips, the loop outside the
# kernels, the slice moves (load_balance.csv, bench/slice_moves.py).
#   ALL_TESTS=1: every CUDA test of the carried executables (bench/device_gpu_tests.sh) instead.
#   MDBC=1: the same under --boundary mdbc at 4.19 M, both builds, one round.
#   GAUGES=1: DamBreak's gauges.csv (dp 0.02 m, 0.3 s) on --devices 0, 0,0 and 0,1 under both
#             builds, byte for byte (the split and the balancer never change the results).
#   TRACE=1:  a timeline of iterations 40-60 at 4.19 M under each build (--trace), for where the
#             loop outside the kernels goes.
# Everything in $OUT/results.tgz (the device tool brings back 8 files), worked on in
# /tmp/$WORK_NAME.
set -uo pipefail
source bench/device_env.sh
work_in "${WORK_NAME:-two-gpu-before-after}"
if [ -n "${ALL_TESTS:-}" ]; then  # every CUDA test of the carried executables, on two GPUs
  timeout "${TESTS_LIMIT:-300}" bash bench/device_gpu_tests.sh > "$work/gpu-tests.txt" 2>&1
  echo "gpu tests: exit $?"; grep -E "exit|FAILED" "$work/gpu-tests.txt"
else
  for test in test_multi_device test_device_faults; do
    "$bin/$test" --gtest_filter='*Cuda*:*Gpu*' > "$work/$test.log" 2>&1
    echo "$test: exit $? $(grep -E '^\[  (PASSED|FAILED) ' "$work/$test.log" | tr '\n' ' ')"
  done
fi
# One round of a set of runs under both builds: $1 the round's name, $2 the runs, $3 more options.
both_builds() {
  for exe in dambreak_before dambreak; do
    BENCH_EXE=$exe BENCH_NAME=$1-$exe BENCH_OPTIONS="--devices 0,1 $3" BENCH_RUNS="$2" \
      bash bench/device_one_gpu.sh > "$work/$1-$exe.txt" 2>&1
    grep -E "\| mips|outside" "$work/$1-$exe.txt" | sed "s/^/$1 $exe: /"
    for csv in "$work/$1-$exe"/dambreak_dp*/load_balance.csv; do
      echo "$1 $exe $(basename "$(dirname "$csv")"): $(python3 bench/slice_moves.py "$csv")"
    done
  done
}
for round in $(seq "${AB_ROUNDS:-2}"); do
  both_builds "r$round" "${BENCH_RUNS:-0.01:0.08 0.006:0.05}" ""
done
if [ -n "${MDBC:-}" ]; then both_builds mdbc "0.006:0.05" "--boundary mdbc"; fi
if [ -n "${GAUGES:-}" ]; then
  for devices in 0 0,0 0,1; do
    for exe in dambreak_before dambreak; do
      timeout 100 "$bin/$exe" --backend cuda --devices "$devices" --dp 0.02 --t-end 0.3 \
        --no-frames --gauge-every 0.01 --output-dir "$work/gauges-$devices-$exe" \
        > "$work/gauges-$devices-$exe.log" 2>&1 || echo "gauges $devices $exe: FAILED"
    done
    if cmp -s "$work/gauges-$devices-dambreak_before/gauges.csv" \
      "$work/gauges-$devices-dambreak/gauges.csv"; then
      echo "gauges.csv on $devices: the same bytes under both builds"
    else
      echo "gauges.csv on $devices: DIFFERS between the builds"
    fi
  done
fi
if [ -n "${TRACE:-}" ]; then
  for exe in dambreak_before dambreak; do
    "$bin/$exe" --backend cuda --devices 0,1 --dp 0.006 --t-end 0.03 --no-output \
      --trace "$work/trace-$exe.json" --trace-iterations 40:60 --output-dir "$work/trace-$exe" \
      > "$work/trace-$exe.log" 2>&1
    echo "trace $exe: exit $?"
  done
fi
tar czf "$R/results.tgz" -C "$work" .
