#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before the change as
# device-carry/bin/dambreak_before and lobovsky_before: the neighbour-list build testing each
# row's candidates 32 at a time into a mask before listing them (kernels/cell_walk.h).
#   CHECKS=1: every CUDA test of the carried executables; gauges.csv of DamBreak against the build
#             before, byte for byte, under DBC and mDBC; an Nsight Compute profile of the list
#             build at 4.19 M particles.
#   AB_ROUNDS=n: DamBreak (the list, output off) at 1.05 M and 4.19 M particles, before and after
#             in turn, n rounds; then Lobovsky at dp 0.005 m under mDBC to LOBOVSKY_T_END (default
#             0.6 s: the impact and the spray, a rebuild every one or two iterations), both builds.
# Everything in $OUT/results.tgz (the device tool brings back 8 files).
set -uo pipefail
source bench/device_env.sh
work_in list-build-masks
if [ -n "${CHECKS:-}" ]; then
  bash bench/device_checks_against_before.sh
  PROFILE_KERNELS=neighbour_list_kernel timeout 240 bash bench/device_forces_profile.sh \
    > "$work/profile.txt" 2>&1
  grep -E "Duration|Registers|Achieved Occupancy|Issue Slots" "$work/profile.txt" | head -8
fi
for round in $(seq "${AB_ROUNDS:-0}"); do
  for exe in dambreak_before dambreak; do
    BENCH_EXE=$exe BENCH_NAME=round$round-$exe BENCH_RUNS="${BENCH_RUNS:-0.01:0.08 0.006:0.05}" \
      timeout 150 bash bench/device_one_gpu.sh > "$work/ab.txt" 2>&1
    grep -E "^dp|\| mips|BuildNeibs" "$work/ab.txt" | sed "s/^/$exe: /"
  done
done
if [ "${AB_ROUNDS:-0}" -gt 0 ]; then
  bash bench/device_lobovsky_before_after.sh
fi
tar czf "$R/results.tgz" -C "$work" .
