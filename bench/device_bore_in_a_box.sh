#!/usr/bin/env bash
# Runs on the two-GPU machine (device kind nvidia-h200-x2) over device-carry/
# (scripts/pack_for_device.sh): BoreInABox (default dp, about 1.6 million fluid particles, 1.5 s)
# on 1 GPU, then on 2 GPUs with balancing off and on, output off; the paper's Tables 1 and 2.
# BENCH_VARIANTS picks the variants (default: wall corridor), BENCH_RUNS the runs as
# DEVICES:LB (default: 0:off 0,1:off 0,1:on). Each run goes to $OUT/bore-<variant>/runs/<config>/
# (bench/series_run.sh); 2-GPU runs trace iterations BENCH_TRACE (default 20000:20020, the bore
# well under way). Then, here: validation/scaling_report.py --from-runs <fetched>/bore-<variant>.
set -uo pipefail
source bench/device_env.sh
source bench/series_run.sh
for variant in ${BENCH_VARIANTS:-wall corridor}; do
  for run in ${BENCH_RUNS:-0:off 0,1:off 0,1:on}; do
    series_run "$out/bore-$variant" "${run%%:*}" "${run##*:}" "${BENCH_TRACE:-20000:20020}" \
      device-carry/bin/bore_in_a_box --variant "$variant" --t-end "${BENCH_T_END:-1.5}" \
      ${BENCH_ARGS:-}
  done
done
