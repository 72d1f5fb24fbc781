#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh with
# PACK_EXTRA="dambreak_before=<the build before>"), two GPUs: a frame's pieces, one a device,
# written one after the other (dambreak_before) or side by side (dambreak). SPHERIC test 2
# (DamBreak) at dp 0.01 m on --devices 0,1 to 0.95 s with a frame every 0.02 s (48 frames of two
# pieces), the validation runs' options; one run after the other. Into $OUT/pieces.tgz.
set -uo pipefail
source bench/device_env.sh
work_in pieces
for exe in dambreak_before dambreak; do
  start=$SECONDS
  timeout 150 "$bin/$exe" --backend cuda --devices 0,1 --dp 0.01 --t-end 0.95 \
    --output-every 0.02 --boundary mdbc --slip free-slip --gradient-correction on --alpha 0.01 \
    --output-dir "/tmp/pieces-$exe" > "$work/$exe.log" 2>&1
  echo "$exe: exit $? in $((SECONDS - start)) s"
  du -sb "/tmp/pieces-$exe" > "$work/$exe-bytes.txt"
  rm -rf "/tmp/pieces-$exe"
done
grep -H "wall time" "$work"/*.log
cat "$work"/*-bytes.txt
tar czf "$R/pieces.tgz" -C "$work" .
