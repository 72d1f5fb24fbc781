#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh), with earlier builds'
# executables as device-carry/bin/*_before: Lobovsky's impact at dp 0.005 under mDBC (early
# rebuilds every 1.5 iterations once its spray is out), both builds in turn; then gauges.csv of
# DamBreak from both builds, byte for byte (device_gauges_against_before.sh), under DBC and mDBC.
# Logs in $OUT/compact-list-lobovsky/.
set -uo pipefail
source bench/device_env.sh
out=$out/compact-list-lobovsky
mkdir -p "$out"
for build in before after; do
  exe=$bin/lobovsky; [ "$build" = before ] && exe=$bin/lobovsky_before
  name=lobovsky_dp0.005_$build
  timeout 150 "$exe" --backend cuda --dp 0.005 --t-end 1.4 --boundary mdbc --slip free-slip \
    --gauge-every 0.0005 --no-frames --output-dir "$out/$name" > "$out/$name.log" 2>&1
  echo "$name: exit $? $(grep -E 'mips average' "$out/$name.log" | sed 's/per 1.0 s.*//')"
  grep -E '^  (rebuilds|memory) |^note' "$out/$name.log"
  rm -rf "${out:?}/$name"
done
OUT=$out bash bench/device_gauges_against_before.sh
OUT=$out/mdbc GAUGE_OPTIONS="--boundary mdbc" bash bench/device_gauges_against_before.sh
# The list's growth, as the log says it: DamBreak's first second at 1.05 M.
"$bin"/dambreak --backend cuda --dp 0.01 --t-end 1.0 --no-output --output-dir "$out/growth" \
  > "$out/growth.log" 2>&1
echo "growth run: exit $?"; grep -E '^note|^  memory ' "$out/growth.log"
