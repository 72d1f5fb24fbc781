#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: the CUDA tests (bench/device_gpu_tests.sh), then
# what the instruments cost now that they run on the devices: Lobovsky at dp 0.005 with its
# probes and front every 0.5 ms (as in validation/results/h100-mdbc/lobovsky, where the host
# evaluation took 63 of 106 s), and DamBreak at dp 0.006 with its gauges, probes and front every
# iteration against once at the start and end. Logs in $OUT/instruments/.
set -uo pipefail
source bench/device_env.sh
[ "${SKIP_TESTS:-0}" = 1 ] || OUT=$out bash bench/device_gpu_tests.sh
out=$out/instruments
mkdir -p "$out"
run() {  # run NAME COMMAND...
  local name=$1; shift
  { echo "\$ $*"; "$@" --output-dir "$out/$name"; echo "# exit code $?"; } > "$out/$name.log" 2>&1
  echo "$name: $(grep -E 'wall time|mips average' "$out/$name.log" | sed 's/per 1.0 s.*//' | tr -s ' ' | tr '\n' ';')"
}
run lobovsky_dp0.005 "$bin/lobovsky" --backend cuda --dp 0.005 --t-end 1.4 --boundary mdbc \
  --slip free-slip --gauge-every 0.0005 --no-frames
for round in 1 2; do
  run dambreak_sparse_$round "$bin/dambreak" --backend cuda --dp 0.006 --t-end 0.15 --no-frames \
    --gauge-every 1
  run dambreak_every_iteration_$round "$bin/dambreak" --backend cuda --dp 0.006 --t-end 0.15 \
    --no-frames --gauge-every 0.000001
done
