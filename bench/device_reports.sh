#!/usr/bin/env bash
# Runs on the two-GPU machine (device kind nvidia-h200-x2) over device-carry/
# (scripts/pack_for_device.sh): DamBreak at BENCH_DP (default 0.006 m, 4.19 M particles) for
# BENCH_T_END (default 0.2 s) on 1 GPU and on 2 GPUs with balancing off and on, output off, into
# $OUT/dambreak/runs/<config>/ (bench/series_run.sh); 2-GPU runs trace iterations BENCH_TRACE
# (default 100:130); BENCH_EXE, another build's DamBreak (default device-carry/bin/dambreak).
# Then, here: validation/scaling_report.py --from-runs <fetched>/dambreak.
# BoreInABox's series come from bench/device_bore_in_a_box.sh.
set -uo pipefail
source bench/device_env.sh
source bench/series_run.sh
for run in ${BENCH_RUNS:-0:off 0,1:off 0,1:on}; do
  series_run "$out/dambreak" "${run%%:*}" "${run##*:}" "${BENCH_TRACE:-100:130}" \
    "${BENCH_EXE:-device-carry/bin/dambreak}" --dp "${BENCH_DP:-0.006}" \
    --t-end "${BENCH_T_END:-0.2}" ${BENCH_ARGS:-}
done
