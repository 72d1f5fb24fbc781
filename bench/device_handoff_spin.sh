#!/usr/bin/env bash
# Runs on a two-GPU machine over device-carry/: where the loop outside the kernels goes on two
# GPUs, with the devices' step handoffs sleeping at once (SPH_HANDOFF_SPIN_US=0) and polling first
# (SPIN_US, default 5000): traces of iterations 40-60 on one and two GPUs, and DamBreak output off
# (bench/device_one_gpu.sh's table) with each, alternated ROUNDS times. $OUT/results.tgz.
# SPH_HANDOFF_SPIN_US was read only by the experiment's build (results/2026-11-26-h200x2-dt-on-device/
# call2-handoff-poll/); the committed code polls for 20 ms wherever every device is a GPU.
set -uo pipefail
source bench/device_env.sh
work_in handoff
for spin in 0 ${SPIN_US:-5000}; do
  for devices in 0,1 0; do
    SPH_HANDOFF_SPIN_US=$spin "$bin"/dambreak --backend cuda --devices $devices --dp 0.006 \
      --t-end 0.02 --no-output --trace "$work/trace_spin${spin}_devices${devices/,/-}.json" \
      --trace-iterations 40:60 --output-dir "$work/trace_spin$spin" > /dev/null 2>&1
    echo "trace spin $spin devices $devices: exit $?"
  done
done
for round in $(seq ${ROUNDS:-2}); do
  for spin in 0 ${SPIN_US:-5000}; do
    SPH_HANDOFF_SPIN_US=$spin BENCH_NAME=spin$spin-round$round BENCH_OPTIONS="--devices 0,1" \
      BENCH_RUNS="${BENCH_RUNS:-0.01:0.08 0.006:0.05}" bash bench/device_one_gpu.sh | grep -E "^dp|mips|outside"
  done
done
tar czf "$R/results.tgz" -C "$work" .
