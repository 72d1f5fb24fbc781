#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the checks and figures
# of the thinner neighbour list by default (--list-skin 0.08 --rebuild-every 8; bench/NOTES.md
# entry 8), in one call:
#   1. the CUDA instance of every carried test (device_gpu_tests.sh);
#   2. the validation cases at their default resolution under mDBC, runs only (compare them here
#      with validation/run_validation.py --from-output);
#   3. the skin sweep at two more points (device_list_skin.sh);
#   4. the lean mode (--neighbours cells) at 4.19 M with the old and the new list radius;
#   5. the one-GPU table at 1.05, 4.19 and 49.5 M particles (device_one_gpu.sh).
# Everything under $OUT; summary.txt there.
set -uo pipefail
source bench/device_env.sh
{
  echo "== 1. CUDA tests"
  OUT=$out timeout 300 bash bench/device_gpu_tests.sh
  echo "== 2. validation"
  timeout 300 python3 validation/run_validation.py --build-dir device-carry --backend cuda \
    --runs-only --cases spheric,column_collapse,hydrostatic --spheric-dp 0.01 \
    --out "$out/validation" -- --boundary mdbc > "$out/validation-console.log" 2>&1
  echo "validation: exit $?"
  echo "== 3. skin sweep"
  OUT=$out SKINS="0.09:9 0.12:12 0.08:8" ROUNDS=2 timeout 120 bash bench/device_list_skin.sh
  echo "== 4. lean mode"
  mkdir -p "$out/lean"
  for entry in 0.1:10 0.08:8; do
    IFS=: read -r skin every <<< "$entry"
    timeout 60 "$bin"/dambreak --backend cuda --dp 0.006 --t-end 0.05 --no-output \
      --neighbours cells --list-skin "$skin" --rebuild-every "$every" \
      --output-dir "$out/lean/skin$skin" > "$out/lean/skin$skin.log" 2>&1
    echo "cells, skin $skin every $every: exit $? $(grep -E 'mips average' "$out/lean/skin$skin.log" | sed 's/.*= \([0-9.]*\) mips.*/\1 mips/')"
  done
  echo "== 5. one GPU"
  OUT=$out BENCH_RUNS="0.01:0.08 0.006:0.05 0.0025:0.02" timeout 200 bash bench/device_one_gpu.sh
} 2>&1 | tee "$out/summary.txt"
