#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): what the run reports of
# the neighbour list's margin (src/driver/list_margin.h) in DamBreak at dp 0.01 m (1.05 M
# particles) to 1 s, under DBC and under mDBC, with the default list. Logs in $OUT/list-margin/.
set -uo pipefail
source bench/device_env.sh
out=$out/list-margin
mkdir -p "$out"
for boundary in dbc mdbc; do
  timeout 120 "$bin"/dambreak --backend cuda --dp 0.01 --t-end 1 --no-output \
    --boundary "$boundary" --output-dir "$out/$boundary" > "$out/$boundary.log" 2>&1
  echo "$boundary: exit $?"
  grep -E "^warning: before|list margin|mips average" "$out/$boundary.log" | sed 's/per 1.0 s.*//'
done
