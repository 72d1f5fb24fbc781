#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh from a build with
# -DSPH_WITH_GDAL=OFF): the damping zone's GPU checks and its figure, into $OUT/results.tgz.
#   1. the GPU tests of every carried executable (tests/test_damping_zones.cpp's CUDA instance:
#      gauges.csv the same bytes on --devices 0 and 0,0,0 with a zone);
#   2. the wave flume (cases/wave_flume.yaml: a piston, 3 cm waves of 1 s in 0.3 m, a damping
#      zone over its last metre) at dp 0.01 m to 20 s, with the zone and without it (the far wall
#      reflects): gauges H1 and H2, whose wave heights bench/wave_heights.py reads in windows.
# Usage there: bash bench/device_damping.sh [STEPS] (default "1 2").
set -uo pipefail
source bench/device_env.sh
work_in damping
steps=${1:-1 2}
for step in $steps; do
  case $step in
  1)
    bash bench/device_gpu_tests.sh > "$work/gpu_tests.txt" 2>&1
    cp -r "$out/gpu-tests" "$work/" 2>/dev/null
    grep -E "exit|PASSED|FAILED" "$work/gpu_tests.txt" | head -60
    ;;
  2)
    sed '/^damping:/,/^instruments:/{/^instruments:/!d}' cases/wave_flume.yaml \
      > cases/wave_flume_reflecting.yaml
    for name in wave_flume wave_flume_reflecting; do
      start=$SECONDS
      timeout 250 "$bin/case" --case cases/$name.yaml --backend cuda --dp 0.01 --t-end 20 \
        --no-frames --gauge-every 0.01 --output-dir "$work/$name" > "$work/$name.log" 2>&1
      echo "$name: exit $? in $((SECONDS - start)) s; $(grep -h 'time loop' "$work/$name.log")"
    done
    ;;
  esac
done
tar czf "$R/results.tgz" -C "$work" .
