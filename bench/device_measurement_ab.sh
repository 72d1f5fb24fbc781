#!/usr/bin/env bash
# Runs on a two-GPU machine over device-carry/ (scripts/pack_for_device.sh, the build before
# carried as dambreak-prev): what reading the instruments at every iteration costs this build
# against the one before. Into $OUT, a tarball of: gpu-tests/ (the CUDA tests of the carried test
# executables); same-bytes.txt (gauges.csv of DamBreak dp 0.02 m to 0.3 s on one GPU and on two,
# under mDBC and DBC at every iteration: md5s); costs-2gpu/ and costs-1gpu/ (bench/device_costs.sh
# on --devices 0,1 and 0, both builds, ROUNDS (default 2) and 1 rounds); instrument-profile/
# (traces of this build on two GPUs under DBC, bench/device_instrument_profile.sh).
# $1: a name for the work folder.
set -uo pipefail
source bench/device_env.sh
work_in "measurement-${1:-ab}"
OUT=$work bash bench/device_gpu_tests.sh
mkdir -p "$work/bytes"
for devices in 0 0,1; do
  for boundary in mdbc dbc; do
    name=${boundary}_${devices/,/-}
    "$bin/dambreak" --backend cuda --devices "$devices" --dp 0.02 --t-end 0.3 \
      --boundary "$boundary" --gauge-every 0.000001 --no-frames \
      --output-dir "$work/bytes/$name" > "$work/bytes/$name.log" 2>&1
    echo "$(md5sum < "$work/bytes/$name/gauges.csv" | cut -c1-32) $name" | tee -a "$work/same-bytes.txt"
  done
done
rm -rf "$work"/bytes/*/
runs="dbc:1 dbc:0.000001 dbc:1::dambreak-prev dbc:0.000001::dambreak-prev mdbc:1 mdbc:0.000001 \
  mdbc:1::dambreak-prev mdbc:0.000001::dambreak-prev"
mkdir -p "$work/costs-2gpu" "$work/costs-1gpu"
OUT=$work/costs-2gpu DEVICES=0,1 ROUNDS=${ROUNDS:-2} RUNS=$runs bash bench/device_costs.sh
OUT=$work/costs-1gpu DEVICES=0 ROUNDS=1 RUNS=$runs bash bench/device_costs.sh
OUT=$work DEVICES=0,1 BOUNDARY=dbc ROUNDS=1 bash bench/device_instrument_profile.sh
tar czf "$R/results.tgz" -C "$work" .
