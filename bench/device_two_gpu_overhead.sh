#!/usr/bin/env bash
# Runs on a two-GPU machine (device kind nvidia-h100-x2) over device-carry/: the multi-device CUDA
# tests on two real GPUs, DamBreak output off on one GPU and on two (bench/device_one_gpu.sh's
# table: mips, kernel shares, the loop outside the kernels), and a trace of 20 iterations on two
# GPUs at each size (TRACE_RUNS "dp:t_end"), for where the loop outside the kernels goes.
# Everything in $OUT/results.tgz (the device tool brings back 8 files).
set -uo pipefail
source bench/device_env.sh
work_in two-gpu
nvidia-smi topo -m > "$work/topology.txt"
if [ -z "${SKIP_TESTS:-}" ]; then
  for test in test_multi_device test_device_faults; do
    "$bin/$test" --gtest_filter='*Cuda*:*Gpu*' > "$work/$test.log" 2>&1
    echo "$test: exit $? $(grep -E '^\[  (PASSED|FAILED) ' "$work/$test.log" | tr '\n' ' ')"
  done
fi
runs=${BENCH_RUNS:-0.01:0.08 0.006:0.05}
for devices in ${BENCH_DEVICES:-0,1 0}; do
  BENCH_NAME=devices-${devices/,/-} BENCH_OPTIONS="--devices $devices ${BENCH_EXTRA:-}" \
    BENCH_RUNS="$runs" bash bench/device_one_gpu.sh
done
for run in ${TRACE_RUNS:-0.01:0.03 0.006:0.02}; do
  IFS=: read -r dp t_end <<< "$run"
  "$bin"/dambreak --backend cuda --devices 0,1 --dp "$dp" --t-end "$t_end" --no-output \
    --trace "$work/trace_dp$dp.json" --trace-iterations 40:60 ${BENCH_EXTRA:-} \
    --output-dir "$work/trace_dp$dp" > "$work/trace_dp$dp.log" 2>&1
  echo "trace dp $dp: exit $?"
done
tar czf "$R/results.tgz" -C "$work" .
