#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh from a build with
# -DSPH_WITH_GDAL=OFF): the floating bodies' GPU checks and first figures, into $OUT/results.tgz.
#   1. the GPU tests of every carried executable (tests/test_floating_bodies.cpp's CUDA instance:
#      bodies.csv the same bytes on --devices 0 and 0,0,0 with balancing, under mDBC);
#   2. the floating box (cases/floating_box.yaml: 500 kg/m^3, laid out at its draught, free in six
#      degrees of freedom) at dp 0.005 m to 1 s, DBC and mDBC, on --devices 0, and under mDBC on
#      0,0 with balancing: bodies.csv compared byte for byte; its drift and the water's vertical
#      force against its weight (bench/floating_figures.py);
#   3. the same box at 1200 kg/m^3 (it sinks to the floor and rests there) at dp 0.005 m to 2 s;
#   4. DamBreak at 4.19 M particles (dp 0.006 m) to 0.12 s, DBC and mDBC (bench/device_one_gpu.sh):
#      mips with this build (no floating body: the step must not slow down).
# Usage there: bash bench/device_floating.sh [STEPS] (default "1 2 3 4").
set -uo pipefail
source bench/device_env.sh
work_in floating
steps=${1:-1 2 3 4}
run_case() {  # NAME CASE OPTIONS...
  local name=$1 file=$2
  shift 2
  local start=$SECONDS
  timeout 250 "$bin/case" --case "$file" --backend cuda --no-frames --gauge-every 0.01 \
    --output-dir "$work/$name" "$@" > "$work/$name.log" 2>&1
  echo "$name: exit $? in $((SECONDS - start)) s; $(grep -h 'time loop' "$work/$name.log")"
}
for step in $steps; do
  case $step in
  1)
    bash bench/device_gpu_tests.sh > "$work/gpu_tests.txt" 2>&1
    cp -r "$out/gpu-tests" "$work/" 2>/dev/null
    grep -E "exit|PASSED|FAILED" "$work/gpu_tests.txt" | head -60
    ;;
  2)
    run_case box_dbc cases/floating_box.yaml --dp 0.005 --t-end 1 --devices 0
    run_case box_mdbc cases/floating_box.yaml --dp 0.005 --t-end 1 --devices 0 --boundary mdbc
    run_case box_mdbc_00 cases/floating_box.yaml --dp 0.005 --t-end 1 --devices 0,0 \
      --boundary mdbc --lb on
    if cmp -s "$work/box_mdbc/bodies.csv" "$work/box_mdbc_00/bodies.csv"; then
      echo "floating box bodies.csv: the same bytes on 0 and 0,0"
    else
      echo "floating box bodies.csv: 0 and 0,0 differ"
    fi
    ;;
  3)
    sed 's/floating: {density: 500}/floating: {density: 1200}/' cases/floating_box.yaml \
      > cases/floating_box_heavy.yaml
    run_case box_heavy cases/floating_box_heavy.yaml --dp 0.005 --t-end 2 --devices 0
    ;;
  4)
    for walls in dbc mdbc; do
      BENCH_NAME=dambreak-$walls BENCH_OPTIONS="--boundary $walls" BENCH_RUNS="0.006:0.12" \
        timeout 200 bash bench/device_one_gpu.sh > "$work/dambreak_$walls.txt" 2>&1
      grep -E "^dp|\| mips" "$work/dambreak_$walls.txt" | sed "s/^/$walls: /"
    done
    ;;
  esac
done
tar czf "$R/results.tgz" -C "$work" .
