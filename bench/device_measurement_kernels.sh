#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): what a measurement's
# kernels take on their own. Nsight Compute times the site sums (walls' tiles, then points) and
# the front's three passes of 20 measurements in DamBreak at dp 0.006 m (4.19 M particles) under
# mDBC, reading its instruments at every iteration (the first 1000 of these kernels skipped: 200
# measurements of this build; builds before 2026-11-28 launched more kernels a measurement, whose
# names the pattern takes too). Each kernel runs alone under the profiler, which serialises them:
# their durations, not the measurement's share of a step. $OUT/measurement-kernels.txt. EXE:
# another carried DamBreak (default dambreak); DEVICES: the run's --devices (default 0; on two
# devices each device's kernels are listed).
set -uo pipefail
source bench/device_env.sh
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
work=/tmp/measurement-kernels
rm -rf "$work" && mkdir -p "$work"
"$ncu" --clock-control none --section SpeedOfLight \
  --kernel-name regex:"site_sums|front_runs|front_cells|site_cell_sums|add_cell_sums|reset_minima|decide_search" --launch-skip 1000 --launch-count 100 \
  -o "$work/profile" -f "$bin/${EXE:-dambreak}" --backend cuda --devices "${DEVICES:-0}" --dp 0.006 --boundary mdbc \
  --t-end 0.02 --gauge-every 0.000001 --no-frames --output-dir "$work/run" \
  > "$out/measurement-kernels-ncu.log" 2>&1
echo "ncu exit $?"
"$ncu" --import "$work/profile.ncu-rep" --page raw --csv \
  --metrics gpu__time_duration.sum,launch__grid_size > "$out/measurement-kernels.csv" 2>&1
python3 bench/ncu_durations.py "$out/measurement-kernels.csv" | tee "$out/measurement-kernels.txt"
