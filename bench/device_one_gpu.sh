#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: DamBreak on one GPU at several sizes, output off,
# about 1000 iterations each (BENCH_RUNS: "dp:t_end" entries; BENCH_OPTIONS: more options for every
# run, e.g. "--devices 0,0"), and the table of their run reports
# (bench/one_gpu_table.py: mips, bytes per particle per array, kernel shares) with the card's
# measured ceilings (gpu_ceiling). Logs, reports, gpu_ceiling.json and table.md in
# $OUT/$BENCH_NAME/ (default one-gpu), so that runs of several modes in one call stay apart.
# BENCH_EXE: the executable in device-carry/bin (default dambreak; dambreak_before for an A/B).
set -uo pipefail
source bench/device_env.sh
out=$out/${BENCH_NAME:-one-gpu}
mkdir -p "$out"
reports=()
for run in ${BENCH_RUNS:-0.01:0.08 0.006:0.05 0.0027:0.022}; do
  IFS=: read -r dp t_end <<< "$run"
  # shellcheck disable=SC2086
  "$bin"/${BENCH_EXE:-dambreak} --backend cuda --dp "$dp" --t-end "$t_end" --no-output ${BENCH_OPTIONS:-} \
    --output-dir "$out/dambreak_dp$dp" > "$out/dambreak_dp$dp.log" 2>&1
  echo "dp $dp: exit $? $(grep -E 'mips average' "$out/dambreak_dp$dp.log" | sed 's/per 1.0 s.*//')"
  reports+=("$out/dambreak_dp$dp/run_report.json")
done
"$bin"/gpu_ceiling > "$out/gpu_ceiling.json" 2> "$out/gpu_ceiling.err" || cat "$out/gpu_ceiling.err"
python3 bench/one_gpu_table.py --ceiling "$out/gpu_ceiling.json" "${reports[@]}" | tee "$out/table.md"
