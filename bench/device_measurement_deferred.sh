#!/usr/bin/env bash
# Runs on a two-GPU machine over device-carry/ (scripts/pack_for_device.sh, the build before
# carried as dambreak-prev): a measurement whose points, front and copy back are launched once
# the next step's Forces is queued. Into $OUT, a tarball of: gpu-tests/ (the CUDA tests of the
# carried test executables); same-bytes.txt (gauges.csv of DamBreak dp 0.02 m to 0.3 s on one GPU
# and on two, under mDBC at every iteration and every 1 ms, under DBC at every iteration: md5s);
# costs-1gpu/ and costs-2gpu/ (bench/device_costs.sh on --devices 0 and 0,1, one round each).
set -uo pipefail
source bench/device_env.sh
work_in measurement-deferred
OUT=$work bash bench/device_gpu_tests.sh
mkdir -p "$work/bytes"
for devices in 0 0,1; do
  for run in mdbc:0.000001 mdbc:0.001 dbc:0.000001; do
    IFS=: read -r boundary every <<< "$run"
    name=${boundary}_${devices/,/-}_$every
    "$bin/dambreak" --backend cuda --devices "$devices" --dp 0.02 --t-end 0.3 \
      --boundary "$boundary" --gauge-every "$every" --no-frames \
      --output-dir "$work/bytes/$name" > "$work/bytes/$name.log" 2>&1
    echo "$(md5sum < "$work/bytes/$name/gauges.csv" | cut -c1-32) $name" | tee -a "$work/same-bytes.txt"
  done
done
rm -rf "$work"/bytes/*/
mkdir -p "$work/costs-2gpu" "$work/costs-1gpu"
OUT=$work/costs-2gpu DEVICES=0,1 ROUNDS=1 RUNS="mdbc:1 mdbc:0.000001 dbc:1 dbc:0.000001 \
  mdbc:1::dambreak-prev mdbc:0.000001::dambreak-prev" bash bench/device_costs.sh
OUT=$work/costs-1gpu DEVICES=0 ROUNDS=1 RUNS="mdbc:1 mdbc:0.000001 dbc:1 dbc:0.000001" \
  bash bench/device_costs.sh
tar czf "$R/results.tgz" -C "$work" .
