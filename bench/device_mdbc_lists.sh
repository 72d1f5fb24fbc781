#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh, with the build before
# the change as device-carry/bin/dambreak_before): mDBC's walls walking lists of the fluid around
# their ghost nodes (kernels/ghost_list.h) against the cell walk before, in one call:
#   1. the CUDA instance of every carried test (device_gpu_tests.sh);
#   2. gauges.csv of DamBreak under mDBC at dp 0.02 to 0.3 s: the new build on one device and on
#      --devices 0,0 against the build before, byte for byte;
#   3. DamBreak at 4.19 M particles under mDBC and under DBC, each build in turn, twice;
#   4. the SPHERIC validation run (dp 0.01, 6 s, mDBC) with the new build; its gauges.csv is
#      compared here with validation/results/h100-skin0.08/ (the build before).
# Everything under $OUT/mdbc-lists/; summary.txt there.
set -uo pipefail
source bench/device_env.sh
root=$out
out=$root/mdbc-lists
mkdir -p "$out"
{
  OUT=$out timeout 300 bash bench/device_gpu_tests.sh

  echo "== gauges.csv, DamBreak under mDBC, dp 0.02 to 0.3 s"
  OUT=$out GAUGE_OPTIONS="--boundary mdbc" bash bench/device_gauges_against_before.sh

  echo "== DamBreak 4.19 M, each build in turn"
  for round in 1 2; do
    for boundary in mdbc dbc; do
      for exe in dambreak_before dambreak; do
        log=$out/${exe}_${boundary}_$round.log
        "$bin/$exe" --backend cuda --dp 0.006 --t-end 0.05 --no-output --boundary "$boundary" \
          --output-dir "$out/run" > "$log" 2>&1
        echo "$exe $boundary round $round: exit $? $(grep -E 'mips average' "$log" | sed 's/.*= \([0-9.]*\) mips.*/\1 mips/') $(grep -E 'mDBC walls' "$log" | tr -s ' ')"
      done
    done
  done

  echo "== SPHERIC, dp 0.01, mDBC, 6 s"
  timeout 240 "$bin"/dambreak --backend cuda --dp 0.01 --t-end 6 --output-every 6 \
    --gauge-every 0.01 --no-frames --boundary mdbc --output-dir "$out/spheric" \
    > "$out/spheric.log" 2>&1
  echo "spheric: exit $? $(grep -E 'wall time|mips average|mDBC walls' "$out/spheric.log" | tr -s ' ' | sed 's/per 1.0 s.*//' | tr '\n' ';')"
} 2>&1 | tee "$out/summary.txt"
