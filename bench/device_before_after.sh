#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before a change as
# device-carry/bin/dambreak_before and lobovsky_before; what a change to Forces or the list build
# is checked and timed by (bench/device_row_slabs.sh and others name the change and call this).
#   CHECKS=1: every CUDA test of the carried executables (the bitwise ones: several devices against
#             one, the cells against the list); DamBreak's gauges.csv (dp 0.02 m, 0.3 s) on `0` and
#             `0,0`, with the list and with --neighbours cells, against each other and against the
#             build before, byte for byte, and how far they moved where they did
#             (bench/gauge_differences.py); SPHERIC test 2 at dp 0.02 m to 6 s under both builds
#             (runs only: the metrics come from validation/spheric_dambreak.py --from-output where
#             numpy is).
#   AB_ROUNDS=n: DamBreak, output off, at 1.05 M and 4.19 M particles, with the list and with
#             --neighbours cells, before and after in turn, n rounds; then Lobovsky at dp 0.005 m
#             under mDBC to 0.6 s (a rebuild every one or two iterations), both builds.
# Everything in $OUT/results.tgz (the device tool brings back 8 files), worked on in
# /tmp/$WORK_NAME.
set -uo pipefail
source bench/device_env.sh
work_in "${WORK_NAME:-before-after}"
if [ -n "${CHECKS:-}" ]; then
  timeout "${TESTS_LIMIT:-300}" bash bench/device_gpu_tests.sh > "$work/gpu-tests.txt" 2>&1
  echo "gpu tests: exit $?"; grep -E "exit|FAILED" "$work/gpu-tests.txt"
  for boundary in dbc mdbc; do
    mkdir -p "$work/gauges-$boundary"
    for run in "before:dambreak_before:0:list" "list_0:dambreak:0:list" \
               "list_0_0:dambreak:0,0:list" "cells_0:dambreak:0:cells" "cells_0_0:dambreak:0,0:cells"; do
      IFS=: read -r name exe devices search <<< "$run"
      timeout 100 "$bin/$exe" --backend cuda --devices "$devices" --neighbours "$search" \
        --boundary "$boundary" --dp 0.02 --t-end 0.3 --no-frames --gauge-every 0.01 \
        --output-dir "$work/gauges-$boundary/$name" > "$work/gauges-$boundary/$name.log" 2>&1 ||
        echo "$boundary $name: FAILED"
    done
    for name in before list_0_0 cells_0 cells_0_0; do
      if cmp -s "$work/gauges-$boundary/list_0/gauges.csv" "$work/gauges-$boundary/$name/gauges.csv"; then
        echo "$boundary gauges.csv of $name: the same bytes as list_0"
      else
        echo "$boundary gauges.csv of $name: DIFFERS from list_0"
      fi
    done
    echo "$boundary: from the build before to this one"
    python3 bench/gauge_differences.py "$work/gauges-$boundary/before/gauges.csv" \
      "$work/gauges-$boundary/list_0/gauges.csv"
  done 2>&1 | tee "$work/gauges.txt"
  for exe in dambreak_before dambreak; do
    mkdir -p "/tmp/exe-$exe/bin" && ln -sf "$bin/$exe" "/tmp/exe-$exe/bin/dambreak"
    timeout 150 python3 validation/spheric_dambreak.py --build-dir "/tmp/exe-$exe" --backend cuda \
      --dp 0.02 --runs-only --out "$work/spheric-$exe" > "$work/spheric-$exe.log" 2>&1
    echo "SPHERIC dp 0.02 with $exe: exit $?"
  done
fi
for round in $(seq "${AB_ROUNDS:-0}"); do
  for search in list cells; do
    for exe in dambreak_before dambreak; do
      BENCH_EXE=$exe BENCH_NAME=round$round-$search-$exe BENCH_OPTIONS="--neighbours $search" \
        BENCH_RUNS="${BENCH_RUNS:-0.01:0.08 0.006:0.05}" \
        timeout 150 bash bench/device_one_gpu.sh > "$work/ab.txt" 2>&1
      grep -E "^dp|\| mips|BuildNeibs|Forces" "$work/ab.txt" | sed "s/^/$search $exe: /"
    done
  done
done
if [ "${AB_ROUNDS:-0}" -gt 0 ]; then
  bash bench/device_lobovsky_before_after.sh | tee "$work/lobovsky.txt"
fi
tar czf "$R/results.tgz" -C "$work" .
