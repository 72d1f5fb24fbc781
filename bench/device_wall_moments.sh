#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: moment panels (--wall-moment, instruments/gauges.h).
# The hydrostatic tank at H / dp 40 under mDBC to 4 s (validation/hydrostatic.py: M1, the moment
# of the water's force on the wall x = 0 about its foot, against rho0 g H^3 W / 6); DamBreak under
# mDBC, dp 0.02 m, to 1.5 s, rows every 1 ms of means (F_obstacle and M_obstacle), on `0` and
# `0,0` (the same bytes expected); what reading DamBreak's instruments at every iteration costs
# now that they hold two panels (bench/device_costs.sh, ROUNDS rounds, default 3); then every
# carried test's CUDA instances. Runs only: the metrics come from --from-output where numpy is.
# In $OUT/wall-moments.tar.xz.
set -uo pipefail
source bench/device_env.sh
work_in wall-moments
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
OUT=$work ROUNDS=${ROUNDS:-3} RUNS="dbc:1 dbc:0.000001" bash bench/device_costs.sh
OUT=$work bash bench/device_gpu_tests.sh > "$work/gpu-tests.txt" 2>&1
grep -c "PASSED" "$work/gpu-tests.txt"; grep -E "FAILED|exit [1-9]" "$work/gpu-tests.txt"
tar cf - -C "$work" . | xz -T0 -6 > "$R/wall-moments.tar.xz"
