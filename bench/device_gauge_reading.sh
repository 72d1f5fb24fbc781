#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: SPHERIC test 2 (validation/spheric_dambreak.py, runs
# only) at dp 0.01 m under mDBC with free-slip walls, its gauges reading the wetted length
# (--gauge-reading wetted) and the free surface (surface), one run each. READINGS picks them
# (default "wetted surface"). In $OUT/gauge-reading.tgz; the metrics come from --from-output where
# numpy is.
set -uo pipefail
source bench/device_env.sh
work_in gauge-reading
for reading in ${READINGS:-wetted surface}; do
  timeout "${RUN_LIMIT:-290}" python3 validation/spheric_dambreak.py --exe "$bin/dambreak" \
    --backend cuda --dp 0.01 --runs-only --out "$work/spheric-$reading" -- --boundary mdbc \
    --slip free-slip --gauge-reading "$reading" > "$work/spheric-$reading.log" 2>&1
  echo "$reading: exit $?"; grep -E "throughput|wall time" "$work/spheric-$reading"/runs/*/console.log 2>/dev/null | head -2
done
tar czf "$R/gauge-reading.tgz" -C "$work" .
