#!/usr/bin/env bash
# Runs on the GPU machine: the build in baseline-carry/ (A) against device-pack/ (B), alternated,
# DamBreak on --devices 0,0 (AB_OPTIONS) at AB_RUNS ("dp:t_end" entries), AB_ROUNDS rounds; the
# table of every run report (bench/one_gpu_table.py) per build. Logs in $OUT/ab/.
set -uo pipefail
out=${OUT:-/tmp/out}/ab
mkdir -p "$out" A B
tar xJf baseline-carry/carry.tar.xz -C A && tar xJf device-pack/carry.tar.xz -C B
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$out/gpu.txt"
for round in $(seq "${AB_ROUNDS:-2}"); do
  for build in A B; do
    for run in ${AB_RUNS:-0.01:0.08 0.006:0.05}; do
      IFS=: read -r dp t_end <<< "$run"
      name=$build-r$round-dp$dp
      # shellcheck disable=SC2086
      LD_LIBRARY_PATH=$PWD/$build/device-carry/lib "$build"/device-carry/bin/dambreak \
        --backend cuda --dp "$dp" --t-end "$t_end" --no-output ${AB_OPTIONS:---devices 0,0} \
        --output-dir "$out/$name" > "$out/$name.log" 2>&1
      echo "$name: exit $? $(grep -E 'mips average' "$out/$name.log" | sed 's/per 1.0 s.*//')"
    done
  done
done
for build in A B; do
  python3 bench/one_gpu_table.py "$out"/$build-r*/run_report.json > "$out/table-$build.md"
  grep -E "^\| run|mips|outside kernels|dt minimum" "$out/table-$build.md"
done
