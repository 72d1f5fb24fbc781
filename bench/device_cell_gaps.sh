#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh), with the build before
# the change as device-carry/bin/{dambreak,lobovsky}_before: the walks that pass over cells beyond
# the radius (CellGrid::gap_to_cell), in one call:
#   1. the CUDA instance of every carried test (device_gpu_tests.sh);
#   2. before and after, in turn: DamBreak at dp 0.006 m (4.19 M, 0.05 s) with the list and with
#      --neighbours cells (the lean mode), DamBreak at dp 0.01 m from 0 to 1 s (early rebuilds),
#      Lobovsky at dp 0.005 m to 1.4 s under mDBC; gauges written (no frames), and each run's
#      gauges.csv compared with its counterpart's bytes.
# Everything under $OUT; summary.txt there.
set -uo pipefail
source bench/device_env.sh
mips() { grep -E 'mips average' "$1" | sed 's/.*= \([0-9.]*\) mips.*/\1/'; }
{
  echo "== 1. CUDA tests"
  OUT=$out timeout 240 bash bench/device_gpu_tests.sh
  echo "== 2. before and after"
  mkdir -p "$out/ab"
  cases=("dambreak|bench|--dp 0.006 --t-end 0.05"
         "dambreak|lean|--dp 0.006 --t-end 0.05 --neighbours cells"
         "dambreak|whole|--dp 0.01 --t-end 1"
         "lobovsky|lobovsky|--dp 0.005 --t-end 1.4 --boundary mdbc --slip free-slip")
  for round in 1 2; do
    for entry in "${cases[@]}"; do
      IFS='|' read -r exe name options <<< "$entry"
      [ "$name" = lobovsky ] && [ "$round" = 2 ] && continue
      for build in before after; do
        binary=$bin/$exe; [ "$build" = before ] && binary=$bin/${exe}_before
        run=$out/ab/${name}_${build}_$round
        # shellcheck disable=SC2086
        timeout 120 "$binary" --backend cuda $options --no-frames --output-dir "$run" \
          > "$run.log" 2>&1
        echo "$name $build round $round: exit $? $(mips "$run.log") mips" \
          "$(grep -E '^  (BuildNeibs|Forces) ' "$run.log" | tr -s ' ' | tr '\n' ';')"
      done
      if cmp -s "$out/ab/${name}_before_$round/gauges.csv" "$out/ab/${name}_after_$round/gauges.csv"; then
        echo "$name round $round: gauges.csv the same bytes"
      else
        echo "$name round $round: gauges.csv DIFFERS"
      fi
    done
  done
} 2>&1 | tee "$out/summary.txt"
