#!/usr/bin/env bash
# Runs on a one-GPU machine over device-carry/, with the build before a change as
# device-carry/bin/dambreak_before: DamBreak, output off, at BENCH_RUNS (default 1.05 M and
# 4.19 M particles) on each of DEVICE_LISTS (default "0 0,0": one device, and two devices sharing
# the GPU), both builds in turn, AB_ROUNDS rounds (default 2): mips and the loop outside the
# kernels (bench/device_one_gpu.sh's table). Everything in $OUT/results.tgz, worked on in
# /tmp/$WORK_NAME.
set -uo pipefail
source bench/device_env.sh
work_in "${WORK_NAME:-one-gpu-before-after}"
for round in $(seq "${AB_ROUNDS:-2}"); do
  for devices in ${DEVICE_LISTS:-0 0,0}; do
    for exe in dambreak_before dambreak; do
      name=r$round-devices-${devices/,/-}-$exe
      BENCH_EXE=$exe BENCH_NAME=$name BENCH_OPTIONS="--devices $devices" \
        BENCH_RUNS="${BENCH_RUNS:-0.01:0.08 0.006:0.05}" bash bench/device_one_gpu.sh \
        > "$work/$name.txt" 2>&1
      grep -E "\| mips|busiest" "$work/$name.txt" | sed "s/^/$name: /"
    done
  done
done
tar czf "$R/results.tgz" -C "$work" .
