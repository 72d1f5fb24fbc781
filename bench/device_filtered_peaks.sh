#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/: gauges_peaks.csv (the peaks of the readings'
# filter over every iteration, src/instruments/streaming_low_pass.h) on the CUDA back end.
# DamBreak's instruments, dp 0.01 m, mDBC, free-slip, to 1.2 s, 220 Hz: rows of 0.5 ms means,
# and a row at every iteration (--gauge-every 1e-7) filtered as a whole; each column's largest
# and smallest filtered value should be the every-iteration file's, at a time where it has them.
# In $OUT/filtered-peaks.tar.xz.
set -uo pipefail
source bench/device_env.sh
work_in filtered-peaks
dambreak_rows means 0 0.0005 --gauge-average
dambreak_rows every-iteration 0 1e-7
python3 bench/compare_filtered_peaks.py "$work/means/gauges_peaks.csv" \
  "$work/every-iteration/gauges_filtered.csv" | tee "$work/compare.txt"
tar cf - -C "$work" . | xz -T0 -6 > "$R/filtered-peaks.tar.xz"
