#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh), with an earlier build's
# DamBreak as device-carry/bin/dambreak_before: the list kept warp by warp (this build) against
# the list kept at its largest (before), in turn on the same GPU, ROUNDS times: DamBreak, output
# off, at 1.05 M (dp 0.01, to 0.08 s) and 4.19 M (dp 0.006, to 0.05 s), the benchmark's runs;
# and DamBreak's first second at 1.05 M (early rebuilds: a rebuild every 5.8 iterations), where
# the list build's price shows. Each run's report (bytes per particle, kernel times) is kept.
# BUILDS names more builds to take turns (device-carry/bin/dambreak_NAME; "after" is dambreak).
# Logs and reports in $OUT/compact-list/.
set -uo pipefail
source bench/device_env.sh
out=$out/compact-list
mkdir -p "$out"
for round in $(seq "${ROUNDS:-2}"); do
  for build in ${BUILDS:-before after}; do
    exe=$bin/dambreak_$build; [ "$build" = after ] && exe=$bin/dambreak
    for run in ${AB_RUNS:-0.01:0.08 0.006:0.05 0.01:1.0}; do
      IFS=: read -r dp t_end <<< "$run"
      name=${build}_dp${dp}_t${t_end}_$round
      "$exe" --backend cuda --dp "$dp" --t-end "$t_end" --no-output \
        --output-dir "$out/$name" > "$out/$name.log" 2>&1
      echo "$name: exit $? $(grep -E 'mips average' "$out/$name.log" | sed 's/.*= \([0-9.]*\) mips.*/\1 mips/') $(grep -E 'bytes/particle|B/particle|per particle' "$out/$name.log" | head -1)"
    done
  done
done
