#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): Nsight Compute on the
# instruments' kernels (the front's passes and decisions, the sites' sums) in DamBreak at dp
# 0.006 m (4.19 M particles) measuring every iteration: each launch's duration, to tell which of
# the front's passes run their full course. Writes $OUT/front-profile/ (report, durations).
set -uo pipefail
source bench/device_env.sh
out=$out/front-profile
mkdir -p "$out"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
"$ncu" --clock-control none --section SpeedOfLight --section LaunchStats \
  --kernel-name regex:"front_runs_kernel|site_sums_kernel|front_cells_kernel|decide_search_kernel|reset_minima_kernel|site_cell_sums_kernel|add_cell_sums_kernel" \
  --launch-skip 400 --launch-count 40 -o "$out/instruments" -f \
  "$bin"/dambreak --backend cuda --dp 0.006 --t-end 0.02 --no-frames --gauge-every 0.000001 \
  --output-dir "$out/run" > "$out/ncu.log" 2>&1
echo "ncu exit $?"
"$ncu" --import "$out/instruments.ncu-rep" --page raw --csv \
  --metrics gpu__time_duration.sum,launch__grid_size > "$out/durations.csv" 2>&1
python3 bench/ncu_durations.py "$out/durations.csv"
