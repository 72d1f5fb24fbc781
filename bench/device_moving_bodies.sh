#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh from a build with
# -DSPH_WITH_GDAL=OFF): the moving bodies' GPU checks and first figures, into $OUT/results.tgz.
#   1. the GPU tests of every carried executable (tests/test_moving_bodies.cpp's CUDA instances:
#      the gate where its law puts it, --devices 0 and 0,0 bitwise, a restart bitwise);
#   2. the gate release (cases/gate_release.yaml) at dp 0.005 m to 0.6 s under mDBC, on --devices
#      0 and 0,0 with balancing: gauges.csv compared byte for byte;
#   3. the wave flume (cases/wave_flume.yaml) at dp 0.01 m to 5 s: gauges H1 and H2, whose wave
#      heights bench/wave_heights.py reads (the paddle's target: 0.03 m);
#   5. the flume with a flap hinged at the bed, and a gate held still (its hydrostatic thrust in
#      bodies.csv) at dp 0.005 m;
#   4. DamBreak at 4.19 M particles (dp 0.006 m) to 0.12 s, DBC and mDBC (bench/device_one_gpu.sh):
#      mips with this build's Euler.
# Usage there: bash bench/device_moving_bodies.sh [STEPS] (default "1 2 3 4 5").
set -uo pipefail
source bench/device_env.sh
work_in moving_bodies
steps=${1:-1 2 3 4 5}
for step in $steps; do
  case $step in
  1)
    bash bench/device_gpu_tests.sh > "$work/gpu_tests.txt" 2>&1
    cp -r "$out/gpu-tests" "$work/" 2>/dev/null
    grep -E "exit|PASSED|FAILED" "$work/gpu_tests.txt" | head -60
    ;;
  2)
    for devices in 0 0,0; do
      start=$SECONDS
      timeout 200 "$bin/case" --case cases/gate_release.yaml --backend cuda --devices $devices \
        --dp 0.005 --boundary mdbc --lb on --no-frames --output-dir "$work/gate_$devices" \
        > "$work/gate_$devices.log" 2>&1
      echo "gate on $devices: exit $? in $((SECONDS - start)) s; $(grep -h 'time loop' "$work/gate_$devices.log")"
    done
    for file in gauges.csv bodies.csv; do
      if cmp -s "$work/gate_0/$file" "$work/gate_0,0/$file"; then
        echo "gate $file: the same bytes on 0 and 0,0"
      else
        echo "gate $file: 0 and 0,0 differ"
      fi
    done
    ;;
  3)
    start=$SECONDS
    timeout 300 "$bin/case" --case cases/wave_flume.yaml --backend cuda --dp 0.01 --t-end 5 \
      --no-frames --gauge-every 0.01 --output-dir "$work/wave_flume" > "$work/wave_flume.log" 2>&1
    echo "wave_flume: exit $? in $((SECONDS - start)) s; $(grep -h 'time loop' "$work/wave_flume.log")"
    ;;
  5)
    # The flume's paddle as a flap hinged at the bed, and a gate held still in front of its
    # 0.2 m column (its thrust: rho g H^2 W / 2 = 19.62 N) at dp 0.005 m.
    sed 's/motion: {waves: {height: 0.03, period: 1.0, depth: 0.3}, axis: x, ramp: 2.0}/motion: {waves: {height: 0.03, period: 1.0, depth: 0.3}, axis: x, ramp: 2.0, paddle: flap, hinge: {axis: y, at: [0.065, 0.05, 0]}}/' \
      cases/wave_flume.yaml > cases/wave_flume_flap.yaml
    sed 's/motion: {velocity: \[0, 0, 1.5\], start: 0, stop: 0.2}/motion: {velocity: [0, 0, 1.5], start: 5, stop: 6}/' \
      cases/gate_release.yaml > cases/gate_held.yaml
    for run in "wave_flume_flap|--dp 0.01 --t-end 5 --gauge-every 0.01" \
               "gate_held|--dp 0.005 --t-end 0.1 --gauge-every 0.01 --boundary mdbc"; do
      name=${run%%|*}
      start=$SECONDS
      # shellcheck disable=SC2086  # the options
      timeout 300 "$bin/case" --case cases/$name.yaml --backend cuda ${run#*|} --no-frames \
        --output-dir "$work/$name" > "$work/$name.log" 2>&1
      echo "$name: exit $? in $((SECONDS - start)) s; $(grep -h 'time loop' "$work/$name.log")"
    done
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
