#!/usr/bin/env bash
# Runs on the GPU machine (two GPUs: nvidia-h100-x2) over device-carry/, with the build before the
# change as device-carry/bin/dambreak_before: the step's dt taken on the devices (Euler reads the
# minima from GPU memory) and the step handoffs that poll.
#   CHECKS=1: every CUDA test of the carried executables; gauges.csv against the build before, byte
#             for byte, under DBC and mDBC; traces of iterations 40-60 of DamBreak at 4.19 M
#             particles on one and two GPUs, of the builds in TRACE_EXES (default both).
#   AB_ROUNDS=n: DamBreak output off at 1.05 M and 4.19 M particles (bench/device_one_gpu.sh's
#             table), before and after in turn, n rounds, on AB_DEVICES (default "0,1 0").
# Everything in $OUT/results.tgz (the device tool brings back 8 files).
set -uo pipefail
source bench/device_env.sh
work_in dt-on-device
nvidia-smi topo -m > "$work/topology.txt" 2>&1
if [ -n "${CHECKS:-}" ]; then
  bash bench/device_checks_against_before.sh
  for exe in ${TRACE_EXES:-dambreak_before dambreak}; do
    for devices in 0,1 0; do
      name=trace_${exe}_devices${devices/,/-}
      timeout 60 "$bin/$exe" --backend cuda --devices "$devices" --dp 0.006 --t-end 0.02 \
        --no-output \
        --trace "$work/$name.json" --trace-iterations 40:60 --output-dir "$work/$name" \
        > "$work/$name.log" 2>&1
      echo "$name: exit $?"
    done
  done
fi
for round in $(seq "${AB_ROUNDS:-0}"); do
  for exe in dambreak_before dambreak; do
    for devices in ${AB_DEVICES:-0,1 0}; do
      BENCH_EXE=$exe BENCH_NAME=round$round-$exe-devices${devices/,/-} \
        BENCH_OPTIONS="--devices $devices" BENCH_RUNS="${BENCH_RUNS:-0.01:0.08 0.006:0.05}" \
        timeout 120 bash bench/device_one_gpu.sh > "$work/ab.txt" 2>&1
      grep -E "^dp|\| mips|outside" "$work/ab.txt" | sed "s/^/$exe $devices: /"
    done
  done
done
tar czf "$R/results.tgz" -C "$work" .
