#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): the checks and figures
# of rebuilding early where the flow would outrun the neighbour list's margin (--early-rebuild,
# src/driver/list_margin.h), in one call:
#   1. the CUDA instance of every carried test (device_gpu_tests.sh), unless SKIP_TESTS=1;
#   2. DamBreak at dp 0.01 m (1.05 M particles) from 0 to 1 s, output off, under DBC and mDBC,
#      with --early-rebuild on and off: mips, rebuilds, the margin's bound;
#   3. the same run under DBC with early rebuilds at other skins and intervals (SKINS, empty: none;
#      "skin:every" entries): with the margin kept, what a thicker list buys;
#   4. the benchmark's run (dp 0.006 m, 4.19 M, 0.05 s): whether it rebuilds early at all;
#   5. unless SKIP_VALIDATION=1, the validation cases at their default resolution under mDBC
#      (runs only: compare them here with validation/run_validation.py --from-output).
# Everything under $OUT; summary.txt there.
set -uo pipefail
source bench/device_env.sh
report() {  # name, log
  echo "$1: $(grep -E 'mips average' "$2" | sed 's/.*= \([0-9.]*\) mips.*/\1 mips/')" \
    "$(grep -E 'time loop|^  (rebuilds|list margin) ' "$2" | tr -s ' ' | tr '\n' ';')"
}
{
  if [ "${SKIP_TESTS:-0}" != 1 ]; then
    echo "== 1. CUDA tests"
    OUT=$out timeout 300 bash bench/device_gpu_tests.sh
  fi
  echo "== 2. DamBreak 0-1 s, early rebuilds on and off"
  mkdir -p "$out/whole-run"
  for boundary in dbc mdbc; do
    for early in on off; do
      name=${boundary}_early-$early
      timeout 60 "$bin"/dambreak --backend cuda --dp 0.01 --t-end 1 --no-output \
        --boundary "$boundary" --early-rebuild "$early" --output-dir "$out/whole-run/$name" \
        > "$out/whole-run/$name.log" 2>&1
      echo "exit $?"; report "$name" "$out/whole-run/$name.log"
    done
  done
  echo "== 3. skins with early rebuilds"
  for entry in ${SKINS-0.1:10 0.12:12 0.1:16 0.06:8}; do
    IFS=: read -r skin every <<< "$entry"
    name=dbc_skin${skin}_every${every}
    timeout 60 "$bin"/dambreak --backend cuda --dp 0.01 --t-end 1 --no-output \
      --list-skin "$skin" --rebuild-every "$every" --output-dir "$out/whole-run/$name" \
      > "$out/whole-run/$name.log" 2>&1
    echo "exit $?"; report "$name" "$out/whole-run/$name.log"
    grep -E 'neighbours +at most' "$out/whole-run/$name.log"
  done
  echo "== 4. the benchmark's run"
  timeout 60 "$bin"/dambreak --backend cuda --dp 0.006 --t-end 0.05 --no-output \
    --output-dir "$out/bench-run" > "$out/bench-run.log" 2>&1
  echo "exit $?"; report "dp 0.006 0-0.05 s" "$out/bench-run.log"
  if [ "${SKIP_VALIDATION:-0}" != 1 ]; then
    echo "== 5. validation"
    timeout 300 python3 validation/run_validation.py --build-dir device-carry --backend cuda \
      --runs-only --cases spheric,column_collapse,hydrostatic --spheric-dp 0.01 \
      --out "$out/validation" -- --boundary mdbc > "$out/validation-console.log" 2>&1
    echo "validation: exit $?"
  fi
} 2>&1 | tee "$out/summary.txt"
