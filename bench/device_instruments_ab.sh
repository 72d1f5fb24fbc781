#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh), with an earlier build's
# DamBreak as device-carry/bin/dambreak_before: the instruments' cost in both builds, in turn on
# the same GPU (DamBreak at dp 0.006 m, 4.19 M, to 0.15 s, measuring every iteration against
# once a second, ROUNDS times). Logs in $OUT/instruments-ab/.
set -uo pipefail
source bench/device_env.sh
out=$out/instruments-ab
mkdir -p "$out"
for round in $(seq "${ROUNDS:-2}"); do
  for build in before after; do
    exe=$bin/dambreak; [ "$build" = before ] && exe=$bin/dambreak_before
    for every in 1 0.000001; do
      name=${build}_every${every}_$round
      "$exe" --backend cuda --dp 0.006 --t-end 0.15 --no-frames --gauge-every "$every" \
        --output-dir "$out/$name" > "$out/$name.log" 2>&1
      echo "$name: exit $? $(grep -E 'mips average' "$out/$name.log" | sed 's/.*= \([0-9.]*\) mips.*/\1 mips/')"
      rm -rf "${out:?}/$name"
    done
  done
done
