#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the set-up's speed on
# the host's cores (issue 71: a billion particles set up in under a minute), into
# $OUT/results.tgz. bench/case_layout/ times the fill of the shapes alone, then the whole lay-out
# as a run does it (the fill again, densities, fixed-point positions, slice counts).
#   1. DamBreak (cases/dam_break.yaml, the compiled problem's particles bit for bit) at
#      dp 0.002 m (about 131 M particles) on 1 and on all threads;
#   2. the same at dp 0.00101 m (about 1.0 B particles) on all threads;
#   3. the flood street (an STL house, a raster street) at dp 0.00235 m (103.9 M) on all threads.
# Usage there: bash bench/device_setup_speed.sh [STEPS] (default "1 2 3").
set -uo pipefail
source bench/device_env.sh
work_in setup_speed
layout() {  # layout NAME CASE DP THREADS
  /usr/bin/time -v "$bin/case_layout" "$2" "$3" "$4" > "$work/$1.txt" 2> "$work/$1.time"
  cat "$work/$1.txt"
  grep -E "Maximum resident|Elapsed" "$work/$1.time"
}
for step in ${1:-1 2 3}; do
  case $step in
  1) layout dambreak_0.002_1 cases/dam_break.yaml 0.002 1
     layout dambreak_0.002_all cases/dam_break.yaml 0.002 "$(nproc)" ;;
  2) layout dambreak_0.00101_all cases/dam_break.yaml 0.00101 "$(nproc)" ;;
  3) layout flood_0.00235_all cases/flood_street.yaml 0.00235 "$(nproc)" ;;
  esac
done
tar czf "$R/results.tgz" -C "$work" .
