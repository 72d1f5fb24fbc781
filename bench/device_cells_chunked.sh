#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before the change as
# device-carry/bin/dambreak_before: the lean mode's walk (--neighbours cells) taking each row's
# candidates 64 at a time, distances into a mask first, then the pair body per set bit.
#   CHECKS=1: the CUDA cells tests; gauges.csv of DamBreak under --neighbours cells against the
#             build before, byte for byte; an Nsight Compute profile of the cells Forces.
#   AB_ROUNDS=n: DamBreak --neighbours cells, output off, at 1.05 M and 4.19 M particles, the
#             executables of AB_EXES (default "dambreak_before dambreak") in turn, n rounds.
#   SKINS="skin:k ...": the new build alone with --list-skin skin --rebuild-every k (thinner cells,
#             sorted more often), at the same sizes.
#   LARGEST=1: the largest lean-mode DamBreak that fits (bench/device_largest_run.sh).
# PROFILE_EXE: the executable profiled (default dambreak).
# Everything in $OUT/results.tgz (the device tool brings back 8 files).
set -uo pipefail
source bench/device_env.sh
work_in cells-chunked
if [ -n "${CHECKS:-}" ]; then
  timeout 200 "$bin"/test_kernels --gtest_filter='*Cuda*' > "$work/test_kernels.log" 2>&1
  echo "test_kernels (CUDA, the cells tests among them): exit $?"
  grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$work/test_kernels.log"
  OUT=$work GAUGE_OPTIONS="--neighbours cells" timeout 150 \
    bash bench/device_gauges_against_before.sh > "$work/gauges-cells.txt" 2>&1
  cat "$work/gauges-cells.txt"
  OUT=$work PROFILE_EXE=${PROFILE_EXE:-dambreak} PROFILE_OPTIONS="--neighbours cells" PROFILE_KERNELS=forces_from_cells_kernel \
    timeout 240 bash bench/device_forces_profile.sh > "$work/profile.txt" 2>&1
  cat "$work/profile.txt"
fi
for round in $(seq "${AB_ROUNDS:-0}"); do
  for exe in ${AB_EXES:-dambreak_before dambreak}; do
    BENCH_EXE=$exe BENCH_NAME=round$round-$exe BENCH_OPTIONS="--neighbours cells" \
      BENCH_RUNS="${BENCH_RUNS:-0.01:0.08 0.006:0.05}" \
      timeout 150 bash bench/device_one_gpu.sh > "$work/ab.txt" 2>&1
    grep -E "^dp|\| mips|outside" "$work/ab.txt" | sed "s/^/$exe: /"
  done
done
for skin in ${SKINS:-}; do
  IFS=: read -r list_skin every <<< "$skin"
  BENCH_NAME=skin$list_skin-every$every \
    BENCH_OPTIONS="--neighbours cells --list-skin $list_skin --rebuild-every $every" \
    BENCH_RUNS="${BENCH_RUNS:-0.01:0.08 0.006:0.05}" \
    timeout 150 bash bench/device_one_gpu.sh > "$work/skin.txt" 2>&1
  grep -E "^dp|\| mips|outside" "$work/skin.txt" | sed "s/^/skin $list_skin every $every: /"
done
if [ -n "${LARGEST:-}" ]; then
  OUT=$work timeout 400 bash bench/device_largest_run.sh
fi
tar czf "$R/results.tgz" -C "$work" .
