#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/, with an earlier build as
# device-carry/bin/dambreak_before (whose t = 0 reading came from a host copy of every particle):
# every CUDA test of the carried executables; DamBreak's gauges.csv (dp 0.02 m, 0.3 s, read every
# 0.01 s) under DBC and mDBC on `0` and `0,0` with this build and on `0` with the one before, and
# which rows differ (only the first, t = 0, may: the devices read it now, summing in another
# order). Everything in $OUT/results.tgz.
set -uo pipefail
source bench/device_env.sh
work_in initial-reading
OUT=$work bash bench/device_gpu_tests.sh > "$work/gpu-tests.txt" 2>&1
grep -E "exit|FAILED" "$work/gpu-tests.txt"
for boundary in dbc mdbc; do
  for run in "before:dambreak_before:0" "now_0:dambreak:0" "now_0_0:dambreak:0,0"; do
    IFS=: read -r name exe devices <<< "$run"
    timeout 100 "$bin/$exe" --backend cuda --devices "$devices" --boundary "$boundary" --dp 0.02 \
      --t-end 0.3 --no-frames --gauge-every 0.01 --output-dir "$work/$boundary-$name" \
      > "$work/$boundary-$name.log" 2>&1 || echo "$boundary $name: FAILED"
  done
  a=$work/$boundary-now_0/gauges.csv
  cmp -s "$a" "$work/$boundary-now_0_0/gauges.csv" && echo "$boundary: 0,0 the same bytes as 0" ||
    echo "$boundary: 0,0 DIFFERS from 0"
  echo "$boundary: rows differing from the build before: $(diff <(tail -n +2 "$a") \
    <(tail -n +2 "$work/$boundary-before/gauges.csv") | grep -c '^<') of $(($(wc -l < "$a") - 1))," \
    "first data row $(cmp -s <(sed -n 2p "$a") <(sed -n 2p "$work/$boundary-before/gauges.csv") && echo same || echo differs)"
done 2>&1 | tee "$work/gauges.txt"
tar czf "$R/results.tgz" -C "$work" .
