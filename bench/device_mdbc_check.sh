#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the CUDA instances of
# every carried test (kernel chain, mDBC, still water, several devices on one GPU, CPU vs CUDA),
# then DamBreak's speed and memory under DBC and mDBC, alternated, output off. Logs go to
# $OUT/mdbc-check/.
set -uo pipefail
source bench/device_env.sh
out=$out/mdbc-check
mkdir -p "$out"
for exe in "$bin"/test_*; do
  test=$(basename "$exe")
  "$exe" --gtest_filter='*Cuda*:*Gpu*' > "$out/$test.log" 2>&1
  echo "$test: exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$test.log"
done
grep -h "CPU vs CUDA\|mDBC:" "$out"/test_*.log
dp=${BENCH_DP:-0.006}
t_end=${BENCH_T_END:-0.15}
for round in 1 2; do
  for boundary in dbc mdbc; do
    run=$out/dambreak_${boundary}_$round
    cmd=("$bin/dambreak" --backend cuda --dp "$dp" --t-end "$t_end" --boundary "$boundary"
         --no-output --output-dir "$run")
    { echo "\$ ${cmd[*]}"; "${cmd[@]}"; echo "# exit code $?"; } > "$run.log" 2>&1
    echo "$boundary round $round: $(grep -E 'mips|bytes/particle|mDBC walls' "$run.log" | tr -s ' ' | tr '\n' ';')"
    cp "$run/run_report.json" "$run.json" 2>/dev/null
  done
done
