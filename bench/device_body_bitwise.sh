#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: whether the gate release (cases/gate_release.yaml)
# runs to the same gauges on --devices 0 and 0,0, with the gate moving and held still (its
# `bodies` removed), under DBC and mDBC, balancing on; and the wave flume at dp 0.005 m, mDBC.
# Usage there: bash bench/device_body_bitwise.sh
set -uo pipefail
source bench/device_env.sh
work_in body_bitwise
sed '/^bodies:/,/motion:/d' cases/gate_release.yaml > cases/gate_still.yaml
for walls in dbc mdbc; do
  for name in gate_release gate_still; do
    for devices in 0 0,0; do
      timeout 100 "$bin/case" --case cases/$name.yaml --backend cuda --devices $devices --dp 0.01 \
        --t-end 0.2 --boundary $walls --lb on --no-frames --gauge-every 0.001 \
        --output-dir "$work/${name}_${walls}_$devices" > "$work/${name}_${walls}_$devices.log" 2>&1
      echo "$name $walls $devices: exit $?"
    done
    if cmp -s "$work/${name}_${walls}_0/gauges.csv" "$work/${name}_${walls}_0,0/gauges.csv"; then
      echo "$name $walls: gauges the same bytes on 0 and 0,0"
    else
      echo "$name $walls: gauges differ between 0 and 0,0"
    fi
  done
done
start=$SECONDS
timeout 300 "$bin/case" --case cases/wave_flume.yaml --backend cuda --dp 0.005 --t-end 5 \
  --boundary mdbc --no-frames --gauge-every 0.01 --output-dir "$work/wave_flume_0.005_mdbc" \
  > "$work/wave_flume_0.005_mdbc.log" 2>&1
echo "wave_flume dp 0.005 mdbc: exit $? in $((SECONDS - start)) s"
tar czf "$R/results.tgz" -C "$work" .
