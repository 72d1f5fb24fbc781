#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: where the time of instruments read every iteration
# goes. DamBreak at dp 0.006 (4.19 M particles) with its gauges, probes and front every iteration,
# a Chrome trace of iterations 200-230 (kernels and copies per stream), against the same run
# reading them once. Logs and traces in $OUT/instrument-profile/. BOUNDARY=mdbc: under mDBC
# (default: the problem's own walls, DBC); EXE: another carried DamBreak (default dambreak);
# DEVICES: the runs' --devices (default 0).
set -uo pipefail
source bench/device_env.sh
out=$out/instrument-profile
mkdir -p "$out"
run() {  # run NAME COMMAND...
  local name=$1; shift
  { echo "\$ $*"; "$@" --output-dir "$out/$name"; echo "# exit code $?"; } > "$out/$name.log" 2>&1
  echo "$name: $(grep -E 'wall time|mips average' "$out/$name.log" | sed 's/per 1.0 s.*//' | tr -s ' ' | tr '\n' ';')"
}
boundary="${BOUNDARY:+--boundary $BOUNDARY} --devices ${DEVICES:-0}"
# shellcheck disable=SC2086  # boundary: an option and its value, or nothing
for round in ${ROUNDS:-1 2}; do
  run dambreak_sparse_$round "$bin/${EXE:-dambreak}" --backend cuda $boundary --dp 0.006 --t-end 0.1 --no-frames \
    --gauge-every 1 --trace "$out/sparse_$round.json" --trace-iterations 200:230
  run dambreak_every_iteration_$round "$bin/${EXE:-dambreak}" --backend cuda $boundary --dp 0.006 --t-end 0.1 \
    --no-frames --gauge-every 0.000001 --trace "$out/every_$round.json" \
    --trace-iterations 200:230
done
