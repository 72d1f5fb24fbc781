#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: load panels (--wall-panel, instruments/gauges.h).
# The hydrostatic tank at H / dp 40 under mDBC to 4 s (validation/hydrostatic.py: panel F1 over
# the wall x = 0 against rho0 g H^2 W / 2); DamBreak under mDBC, dp 0.02 m, to 1.5 s, rows every
# 1 ms of means (F_obstacle, the obstacle's face), on `0` and `0,0` (the same bytes expected);
# Lobovsky at dp 0.005 m (F_wall); then every carried test's CUDA instances. Runs only: the
# metrics come from --from-output where numpy is. In $OUT/wall-panels.tar.xz.
set -uo pipefail
source bench/device_env.sh
work_in wall-panels
start=$SECONDS
timeout 200 python3 validation/hydrostatic.py --exe "$bin/still_water" --backend cuda \
  --dp 0.0125 --t-end 4 --runs-only --out "$work/hydrostatic-mdbc-t4" -- --boundary mdbc \
  > "$work/hydrostatic.log" 2>&1
echo "hydrostatic: exit $? in $((SECONDS - start)) s"
for devices in 0 0,0; do
  start=$SECONDS
  timeout 150 "$bin/dambreak" --backend cuda --devices "$devices" --dp 0.02 --t-end 1.5 \
    --boundary mdbc --slip free-slip --gauge-average --gauge-every 0.001 --no-frames \
    --output-dir "$work/dambreak-$devices" > "$work/dambreak-$devices.log" 2>&1
  echo "dambreak --devices $devices: exit $? in $((SECONDS - start)) s"
done
cmp "$work/dambreak-0/gauges.csv" "$work/dambreak-0,0/gauges.csv" && echo "gauges.csv: same bytes"
start=$SECONDS
timeout 200 python3 validation/lobovsky.py --build-dir device-carry --backend cuda --runs-only \
  --dp 0.005 --out "$work/lobovsky" -- --slip free-slip > "$work/lobovsky.log" 2>&1
echo "lobovsky: exit $? in $((SECONDS - start)) s"
OUT=$work bash bench/device_gpu_tests.sh > "$work/gpu-tests.txt" 2>&1
grep -c "PASSED" "$work/gpu-tests.txt"; grep -E "FAILED|exit [1-9]" "$work/gpu-tests.txt"
tar cf - -C "$work" . | xz -T0 -6 > "$R/wall-panels.tar.xz"
