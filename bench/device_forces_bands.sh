#!/usr/bin/env bash
# Measured and not kept (bench/NOTES.md entry 24): built with
# bench/results/2026-11-27-h100-forces-bands/patch/forces-bands.patch applied. Runs on the GPU
# machine over device-carry/, with the build before the change as
# device-carry/bin/dambreak_before and lobovsky_before: Forces' central stripe taken band by band
# (kernels/cuda/band_order.h) wherever three slices' particles outgrow the share of the L2 that
# bands are cut to (src/devices/cuda/forces_bands.cu): on an H100 none at 4.19 M particles, two
# bands at 39.7 M, nine at 720.9 M.
#   PART=checks: bench/device_before_after.sh with CHECKS=1 AB_ROUNDS=1 ($OUT/results.tgz), then
#                the list at 39.7 M (dp 0.0027 m) with each build in turn ($OUT/list-50M.tgz).
#   PART=largest: the lean mode's largest run (bench/device_largest_run.sh, dp 0.001 m), with this
#                build and then the one before ($OUT/largest.tgz).
set -uo pipefail
case "${PART:-checks}" in
  checks)
    WORK_NAME=forces-bands CHECKS=1 AB_ROUNDS=1 timeout 360 bash bench/device_before_after.sh
    source bench/device_env.sh
    work_in list-50M
    for exe in dambreak_before dambreak; do
      BENCH_EXE=$exe BENCH_NAME=list-50M-$exe BENCH_RUNS="0.0027:0.022" \
        timeout 100 bash bench/device_one_gpu.sh > "$work/$exe.txt" 2>&1
      grep -E "^dp|\| mips|Forces|other" "$work/$exe.txt" | sed "s/^/$exe: /"
    done
    tar czf "$R/list-50M.tgz" -C "$work" .
    ;;
  largest)
    source bench/device_env.sh
    work_in largest-bands
    for exe in dambreak dambreak_before; do
      LARGEST_EXE=$exe timeout 280 bash bench/device_largest_run.sh
    done
    tar czf "$R/largest.tgz" -C "$work" .
    ;;
esac
