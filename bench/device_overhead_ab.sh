#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh), with an earlier build's
# DamBreak as device-carry/bin/dambreak_before: the time outside the kernels, both builds in turn,
# ROUNDS times: DamBreak at 1.05 M (dp 0.01, 0.08 s) and 4.19 M (dp 0.006, 0.05 s) on one device,
# and at 4.19 M on two devices sharing the GPU (--devices 0,0); then each build's table
# (bench/one_gpu_table.py: mips, kernel shares, the share outside the kernels). Logs, reports and
# tables in $OUT/overhead-ab/.
set -uo pipefail
source bench/device_env.sh
out=$out/overhead-ab
mkdir -p "$out"
for round in $(seq "${ROUNDS:-2}"); do
  for build in before after; do
    exe=$bin/dambreak; [ "$build" = before ] && exe=$bin/dambreak_before
    for run in "0.01:0.08:0" "0.006:0.05:0" "0.006:0.05:0,0"; do
      IFS=: read -r dp t_end devices <<< "$run"
      name=${build}_dp${dp}_devices${devices}_$round
      "$exe" --backend cuda --devices "$devices" --dp "$dp" --t-end "$t_end" --no-output \
        --output-dir "$out/$name" > "$out/$name.log" 2>&1
      echo "$name: exit $? $(grep -E 'mips average' "$out/$name.log" | sed 's/.*= \([0-9.]*\) mips.*/\1 mips/')"
    done
  done
done
for build in before after; do
  python3 bench/one_gpu_table.py "$out"/${build}_*/run_report.json > "$out/table_$build.md"
  echo "== $build"; grep -E '^\| (run|mips|share of the loop outside)' "$out/table_$build.md"
done
