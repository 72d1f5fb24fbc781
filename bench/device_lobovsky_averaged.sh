#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: Lobovsky's resolution study (validation/lobovsky.py,
# mDBC, free-slip, dp 0.01 / 0.005 / 0.0035 / 0.0025 m) with rows of 0.5 ms means of readings
# taken at every iteration (--gauge-average, the case's default now); DamBreak's gauges.csv under
# --gauge-average on `0` and `0,0` (the same bytes expected); then every carried test's CUDA
# instances. Runs only: the metrics come from --from-output where numpy is. In
# $OUT/lobovsky-averaged.tar.xz.
set -uo pipefail
source bench/device_env.sh
work_in lobovsky-averaged
start=$SECONDS
timeout "${RUN_LIMIT:-480}" python3 validation/lobovsky.py --build-dir device-carry --backend cuda \
  --runs-only --dp "${DPS:-0.01,0.005,0.0035,0.0025}" --out "$work/lobovsky" \
  -- --slip free-slip > "$work/lobovsky.log" 2>&1
echo "lobovsky: exit $? in $((SECONDS - start)) s"
grep -h "time loop" "$work"/lobovsky/runs/*/console.log
for devices in 0 0,0; do
  "$bin/dambreak" --backend cuda --devices "$devices" --dp 0.02 --t-end 0.3 --boundary mdbc \
    --gauge-average --gauge-every 0.01 --no-frames --output-dir "$work/dambreak-$devices" \
    > "$work/dambreak-$devices.log" 2>&1
  echo "dambreak --devices $devices: exit $?"
done
cmp "$work/dambreak-0/gauges.csv" "$work/dambreak-0,0/gauges.csv" && echo "gauges.csv: same bytes"
OUT=$work bash bench/device_gpu_tests.sh > "$work/gpu-tests.txt" 2>&1
grep -c "PASSED" "$work/gpu-tests.txt"; grep -E "FAILED|exit [1-9]" "$work/gpu-tests.txt"
tar cf - -C "$work" . | xz -T0 -6 > "$R/lobovsky-averaged.tar.xz"
