#!/usr/bin/env bash
# For the two-GPU machine (nvidia-h200-x2; issue 26, run 4), over device-carry/
# (scripts/pack_for_device.sh): DamBreak at dp 0.006 m (4.19 M particles) on 1 rank x 2 GPUs
# (peer copies) against 2 ranks x 1 GPU (MPI, host-staged), balancing on, each once traced:
# mips, the MPI edge-force time not hidden behind the central Forces (run report, "MPI edge
# forces"), the peer copies' hidden share (validation/trace_overlap.py on the 1-rank trace), and
# the gauges of both compared byte for byte.
#   mkdir -p /tmp/res && tar xJf device-pack/carry.tar.xz && \
#     OUT=/tmp/res bash bench/device_mpi_two_gpus.sh
set -uo pipefail
source bench/device_env.sh
out=$out/mpi-two-gpus
mkdir -p "$out"
work=/tmp/mpi-two-gpus
rm -rf "$work" && mkdir -p "$work"
common=(--backend cuda --dp 0.006 --t-end 0.1 --no-frames --gauge-every 0.01 --lb on)
"$bin"/dambreak "${common[@]}" --devices 0,1 --output-dir "$work/one-rank" \
  --trace "$out/one-rank-trace.json" > "$out/one-rank.log" 2>&1
echo "1 rank x 2 GPUs: exit $?" | tee "$out/summary.txt"
# Each rank names its own GPU (MPMD: one program line per rank).
timeout 600 mpirun --allow-run-as-root -x LD_LIBRARY_PATH \
  -np 1 "$bin"/dambreak "${common[@]}" --devices 0 --output-dir "$work/two-ranks" : \
  -np 1 "$bin"/dambreak "${common[@]}" --devices 1 --output-dir "$work/two-ranks" \
  > "$out/two-ranks.log" 2>&1
echo "2 ranks x 1 GPU: exit $?" | tee -a "$out/summary.txt"
for run in one-rank two-ranks; do
  grep -E "throughput|Forces  |MPI edge forces|edge forces  " "$out/$run.log" | tee -a "$out/summary.txt"
  cp "$work/$run/run_report.json" "$out/report-$run.json" 2>/dev/null
done
if cmp -s "$work/one-rank/gauges.csv" "$work/two-ranks/gauges.csv"; then
  echo "gauges.csv: the same bytes" | tee -a "$out/summary.txt"
else
  echo "gauges.csv: DIFFERENT" | tee -a "$out/summary.txt"
fi
python3 validation/trace_overlap.py "$out/one-rank-trace.json" | tee -a "$out/summary.txt"
