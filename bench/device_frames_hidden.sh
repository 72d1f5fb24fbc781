#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh), two GPUs: what frames
# every 0.1 s cost a run once they are written beside the steps. SPHERIC test 2 (DamBreak) at
# dp 0.01 m, 1.05 M particles, to 2 s, the validation runs' options: with a frame every 0.1 s
# (21 frames) on GPU 0, without frames on GPU 1. Into $OUT/hidden.tgz: both logs.
set -uo pipefail
source bench/device_env.sh
work_in hidden
options=(--backend cuda --dp 0.01 --t-end 2 --boundary mdbc --slip free-slip
         --gradient-correction on --alpha 0.01)
CUDA_VISIBLE_DEVICES=0 timeout 200 "$bin/dambreak" "${options[@]}" --output-every 0.1 \
  --output-dir /tmp/hidden-frames > "$work/frames.log" 2>&1 &
CUDA_VISIBLE_DEVICES=1 timeout 200 "$bin/dambreak" "${options[@]}" --no-frames \
  --output-dir /tmp/hidden-none > "$work/no-frames.log" 2>&1 &
wait
grep -H "wall time" "$work"/*.log
ls /tmp/hidden-frames | grep -c '\.vtu$'
rm -rf /tmp/hidden-frames /tmp/hidden-none
tar czf "$R/hidden.tgz" -C "$work" .
