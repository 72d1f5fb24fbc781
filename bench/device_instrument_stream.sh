#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the instruments on a
# stream of their own, beside Forces (src/devices/cuda/cuda_instruments.cu), in one call:
#   1. the CUDA instance of every carried test (device_gpu_tests.sh);
#   2. the instruments' cost (device_instruments.sh: DamBreak at dp 0.006 m measuring every
#      iteration against once, twice each; Lobovsky at dp 0.005 m every 0.5 ms);
#   3. Lobovsky as in 2 with --early-rebuild off, and without its instruments (--gauge-every
#      100), both with early rebuilds off: what the early rebuilds cost there, and the
#      instruments' share on their own.
# Everything under $OUT; summary.txt there.
set -uo pipefail
source bench/device_env.sh
{
  echo "== 1. CUDA tests"
  OUT=$out timeout 240 bash bench/device_gpu_tests.sh
  echo "== 2. instruments"
  OUT=$out SKIP_TESTS=1 timeout 200 bash bench/device_instruments.sh
  echo "== 3. Lobovsky without early rebuilds"
  mkdir -p "$out/lobovsky-early-off"
  for every in 0.0005 100; do
    name=lobovsky_dp0.005_every$every
    timeout 60 "$bin"/lobovsky --backend cuda --dp 0.005 --t-end 1.4 --boundary mdbc \
      --slip free-slip --gauge-every "$every" --no-frames --early-rebuild off \
      --output-dir "$out/lobovsky-early-off/$name" > "$out/lobovsky-early-off/$name.log" 2>&1
    echo "$name: exit $? $(grep -E 'mips average' "$out/lobovsky-early-off/$name.log" | sed 's/per 1.0 s.*//')"
    grep -E '^  (rebuilds|list margin) ' "$out/lobovsky-early-off/$name.log"
  done
} 2>&1 | tee "$out/summary.txt"
