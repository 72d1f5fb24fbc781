#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the CUDA instances of
# every carried test (bench/device_gpu_tests.sh; SKIP_TESTS=1 skips them), then DamBreak's speed
# and memory under DBC and mDBC, alternated, output off. Logs go to $OUT/mdbc-check/.
set -uo pipefail
source bench/device_env.sh
out=$out/mdbc-check
mkdir -p "$out"
[ "${SKIP_TESTS:-0}" = 1 ] || OUT=$out bash bench/device_gpu_tests.sh
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
