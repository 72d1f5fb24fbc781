#!/usr/bin/env bash
# Runs on the GPU machine over device-carry/ (scripts/pack_for_device.sh), two GPUs: what writing
# particle frames costs a run. GPU 1: SPHERIC test 2 (DamBreak) at dp 0.01 m, 1.05 M particles,
# to 0.95 s with a frame every 0.02 s (48 frames), the command of
# validation/results/h200x2-wall-tops/call4 (bench/device_splash_origin.sh) without the tracing;
# the frames' sizes are listed and the frames deleted. GPU 0 meanwhile: the GPU tests
# (bench/device_gpu_tests.sh). Into $OUT/frames.tgz.
set -uo pipefail
source bench/device_env.sh
work_in frames
(start=$SECONDS
 CUDA_VISIBLE_DEVICES=1 timeout 200 "$bin/dambreak" --backend cuda --dp 0.01 --t-end 0.95 \
   --output-every 0.02 --boundary mdbc --slip free-slip --gradient-correction on --alpha 0.01 \
   --output-dir /tmp/frames-run > "$work/frames.log" 2>&1
 echo "frames run: exit $? in $((SECONDS - start)) s"
 ls -l /tmp/frames-run > "$work/frame-sizes.txt"
 du -sb /tmp/frames-run >> "$work/frame-sizes.txt"
 rm -rf /tmp/frames-run) > "$work/frames-queue.log" 2>&1 &
OUT=$work bash bench/device_gpu_tests.sh > "$work/gpu-tests-summary.txt" 2>&1
echo "gpu tests: $(grep -c ': exit 0' "$work/gpu-tests-summary.txt") executables passed of" \
  "$(grep -c ': exit' "$work/gpu-tests-summary.txt")"
wait
cat "$work/frames-queue.log"
grep -h "wall time" "$work/frames.log"
tail -1 "$work/frame-sizes.txt"
tar czf "$R/frames.tgz" -C "$work" .
