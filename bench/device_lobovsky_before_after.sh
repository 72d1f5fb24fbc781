#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with the build before a change as
# device-carry/bin/lobovsky_before: Lobovsky at dp 0.005 m under mDBC to LOBOVSKY_T_END (default
# 0.6 s: the impact and the spray, a rebuild every one or two iterations), both builds, in
# $OUT/lobovsky_*_dp0.005/; their speed and rebuilds, and whether gauges.csv kept its bytes
# (bench/gauge_differences.py says by how much it moved where it did not).
set -uo pipefail
source bench/device_env.sh
for exe in lobovsky_before lobovsky; do
  name=${exe}_dp0.005
  timeout 200 "$bin/$exe" --backend cuda --dp 0.005 --t-end "${LOBOVSKY_T_END:-0.6}" \
    --boundary mdbc --slip free-slip --gauge-every 0.0005 --no-frames \
    --output-dir "$out/$name" > "$out/$name.log" 2>&1
  echo "$name: exit $? $(grep -E 'mips average' "$out/$name.log" | sed 's/per 1.0 s.*//')"
  grep -E '^  rebuilds ' "$out/$name.log"
done
if cmp -s "$out/lobovsky_before_dp0.005/gauges.csv" "$out/lobovsky_dp0.005/gauges.csv"; then
  echo "Lobovsky gauges.csv: the same bytes as before"
else
  echo "Lobovsky gauges.csv: DIFFERS from before"
  python3 bench/gauge_differences.py "$out/lobovsky_before_dp0.005/gauges.csv" \
    "$out/lobovsky_dp0.005/gauges.csv"
fi
