#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh from a build with
# -DSPH_WITH_GDAL=OFF): the geometry issue's GPU checks and figures, into $OUT/results.tgz.
#   1. the GPU tests of every carried executable (a mesh and terrain case on --devices 0,0 among
#      them: tests/test_case_runs.cpp);
#   2. laying out the flood street case (an STL house, an elevation grid) at about 100 M
#      particles on the host's cores, stage by stage (bench/case_layout/);
#   3. SPHERIC test 2 at dp 0.01 m, 6 s, mDBC, with its obstacle as a box (cases/dam_break.yaml)
#      and as an STL mesh (cases/dam_break_mesh.yaml): gauges.csv of both, compared byte for byte;
#   4. the flood street case at dp 0.01 m to 4 s: its gauges and the load on the house.
# Usage there: bash bench/device_case_geometry.sh [STEPS] (default "1 2 3 4").
set -uo pipefail
source bench/device_env.sh
work_in case_geometry
steps=${1:-1 2 3 4}
for step in $steps; do
  case $step in
  1)
    bash bench/device_gpu_tests.sh > "$work/gpu_tests.txt" 2>&1
    cp -r "$out/gpu-tests" "$work/" 2>/dev/null
    grep -E "exit|PASSED|FAILED" "$work/gpu_tests.txt" | head -60
    ;;
  2)
    for dp in 0.0025; do
      /usr/bin/time -v "$bin/case_layout" cases/flood_street.yaml $dp "$(nproc)" \
        > "$work/layout_$dp.txt" 2> "$work/layout_$dp.time"
      cat "$work/layout_$dp.txt"
      grep -E "Maximum resident|Elapsed" "$work/layout_$dp.time"
    done
    ;;
  3)
    for name in dam_break dam_break_mesh; do
      start=$SECONDS
      timeout 300 "$bin/case" --case cases/$name.yaml --backend cuda --dp 0.01 --t-end 6 \
        --boundary mdbc --gauge-reading wetted --no-frames --output-dir "$work/$name" \
        > "$work/$name.log" 2>&1
      echo "$name: exit $? in $((SECONDS - start)) s; $(grep -h 'time loop' "$work/$name.log")"
    done
    if cmp -s "$work/dam_break/gauges.csv" "$work/dam_break_mesh/gauges.csv"; then
      echo "gauges.csv: the box's and the mesh's are the same bytes"
    else
      echo "gauges.csv: the box's and the mesh's differ"
    fi
    ;;
  4)
    start=$SECONDS
    timeout 400 "$bin/case" --case cases/flood_street.yaml --backend cuda --dp 0.01 --t-end 4 \
      --no-frames --output-dir "$work/flood_street" > "$work/flood_street.log" 2>&1
    echo "flood_street: exit $? in $((SECONDS - start)) s; $(grep -h 'time loop' "$work/flood_street.log")"
    ;;
  esac
done
tar czf "$R/results.tgz" -C "$work" .
