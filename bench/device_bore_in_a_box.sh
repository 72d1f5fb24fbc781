#!/usr/bin/env bash
# Runs on the two-GPU machine (device kind nvidia-h200-x2) over device-carry/
# (scripts/pack_for_device.sh): BoreInABox (default dp, about 1.6 million fluid particles, 1.5 s)
# on 1 GPU, then on 2 GPUs with balancing off and on, output off; the paper's Tables 1 and 2.
# BENCH_VARIANTS picks the variants (default: wall corridor), BENCH_RUNS the runs as
# DEVICES:LB (default: 0:off 0,1:off 0,1:on). Logs and reports go to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/device-carry/lib
bin=$PWD/device-carry/bin
out=${OUT:-/tmp/out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
for variant in ${BENCH_VARIANTS:-wall corridor}; do
  for run in ${BENCH_RUNS:-0:off 0,1:off 0,1:on}; do
    set -- ${run/:/ }
    name=bore_${variant}_devices${1/,/-}_lb$2
    "$bin"/bore_in_a_box --backend cuda --variant "$variant" --devices "$1" --lb "$2" \
      --t-end "${BENCH_T_END:-1.5}" --no-output --output-dir "$out/$name" ${BENCH_ARGS:-} \
      > "$out/$name.log" 2>&1
    tail -n 22 "$out/$name.log"
    cp "$out/$name/run_report.json" "$out/$name.json"
    [ -f "$out/$name/load_balance.csv" ] && cp "$out/$name/load_balance.csv" "$out/$name.load_balance.csv"
  done
done
