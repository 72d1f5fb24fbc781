#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the GPU tests, then
# DamBreak benchmarks on one GPU with output off. Logs go to $OUT.
set -uo pipefail
source bench/device_env.sh
"$bin"/test_cuda 2>&1 | tee "$out/test_cuda.log"
for dp in ${BENCH_DPS:-0.01 0.0075}; do
  "$bin"/dambreak --backend cuda --dp "$dp" --t-end "${BENCH_T_END:-0.3}" --no-output \
    --output-dir "$out/dambreak_dp$dp" 2>&1 | tee "$out/dambreak_dp$dp.log"
  cp "$out/dambreak_dp$dp/run_report.json" "$out/dambreak_dp$dp.json"
done
