#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): issue 21's two costs
# with the current build, in turn on the same GPU, ROUNDS times (default 2): DamBreak at dp
# 0.006 m (4.19 M particles) to 0.15 s, the gauges and probes read once a second (DBC: the
# baseline), at every iteration (DBC), and once a second under mDBC. Logs in $OUT/costs/ (the
# runs' folders are removed, their reports kept). RUNS: which of them, as "boundary:every" entries,
# or "boundary:every:average" for rows of means of readings at every iteration (--gauge-average);
# each entry may end in ":EXE", a carried executable other than dambreak (a build to compare).
# DEVICES: the runs' --devices (default 0; 0,1 splits them over two GPUs).
set -uo pipefail
source bench/device_env.sh
out=$out/costs
mkdir -p "$out"
for round in $(seq "${ROUNDS:-2}"); do
  for run in ${RUNS:-dbc:1 dbc:0.000001 mdbc:1}; do
    IFS=: read -r boundary every average exe <<< "$run"
    name=${exe:+${exe}_}${boundary}_every${every}${average:+_average}_$round
    "$bin/${exe:-dambreak}" --backend cuda --devices "${DEVICES:-0}" --dp 0.006 --t-end 0.15 --no-frames --boundary "$boundary" \
      --gauge-every "$every" ${average:+--gauge-average} --output-dir "$out/$name" \
      > "$out/$name.log" 2>&1
    echo "$name: exit $? $(grep -E 'mips average' "$out/$name.log" | sed 's/.*= \([0-9.]*\) mips.*/\1 mips/')"
    cp "$out/$name/run_report.json" "$out/$name.json" 2>/dev/null
    rm -rf "${out:?}/$name"
  done
done
