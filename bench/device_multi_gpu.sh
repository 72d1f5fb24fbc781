#!/usr/bin/env bash
# Runs on the two-GPU machine (device kind nvidia-h200-x2) over device-carry/
# (scripts/pack_for_device.sh): the multi-device GPU tests, then DamBreak at >= 4 million particles
# on 1 and 2 GPUs with output off. Logs and run reports go to $OUT.
set -uo pipefail
source bench/device_env.sh
nvidia-smi topo -m | tee "$out/topology.txt"
# The multi-device tests' CUDA instances and CUDA-only tests (two GPUs, a GPU's shared pool).
for test in test_multi_device test_device_faults; do
  "$bin/$test" --gtest_filter='*Cuda*:*Gpu*' 2>&1 | tee "$out/$test.log"
done
[ -n "${BENCH_ALL_TESTS:-}" ] && "$bin"/test_cuda 2>&1 | tee "$out/test_cuda.log"
dp=${BENCH_DP:-0.006}
for devices in ${BENCH_DEVICES:-0 0,1}; do
  name=dambreak_dp${dp}_devices${devices/,/-}
  "$bin"/dambreak --backend cuda --devices "$devices" --dp "$dp" --t-end "${BENCH_T_END:-0.2}" \
    --no-output --output-dir "$out/$name" ${BENCH_ARGS:-} 2>&1 | tee "$out/$name.log"
  cp "$out/$name/run_report.json" "$out/$name.json"
done
