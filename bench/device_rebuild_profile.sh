#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh): where a rebuild's time
# goes. Nsight Compute times every kernel of two rebuilds (hash, the radix sort's passes, gather,
# cells, cell ranges, the neighbour lists) in DamBreak at dp 0.01 m (1.05 M particles) under DBC
# and under mDBC, from the state at t = 0.5 s (a checkpoint, so that the particles are no longer on
# their lattice). Durations in $OUT/rebuild-profile/<boundary>.txt.
set -uo pipefail
source bench/device_env.sh
out=$out/rebuild-profile
mkdir -p "$out"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for boundary in dbc mdbc; do
  work=/tmp/rebuild-$boundary
  rm -rf "$work"
  "$bin"/dambreak --backend cuda --dp 0.01 --t-end 0.51 --checkpoint-every 0.5 --no-frames \
    --boundary "$boundary" --output-dir "$work" > "$out/$boundary-base.log" 2>&1
  checkpoint=$(ls "$work"/checkpoints/*.chk | head -1)
  # The restart's first iteration rebuilds; the kernels of its first two rebuilds.
  "$ncu" --clock-control none --section SpeedOfLight \
    --kernel-name regex:"hash|Radix|Onesweep|gather|cell_kernel|cell_range|neighbour_list|ghost|forces_kernel|mdbc" \
    --launch-count 40 -o "$out/$boundary" -f \
    "$bin"/dambreak --backend cuda --dp 0.01 --boundary "$boundary" --restart "$checkpoint" \
    --t-end 0.5012 --no-output --output-dir "$work/profiled" > "$out/$boundary-ncu.log" 2>&1
  echo "$boundary: ncu exit $?"
  "$ncu" --import "$out/$boundary.ncu-rep" --page raw --csv \
    --metrics gpu__time_duration.sum,launch__grid_size > "$out/$boundary.csv" 2>&1
  python3 bench/ncu_durations.py "$out/$boundary.csv" | tee "$out/$boundary.txt"
  rm -f "$out/$boundary.ncu-rep"
done
